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

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp
import discord
from discord.http import Route
from discord.utils import MISSING

from .private import Interaction, mark_answered, session_of, webhook_request

log = logging.getLogger(__name__)

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
FOLLOWUP_MESSAGE = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
EPHEMERAL = 1 << 6  # message flag: only the person who clicked sees it
COMPONENTS_V2 = 1 << 15  # message flag: the message is made of components only
Kind = discord.InteractionResponseType


class Components(Protocol):
    """What a message's components are sent from: discord.py's own views, or the
    bot's lighter layouts (``presentation``), which only answers need."""

    def to_components(self) -> list[dict[str, Any]]: ...

    def has_components_v2(self) -> bool: ...


@dataclass
class _Answer:
    """The answer of a click whose handler is running (see ``deferred_when_slow``)."""

    # One answer at a time: the handler's and the deferral never cross.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Answered by the handler itself, without a deferral.
    answered: bool = False
    # The handler has returned: too late to defer (discord.py may have
    # forgotten the answer by then, see transport.events).
    closed: bool = False
    deferred: bool = False
    # Given after a deferral: the click has had its real answer.
    completed: bool = False
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task[None] | None = None


# The clicks being handled now that may be deferred, by interaction id.
_answers: dict[int, _Answer] = {}


@contextlib.contextmanager
def deferred_when_slow(interaction: Interaction, after: float) -> Iterator[None]:
    """Handle a click so that it is answered in time even when its handler is slow.

    Discord fails a click not answered within 3 s. If the handler has not
    answered ``after`` seconds in (a save waiting for a busy disk or database,
    a slow Discord), the click is acknowledged with a deferred update, and the
    handler's answer, when it comes, edits the message instead (or, for a new
    message such as a refusal, follows up).
    """
    answer = _Answer()
    _answers[interaction.id] = answer

    def fire() -> None:
        answer.task = asyncio.get_running_loop().create_task(_defer(interaction, answer))

    answer.timer = asyncio.get_running_loop().call_later(after, fire)
    try:
        yield
    finally:
        answer.closed = True
        answer.timer.cancel()
        _answers.pop(interaction.id, None)


def awaiting_answer(interaction: Interaction) -> bool:
    """Whether the click still needs an answer: none yet, or only a deferral."""
    answer = _answers.get(interaction.id)
    if answer is not None and answer.deferred:
        return not answer.completed
    return not interaction.response.is_done()


async def _defer(interaction: Interaction, answer: _Answer) -> None:
    async with answer.lock:
        if answer.closed or answer.answered or interaction.response.is_done():
            return
        route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
        payload = {"type": Kind.deferred_message_update.value}
        try:
            await webhook_request(route, session_of(interaction), payload)
        except (discord.HTTPException, aiohttp.ClientError):
            # Too late or refused: the handler's own answer is all that can be tried.
            log.warning("could not defer a slow click", exc_info=True)
            return
        mark_answered(interaction, Kind.deferred_message_update)
        answer.deferred = True


def message_data(
    *,
    content: str | None = None,
    embed: discord.Embed | None = MISSING,
    controls: Components | None = MISSING,
) -> dict[str, Any]:
    """A message body: ``None`` clears a part, ``MISSING`` leaves it as it is."""
    # Nobody is pinged by an answer: a name is written as a mention only to
    # show who is meant (the host, a player), never to call them.
    data: dict[str, Any] = {"allowed_mentions": {"parse": []}}
    if content is not None:
        data["content"] = content
    if embed is not MISSING:
        data["embeds"] = [] if embed is None else [embed.to_dict()]
    if controls is not MISSING:
        data["components"] = [] if controls is None else controls.to_components()
        if controls is not None and controls.has_components_v2():
            # A message of components only: an edit of an older message clears
            # its embeds as it takes the flag.
            data["flags"] = COMPONENTS_V2
            if embed is MISSING:
                data["embeds"] = []
    return data


async def _callback(
    interaction: Interaction,
    kind: discord.InteractionResponseType,
    data: dict[str, Any],
    *,
    with_response: bool = False,
) -> Any:
    answer = _answers.get(interaction.id)
    if answer is None:
        return await _answer(interaction, kind, data, with_response)
    async with answer.lock:
        if not answer.deferred:
            body = await _answer(interaction, kind, data, with_response)
            answer.answered = True
            return body
        if answer.completed:
            raise discord.InteractionResponded(interaction)
        session, token = session_of(interaction), interaction.token
        if kind is Kind.message_update:
            await edit_original(session, interaction.application_id, token, data=data)
        else:
            app = interaction.application_id
            route = Route("POST", FOLLOWUP, webhook_id=app, webhook_token=token)
            await webhook_request(route, session, data)
        answer.completed = True
        return None


