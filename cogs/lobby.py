"""Lobby buttons: Join, Leave, Add/Remove computer, Start, Cancel."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
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


class LobbyHandlers:
    def __init__(self, game: GameService) -> None:
        self.game = game
        self.handlers: dict[str, Handler] = {
            "join": self.join,
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

    async def join(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        self._require_lobby(interaction, table)
        if table.seat_of_user(interaction.user.id) is not None:
            raise Refusal("You already have a seat at this table.")
        if len(table.seats) >= MAX_SEATS:
            raise Refusal(f"The table is full ({MAX_SEATS} seats).")
        snapshot = table.to_dict()
        await self.seat_human(table, interaction.user)
        await self._update_lobby(interaction, table, snapshot)

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
