"""The Activity's door to a table: a page's intent in, its answer out.

An intent names one of the buttons' own actions; its declaration says who
may do it and how it waits for the table, as for a click (``chat.router``
does the same for the chat). What the action does, its checks and refusals
included, is ``game.seat_moves``'s and ``game.lobby_seats``'s: the very
functions the chat's buttons call. A change is made from a picture of the
table (``version``, ``Table.position``): one sent from an older picture is
refused as out of date, so a move replayed after a reconnect, or sent twice
(even across a restart of the bot), is played once.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engine import RummyError
from game.gate import admitted
from game.lobby_seats import LobbySeats
from game.prefs import PlayerPrefs
from game.seat_moves import NO_TABLE, PLAYS, Ask, Done, SeatMoves
from game.server_rules import ServerRules, merge_rules
from presentation.actions import Locking
from presentation.explain import explain
from presentation.i18n import _, speaking
from tables import NotSaved, Place, Refusal, Table, TableRegistry, TableWork

from .lobby_state import new_game_form
from .page_protocol import DONE, HINT, LOG, REFUSED, WHY, Answer, Intent
from .table_state import closed_state, table_state

# How the Activity names itself to the game (``Ask.door``).
ACTIVITY = "activity"

# A server's own Discord language, by its id, as the bot's cache of servers knows it.
GuildLocale = Callable[[int], str | None]

# What each intent comes to: the flow it calls, and the kind of answer its page gets.
Step = Callable[[Table, Ask, Intent], Awaitable[Answer]]


def _answer(kind: str, done: Done) -> Answer:
    return Answer(kind, done.note, list(done.cards), list(done.lines))


class TableDoor:
    """Plays the Activity's intents at the live tables."""

    def __init__(
        self,
        seat_moves: SeatMoves,
        lobby_seats: LobbySeats,
        work: TableWork,
        prefs: PlayerPrefs,
        server_rules: ServerRules,
        guild_locale: GuildLocale,
        bot_is_in: Callable[[int], bool],
    ) -> None:
        self.server_rules = server_rules
        self.guild_locale = guild_locale
        # Whether the bot is a member of a server (its chat door can post there).
        self.bot_is_in = bot_is_in
        self.seat_moves = seat_moves
        self.lobby_seats = lobby_seats
        self.work = work
        self.tables: TableRegistry = work.tables
        self.prefs = prefs
        self._steps: dict[str, Step] = {op: self._play for op in PLAYS} | {
            "next_hand": self._next_hand,
            "reclaim": self._reclaim,
            "hint": self._hint,
            "why": self._why,
            "sort": self._sort,
            "log": self._log,
            "language": self._language,
            "join": self._join,
            "leave": self._leave,
            "add_computer": self._add_computer,
            "remove_computer": self._remove_computer,
            "start": self._start,
            "cancel": self._cancel,
        }

    # --- what a participant sees ------------------------------------------------------
    def shown_table(self, channel_id: int) -> Table | None:
        """The channel's live table, else the one that just ended there (its
        result stays on screen until a new game opens)."""
        return self.tables.get(channel_id) or self.tables.ended(channel_id)

    def language_of(self, user_id: int, table: Table | None) -> str:
        """The member's own choice, else the language of their Discord app as their
        seat (here, or at the channel's game before) last saw it, else the table's."""
        seat = table.seat_of_user(user_id) if table is not None else None
        if seat is None and table is not None:
            ended = self.tables.ended(table.channel_id)
            seat = ended.seat_of_user(user_id) if ended is not None else None
        fallback = seat.language if seat is not None else (table.language if table else "en")
        return self.prefs.of(user_id).language or fallback

    def state_for(self, user_id: int, place: Place) -> dict[str, Any]:
        """The participant's picture of the channel's table, in their language;
        with no game on, the house rules a new one would start with, and why
        the last one stopped if it stopped before its match was over."""
        channel_id = place.channel_id
        table = self.shown_table(channel_id)
        with speaking(self.language_of(user_id, table)):
            if table is not None and self.tables.get(channel_id) is None and not (
                    table.match is not None and table.match.is_over):
                # Ended, cancelled or forgotten: its table is no game to show any
                # more, only what happened to it, and the way to a new one.
                state = closed_state(table)
                state["new_game"] = new_game_form(self.server_rules.of(place.board_id), again=True)
                return state
            seat = table.seat_of_user(user_id) if table is not None else None
            if table is not None and seat is not None:
                # A page that is sent the table is open in front of its player: no
                # "your turn" DM is needed to call them (chat.turn_dms).
                table.seen_at[seat.key] = time.time()
            state = table_state(table, seat, user_id, self.tables.ended(channel_id))
            if self.tables.get(channel_id) is None:
                state["new_game"] = new_game_form(self.server_rules.of(place.board_id))
            return state

    # --- what a participant does -------------------------------------------------------
    async def act(self, user_id: int, place: Place, intent: Intent, *,
                  name: str = "") -> Answer:
        """Play ``intent`` for member ``user_id`` (``name``: as Discord gave it, for a
        seat they take); a refusal changes nothing and says why in their language."""
        table = self.shown_table(place.channel_id)
        with speaking(self.language_of(user_id, table)):
            ask = Ask(user_id, ACTIVITY,
                      position=intent.version if intent.action.locking is not Locking.LOOK
                      else None,
                      cards=intent.cards, meld=None if intent.meld is None else intent.meld - 1,
                      name=name)
            try:
                if intent.op == "open":
                    return await self._open(place, ask, intent)
                if table is None:
                    raise Refusal(_(NO_TABLE))
                if intent.op == "rematch":
                    return await self._rematch(table, ask)
                return await self._declared(table, ask, intent)
            except NotSaved as refusal:
                return Answer(REFUSED, _(str(refusal)))
            except Refusal as refusal:
                return Answer(REFUSED, str(refusal))

    async def _declared(self, table: Table, ask: Ask, intent: Intent) -> Answer:
        """Through the gate, as the action's declaration says, and played. A game
        that is over is only its result: its log and a language still mean
        something there."""
        step = self._steps[intent.op]
        async with admitted(self.tables, table, ask.user_id, intent.action,
                            after_the_end=intent.op in ("log", "language")):
            return await step(table, ask, intent)

    # --- the steps ---------------------------------------------------------------------
    async def _play(self, table: Table, ask: Ask, intent: Intent) -> Answer:
        return _answer(DONE, await self.seat_moves.play(table, ask, intent.op))

    async def _next_hand(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, await self.seat_moves.next_hand(table, ask))

    async def _reclaim(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, await self.seat_moves.reclaim(table, ask))

    async def _hint(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(HINT, await self.seat_moves.hint(table, ask))

    async def _why(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(WHY, self.seat_moves.why_not(table, ask))

    async def _sort(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, self.seat_moves.sort(table, ask))

    async def _log(self, table: Table, _ask: Ask, _intent: Intent) -> Answer:
        return _answer(LOG, self.seat_moves.log(table))

    async def _language(self, table: Table, ask: Ask, intent: Intent) -> Answer:
        done = await self.seat_moves.choose_language(table, ask, intent.language, None)
        return _answer(DONE, done)

    async def _join(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, await self.lobby_seats.join(table, ask))

    async def _leave(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, await self.lobby_seats.leave(table, ask))

    async def _add_computer(self, table: Table, ask: Ask, intent: Intent) -> Answer:
        return _answer(DONE, await self.lobby_seats.add_computer(table, ask, intent.level))

    async def _remove_computer(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, await self.lobby_seats.remove_computer(table, ask))

    async def _start(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, await self.lobby_seats.start(table, ask, time.time()))

    async def _cancel(self, table: Table, ask: Ask, _intent: Intent) -> Answer:
        return _answer(DONE, await self.lobby_seats.cancel(table, ask))

    async def _open(self, place: Place, ask: Ask, intent: Intent) -> Answer:
        """A lobby opened from the Activity, with the house rules the asker chose
        on top of the server's, its tables in the server's language."""
        try:
            rules = merge_rules(self.server_rules.of(place.board_id), dict(intent.rules))
        except RummyError as error:
            raise Refusal(explain(error)) from None
        language = self.server_rules.language_of(place.board_id,
                                                 self.guild_locale(place.board_id))
        if not place.activity_only and not self.bot_is_in(place.board_id):
            # A server where a member's own install launched it: no table message
            # could be posted there.
            place = dataclasses.replace(place, activity_only=True)
        await self.lobby_seats.open(place, ask, rules, language)
        return Answer(DONE)

    async def _rematch(self, ended: Table, ask: Ask) -> Answer:
        """A rematch of the match on screen, posted in the channel like any lobby."""
        await self.lobby_seats.put_in_play(self.lobby_seats.rematch(ended, ask), ask)
        return Answer(DONE)
