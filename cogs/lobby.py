"""Lobby buttons: Join, Leave, Add/Remove computer, Start, Cancel."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from db import StorageError
from engine import Match

from . import answer, render
from .game import NOT_SAVED, Interaction, Refusal
from .ids import ComponentId
from .table import MAX_SEATS, MIN_SEATS, Seat, Stage, Table
from .views import lobby_view, table_view

if TYPE_CHECKING:
    from .game import GameService

# What a handler may hand back: an answer to send once the table's lock is let
# go, for clicks that change nothing and need not hold up the table.
AfterLock = Callable[[], Awaitable[None]]
Handler = Callable[[Interaction, Table, ComponentId, list[str]], Awaitable[AfterLock | None]]
COMPUTER_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Claude")
COMPUTER_LEVELS = ("easy", "hard")


def member_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


@dataclass(eq=False)
class WaitingJoin:
    """A Join click waiting for its table's lock, maybe in another click's group."""

    interaction: Interaction
    # Settled by the click that takes the lock for the group: a result once
    # this click is answered, or the error its own handler should raise.
    settled: asyncio.Future[None]


class LobbyHandlers:
    def __init__(self, game: GameService) -> None:
        self.game = game
        # Per channel: the Join clicks waiting for the table's lock together.
        self._joining: dict[int, list[WaitingJoin]] = {}
        self.handlers: dict[str, Handler] = {
            "leave": self.leave,
            "addcpu": self.add_computer,
            "dropcpu": self.remove_computer,
            "start": self.start,
            "cancel": self.cancel,
        }

    async def seat_human(self, table: Table, user: discord.abc.User) -> None:
        table.seats.append(Seat(key=str(user.id), name=member_name(user), user_id=user.id))

    @staticmethod
    def _require_lobby(interaction: Interaction, table: Table) -> None:
        if table.stage is not Stage.LOBBY:
            raise Refusal("This game has already started.")
        message = interaction.message
        if message is not None and table.message_id is None:
            table.message_id = message.id  # its id was lost to a failed save or a crash
        if message is not None and message.id != table.message_id:
            raise Refusal("That button is on an old message: use the current lobby.")

    @staticmethod
    def _require_host(interaction: Interaction, table: Table, what: str) -> None:
        if interaction.user.id != table.host_id:
            raise Refusal(f"Only the host (<@{table.host_id}>) can {what}.")

    async def _update_lobby(
        self, interaction: Interaction, table: Table, snapshot: dict[str, Any]
    ) -> None:
        if not await self.game.commit(table, snapshot):
            raise Refusal(NOT_SAVED)
        await answer.update_message(
            interaction, embed=render.lobby_embed(table), view=lobby_view(table)
        )

    async def _seat_joiner(self, interaction: Interaction, table: Table) -> None:
        self._require_lobby(interaction, table)
        if table.seat_of_user(interaction.user.id) is not None:
            raise Refusal("You already have a seat at this table.")
        if len(table.seats) >= MAX_SEATS:
            raise Refusal(f"The table is full ({MAX_SEATS} seats).")
        await self.seat_human(table, interaction.user)

    async def join_together(self, interaction: Interaction, table: Table) -> None:
        """Join ``table`` together with whoever else is joining it at this moment.

        A lobby fills in a burst when a game is called, and every Join saves the
        table and answers under its lock: the third of three simultaneous joins
        waited for two saves and two answers before its own. Joins that arrive
        while one waits for the lock go with it instead, one save for all and
        their answers sent at once. Those answers all show the same lobby, so
        the order they land in does not matter, and the next group waits for
        the lock, as a single Join does.
        """
        me = WaitingJoin(interaction, asyncio.get_running_loop().create_future())
        group = self._joining.get(table.channel_id)
        if group is not None:
            group.append(me)
            await me.settled
            return
        group = self._joining[table.channel_id] = [me]
        outcomes: list[BaseException | None] = []
        try:
            async with table.lock:
                # Joins sent in the same instant are already on their way in:
                # one turn of the event loop lets them into this group.
                await asyncio.sleep(0)
                del self._joining[table.channel_id]
                outcomes = await self._join_group(table, group)
        except BaseException as failure:
            if self._joining.get(table.channel_id) is group:
                del self._joining[table.channel_id]  # it never got the lock
            # Every click of the group fails as this one does: its handler
            # answers "something went wrong", or it is cancelled at shutdown.
            outcomes = [failure] * len(group)
            raise
        finally:
            for other, outcome in zip(group[1:], outcomes[1:], strict=True):
                if other.settled.done():  # its own task was cancelled meanwhile
                    continue
                if outcome is None:
                    other.settled.set_result(None)
                elif isinstance(outcome, asyncio.CancelledError):
                    other.settled.cancel()
                else:
                    other.settled.set_exception(outcome)
        if outcomes[0] is not None:
            raise outcomes[0]

    async def _join_group(
        self, table: Table, group: list[WaitingJoin]
    ) -> list[BaseException | None]:
        """Seat, save and answer a group of joins; what each click's answer raised."""
        refused: dict[WaitingJoin, str] = {}
        if self.game.tables.get(table.channel_id) is not table:
            refused = dict.fromkeys(group, "That game has just ended.")
        snapshot = table.to_dict()
        for entry in group:
            if entry in refused:
                continue
            try:
                await self._seat_joiner(entry.interaction, table)
            except Refusal as refusal:
                refused[entry] = str(refusal)
        seated = [entry for entry in group if entry not in refused]
        if seated and not await self.game.commit(table, snapshot):
            refused.update(dict.fromkeys(seated, NOT_SAVED))
        embed, view = render.lobby_embed(table), lobby_view(table)
        answers = [
            self.game.refuse(entry.interaction, refused[entry])
            if entry in refused
            else answer.update_message(entry.interaction, embed=embed, view=view)
            for entry in group
        ]
        results = await asyncio.gather(*answers, return_exceptions=True)
        return [result if isinstance(result, BaseException) else None for result in results]

    async def leave(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        self._require_lobby(interaction, table)
        seat = table.seat_of_user(interaction.user.id)
        if seat is None:
            raise Refusal("You don't have a seat at this table.")
        if interaction.user.id == table.host_id:
            raise Refusal("You are the host: press Cancel to close the lobby instead.")
        snapshot = table.to_dict()
        table.seats.remove(seat)
        await self._update_lobby(interaction, table, snapshot)

    async def add_computer(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        self._require_lobby(interaction, table)
        self._require_host(interaction, table, "add computer players")
        level = parsed.arg if parsed.arg in COMPUTER_LEVELS else "easy"
        if len(table.seats) >= MAX_SEATS:
            raise Refusal(f"The table is full ({MAX_SEATS} seats).")
        snapshot = table.to_dict()
        number = table.next_cpu_number
        table.next_cpu_number += 1
        name = COMPUTER_NAMES[(number - 1) % len(COMPUTER_NAMES)]
        if number > len(COMPUTER_NAMES):
            name += f" {number}"
        table.seats.append(Seat(key=f"cpu{number}", name=name, level=level))
        await self._update_lobby(interaction, table, snapshot)

    async def remove_computer(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        self._require_lobby(interaction, table)
        self._require_host(interaction, table, "remove computer players")
        computers = [seat for seat in table.seats if seat.is_computer]
        if not computers:
            raise Refusal("There is no computer player to remove.")
        snapshot = table.to_dict()
        table.seats.remove(computers[-1])
        await self._update_lobby(interaction, table, snapshot)

    async def start(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        self._require_lobby(interaction, table)
        self._require_host(interaction, table, "start the game")
        if len(table.seats) < MIN_SEATS:
            raise Refusal(
                f"At least {MIN_SEATS} players are needed: wait for someone to Join, "
                "or add a computer player."
            )
        snapshot = table.to_dict()
        table.match = Match.start([seat.key for seat in table.seats], table.rules, table.seed)
        table.stage = Stage.PLAYING
        table.log.append(f"Hand 1: {table.name_of(table.match.hand.view_for(None).dealer)} dealt")
        table.last_human_action = interaction.created_at.timestamp()
        self.game.start_turn_clock(table)
        if not await self.game.commit(table, snapshot):
            raise Refusal(NOT_SAVED)
        try:
            await answer.update_message(
                interaction, embed=render.table_embed(table), view=table_view(table)
            )
        finally:
            self.game.notifier.dealt(table)
            self.game.after_change(table, refresh=False)

    async def cancel(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        self._require_lobby(interaction, table)
        self._require_host(interaction, table, "cancel the game")
        try:
            await self.game.db.delete_live_table(table.channel_id)
        except StorageError as error:
            raise Refusal(NOT_SAVED) from error
        table.stage = Stage.FINISHED
        self.game.forget(table)
        await answer.update_message(
            interaction,
            embed=render.cancelled_embed(table, "The host cancelled this game."),
            view=None,
        )
