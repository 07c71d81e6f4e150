"""Direct messages: they only inform (your cards, your turn), never gate play.

Each DM is drawn in the language of the person it goes to (their seat's),
whoever's task sends it.

A DM can fail (closed DMs answer 403 with code 50007); the failure is noted on
the table so the player is told once, privately, to use Show hand instead. No
DM is ever awaited by an interaction.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from presentation import render
from presentation.card_emoji import CardFaces
from presentation.i18n import _, label_on, n_, seat_language, speaking
from presentation.labels import SHOW_HAND_LABEL
from presentation.pacing import LATER, RequestBudget
from tables import Seat, Table

from .table_side import chat_side

log = logging.getLogger(__name__)

Spawn = Callable[[Coroutine[Any, Any, Any], str], Any]
Slot = tuple[int, int, str]  # user id, the table's channel id, which DM


class Notifier:
    """Sends the DMs: the dealt hand, the turn reminder, a lost table's notice."""

    def __init__(
        self,
        client: discord.Client,
        spawn: Spawn,
        budget: RequestBudget | None = None,
        wants_deal_dm: Callable[[int], bool] | None = None,
        faces: CardFaces | None = None,
    ) -> None:
        self.client = client
        self.faces = faces or CardFaces()
        # Whether a person wants their cards by DM at each deal (their choice).
        self.wants_deal_dm = wants_deal_dm or (lambda user_id: True)
        self.spawn = spawn
        # DMs count against Discord's global limit: they wait behind table edits.
        self.budget = budget or RequestBudget()
        # user id -> DM channel id. discord.py remembers only 128 DM channels, so
        # with more players every DM first asked Discord for the channel again.
        self._dm_channels: dict[int, int] = {}
        # (user id, table's channel id, "dealt" or "turn") -> the DM of that kind
        # waiting to go out: a newer one from the same table (a new hand, a new
        # turn) takes the place of the older, so DMs held back by pacing never
        # pile up past two a person a table; someone at two tables hears of both.
        self._waiting: dict[Slot, tuple[Table, Callable[[], str | None]]] = {}
        # One task sends them all, oldest first: under load thousands of DMs may
        # wait for the budget, and a dict entry each costs far less than a task.
        self._drainer: asyncio.Task[Any] | None = None

    def dealt(self, table: Table) -> None:
        """Send every person at the table their newly dealt hand."""
        for seat in table.humans:
            assert seat.user_id is not None
            if not self.wants_deal_dm(seat.user_id):
                continue
            with speaking(seat.language):
                text = render.dealt_dm(table, seat.key, f"<#{table.channel_id}>", self.faces)
            dealt = functools.partial(_while_hand, table, table.hand_number, text)
            self._post(table, (seat.user_id, table.channel_id, "dealt"), dealt)

    def seat_taken(self, table: Table, seat: Seat) -> None:
        """Tell a player, once, that a computer now plays their seat."""
        if seat.user_id is None:
            return
        with speaking(seat.language):
            text = n_(
                "You missed {n} turn in a row at Rummy in {channel}: a computer plays your seat "
                "until you press **Take my seat back** in your hand (**{show_hand}** on the "
                "table).",
                "You missed {n} turns in a row at Rummy in {channel}: a computer plays your seat "
                "until you press **Take my seat back** in your hand (**{show_hand}** on the "
                "table).",
                seat.missed_turns,
                channel=f"<#{table.channel_id}>",
                show_hand=label_on(SHOW_HAND_LABEL, table.language),
            )
        self._post(table, (seat.user_id, table.channel_id, "autopilot"), lambda: text)

    def your_turn(self, table: Table, seat: Seat) -> None:
        if seat.user_id is None:
            return
        key = seat.key

        def text() -> str | None:
            # Only while it is still that player's turn: a DM held back by
            # pacing must not send someone to a turn already played.
            current = table.current_seat
            if current is None or current.key != key:
                return None
            jump = (
                f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/"
                f"{chat_side(table).message_id}"
            )
            with speaking(seat_language(table, key)):
                return render.turn_dm(table, key, jump, faces=self.faces,
                                      hand_open=chat_side(table).hand_open(key))

        self._post(table, (seat.user_id, table.channel_id, "turn"), text)

    def _post(self, table: Table, slot: Slot, text: Callable[[], str | None]) -> None:
        if slot[0] in chat_side(table).dm_closed:
            return
        self._waiting[slot] = (table, text)
        if self._drainer is None or self._drainer.done():
            self._drainer = self.spawn(self._drain(), "dm-drain")

    async def _drain(self) -> None:
        """Send the waiting DMs, oldest first, each once the budget allows."""
        while self._waiting:
            await self.budget.take(LATER)
            while self._waiting:
                slot = next(iter(self._waiting))
                table, text = self._waiting.pop(slot)
                body = text()  # None: no longer true (the turn passed, a new hand)
                if body is not None and slot[0] not in chat_side(table).dm_closed:
                    self.spawn(self._deliver(table, slot[0], body), f"dm-{slot[2]}")
                    break

    async def _deliver(self, table: Table, user_id: int, text: str) -> None:
        try:
            channel = await self._dm_channel(user_id)
            await channel.send(text)
        except discord.Forbidden:
            chat_side(table).dm_closed.add(user_id)
        except discord.HTTPException:
            log.warning("DM to %s failed", user_id, exc_info=True)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            await self.budget.take(LATER)  # opening a DM is a request of its own
            channel = await self.client.create_dm(discord.Object(id=user_id))
            channel_id = self._dm_channels[user_id] = channel.id
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    # The two notices below are public: drawn in the caller's language (the
    # table's, when the caller has it).
    async def restore_failed(self, channel_id: int) -> None:
        await self.tell_channel(
            channel_id,
            "⚠️ "
            + _(
                "The Rummy game in this channel could not be restored after a restart. "
                "Its saved state is kept for the bot's admin. `/rummy start` opens a new game."
            ),
        )

    async def result_kept(self, channel_id: int) -> None:
        await self.tell_channel(
            channel_id,
            "⚠️ "
            + _(
                "The result of this Rummy game could not be saved to the leaderboard: the "
                "bot's database is failing. The result is kept for the bot's admin, who can "
                "record it once the database is repaired. `/rummy start` opens a new game."
            ),
        )

    async def tell_channel(self, channel_id: int, text: str) -> None:
        """A notice to everyone in a table's channel; a failure is only logged."""
        channel = self.client.get_partial_messageable(channel_id)
        try:
            await channel.send(text)
        except discord.HTTPException:
            log.warning("could not tell channel %s: %s", channel_id, text)


def _while_hand(table: Table, hand: int, text: str) -> str | None:
    """``text``, unless the table has moved on to another hand since it was written."""
    return text if table.hand_number == hand else None
