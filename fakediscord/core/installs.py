"""Where the application is installed, and what that lets a person do with it.

Discord's developer docs, "Application" resource (installation context): an
app is installed to a server (GUILD_INSTALL, 0: the bot joins it) or to a
person (USER_INSTALL, 1: their commands follow them into every server, DM and
group DM), or both. "Application Commands" (contexts): each command names the
installation contexts it is offered for (``integration_types``) and the
interaction contexts it may be used in (``contexts``: 0 GUILD, 1 BOT_DM, 2
PRIVATE_CHANNEL, a DM or group DM between people). "Interactions > Receiving
and Responding": every interaction says where it came from (``context``), for
which installs (``authorizing_integration_owners``) and what the app may do
there (``app_permissions``).

Plain rules over the world's data, no JSON (``payloads`` draws them).
"""

from __future__ import annotations

from typing import Any

from .models import ADMINISTRATOR, Channel, Interaction, Message, User, permission_value

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2

# "Application Commands": a command without ``contexts`` is answered with null,
# and is offered in servers and in the bot's DM but not in other DMs or group
# DMs (PRIVATE_CHANNEL only means something for a user install, and Discord
# does not add it for an unset list).
UNSET_CONTEXTS = (GUILD, BOT_DM)

# "Interactions > Receiving and Responding", the interaction's app_permissions:
# in a DM or group DM between people an app may attach files, embed links and
# mention everyone; in its bot's DM it may also use external emojis. The change
# log's "Calculated Permissions in Interaction Payloads" limits an app with no
# bot in a server to these same four, out of what the channel grants.
RESPONSE_PERMISSIONS = permission_value(None, {
    "attach_files": True, "embed_links": True, "mention_everyone": True})
BOT_DM_EXTRA = permission_value(None, {"external_emojis": True})
USE_EXTERNAL_APPS = 1 << 50  # "Permissions": the Use External Apps bit

# "Interactions > Receiving and Responding", Create Followup Message: an app
# answering for a user install alone (not installed where it was used) may send
# 5 follow-up messages an interaction; the 6th is refused with error 40094
# ("Opcodes and Status Codes": the interaction hit its follow-up maximum).
MAX_USER_INSTALL_FOLLOWUPS = 5
MAX_FOLLOWUPS_REACHED = 40094


class UnavailableCommand(AssertionError):
    """A person's client would not offer this command here: a mistake of the test."""


def context_of(channel: Channel) -> int:
    """The interaction context of a channel (Receiving and Responding's context types)."""
    if channel.guild_id is not None:
        return GUILD
    return PRIVATE_CHANNEL if channel.is_private else BOT_DM


def guild_installed(world: Any, channel: Channel) -> bool:
    """The server of ``channel`` installed the app: its bot is a member."""
    if channel.guild_id is None:
        return False
    return world.bot.id in world.guilds[channel.guild_id].members


def owners(world: Any, user: User, channel: Channel,
           integration_types: list[int] | None = None) -> dict[str, str]:
    """``authorizing_integration_owners`` of an interaction ``user`` starts in
    ``channel`` (Receiving and Responding, Authorizing Integration Owners): "0"
    for a guild install (the server's id, or "0" in the bot's DM), "1" for the
    person's own install (their id), each only where it applies and, for a
    command, only if the command is offered for that install."""
    types = [GUILD_INSTALL, USER_INSTALL] if integration_types is None else integration_types
    found: dict[str, str] = {}
    context = context_of(channel)
    if GUILD_INSTALL in types:
        if context == GUILD and guild_installed(world, channel):
            found["0"] = str(channel.guild_id)
        elif context == BOT_DM:
            found["0"] = "0"
    if USER_INSTALL in types and user.id in world.user_installs:
        found["1"] = str(user.id)
    return found


def offered_contexts(record: dict[str, Any]) -> tuple[int, ...]:
    contexts = record.get("contexts")
    return UNSET_CONTEXTS if contexts is None else tuple(contexts)


def command_refusal(world: Any, user: User, channel: Channel,
                    record: dict[str, Any]) -> str | None:
    """Why a person's client would not offer ``record`` in ``channel``, or None.
    A server's own command is offered only in that server, which installed the
    app; a global one where its ``contexts`` allow and one of its
    ``integration_types`` is installed there (Application Commands, contexts)."""
    context = context_of(channel)
    name = record["name"]
    if record.get("guild_id") is not None:
        return None if guild_installed(world, channel) else (
            f"/{name} belongs to a server whose bot is not in {channel}")
    if context not in offered_contexts(record):
        return f"/{name} is not offered in this context ({context}: {channel})"
    types = record.get("integration_types") or [GUILD_INSTALL]
    if not owners(world, user, channel, types):
        return (f"/{name} is not installed for {user.name} in {channel}: the command is "
                f"for installs {types}, and neither the server nor {user.name} has one")
    return None


def component_owners(world: Any, user: User, channel: Channel,
                     message: Message | None) -> dict[str, str]:
    """A click or a modal answers for the installs of the interaction that made
    the message (a user install stays its installer's, whoever clicks)."""
    origin = world.interactions.get(message.interaction_id) if message is not None and (
        message.interaction_id is not None) else None
    if origin is not None and origin.owners:
        return dict(origin.owners)
    return owners(world, user, channel)


def app_permissions(world: Any, interaction: Interaction) -> int:
    """What the app may do where the interaction happened (``app_permissions``):
    its bot's permissions in a server that installed it; out of those the
    channel grants the invoker, the response permissions, in a server that did
    not; the documented sets in DMs and group DMs."""
    channel = world.channels[interaction.channel_id]
    if interaction.context == BOT_DM:
        granted = int(world.permissions_in(world.bot.id, channel))
        return granted | RESPONSE_PERMISSIONS | BOT_DM_EXTRA
    if interaction.context == PRIVATE_CHANNEL:
        return RESPONSE_PERMISSIONS
    if guild_installed(world, channel):
        return int(world.permissions_in(world.bot.id, channel))
    granted = world.permissions_in(interaction.user_id, channel)
    return int(granted) & (RESPONSE_PERMISSIONS | BOT_DM_EXTRA)


def forced_ephemeral(world: Any, interaction: Interaction) -> bool:
    """"Permissions", Use External Apps: in a server that did not install the
    app, a member denied it still uses their own install, but Discord shows its
    answers to them alone."""
    if interaction.context != GUILD or "0" in interaction.owners:
        return False
    granted = world.permissions_in(interaction.user_id, world.channels[interaction.channel_id])
    return not (granted & (USE_EXTERNAL_APPS | ADMINISTRATOR))


def followups_limited(interaction: Interaction) -> bool:
    """The 5 follow-ups rule applies: only a user install authorized it."""
    return set(interaction.owners) == {"1"}