async def _answer(
    interaction: Interaction,
    kind: discord.InteractionResponseType,
    data: dict[str, Any],
    with_response: bool,
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


async def launch_activity(interaction: Interaction) -> None:
    """Answer by opening the bot's Activity for the member, in the channel of
    the click or command (Discord's LAUNCH_ACTIVITY)."""
    answer = _answers.get(interaction.id)
    lock = answer.lock if answer is not None else asyncio.Lock()
    async with lock:
        if interaction.response.is_done() or (answer is not None and answer.deferred):
            # A deferred click can only be edited, not turned into a launch.
            raise discord.InteractionResponded(interaction)
        route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
        kind = Kind.launch_activity
        await webhook_request(route, session_of(interaction), {"type": kind.value})
        mark_answered(interaction, kind)
        if answer is not None:
            answer.answered = True


async def update_message(
    interaction: Interaction,
    *,
    embed: discord.Embed | None = MISSING,
    controls: Components | None = MISSING,
) -> None:
    """Answer a click by editing the message it was on."""
    data = message_data(embed=embed, controls=controls)
    await _callback(interaction, discord.InteractionResponseType.message_update, data)


async def send_message(
    interaction: Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = MISSING,
    controls: Components | None = MISSING,
    ephemeral: bool = False,
) -> None:
    """Answer with a new message, seen only by the member if ``ephemeral``."""
    data = message_data(content=content, embed=embed, controls=controls)
    if ephemeral:
        data["flags"] = data.get("flags", 0) | EPHEMERAL
    await _callback(interaction, discord.InteractionResponseType.channel_message, data)


async def open_message(
    interaction: Interaction,
    *,
    embed: discord.Embed | None = MISSING,
    controls: Components | None = MISSING,
    ephemeral: bool = False,
) -> int | None:
    """Answer with a new message (seen only by the member if ``ephemeral``) and
    return its id, read from Discord's reply without building a ``Message`` of it
    (None if the reply has none: an answer sent late, after a deferral)."""
    data = message_data(embed=embed, controls=controls)
    if ephemeral:
        data["flags"] = data.get("flags", 0) | EPHEMERAL
    body = await _callback(
        interaction, discord.InteractionResponseType.channel_message, data, with_response=True
    )
    try:
        return int(body["resource"]["message"]["id"])
    except (KeyError, TypeError, ValueError):
        return None


async def answer_in_public(
    interaction: Interaction, content: str, *, controls: Components | None = MISSING
) -> bool:
    """Answer with a message for the channel; False when Discord showed it to
    the member alone all the same (a member's own install in a server that
    turned Use External Apps off for them: "Permissions" in Discord's docs)."""
    data = message_data(content=content, controls=controls)
    body = await _callback(
        interaction, discord.InteractionResponseType.channel_message, data, with_response=True
    )
    try:
        flags = int(body["resource"]["message"].get("flags") or 0)
    except (KeyError, TypeError, ValueError, AttributeError):
        return True  # an answer sent after a deferral: Discord's reply does not say
    return not flags & EPHEMERAL


async def send_followup(
    interaction: Interaction,
    *,
    controls: Components,
    ephemeral: bool = False,
) -> int | None:
    """Send another message after the interaction's answer and return its id
    (None if the reply has none), which ``edit_followup`` edits later."""
    return await post_followup(
        session_of(interaction), interaction.application_id, interaction.token,
        controls=controls, ephemeral=ephemeral,
    )


async def post_followup(
    session: aiohttp.ClientSession,
    application_id: int | None,
    token: str,
    *,
    controls: Components,
    ephemeral: bool = False,
) -> int | None:
    """``send_followup`` with only the interaction's token, for up to 15 minutes
    after its click: a message it answered is followed by a new one, below."""
    data = message_data(controls=controls)
    if ephemeral:
        data["flags"] = data.get("flags", 0) | EPHEMERAL
    route = Route("POST", FOLLOWUP, webhook_id=application_id, webhook_token=token)
    body = await webhook_request(route, session, data, {"wait": "true"})
    try:
        return int(body["id"])
    except (KeyError, TypeError, ValueError):
        return None


async def edit_followup(
    session: aiohttp.ClientSession,
    application_id: int,
    token: str,
    message_id: int,
    *,
    data: dict[str, Any],
) -> None:
    """Edit a follow-up message of an interaction, for up to 15 minutes after it."""
    route = Route(
        "PATCH",
        FOLLOWUP_MESSAGE,
        webhook_id=application_id,
        webhook_token=token,
        message_id=message_id,
    )
    await webhook_request(route, session, data)


async def edit_original(
    session: aiohttp.ClientSession,
    application_id: int,
    token: str,
    *,
    data: dict[str, Any],
) -> None:
    """Edit the message an interaction's answer made (or, after a deferred
    update, the message clicked), for up to 15 minutes after it."""
    route = Route("PATCH", ORIGINAL, webhook_id=application_id, webhook_token=token)
    await webhook_request(route, session, data)
