"""Brings players' open hand messages up to date when the game moves on.

A hand message is ephemeral: only the interaction that answered with it can
edit it, for 15 minutes. The table keeps that interaction's handle
(``chat.table_side``); this edits through it, and forgets a message
that can no longer be edited. Every open message follows the game: the
player whose turn comes at once, the others a moment later, each edit
showing the table as it is when its turn comes, so that a quick run of moves
costs each message one edit, not one per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Callable

import discord

from chat.messages.hand_layout import hand_layout, paused_layout, retired_layout, stopped_layout
from chat.messages.layouts import Layout
from presentation.card_emoji import CardFaces
from presentation.i18n import seat_language, speaking
from presentation.pacing import FOLLOW_AFTER, QUIET_FOLLOW_AFTER
from tables import Stage, Table, TableRegistry
from transport.tokens import TOKEN_LIFETIME

from .table_side import HandMessage, chat_side

# Hand-message edits in flight at once. Each takes a few milliseconds on an
# idle bot, so four keep up with a thousand quiet tables.
HAND_MESSAGE_EDITS_AT_ONCE = 4
# A hand message this old is told it will stop updating (before its token dies).
PAUSE_AFTER = 13 * 60
FOLLOW_EDITS_AT_ONCE = 2
# Edits of one message made again after answers in place overtook them, at
# most (a player clicking away keeps the message current by their answers).
OVERTAKEN_EDITS = 3


class HandMessages:
    """Edits players' hand messages, a few at a time (see ``refresh``)."""

    def __init__(
        self,
        tables: TableRegistry,
        faces: CardFaces,
        four_colour: Callable[[int], bool] | None = None,
        follow_after: float = FOLLOW_AFTER,
        quiet_follow_after: float = QUIET_FOLLOW_AFTER,
    ) -> None:
        self.tables = tables
        self.faces = faces
        self.follow_after = follow_after
        self.quiet_follow_after = quiet_follow_after
        # Whether a person chose four-colour cards.
        self.four_colour = four_colour or (lambda user_id: False)
        # Hand messages that will be brought up to date, and the edits under way.
        self._waiting: set[tuple[int, str, bool]] = set()
        self._later: set[tuple[int, str]] = set()
        self._quiet: set[tuple[int, str]] = set()
        self._slots = asyncio.Semaphore(HAND_MESSAGE_EDITS_AT_ONCE)
        # Waiting players' edits have slots of their own: on a busy bot they
        # queue up, and must not hold up the edit that tells a player their
        # turn has come.
        self._follow_slots = asyncio.Semaphore(FOLLOW_EDITS_AT_ONCE)
        self._locks: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = (
            weakref.WeakValueDictionary())

    async def follow(self, table: Table, key: str, *, quiet: bool = False) -> None:
        """Bring a waiting player's hand message up to date a moment from now
        (``follow_after``): what else changes meanwhile goes into the same edit.
        ``quiet``: a change that can wait for the next one (``QUIET_FOLLOW_AFTER``);
        a later change that cannot brings the edit forward."""
        later = (table.channel_id, key)
        due = self._quiet if quiet else self._later
        if self.following(table, key, quiet=quiet):
            return
        due.add(later)
        try:
            await asyncio.sleep(self.quiet_follow_after if quiet else self.follow_after)
        finally:
            due.discard(later)
        # An edit made meanwhile already shows the table as it is: this one is skipped.
        await self.refresh(table, key, self._follow_slots)

    def following(self, table: Table, key: str, *, quiet: bool = False) -> bool:
        """Whether an edit of this player's message is already due (``follow``)
        soon enough for a change (``quiet``: one that can wait)."""
        later = (table.channel_id, key)
        return later in self._later or (quiet and later in self._quiet)

    def behind(self, table: Table) -> list[str]:
        """The players whose open hand message does not show the table as it is."""
        return [
            key for key, message in chat_side(table).hand_messages.items()
            if message.on_hand and message.shows != table.changes
        ]

    async def refresh(
        self, table: Table, key: str, slots: asyncio.Semaphore | None = None
    ) -> None:
        """Bring a player's open hand message up to date (when their turn starts).

        Edits wait for one of a few slots: on a bot busy answering clicks,
        which Discord fails after 3 s, a hand message catching up a moment
        later fails nobody. A player already waiting for an edit gets one
        edit, of the state when its slot comes.
        """
        slots = slots or self._slots
        # One edit waiting per message and kind: a turn's edit does not wait
        # behind the follow-up edit already queued for the same message.
        waiting = (table.channel_id, key, slots is self._follow_slots)
        if waiting in self._waiting:
            return
        self._waiting.add(waiting)
        try:
            await slots.acquire()
        finally:
            self._waiting.discard(waiting)
        try:
            # An answer in place while the edit was on its way: the edit may
            # have landed after it, over the newer view; made again, it shows
            # the table as it is then, whichever lands last.
            again = False
            for _ in range(OVERTAKEN_EDITS):
                again = await self._edit(table, key, again=again)
                if not again:
                    break
        finally:
            slots.release()

    async def retire(self, table: Table, message: HandMessage) -> None:
        """Tell an older hand message that a newer one now shows the hand."""
        with contextlib.suppress(discord.HTTPException):
            await draw(message, retired_layout(table))

    async def bring_below(self, table: Table) -> None:
        """Post each open hand message anew below the table's new message (a new
        hand is dealt on one), and retire the old one: otherwise a player's cards
        sit screens up, behind the finished hand and the new table. A message
        whose token is about to lapse is left to ``pause_expiring``."""
        now = time.time()
        hands = chat_side(table).hand_messages
        for key, message in list(hands.items()):
            if not message.on_hand or now - message.opened_at >= PAUSE_AFTER:
                continue
            async with self._drawing(table, key):
                if hands.get(key) is not message or table.match is None:
                    continue  # clicked meanwhile: the message clicked shows the hand
                with speaking(seat_language(table, key)):
                    layout = self._layout(table, key)
                shows = table.changes
                try:
                    posted = await message.handle.send_followup(controls=layout)
                except discord.HTTPException:
                    continue  # the old message goes on following the game
                if posted is None:
                    continue
                hands[key] = HandMessage(
                    message.handle, message.opened_at, posted, shows=shows, followup=True
                )
                with contextlib.suppress(discord.HTTPException):
                    await draw(message, retired_layout(table))

    async def pause_expiring(self, table: Table, now: float) -> None:
        """Tell every hand message whose token is about to die that it stops
        updating, with a button that brings it back; then forget it."""
        hands = chat_side(table).hand_messages
        for key, message in list(hands.items()):
            if now - message.opened_at < PAUSE_AFTER:
                continue
            del hands[key]
            with speaking(seat_language(table, key)):
                paused = paused_layout(table)
            # Gone already? A click on it brings it back all the same.
            with contextlib.suppress(discord.HTTPException):
                await draw(message, paused)

    def _drawing(self, table: Table, key: str) -> asyncio.Lock:
        """One request at a time to a player's hand message: an edit still on its
        way must not land after ``bring_below`` retired the message."""
        place = (table.channel_id, key)
        lock = self._locks.get(place)
        if lock is None:
            lock = self._locks[place] = asyncio.Lock()
        return lock

    def _layout(self, table: Table, key: str) -> Layout:
        assert table.match is not None
        user_id = table.seat(key).user_id
        four_colour = user_id is not None and self.four_colour(user_id)
        if table.stage is Stage.FINISHED and not table.match.hand.is_over:
            return stopped_layout(table, key, self.faces, four_colour=four_colour)
        return hand_layout(table, key, self.faces, four_colour=four_colour)

    async def _edit(self, table: Table, key: str, *, again: bool = False) -> bool:
        async with self._drawing(table, key):
            return await self._edit_now(table, key, again=again)

    async def _edit_now(self, table: Table, key: str, *, again: bool = False) -> bool:
        """Edit the player's message to show the table as it is; True if an
        answer in place went out while the edit was on its way."""
        side = chat_side(table)
        message = side.hand_messages.get(key)
        if message is None or time.time() - message.opened_at > TOKEN_LIFETIME:
            side.hand_messages.pop(key, None)
            return False
        if not message.on_hand or (message.shows == table.changes and not again):
            return False  # showing the settings, or already the table as it is
        finished = table.stage is Stage.FINISHED and table.match is not None
        if table.match is None or (self.tables.get(table.channel_id) is not table and not finished):
            return False  # the game ended while the edit waited
        shows = table.changes
        answers = side.hand_answers.get(key, 0)
        with speaking(seat_language(table, key)):
            layout = self._layout(table, key)
        try:
            await draw(message, layout)
        except discord.HTTPException:
            side.hand_messages.pop(key, None)
            return False
        if side.hand_answers.get(key, 0) != answers:
            return True
        if side.hand_messages.get(key) is message:
            message.shows = shows
        return False


async def draw(message: HandMessage, layout: Layout) -> None:
    """Show ``layout`` on a hand message, the interaction's answer or its follow-up."""
    if message.followup and message.message_id is not None:
        await message.handle.edit_followup(message.message_id, controls=layout)
    else:
        await message.handle.edit_original_response(embed=None, controls=layout)
