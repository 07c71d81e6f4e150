"""Lobbies from the Activity: a rematch called at the end of a match, and a
seat taken in an open lobby, as the chat's Rematch and Join do.

The lobby is the chat's own (the same table, the same public message): a
rematch opened here is posted in the channel, and each player may take their
seat back from either door; the match starts by itself once they all have.
"""

from __future__ import annotations

import time

from presentation.i18n import N_, _, current
from presentation.notify import Notifier
from presentation.refresh import TableRefresher
from tables import MAX_SEATS, Refusal, Seat, Stage, Table, TableWork
from tables.names import plain_name

from .intents import Answer
from .lobby import Lobby, table_full

REMATCH_TAKEN = N_("A game is already open in this channel.")


class ActivityLobbies:
    """The Activity's part in lobbies; the rest is ``flows.lobby``'s."""

    def __init__(
        self, work: TableWork, lobby: Lobby, refresher: TableRefresher, notifier: Notifier
    ) -> None:
        self.work = work
        self.tables = work.tables
        self.lobby = lobby
        self.refresher = refresher
        self.notifier = notifier

    async def rematch(self, user_id: int, ended: Table, version: str | None) -> Answer:
        """The finished match's players play again, as the chat's Rematch button:
        the same rules and computers, the asker seated as host, the others invited."""
        channel = ended.channel_id
        if self.tables.get(channel) is not None:
            raise Refusal(_(REMATCH_TAKEN))
        if ended.match is None or not ended.match.is_over or version != ended.position:
            raise Refusal(_(
                "That match is no longer at hand (the bot restarted since): "
                "`/rummy start` opens a new game."
            ))
        asker = ended.seat_of_user(user_id)
        if asker is None:
            raise Refusal(_("Only the players of that match can call a rematch."))
        table = self.lobby.new_table(channel, ended.guild_id, user_id, ended.rules,
                                     ended.language)
        for seat in ended.seats:
            if seat is asker:
                table.seats.append(Seat(key=seat.key, name=seat.name, user_id=user_id,
                                        language=current().code))
            elif seat.is_computer:
                table.seats.append(Seat(key=seat.key, name=seat.name, level=seat.level))
            else:
                table.invited.append(seat.user_id)  # type: ignore[arg-type]
        table.next_cpu_number = ended.next_cpu_number
        await self.work.open(table)
        self.refresher.post(table)
        return Answer("done")

    async def join(self, user_id: int, name: str, table: Table, version: str | None) -> Answer:
        """Take a seat in the open lobby; a rematch starts once all its players are back."""
        async with table.lock:
            if self.tables.get(table.channel_id) is not table or table.stage is not Stage.LOBBY:
                raise Refusal(_("This game has already started."))
            if version != table.position:
                raise Refusal(_("The table moved on before that arrived: here it is as it is "
                                "now."))
            if table.seat_of_user(user_id) is not None:
                raise Refusal(_("You already have a seat at this table."))
            if len(table.seats) >= MAX_SEATS:
                raise Refusal(table_full())
            known = next((seat.name for seat in self._earlier_seats(table)
                          if seat.user_id == user_id), "")
            dealt = False
            async with self.work.change(table) as change:
                table.seats.append(Seat(key=str(user_id), name=plain_name(known or name or "?"),
                                        user_id=user_id, language=current().code))
                seated = {seat.user_id for seat in table.seats}
                if table.invited and seated.issuperset(table.invited):
                    self.lobby.deal(table, time.time())
                    dealt = True
                await change.save()
        if dealt:
            self.notifier.dealt(table)
        return Answer("done")

    def _earlier_seats(self, table: Table) -> list[Seat]:
        ended = self.tables.ended(table.channel_id)
        return ended.seats if ended is not None else []
