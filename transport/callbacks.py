"""Answering clicks in one request, reading nothing back.

discord.py's ``InteractionResponse`` asks Discord to return the message each
answer made (``with_response``) and parses it into a ``Message`` with all its
embeds and components, and ``Webhook.edit_message`` does the same for a hand
message brought up to date. The bot never looks at either, and at hundreds of
clicks a second reading back what it had just sent was a large share of its
CPU, so the hot paths (the hand message, the lobby, refusals) answer through
these instead. They use discord.py's own webhook adapter, so rate limits,
retries and errors (``discord.NotFound`` for a click answered too late) behave
exactly as with ``interaction.response``.
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
from discord.http import Route
from discord.utils import MISSING

from .private import Interaction, mark_answered, session_of, webhook_request

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
EPHEMERAL = 1 << 6  # message flag: only the person who clicked sees it


def message_data(
    *,
    content: str | None = None,
    embed: discord.Embed | None = MISSING,
    controls: discord.ui.View | None = MISSING,
) -> dict[str, Any]:
    """A message body: ``None`` clears a part, ``MISSING`` leaves it as it is."""
    data: dict[str, Any] = {}
    if content is not None:
        data["content"] = content
    if embed is not MISSING:
        data["embeds"] = [] if embed is None else [embed.to_dict()]
    if controls is not MISSING:
        data["components"] = [] if controls is None else controls.to_components()
    return data


async def _callback(
    interaction: Interaction,
    kind: discord.InteractionResponseType,
    data: dict[str, Any],
    *,
    with_response: bool = False,
) -> Any:
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    body = await webhook_request(
        route,
        session_of(interaction),
        {"type": kind.value, "data": data},
        {"with_response": "1"} if with_response else None,
    )
    mark_answered(interaction, kind)
    return body


async def update_message(
    interaction: Interaction,
    *,
    embed: discord.Embed | None = MISSING,
    controls: discord.ui.View | None = MISSING,
) -> None:
    """Answer a click by editing the message it was on."""
    data = message_data(embed=embed, controls=controls)
    await _callback(interaction, discord.InteractionResponseType.message_update, data)


async def send_message(
    interaction: Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = MISSING,
    controls: discord.ui.View | None = MISSING,
    ephemeral: bool = False,
) -> None:
    """Answer with a new message, seen only by the member if ``ephemeral``."""
    data = message_data(content=content, embed=embed, controls=controls)
    if ephemeral:
        data["flags"] = EPHEMERAL
    await _callback(interaction, discord.InteractionResponseType.channel_message, data)


async def open_message(
    interaction: Interaction,
    *,
    embed: discord.Embed | None = MISSING,
    controls: discord.ui.View | None = MISSING,
) -> int | None:
    """Answer with a new public message and return its id, read from Discord's
    reply without building a ``Message`` of it (None if the reply has none)."""
    data = message_data(embed=embed, controls=controls)
    body = await _callback(
        interaction, discord.InteractionResponseType.channel_message, data, with_response=True
    )
    try:
        return int(body["resource"]["message"]["id"])
    except (KeyError, TypeError, ValueError):
        return None


async def edit_original(
    session: aiohttp.ClientSession,
    application_id: int,
    token: str,
    *,
    embed: discord.Embed | None = MISSING,
    controls: discord.ui.View | None = MISSING,
) -> None:
    """Edit the message an interaction's answer made, for up to 15 minutes after it."""
    route = Route("PATCH", ORIGINAL, webhook_id=application_id, webhook_token=token)
    await webhook_request(route, session, message_data(embed=embed, controls=controls))
