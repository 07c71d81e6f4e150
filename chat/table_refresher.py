"""Keeps each table's public message up to date with as few edits as possible.

Edits are coalesced per table: while one edit is in flight, any number of
further changes collapse into a single follow-up edit drawn from the latest
state. That keeps a busy table (computer players, quick humans) under
Discord's per-channel edit limit and costs at most one edit per action.

It is also the one place that moves a table to a fresh message: at each new
hand (the finished hand's message keeps its result), and when Discord will no
longer edit the old one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from chat.messages.layouts import Layout, SentLayout
from chat.messages.table_layout import public_layout
from presentation.card_emoji import CardFaces
from presentation.i18n import speaking
from presentation.pacing import URGENT, RequestBudget
from tables import Table

from .table_side import chat_side

log = logging.getLogger(__name__)

# Discord refuses further edits of an old message after many edits (30046)
# and a deleted message cannot be edited (10008): both move the table.
MOVE_TABLE_CODES = {30046, 10008}
# The channel is gone (10003 Unknown Channel) or the bot may no longer see it
# (50001 Missing Access): no message of the table can ever be shown again.
CHANNEL_LOST_CODES = {10003, 50001}
# An edit refused even after discord.py's own retries (rate limited, Discord
# failing) is tried again later from the latest state: dropping it would leave
# the channel showing an old position, or never the final result.
RETRY_DELAYS = (2.0, 5.0, 10.0, 30.0)

@dataclass
class _Pending:
    """A table whose message is due for an update, and the task making it."""

    table: Table
    dirty: bool = False
    move: bool = False  # the next update is a fresh message, not an edit
    override: Layout | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class TableRefresher:
    """Draws each table's public message from its latest state (see the module)."""

    def __init__(
        self,
        client: discord.Client,
        faces: CardFaces,
        budget: RequestBudget | None = None,
        on_moved: Callable[[Table], Awaitable[None]] | None = None,
        on_lost: Callable[[Table], Awaitable[None]] | None = None,
        *,
        activity: bool = False,
    ) -> None:
        self.client = client
        # The table offers Open table (the bot serves the Activity).
        self.activity = activity
        self.faces = faces
        self.budget = budget or RequestBudget()
        self._pending: dict[int, _Pending] = {}
        # Called once a table is on a fresh message, to record its id.
        self.on_moved = on_moved
        # Called when the table's channel is gone or out of the bot's sight.
        self.on_lost = on_lost

    def request(self, table: Table) -> None:
        """Ask for the table's message to show its current state, soon."""
        self._mark(table, None)

    def replace(self, table: Table, layout: Layout) -> None:
        """Show a fixed final message (the table has left play)."""
        self._mark(table, layout)

    def move(self, table: Table) -> None:
        """Show the table on a fresh message from now on, leaving the current
        one as it is; if the channel refuses a new message, the current one
        shows the table instead."""
        self._mark(table, None, move=True)

    async def leave_as(self, table: Table, message_id: int, layout: Layout) -> None:
        """Draw an earlier table message of ``table`` as ``layout`` (a finished
        hand's result, without its controls); a failure is only logged."""
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await self.budget.take(URGENT)
            await channel.get_partial_message(message_id).edit(view=SentLayout(layout))
        except discord.HTTPException:
            log.warning("could not leave the finished hand on message %s", message_id)

    def editing(self, table: Table) -> bool:
        """Whether an update of the table's message is due or on its way."""
        pending = self._pending.get(table.channel_id)
        return pending is not None and pending.table is table

    def pending(self) -> list[asyncio.Task[Any]]:
        return [p.task for p in self._pending.values() if p.task is not None and not p.task.done()]

    async def close(self) -> None:
        tasks = self.pending()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def post(self, table: Table) -> None:
        """Show a table that has no message yet (a lobby the Activity opened) on a
        new one, as soon as the rate limits allow."""
        self._mark(table, None, move=True)

    def _mark(self, table: Table, override: Layout | None, *, move: bool = False) -> None:
        if table.activity_only:
            return  # no bot where the game is: nothing of it is posted there
        pending = self._pending.get(table.channel_id)
        on_its_way = pending is not None and pending.table is table
        if chat_side(table).message_id is None and not move and not on_its_way:
            # No message to redraw, and none on its way. One being posted (a
            # lobby or rematch the Activity opened) is redrawn once it is there:
            # a computer's move made meanwhile would otherwise never show.
            return
        if pending is None or pending.table is not table:
            pending = _Pending(table)
            self._pending[table.channel_id] = pending
        pending.dirty = True
        pending.move = pending.move or move
        if override is not None:
            pending.override = override
        if pending.task is None or pending.task.done():
            pending.task = asyncio.create_task(
                self._run(pending), name=f"table-refresh-{table.channel_id}"
            )

    async def _run(self, pending: _Pending) -> None:
        table = pending.table
        failures = 0
        try:
            while pending.dirty:
                # The token first: whatever changes while it is awaited goes into
                # the one edit drawn below.
                await self.budget.take(URGENT)
                pending.dirty = False
                if pending.override is not None:
                    layout = pending.override
                else:
                    with speaking(table.language):
                        layout = public_layout(table, self.faces, activity=self.activity)
                moving, pending.move = pending.move, False
                try:
                    if moving:
                        await self._post(table, layout)
                    else:
                        await self._edit(table, layout)
                except discord.HTTPException as error:
                    posted = chat_side(table).message_id is not None
                    if error.code in CHANNEL_LOST_CODES and moving and not posted:
                        # A game the Activity opened in a channel the bot may not
                        # write in (a voice channel, most often): it goes on there.
                        log.info("the table in channel %s has no message here: the channel "
                                 "takes none from the bot", table.channel_id)
                        pending.dirty = False
                        return
                    if error.code in CHANNEL_LOST_CODES:
                        pending.dirty = False
                        if self.on_lost is not None:
                            await self.on_lost(table)
                        else:
                            log.warning("the channel %s is lost", table.channel_id)
                        return
                    retryable = error.status == 429 or error.status >= 500
                    if moving and not retryable and not posted:
                        log.warning("could not post the table in channel %s", table.channel_id)
                        return
                    if moving and not retryable:
                        # Refused (no right to post here, most likely): the
                        # current message shows the table from now on.
                        log.warning(
                            "could not post a new table message in channel %s; "
                            "the table stays on its current message",
                            table.channel_id,
                        )
                        pending.dirty = True
                        continue
                    if not retryable or failures == len(RETRY_DELAYS):
                        raise
                    pending.move = pending.move or moving
                    pending.dirty = True
                    await asyncio.sleep(RETRY_DELAYS[failures])
                    failures += 1
                else:
                    failures = 0
        except Exception:
            log.exception("refreshing the table in channel %s failed", table.channel_id)
        finally:
            if self._pending.get(table.channel_id) is pending and not pending.dirty:
                del self._pending[table.channel_id]

    async def _edit(self, table: Table, layout: Layout) -> None:
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        message_id = chat_side(table).message_id
        assert message_id is not None
        try:
            # No embeds: a table saved before the layouts showed it as one, and a
            # message takes the layout flag only once its embeds are cleared.
            await channel.get_partial_message(message_id).edit(embeds=[], view=SentLayout(layout))
        except discord.HTTPException as error:
            if error.code not in MOVE_TABLE_CODES:
                raise
            log.info("moving the table in channel %s to a fresh message", table.channel_id)
            await self._post(table, layout)

    async def _post(self, table: Table, layout: Layout) -> None:
        channel = self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        message = await channel.send(view=SentLayout(layout))
        chat_side(table).message_id = message.id
        if self.on_moved is not None:
            await self.on_moved(table)
