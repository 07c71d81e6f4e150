"""The state of the emulated Discord: who exists, where, and what each one sees.

``World`` is the store: every user, guild, channel, message, command and
interaction, and the rules that change them; the things themselves are plain
data in ``models.py`` (importable from here too). No sockets, no JSON shapes
(see ``payloads.py``). Stored objects are mutated in place, so a ``Message`` a
test holds always shows the current state of that message.
"""

from __future__ import annotations

import asyncio
import copy
import re
import secrets
from collections.abc import Callable
from typing import Any

from . import components as comp
from . import installs, layouts
from .emojis import MAX_APPLICATION_EMOJIS
from .history import Limits, forget_old_interactions, forget_old_messages
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    APP_HANDLER,
    BOT_PERMISSIONS,
    DISCORD_EPOCH_MS,
    DISCORD_LAUNCH_ACTIVITY,
    EVERYONE_PERMISSIONS,
    MENTION,
    PRIMARY_ENTRY_POINT,
    VIEW_CHANNEL,
    ActivityInstance,
    AppEmoji,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    InteractionType,
    Member,
    Message,
    MessageFlag,
    OAuthCode,
    OAuthToken,
    Role,
    SnowflakeFactory,
    User,
    now_iso,
    permission_value,
)
from .oauth import OAuthGrants, new_secret

# The data classes and constants are part of this module's interface: code and
# tests have always imported them from here.
__all__ = [
    "ADMINISTRATOR", "ALL_PERMISSIONS", "APP_HANDLER", "BOT_PERMISSIONS",
    "DISCORD_EPOCH_MS", "DISCORD_LAUNCH_ACTIVITY", "EVERYONE_PERMISSIONS", "MENTION", "PINGABLE",
    "PRIMARY_ENTRY_POINT", "VIEW_CHANNEL", "ActivityInstance", "AppEmoji",
    "Channel", "ChannelType", "Guild", "Interaction", "InteractionType", "Member", "Message",
    "MessageFlag", "OAuthCode", "OAuthToken", "Role", "SnowflakeFactory", "User", "World",
    "message_text", "notified", "now_iso", "permission_value",
]

# What enabling Activities in the Developer Portal registers: a global command
# "launch" (shown "Launch") in the App Launcher, handled by Discord itself.
DEFAULT_ENTRY_POINT: dict[str, Any] = {
    "name": "launch", "description": "", "type": PRIMARY_ENTRY_POINT,
    "handler": DISCORD_LAUNCH_ACTIVITY,
}

# What Discord notifies in a message's text: users, roles, and everyone/here.
PINGABLE = re.compile(r"<@!?(?P<user>\d+)>|<@&(?P<role>\d+)>|@(?P<everyone>everyone|here)\b")


def _same(value: Any) -> Any:
    return value


def message_text(message: Message) -> str:
    """The text Discord reads mentions from: the content, and in a layout its
    text displays (embeds never notify)."""
    return "\n".join([message.content, *comp.texts(message.components)])


