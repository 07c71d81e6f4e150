"""Seats in a lobby, whichever door a member came by: joining, leaving, and a
rematch of the match that just ended, each checked and refused once, in the
asker's language. A rematch starts by itself once every player it invited is
back, by either door. The doors (``chat.lobby``, ``web.table_door``) turn
their input into an ``Ask`` and answer in their own form.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engine import HouseRules, Match
from presentation.i18n import N_, _, current, n_
from presentation.labels import REMATCH_LABEL
from tables import MAX_SEATS, MIN_SEATS, LogLine, Place, Refusal, Seat, Stage, Table, TableWork
from tables.names import plain_name

from .config import GameConfig
from .engine_moves import Moves
from .events import Closed, Dealt, Opened, TableEvents
from .seat_moves import OUT_OF_DATE, Ask, Done

ALREADY_STARTED = N_("This game has already started.")
COMPUTER_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Claude")
COMPUTER_LEVELS = ("easy", "hard", "expert")

# What the Activity's pages still open on the lobby say happened to it.
CANCELLED_BY = N_("{who} cancelled the lobby.")
# What the public table says of it.
HOST_CANCELLED = N_("The host cancelled this game.")
GAME_OPEN_HERE = N_("A game is already open in this channel.")
NOT_AT_HAND = N_(
    "That match is no longer at hand (the bot restarted since): `/rummy start` opens a new game."
)
LATER_GAME = N_(
    "A later game has been played here since that match: press **{rematch}** "
    "on the latest one, or `/rummy start` for a new game."
)


def seat_for(ask: Ask, *, kept: str = "?") -> Seat:
    """The asker's seat, the one way a person's seat is made: under the name
    their door knows them by (the server nickname; ``kept``, the name their
    seat had, where the door knows none), reading the bot in the language of
    this ask."""
    return Seat(key=str(ask.user_id), name=plain_name(ask.name or kept),
                user_id=ask.user_id, language=current().code)


def table_full() -> str:
    return n_("The table is full ({n} seat).", "The table is full ({n} seats).", MAX_SEATS)


class LobbySeats:
    """Who sits at a lobby, for both doors."""

    def __init__(self, config: GameConfig, work: TableWork, moves: Moves,
                 events: TableEvents) -> None:
        self.config = config
        self.work = work
        self.tables = work.tables
        self.moves = moves
        self.events = events

    def new_table(self, place: Place, host_id: int, rules: HouseRules, language: str) -> Table:
        """A table for a new lobby, dealt from the configured seed or a random one."""
        return Table(
            channel_id=place.channel_id,
            guild_id=place.board_id,
            activity_only=place.activity_only,
            host_id=host_id,
            rules=rules,
            language=language,
            seed=(
                self.config.table_seed
                if self.config.table_seed is not None
                else random.SystemRandom().randrange(2**53)
            ),
        )

    def new_lobby(self, place: Place, ask: Ask, rules: HouseRules, language: str) -> Table:
        """A new lobby with the asker seated as its host, whichever door opens it."""
        table = self.new_table(place, ask.user_id, rules, language)
        table.seats.append(seat_for(ask))
        return table

    # --- joining --------------------------------------------------------------------------
    def take_seat(self, table: Table, ask: Ask) -> None:
        """Seat the asker in ``table``'s lobby (inside a change); a refusal says
        why not."""
        if table.stage is not Stage.LOBBY:
            raise Refusal(_(ALREADY_STARTED))
        if table.seat_of_user(ask.user_id) is not None:
            raise Refusal(_("You already have a seat at this table."))
        if len(table.seats) >= MAX_SEATS:
            raise Refusal(table_full())
        table.seats.append(seat_for(ask))

    def deal_if_all_back(self, table: Table) -> bool:
        """A rematch starts once everyone it invited has a seat again (inside a
        change); whether it did."""
        seated = {seat.user_id for seat in table.seats}
        if table.invited and seated.issuperset(table.invited):
            self.deal(table, time.time())
            return True
        return False

    def deal(self, table: Table, when: float) -> None:
        """Start the match: deal the first hand and start its first turn's clock."""
        table.match = Match.start([seat.key for seat in table.seats], table.rules, table.seed)
        table.stage = Stage.PLAYING
        table.invited.clear()
        dealer = table.name_of(table.match.hand.view_for(None).dealer)
        table.new_hand_log(N_("Hand {number}: {dealer} dealt"), number=1, dealer=dealer)
        table.last_human_action = when
        self.moves.start_clock(table)

    async def join(self, table: Table, ask: Ask) -> Done:
        """Take a seat in the open lobby, with the table locked; a rematch deals
        once all its players are back, and each is sent their cards."""
        if self.tables.get(table.channel_id) is not table:
            raise Refusal(_(ALREADY_STARTED))
        if ask.stale(table):
            raise Refusal(_(OUT_OF_DATE))
        done = Done()
        async with self.work.change(table) as change:
            self.take_seat(table, ask)
            dealt = self.deal_if_all_back(table)
            await change.save()
            if ask.answer is not None:
                await ask.answer(done)
        if dealt:
            self.events.emit(table, Dealt(ask.door))
        return done

    async def leave(self, table: Table, ask: Ask) -> Done:
        """Give up a seat in the lobby, with the table locked (the host closes
        it with Cancel instead)."""
        if table.stage is not Stage.LOBBY:
            raise Refusal(_(ALREADY_STARTED))
        seat = table.seat_of_user(ask.user_id)
        if seat is None:
            raise Refusal(_("You don't have a seat at this table."))
        if ask.user_id == table.host_id:
            raise Refusal(_("You are the host: press Cancel to close the lobby instead."))
        done = Done()
        async with self.work.change(table, refresh=ask.answer is None) as change:
            table.seats.remove(seat)
            await change.save()
            if ask.answer is not None:
                await ask.answer(done)
        return done

    # --- a rematch ------------------------------------------------------------------------
    def check_rematch(self, ended: Table | None, ask: Ask, *,
                      game: str | None = None) -> Table:
        """The match a rematch of which the asker may call; a refusal says why
        not. ``game``: the game the asker's button belongs to (the chat's)."""
        if ended is not None and game is not None and ended.game_id != game:
            raise Refusal(_(LATER_GAME, rematch=ask.label(REMATCH_LABEL, ended)))
        if ended is None or ended.match is None or not ended.match.is_over or ask.stale(ended):
            raise Refusal(_(NOT_AT_HAND))
        if ended.seat_of_user(ask.user_id) is None:
            raise Refusal(_("Only the players of that match can call a rematch."))
        return ended

    def rematch(self, ended: Table | None, ask: Ask, *, game: str | None = None) -> Table:
        """The lobby of a rematch of ``ended``: the same rules and computers, the
        asker seated as host and its other players invited. The door opens it."""
        ended = self.check_rematch(ended, ask, game=game)
        mine = ended.seat_of_user(ask.user_id)
        if self.tables.get(ended.channel_id) is not None:
            raise Refusal(_(GAME_OPEN_HERE))
        table = self.new_table(ended.place, ask.user_id, ended.rules, ended.language)
        for seat in ended.seats:
            if seat is mine:
                # Their nickname as it is now, by either door.
                table.seats.append(seat_for(ask, kept=seat.name))
            elif seat.is_computer:
                table.seats.append(Seat(key=seat.key, name=seat.name, level=seat.level))
            else:
                assert seat.user_id is not None
                table.invited.append(seat.user_id)
        table.next_cpu_number = ended.next_cpu_number
        if not table.invited:
            # Alone against the computers: nobody to wait for, it deals at once.
            self.deal(table, time.time())
        return table

    async def put_in_play(self, table: Table, ask: Ask) -> None:
        """Open a table a door made and does not show itself (a lobby, or a
        rematch dealt at once): saved, said to every door, and, if dealt, its
        first turn begun (``TableWork.open``)."""
        await self.work.open(table)
        self.events.emit(table, Opened())
        if table.stage is Stage.PLAYING:
            self.events.emit(table, Dealt(ask.door))

    # --- opening a lobby, and the host's controls ------------------------------------
    async def open(self, place: Place, ask: Ask, rules: HouseRules, language: str) -> Table:
        """A lobby in the channel with the asker as host, its public message
        posted as soon as the channel allows (where it takes none, the game goes
        on in the Activity alone)."""
        if self.tables.get(place.channel_id) is not None:
            raise Refusal(_(GAME_OPEN_HERE))
        table = self.new_lobby(place, ask, rules, language)
        await self.put_in_play(table, ask)
        return table

    def _in_lobby(self, table: Table, ask: Ask) -> None:
        if table.stage is not Stage.LOBBY:
            raise Refusal(_(ALREADY_STARTED))

    async def add_computer(self, table: Table, ask: Ask, level: str | None) -> Done:
        """Seat a computer player of ``level`` (easy unless one of the levels)."""
        self._in_lobby(table, ask)
        if len(table.seats) >= MAX_SEATS:
            raise Refusal(table_full())
        chosen = level if level in COMPUTER_LEVELS else "easy"
        return await self._lobby_change(table, ask, lambda: self._seat_computer(table, chosen))

    @staticmethod
    def _seat_computer(table: Table, level: str) -> None:
        number = table.next_cpu_number
        table.next_cpu_number += 1
        name = COMPUTER_NAMES[(number - 1) % len(COMPUTER_NAMES)]
        if number > len(COMPUTER_NAMES):
            name += f" {number}"
        table.seats.append(Seat(key=f"cpu{number}", name=name, level=level))

    async def remove_computer(self, table: Table, ask: Ask) -> Done:
        """Take the last computer player off the table."""
        self._in_lobby(table, ask)
        computers = [seat for seat in table.seats if seat.is_computer]
        if not computers:
            raise Refusal(_("There is no computer player to remove."))
        return await self._lobby_change(table, ask, lambda: table.seats.remove(computers[-1]))

    async def _lobby_change(self, table: Table, ask: Ask, make: Callable[[], object]) -> Done:
        done = Done()
        async with self.work.change(table, refresh=not ask.redraws_table) as change:
            make()
            await change.save()
            if ask.answer is not None:
                await ask.answer(done)
        return done

    async def start(self, table: Table, ask: Ask, when: float) -> Done:
        """Deal the first hand; every player is sent their cards."""
        self._in_lobby(table, ask)
        if len(table.seats) < MIN_SEATS:
            raise Refusal(
                n_(
                    "At least {n} player is needed: wait for someone to Join, "
                    "or add a computer player.",
                    "At least {n} players are needed: wait for someone to Join, "
                    "or add a computer player.",
                    MIN_SEATS,
                )
            )
        done = Done()
        async with self.work.change(table, refresh=not ask.redraws_table) as change:
            self.deal(table, when)
            await change.save()
            try:
                if ask.answer is not None:
                    await ask.answer(done)
            finally:
                self.events.emit(table, Dealt(ask.door))
        return done

    async def cancel(self, table: Table, ask: Ask) -> Done:
        """Close the lobby; its message says the host cancelled it."""
        self._in_lobby(table, ask)
        host = table.seat_of_user(table.host_id)
        await self.work.close(table, LogLine.of(CANCELLED_BY,
                                                who=host.name if host is not None else "?"))
        done = Done()
        if not ask.redraws_table:
            self.events.emit(table, Closed(LogLine.of(HOST_CANCELLED)))
        if ask.answer is not None:
            await ask.answer(done)
        return done
