"""The Activity's door to a table: a participant's intents, played through the
same lock, the same unit of work and the same moves as the chat's buttons.

An intent names a move and the cards it uses; nothing in it is trusted but
what the engine accepts. A move is made from a picture of the table: one sent
from a picture older than the table now (``version``) is refused as out of
date (``Table.position``), so a move replayed after a reconnect, or sent twice
(even across a restart of the bot), is played once.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from engine import (
    Action,
    Card,
    Discard,
    DrawStock,
    Hints,
    LayOff,
    MeldCards,
    RummyError,
    TakeDiscard,
)
from presentation import render
from presentation.explain import explain
from presentation.hand_message import HandLayout
from presentation.hand_messages import HandMessages
from presentation.i18n import LANGUAGES, N_, _, speaking
from presentation.notify import Notifier
from presentation.refresh import TableRefresher
from presentation.render import TEXT_CARDS
from presentation.table_message import result_layout
from presentation.table_state import table_state
from tables import NotSaved, Refusal, Seat, Stage, Table, TableRegistry, TableWork

from .activity_lobby import ActivityLobbies
from .automation import cards_of
from .hints import HintBook
from .intents import MOVES, Answer, Intent
from .lobby import Lobby
from .moves import Moves
from .prefs import PlayerPrefs
from .tasks import Supervisor

NOT_SEATED = N_("You are watching this table: only its players can play.")
OUT_OF_DATE = N_("The table moved on before that arrived: here it is as it is now.")
NO_TABLE = N_("There is no game in this channel.")
NOT_YOUR_TURN = N_("Not your turn yet: {who} is playing.")
AUTOPILOT = N_("A computer is playing your seat: press Take my seat back first.")

def _cards(codes: tuple[str, ...]) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(code) for code in codes)
    except RummyError as error:
        raise Refusal(explain(error)) from None


class TableDoor:
    """Plays the Activity's intents at the live tables."""

    def __init__(
        self,
        work: TableWork,
        moves: Moves,
        prefs: PlayerPrefs,
        hand_messages: HandMessages,
        refresher: TableRefresher,
        tasks: Supervisor,
        lobby: Lobby,
        notifier: Notifier,
        hints: HintBook,
    ) -> None:
        self.hints = hints
        self.lobbies = ActivityLobbies(work, lobby, refresher, notifier)
        self.work = work
        self.tables: TableRegistry = work.tables
        self.moves = moves
        self.prefs = prefs
        self.hand_messages = hand_messages
        self.refresher = refresher
        self.tasks = tasks

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

    def state_for(self, user_id: int, channel_id: int) -> dict[str, Any]:
        """The participant's picture of the channel's table, in their language."""
        table = self.shown_table(channel_id)
        seat = table.seat_of_user(user_id) if table is not None else None
        if table is not None and seat is not None:
            # A page that is sent the table is open in front of its player: no
            # "your turn" DM is needed to call them (flows.nudges).
            table.seen_at[seat.key] = time.time()
        with speaking(self.language_of(user_id, table)):
            return table_state(table, seat)

    # --- what a participant does -------------------------------------------------------
    async def act(self, user_id: int, channel_id: int, intent: Intent, *, name: str = "") -> Answer:
        """Play ``intent`` for member ``user_id`` (``name``: as Discord gave it, for a
        seat they take); a refusal changes nothing and says why in their language."""
        table = self.shown_table(channel_id)
        with speaking(self.language_of(user_id, table)):
            if table is None:
                return Answer("refused", _(NO_TABLE))
            try:
                if intent.op == "rematch":
                    return await self.lobbies.rematch(user_id, table, intent.version)
                if intent.op == "join":
                    return await self.lobbies.join(user_id, name, table, intent.version)
                if intent.op == "hint":
                    # Only looks: the expert thinks with the table free for moves.
                    await table.lock.settled()
                    return await self._hint(user_id, table)
                async with table.lock:
                    return await self._act(user_id, table, intent)
            except NotSaved as refusal:
                return Answer("refused", _(str(refusal)))
            except Refusal as refusal:
                return Answer("refused", str(refusal))

    async def _act(self, user_id: int, table: Table, intent: Intent) -> Answer:
        if intent.op == "language":
            return await self._choose_language(user_id, table, intent.language)
        if intent.op == "log":
            return Answer("log", lines=render.hand_log_text(table).splitlines())
        if self.tables.get(table.channel_id) is not table:
            raise Refusal(_(NO_TABLE))
        seat = table.seat_of_user(user_id)
        if seat is None:
            raise Refusal(_(NOT_SEATED))
        if table.stage is Stage.LOBBY or table.match is None:
            raise Refusal(_("The game has not started yet."))
        if intent.op in MOVES and intent.version != table.position:
            raise Refusal(_(OUT_OF_DATE))
        if intent.op == "next_hand":
            return await self._next_hand(table)
        if intent.op == "reclaim":
            return await self._reclaim(table, seat)
        if intent.op == "sort":
            mode = table.sort_modes.get(seat.key, "rank")
            table.sort_modes[seat.key] = "suit" if mode == "rank" else "rank"
            return Answer("done")
        if table.stage is not Stage.PLAYING:
            raise Refusal(_("This hand is over."))
        view = table.view_of(seat.key)
        if view.turn != seat.key:
            raise Refusal(_(NOT_YOUR_TURN, who=table.name_of(view.turn)))
        if intent.op == "why":
            return Answer("why", self._why_not(table, seat, _cards(intent.cards)))
        if seat.autopilot:
            raise Refusal(_(AUTOPILOT))
        action = self._action(intent)
        try:
            async with self.work.change(table) as change:
                self.moves.apply(table, seat.key, [action], by_human=True)
                await change.save()
        except RummyError as error:
            raise Refusal(explain(error)) from None
        # The player's own chat hand message shows the move at once too.
        if seat.key in table.hand_messages:
            self.tasks.spawn(self.hand_messages.refresh(table, seat.key), "hand-refresh")
        return Answer("done")

    def _action(self, intent: Intent) -> Action:
        cards = _cards(intent.cards)
        if intent.op == "draw":
            return DrawStock()
        if intent.op == "take":
            return TakeDiscard()
        if intent.op == "meld":
            return MeldCards(cards)
        if intent.op == "lay_off":
            if intent.meld is None:
                raise Refusal(_("There is no such meld on the table."))
            return LayOff(cards, intent.meld)
        if len(cards) != 1:
            raise Refusal(_("Pick exactly one card to discard."))
        return Discard(cards[0])

    def _why_not(self, table: Table, seat: Seat, cards: tuple[Card, ...]) -> str:
        """Why the picked cards make no move: the hand message's line under its
        dim buttons, word for word."""
        return HandLayout(table, seat.key, TEXT_CARDS).why_not(cards) or ""

    async def _hint(self, user_id: int, table: Table) -> Answer:
        seat = self._seat_on_turn(user_id, table)
        if table.rules.hints is Hints.OFF:
            raise Refusal(_("This table plays without hints."))
        view = table.view_of(seat.key)
        position = table.position
        advice = await asyncio.shield(self.hints.ask(table, seat.key))
        if table.position != position:
            raise Refusal(_(OUT_OF_DATE))
        hint = _("💡 Hint: {advice}", advice=render.advice(advice, view))
        return Answer("hint", hint, [card.code for card in cards_of(advice)])

    def _seat_on_turn(self, user_id: int, table: Table) -> Seat:
        """The member's seat, when it is their turn in the hand being played."""
        if self.tables.get(table.channel_id) is not table:
            raise Refusal(_(NO_TABLE))
        seat = table.seat_of_user(user_id)
        if seat is None:
            raise Refusal(_(NOT_SEATED))
        if table.stage is Stage.LOBBY or table.match is None:
            raise Refusal(_("The game has not started yet."))
        if table.stage is not Stage.PLAYING:
            raise Refusal(_("This hand is over."))
        turn = table.view_of(seat.key).turn
        if turn != seat.key:
            raise Refusal(_(NOT_YOUR_TURN, who=table.name_of(turn)))
        return seat

    async def _reclaim(self, table: Table, seat: Seat) -> Answer:
        if not seat.autopilot:
            raise Refusal(_("Your seat is already yours."))
        async with self.work.change(table) as change:
            self.moves.give_back(table, seat)
            await change.save()
        return Answer("done", _("Your seat is yours again."))

    async def _next_hand(self, table: Table) -> Answer:
        """Deal the next hand, as the table's Next hand button does."""
        match = table.match
        if table.stage is not Stage.HAND_OVER or match is None or match.hand.outcome is None:
            raise Refusal(_("That button is from an earlier hand; the next hand is already dealt."))
        with speaking(table.language):
            finished = result_layout(table, match.hand.outcome, dealt_on=True)
        finished_message = table.message_id
        async with self.work.change(table, refresh=False) as change:
            self.moves.deal_next_hand(table)
            await change.save()
        # As in the chat: the finished hand keeps its message, without its
        # button, and the new hand goes on a fresh one.
        if finished_message is not None:
            self.tasks.spawn(
                self.refresher.leave_as(table, finished_message, finished), "table-finished"
            )
        self.refresher.move(table)
        return Answer("done")

    async def _choose_language(self, user_id: int, table: Table, code: str | None) -> Answer:
        if code is not None and code not in LANGUAGES:
            raise Refusal(_("That language is not one I speak."))
        await self.prefs.choose_language(user_id, code)
        seat = table.seat_of_user(user_id)
        if seat is not None and code is not None:
            seat.language = code
        return Answer("done")