def notified(message: Message, allowed: dict[str, Any] | None) -> list[str]:
    """Who a new message notifies. Without ``allowed_mentions`` Discord parses
    every kind; with it, a kind notifies only if ``parse`` names it, or (users
    and roles) if its id is listed."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or ())
    users = {str(u) for u in (allowed or {}).get("users") or ()}
    roles = {str(r) for r in (allowed or {}).get("roles") or ()}
    found: list[str] = []
    for hit in PINGABLE.finditer(message_text(message)):
        if hit["user"] and ("users" in parse or hit["user"] in users):
            found.append(f"user:{hit['user']}")
        elif hit["role"] and ("roles" in parse or hit["role"] in roles):
            found.append(f"role:{hit['role']}")
        elif hit["everyone"] and "everyone" in parse:
            found.append("everyone")
    return found


class World:
    """Every user, guild, channel, message, command and interaction."""

    def __init__(self, bot_name: str = "TestBot") -> None:
        self.ids = SnowflakeFactory()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.channel_log: dict[int, list[int]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, dict[str, dict[str, Any]]] = {None: {}}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.listeners: list[Callable[[], None]] = []
        # Indexes, so a long run (tens of thousands of interactions, thousands of
        # DM channels) costs the same per request as a short test.
        self._by_token: dict[str, Interaction] = {}
        self._dm_of_user: dict[int, int] = {}
        self._answer_waiters: dict[int, asyncio.Future[None]] = {}
        self._channel_watchers: dict[int, list[asyncio.Future[None]]] = {}
        self.tokens_issued = 0
        self.bot_writes = 0  # messages the bot created, edited or deleted, ever
        self.copy_bodies = True  # see apply_body
        self.application_emojis: dict[int, AppEmoji] = {}
        self.max_application_emojis = MAX_APPLICATION_EMOJIS  # tests may lower it
        self.bot = self.create_user(bot_name, bot=True)
        self.application_id = self.bot.id  # true of every application made since 2019
        self.owner = self.create_user("app-owner")
        # The application besides its bot: its secret (its client id is
        # application_id), the grants people gave it, and its Activity.
        self.client_secret = new_secret()
        self.oauth = OAuthGrants()
        self.activities_enabled = False  # Activities enabled in the portal
        self.activity_instances: dict[str, ActivityInstance] = {}  # by instance id
        self.activity_launches: list[tuple[int, str]] = []  # (user, instance), in order
        # The installation contexts the portal enables ("Application" resource:
        # integration_types_config), and the people who installed the app.
        self.installation_contexts: list[int] = [installs.GUILD_INSTALL]
        self.user_installs: set[int] = set()
        # How much of the past is kept (``history``); None: everything, as tests read it.
        self.limits: Limits | None = None

    def _next_token(self) -> int:
        self.tokens_issued += 1
        return self.tokens_issued

    def changed(self) -> None:
        """Tell waiters (actors, ``wait_for``) that something may have changed."""
        for listener in self.listeners:
            listener()

    def watch_channel(self, channel_id: int) -> asyncio.Future[None]:
        """A future done at the next change of any message in the channel (created,
        edited, deleted, ephemeral ones included). Many simulated people waiting
        for their turn wake only for their own channel, not for every change."""
        future = asyncio.get_running_loop().create_future()
        self._channel_watchers.setdefault(channel_id, []).append(future)
        return future

    def _channel_changed(self, channel_id: int) -> None:
        for future in self._channel_watchers.pop(channel_id, ()):
            if not future.done():
                future.set_result(None)

    def wait_answer(self, interaction: Interaction) -> asyncio.Future[None]:
        """A future done once the bot's callback for ``interaction`` is applied."""
        future = self._answer_waiters.get(interaction.id)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            if interaction.answered:
                future.set_result(None)
            else:
                self._answer_waiters[interaction.id] = future
        return future

    def answered(self, interaction: Interaction) -> None:
        """The callback of ``interaction`` was applied: wake whoever waits on it."""
        future = self._answer_waiters.pop(interaction.id, None)
        if future is not None and not future.done():
            future.set_result(None)
        self.changed()

    # -- people and places -------------------------------------------------

    def create_user(self, name: str, *, bot: bool = False) -> User:
        user = User(self.ids.next(), name, bot=bot)
        self.users[user.id] = user
        return user

    def create_guild(self, name: str, *, bot_permissions: int = BOT_PERMISSIONS,
                     installed: bool = True) -> Guild:
        """A server; ``installed``: it installed the app (a guild install), so its
        bot is a member."""
        guild = Guild(self.ids.next(), name, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", EVERYONE_PERMISSIONS)
        self.guilds[guild.id] = guild
        self.add_member(guild, self.owner)
        if installed:
            self.add_member(guild, self.bot, permissions=bot_permissions, managed=True)
        return guild

    def enable_user_install(self) -> None:
        """The portal's switch: people may install the app to themselves (commands
        synced from then on without ``integration_types`` are offered for both)."""
        if installs.USER_INSTALL not in self.installation_contexts:
            self.installation_contexts.append(installs.USER_INSTALL)
        self.changed()

    def install_for_user(self, user: User) -> None:
        """``user`` installs the app to their account (Application: installation context)."""
        if installs.USER_INSTALL not in self.installation_contexts:
            raise ValueError("the app is not user-installable: call enable_user_install() first")
        self.user_installs.add(user.id)
        self.changed()

    def create_private_channel(self, users: list[User], *, name: str | None = None) -> Channel:
        """A DM between two people (type 1) or a group DM (type 3, the first its
        owner) that the bot is no member of (Channel resource)."""
        if len(users) < 2 or len({u.id for u in users}) != len(users) or self.bot in users:
            raise ValueError("a DM or group DM is between two or more distinct people")
        kind = ChannelType.DM if len(users) == 2 and name is None else ChannelType.GROUP_DM
        channel = Channel(self.ids.next(), kind, name or ", ".join(u.name for u in users),
                          recipient_ids=[u.id for u in users],
                          owner_id=users[0].id if kind == ChannelType.GROUP_DM else None)
        self.channels[channel.id] = channel
        self.channel_log[channel.id] = []
        return channel

    def add_member(self, guild: Guild, user: User, *, permissions: int = 0,
                   managed: bool = False) -> Member:
        member = Member(user, guild.id)
        if permissions & ~guild.roles[guild.id].permissions:
            role = Role(self.ids.next(), f"{user.name}'s role", permissions,
                        position=len(guild.roles), managed=managed)
            guild.roles[role.id] = role
            member.role_ids.append(role.id)
        guild.members[user.id] = member
        return member

    def create_channel(self, guild: Guild, name: str, *,
                       kind: int = ChannelType.GUILD_TEXT) -> Channel:
        channel = Channel(self.ids.next(), kind, name, guild.id,
                          position=len(guild.channel_ids))
        self.channels[channel.id] = channel
        self.channel_log[channel.id] = []
        guild.channel_ids.append(channel.id)
        return channel

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between ``user`` and the bot, made on first use."""
        known = self._dm_of_user.get(user.id)
        if known is not None:
            return self.channels[known]
        channel = Channel(self.ids.next(), ChannelType.DM, f"dm-{user.name}", recipient_id=user.id)
        self.channels[channel.id] = channel
        self.channel_log[channel.id] = []
        self._dm_of_user[user.id] = channel.id
        return channel

    def shares_guild_with_bot(self, user_id: int) -> bool:
        return any(user_id in g.members and self.bot.id in g.members for g in self.guilds.values())

    def can_see_channel(self, user_id: int, channel: Channel) -> bool:
        if channel.is_private:
            return user_id in channel.recipient_ids
        if channel.is_dm:
            return user_id in (channel.recipient_id, self.bot.id)
        return bool(self.permissions_in(user_id, channel) & VIEW_CHANNEL)

    def permissions_in(self, user_id: int, channel: Channel) -> int:
        """Discord's order: guild permissions, then the channel's overwrites for
        @everyone, for the member's roles together, and for the member."""
        if channel.guild_id is None:
            return EVERYONE_PERMISSIONS
        guild = self.guilds[channel.guild_id]
        value = guild.permissions_of(user_id)
        member = guild.members.get(user_id)
        if value & ADMINISTRATOR or member is None:
            return value
        _, allow, deny = channel.overwrites.get(guild.id, (0, 0, 0))
        value = (value & ~deny) | allow
        role_allow = role_deny = 0
        for role_id in member.role_ids:
            _, allow, deny = channel.overwrites.get(role_id, (0, 0, 0))
            role_allow, role_deny = role_allow | allow, role_deny | deny
        value = (value & ~role_deny) | role_allow
        _, allow, deny = channel.overwrites.get(user_id, (1, 0, 0))
        return (value & ~deny) | allow

    # -- messages ------------------------------------------------------------

    def pings(self) -> list[tuple[Message, str]]:
        """Every notification a message made (see ``notified``)."""
        return [(m, ping) for m in self.messages.values() for ping in m.pings]

    def add_message(self, channel: Channel, author_id: int, body: dict[str, Any], *,
                    files: list[tuple[str, bytes, str]] | None = None,
                    visible_to: int | None = None, interaction_id: int | None = None,
                    webhook_id: int | None = None, type: int = 0, flags: int | None = None,
                    ) -> Message:
        message = Message(self.ids.next(), channel.id, channel.guild_id, author_id,
                          visible_to=visible_to, interaction_id=interaction_id,
                          webhook_id=webhook_id, type=type)
        self.apply_body(message, body, files or [], creating=True)
        if flags is not None:
            message.flags = flags
        if visible_to is not None:
            message.flags |= MessageFlag.EPHEMERAL
        else:
            # Only a message others see notifies anyone, and only when it is made:
            # an edit that adds a mention notifies nobody.
            message.pings = notified(message, body.get("allowed_mentions"))
        self.messages[message.id] = message
        self.channel_log[channel.id].append(message.id)
        if self.limits is not None:
            forget_old_messages(self.channel_log[channel.id], self.messages,
                                self.limits.messages_per_channel)
        if visible_to is None:
            channel.last_message_id = message.id
        self._channel_changed(channel.id)
        self.changed()
        return message

    def apply_body(self, message: Message, body: dict[str, Any],
                   files: list[tuple[str, bytes, str]], *, creating: bool = False) -> None:
        """Apply a create/edit body: present fields replace, absent ones stay (PATCH)."""
        if "content" in body:
            message.content = body["content"] or ""
            message.mentions = [int(i) for i in MENTION.findall(message.content)
                                if int(i) in self.users]
        # Copied, so that a recorded request body and the stored message never share
        # a list a test might change; without recording nothing else holds the body.
        fresh = copy.deepcopy if self.copy_bodies else _same
        if "embeds" in body:
            message.embeds = [{"type": "rich", **e} for e in fresh(body["embeds"] or [])]
        if "components" in body:
            message.components = fresh(body["components"] or [])
        if body.get("flags") is not None:
            # Who sees a message is fixed when it is made (``visible_to``); a body's
            # EPHEMERAL bit on an edit is ignored, as by Discord. A layout stays one.
            fixed = MessageFlag.EPHEMERAL | MessageFlag.LOADING
            sticky = fixed | MessageFlag.IS_COMPONENTS_V2
            message.flags = (int(body["flags"]) & ~fixed) | (message.flags & sticky)
        if body.get("tts"):
            message.tts = True
        if creating and body.get("message_reference"):
            message.message_reference = dict(body["message_reference"])
        if "attachments" in body or files:
            kept_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in message.attachments if str(a["id"]) in kept_ids]
            message.attachments = kept + [self._attachment(message, *f) for f in files]
        if message.is_v2 and "components" in body:
            message.components = layouts.render(message.components, message.attachments,
                                                self.ids.next)
        if not creating:
            message.edits += 1
            message.edited_at = now_iso()
            message.flags &= ~MessageFlag.LOADING
            self._channel_changed(message.channel_id)
        self.changed()

    def _attachment(self, message: Message, filename: str, data: bytes,
                    content_type: str) -> dict[str, Any]:
        attachment_id = self.ids.next()
        message.file_data[filename] = data
        url = f"https://cdn.discordapp.com/attachments/{message.channel_id}/{attachment_id}/{filename}"
        return {"id": str(attachment_id), "filename": filename, "size": len(data), "url": url,
                "proxy_url": url, "content_type": content_type}

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        self.messages.pop(message.id, None)
        log = self.channel_log.get(message.channel_id, [])
        if message.id in log:
            log.remove(message.id)
        self._channel_changed(message.channel_id)
        self.changed()

    def delete_channel(self, channel: Channel) -> None:
        """The channel and every message in it are gone."""
        for message_id in list(self.channel_log.get(channel.id, [])):
            self.messages.pop(message_id, None)
        self.channel_log.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        for instance in [a for a in self.activity_instances.values() if a.channel_id == channel.id]:
            del self.activity_instances[instance.instance_id]  # ends with its channel
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            if channel.id in guild.channel_ids:
                guild.channel_ids.remove(channel.id)
        self.changed()

    def channel_messages(self, channel_id: int, *, viewer: int | None = None,
                         include_ephemeral: bool = False) -> list[Message]:
        """Messages oldest first; ephemeral ones only for ``viewer`` (or all if asked)."""
        out = []
        for message_id in self.channel_log.get(channel_id, []):
            message = self.messages[message_id]
            if message.visible_to is None or include_ephemeral or message.visible_to == viewer:
                out.append(message)
        return out

    # -- application emojis -------------------------------------------------

    def add_application_emoji(self, name: str, image: bytes, content_type: str, *,
                              animated: bool = False, user_id: int | None = None) -> AppEmoji:
        """Store an emoji of the application (checks are the caller's: see ``emojis``)."""
        emoji = AppEmoji(self.ids.next(), name, image, content_type, animated, user_id)
        self.application_emojis[emoji.id] = emoji
        self.changed()
        return emoji

    def delete_application_emoji(self, emoji: AppEmoji) -> None:
        self.application_emojis.pop(emoji.id, None)
        self.changed()

    def known_emoji_ids(self) -> set[int]:
        """Custom emoji a message may show: the application's (servers here have none)."""
        return set(self.application_emojis)

    # -- application commands -----------------------------------------------

    def put_commands(self, guild_id: int | None,
                     bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite: the set becomes exactly ``bodies``; ids survive by name and type."""
        before = self.commands.get(guild_id, {})
        self.commands[guild_id] = {}
        return [self.upsert_command(guild_id, body, before=before) for body in bodies]

    def upsert_command(self, guild_id: int | None, body: dict[str, Any], *,
                       before: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
        """Create or replace a command; ``before``: the scope's commands as they were
        (a bulk overwrite has emptied the scope already)."""
        kind = int(body.get("type") or 1)
        key = (guild_id, body["name"], kind)
        command_id = self._command_ids.setdefault(key, self.ids.next())
        record = {
            "id": str(command_id), "application_id": str(self.application_id), "version":
            str(self.ids.next()), "type": kind, "name": body["name"],
            "description": body.get("description", ""), "options": body.get("options") or [],
            # Discord answers the bit set as a string, however it was sent.
            "default_member_permissions": None if body.get("default_member_permissions") is None
            else str(body["default_member_permissions"]),
            "dm_permission": body.get("dm_permission", True), "nsfw": body.get("nsfw", False),
            # Application Commands: unset integration types are the app's configured
            # installation contexts; unset contexts stay null.
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or list(self.installation_contexts),
            "name_localizations": body.get("name_localizations"),
            "description_localizations": body.get("description_localizations"),
        }
        if guild_id is not None:
            record["guild_id"] = str(guild_id)
        if kind == PRIMARY_ENTRY_POINT:
            # A body without ``handler`` keeps the command's (the bot resending the
            # Entry Point it fetched may leave it out); a new one is the app's.
            previous = (self.commands.get(guild_id, {}) if before is None else before).get(
                f"{body['name']}:{kind}") or {}
            record["handler"] = body.get("handler") or previous.get("handler") or APP_HANDLER
        self.commands.setdefault(guild_id, {})[f"{body['name']}:{kind}"] = record
        self.changed()
        return record

    def find_command(self, name: str, guild_id: int | None, kind: int = 1) -> dict[str, Any] | None:
        """What a person's client offers: the guild's own command first, then global."""
        for scope in ([guild_id] if guild_id else []) + [None]:
            found = self.commands.get(scope, {}).get(f"{name}:{kind}")
            if found is not None:
                return found
        return None

    def command_by_id(self, guild_id: int | None, command_id: int) -> dict[str, Any] | None:
        for record in self.commands.get(guild_id, {}).values():
            if int(record["id"]) == command_id:
                return record
        return None

    def delete_command(self, guild_id: int | None, record: dict[str, Any]) -> None:
        del self.commands[guild_id][f"{record['name']}:{record['type']}"]
        self.changed()

    def entry_point(self) -> dict[str, Any] | None:
        """The application's Entry Point command (there is at most one, global)."""
        return next((c for c in self.commands.get(None, {}).values()
                     if c["type"] == PRIMARY_ENTRY_POINT), None)

    # -- Activities ---------------------------------------------------------

    def enable_activities(self) -> dict[str, Any]:
        """What enabling Activities in the Developer Portal does: the application may
        launch its Activity (callback type 12), and gets the default Entry Point
        command unless it has one. Returns the Entry Point command."""
        self.activities_enabled = True
        return self.entry_point() or self.upsert_command(None, DEFAULT_ENTRY_POINT)

    def launcher_refusal(self, user_id: int, channel_id: int) -> str | None:
        """Why the App Launcher (or the Entry Point command) would not open the
        Activity for this person in this channel, or None: it is offered as any
        command is (``installs.command_refusal``: its contexts and installs)."""
        channel = self.channels.get(channel_id)
        if channel is None or not self.can_see_channel(user_id, channel):
            return "No such channel."
        entry = self.entry_point()
        if entry is None or not self.activities_enabled:
            return "This app has no Activity to launch."
        if installs.context_of(channel) not in installs.offered_contexts(entry):
            return "This Activity can be launched in a server's channels only."
        if installs.command_refusal(self, self.users[user_id], channel, entry) is not None:
            return "This app is not installed here for you."
        return None

    def launch_activity(self, user_id: int, channel_id: int) -> ActivityInstance:
        """A person launches the Activity in a channel (the App Launcher, or the bot's
        LAUNCH_ACTIVITY answer): they join the instance running there, or start one,
        so everyone launching in one channel shares it. Discord's client runs one
        Activity at a time: one the person was in elsewhere loses them."""
        channel = self.channels[channel_id]
        if user_id not in self.users:
            raise ValueError(f"no user {user_id}")
        if channel.is_private and user_id not in channel.recipient_ids:
            # Embedded App SDK: an instance in a private channel ("pc") is its people's.
            raise ValueError(f"user {user_id} is not a recipient of {channel}")
        if not self.activities_enabled:
            raise ValueError("the application has no Activity: call enable_activities() first")
        instance = next((a for a in self.activity_instances.values()
                         if a.channel_id == channel_id), None)
        for other in list(self.activity_instances.values()):
            if other is not instance and user_id in other.users:
                self.leave_activity(other.instance_id, user_id)
        if instance is None:
            instance = ActivityInstance("", str(self.ids.next()), channel.id, channel.guild_id)
            instance.instance_id = f"i-{self.ids.next()}-{instance.location_id}"
            self.activity_instances[instance.instance_id] = instance
        if user_id not in instance.users:
            instance.users.append(user_id)
        self.activity_launches.append((user_id, instance.instance_id))
        self.changed()
        return instance

    def leave_activity(self, instance_id: str, user_id: int) -> None:
        """A person closes the Activity; an instance nobody is left in ends (its id
        is unknown from then on). Nothing happens if they were not in it."""
        instance = self.activity_instances.get(instance_id)
        if instance is None or user_id not in instance.users:
            return
        instance.users.remove(user_id)
        if not instance.users:
            del self.activity_instances[instance_id]
        self.changed()

    def activity_instance(self, instance_id: str) -> ActivityInstance | None:
        return self.activity_instances.get(instance_id)

    # -- OAuth2 (an Activity's handshake; the codes and tokens: self.oauth) ---------

    def issue_oauth_code(self, user_id: int, scopes: list[str]) -> str:
        """What the Discord client does when an Activity calls ``commands.authorize``
        and the person accepts: a code for ``scopes`` (single use, 10 minutes)."""
        if user_id not in self.users:
            raise ValueError(f"no user {user_id}")
        return self.oauth.issue_code(user_id, scopes)

    def pass_time(self, seconds: float) -> None:
        """Move the clock OAuth2 expiries read forward (a code expires after 600 s, an
        access token after 604,800 s), so a test need not wait; message timestamps
        and snowflakes keep the real time."""
        self.oauth.pass_time(seconds)

    # -- interactions ---------------------------------------------------------

    def new_interaction(self, type: int, user: User, channel: Channel, data: dict[str, Any],
                        description: str, message: Message | None = None, *,
                        integration_types: list[int] | None = None) -> Interaction:
        """``integration_types``: a command's, which installs it answers for."""
        interaction = Interaction(
            id=self.ids.next(),
            # Real tokens are long opaque strings; the counter keeps them unique and readable.
            token=f"itoken-{self._next_token()}-{secrets.token_urlsafe(24)}",
            type=type, user_id=user.id, channel_id=channel.id, guild_id=channel.guild_id,
            data=data, description=description,
            message_id=message.id if message is not None else None,
            context=installs.context_of(channel),
        )
        interaction.owners = (
            installs.owners(self, user, channel, integration_types)
            if type == InteractionType.APPLICATION_COMMAND
            else installs.component_owners(self, user, channel, message))
        interaction.forced_ephemeral = installs.forced_ephemeral(self, interaction)
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        if self.limits is not None:
            forget_old_interactions(self.interactions, self._by_token, self.messages,
                                    self.limits.interactions)
        return interaction

    def interaction_by_token(self, token: str) -> Interaction | None:
        return self._by_token.get(token)
