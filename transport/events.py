"""Less work per click: parse less of it on the way in, free it on the way out.

Every INTERACTION_CREATE for a button or select carries the whole message it
was on, and discord.py turns all of it into objects: a hand message's embed,
its fifteen buttons and selects with their options, the metadata of the
command that made it. That was the largest single cost of a click, and
nothing here reads it: clicks are routed by custom id, and handlers look only
at the message's id.
"""

from __future__ import annotations

from typing import Any

import discord

from .private import Interaction, event_parsers, forget_response

# Parts of a message object that the parse would build objects from and that
# no handler reads. Lists are emptied rather than dropped, since discord.py
# only sets some attributes (``components``) when their key is present; the
# rest (id, channel, author, type, flags) stays, so ``interaction.message`` is
# still a whole discord.Message.
EMPTIED_MESSAGE_PARTS = ("embeds", "components", "attachments", "mentions", "mention_roles")
DROPPED_MESSAGE_PARTS = frozenset(
    {"interaction", "interaction_metadata", "reactions", "sticker_items", "referenced_message"}
)


# Set in a click's data: whether the clicked component is on the message it
# came from. Discord's own client never sends another, but a forged click can,
# and the parse below throws the message's components away.
ON_MESSAGE = "rummy_on_message"


def _shows(components: Any, custom_id: str) -> bool:
    """Whether ``custom_id`` is among the components, however deep they nest
    (action rows hold their components; layouts nest containers and sections)."""
    waiting = list(components or ())
    while waiting:
        component = waiting.pop()
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id:
            return True
        waiting.extend(component.get("components") or ())
        accessory = component.get("accessory")
        if accessory is not None:
            waiting.append(accessory)
    return False


def clicked_on_its_message(interaction: Interaction) -> bool:
    """Whether the clicked component is one the message it came from shows."""
    data: Any = interaction.data or {}
    return bool(data.get(ON_MESSAGE))


def slim_clicked_messages(client: discord.Client) -> None:
    """Make ``client`` parse clicked messages without their unread parts."""
    parsers = event_parsers(client)
    parse = parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: dict[str, Any]) -> None:
        message = data.get("message")
        if message is not None:
            clicked = data.get("data")
            if isinstance(clicked, dict):
                custom_id = clicked.get("custom_id")
                clicked[ON_MESSAGE] = isinstance(custom_id, str) and _shows(
                    message.get("components"), custom_id
                )
            slim = {
                key: value for key, value in message.items() if key not in DROPPED_MESSAGE_PARTS
            }
            slim.update(dict.fromkeys(EMPTIED_MESSAGE_PARTS, ()))
            data["message"] = slim
        parse(data)

    parsers["INTERACTION_CREATE"] = parse_interaction_create


def ignore_message_traffic(client: discord.Client) -> None:
    """Parse no message created or edited anywhere: the bot listens to message
    events only to hear of deletions (its table messages), and every other
    message of every channel it sees would otherwise be built into objects."""
    parsers = event_parsers(client)
    for event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
        parsers[event] = _ignore


def _ignore(data: dict[str, Any]) -> None:
    del data


def release_interaction(interaction: Interaction) -> None:
    """Break the cycle between a finished interaction and its response object.

    discord.py caches the InteractionResponse on the interaction, and the
    response points back at it, so every click (its parsed message, buttons,
    member: about fifty objects) outlived its handler until the cyclic garbage
    collector found it, and at hundreds of clicks a second those collections
    paused the bot. Without the cycle, reference counting frees a click as
    soon as its handler returns. Only for interactions the caller has
    completely finished with: a later ``interaction.response`` would be a
    fresh object that has forgotten the answer.
    """
    forget_response(interaction)
