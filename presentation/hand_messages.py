"""Brings players' open hand messages up to date when the game moves on.

A hand message is ephemeral: only the interaction that answered with it can
edit it, for 15 minutes. The table keeps that interaction's handle
(``Table.hand_messages``); this edits through it, and forgets a message
that can no longer be edited.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import discord

from tables import HandMessage, Stage, Table, TableRegistry

from .card_emoji import CardFaces
from .hand_message import hand_layout, paused_layout, retired_layout
from .i18n import seat_language, speaking

# Hand-message edits in flight at once. Each takes a few milliseconds on an
# idle bot, so four keep up with a thousand quiet tables.
HAND_MESSAGE_EDITS_AT_ONCE = 4
# Interaction tokens live 15 minutes; a minute's margin for a slow edit.
TOKEN_LIFETIME = 14 * 60
# A hand message this old is told it will stop updating (before its token dies).
PAUSE_AFTER = 13 * 60


class HandMessages:
    """Edits players' hand messages, a few at a time (see ``refresh``)."""

    def __init__(
        self,
        tables: TableRegistry,
        faces: CardFaces,
        four_colour: Callable[[int], bool] | None = None,
    ) -> None:
        self.tables = tables
        self.faces = faces
        # Whether a person chose four-colour cards.
        self.four_colour = four_colour or (lambda user_id: False)
        # Hand messages that will be brought up to date, and the edits under way.
        self._waiting: set[tuple[int, str]] = set()
        self._slots = asyncio.Semaphore(HAND_MESSAGE_EDITS_AT_ONCE)

    async def refresh(self, table: Table, key: str) -> None:
        """Bring a player's open hand message up to date (when their turn starts).

        Edits wait for one of a few slots: on a bot busy answering clicks,
        which Discord fails after 3 s, a hand message catching up a moment
        later fails nobody. A player already waiting for an edit gets one
        edit, of the state when its slot comes.
        """
        waiting = (table.channel_id, key)
        if waiting in self._waiting:
            return
        self._waiting.add(waiting)
        try:
            await self._slots.acquire()
        finally:
            self._waiting.discard(waiting)
        try:
            await self._edit(table, key)
        finally:
            self._slots.release()

    async def retire(self, table: Table, message: HandMessage) -> None:
        """Tell an older hand message that a newer one now shows the hand."""
        with contextlib.suppress(discord.HTTPException):
            await message.handle.edit_original_response(
                embed=None, controls=retired_layout(table)
            )

    async def pause_expiring(self, table: Table, now: float) -> None:
        """Tell every hand message whose token is about to die that it stops
        updating, with a button that brings it back; then forget it."""
        for key, message in list(table.hand_messages.items()):
            if now - message.opened_at < PAUSE_AFTER:
                continue
            del table.hand_messages[key]
            with speaking(seat_language(table, key)):
                paused = paused_layout(table)
            # Gone already? A click on it brings it back all the same.
            with contextlib.suppress(discord.HTTPException):
                await message.handle.edit_original_response(embed=None, controls=paused)

    async def _edit(self, table: Table, key: str) -> None:
        message = table.hand_messages.get(key)
        if message is None or time.time() - message.opened_at > TOKEN_LIFETIME:
            table.hand_messages.pop(key, None)
            return
        finished = table.stage is Stage.FINISHED and table.match is not None
        if table.match is None or (self.tables.get(table.channel_id) is not table and not finished):
            return  # the game ended while the edit waited
        user_id = table.seat(key).user_id
        four_colour = user_id is not None and self.four_colour(user_id)
        with speaking(seat_language(table, key)):
            layout = hand_layout(table, key, self.faces, four_colour=four_colour)
        try:
            await message.handle.edit_original_response(embed=None, controls=layout)
        except discord.HTTPException:
            table.hand_messages.pop(key, None)
