"""What a seated player does at a table, whichever door they came by: the
chat's buttons (``chat.table_buttons``) or the Activity's page (``web.table_door``).

One function a thing they can do does all of it: the checks, each refusal
worded once and said in the asker's language; the move, built from the cards
they picked; the unit of work; and what follows it. What follows a saved
change (the public table, every open hand message, the Activity's pages,
turn DMs, the computers' turns) is ``TableWork``'s; a new hand's deal DM and
the finished hand's message are added here. A door turns its input into an
``Ask`` and the ``Done`` it gets back into its own form: a button's edit, a
WebSocket frame.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine import (
    Action,
    Card,
    Discard,
    DrawStock,
    Hints,
    LayOff,
    MeldCards,
    Phase,
    RummyError,
    TakeDiscard,
)
from presentation import render
from presentation.explain import explain
from presentation.i18n import LANGUAGES, N_, _, current, label_on, language_for, use
from presentation.labels import NEXT_HAND_LABEL
from tables import Refusal, Seat, Stage, Table, TableWork

from .engine_moves import Moves
from .events import Dealt, Moved, TableEvents
from .gate import seat_at
from .hints import HintBook
from .prefs import PlayerPrefs
from .seat_view import Choices, SeatView
from .timers import cards_of

NO_TABLE = N_("There is no game in this channel.")
NOT_STARTED = N_("The game has not started yet.")
HAND_IS_OVER = N_("This hand is over: press **{next_hand}** on the table.")
OUT_OF_DATE = N_("The table moved on before that arrived: here it is as it is now.")
NOT_YOUR_TURN = N_("Not your turn yet: {who} is playing.")
AUTOPILOT = N_("A computer is playing your seat: press Take my seat back first.")
DRAW_FIRST = N_("Draw first: from the stock, or take the top of the discard pile.")
EARLIER_HAND = N_("That button is from an earlier hand; the next hand is already dealt.")

# The moves of a turn, by the name both doors give them.
PLAYS = ("draw", "take", "meld", "lay_off", "discard")


@dataclass(frozen=True)
class Done:
    """What a player's action came to, for their door to show."""

    note: str = ""
    cards: tuple[str, ...] = ()  # a hint's cards, picked for the player
    lines: tuple[str, ...] = ()  # the hand's log


# The door's own answer to a saved change, given before the lock is let go: the
# chat redraws the message that was clicked. Without one, the mover's door
# hears ``Moved`` and brings their view up to date itself.
AnswerInPlace = Callable[[Done], Awaitable[None]]


@dataclass(frozen=True)
class Ask:
    """A member's request, as either door received it."""

    user_id: int
    # The door it came by, as the door names itself: passed on in the events
    # it causes, never read by the game.
    door: str
    # What the asker saw when they asked, to tell a request made on an older
    # picture: the hand its chat message showed, or the Activity's position.
    hand: int | None = None
    position: str | None = None
    cards: tuple[str, ...] = ()  # card codes, as picked
    meld: int | None = None  # the meld a lay-off goes onto, by its index
    name: str = ""  # the member's name as the door knows it, for a seat they take
    answer: AnswerInPlace | None = None
    # The door's answer is itself the public table's new look (a click on the
    # lobby's message): the table need not be drawn again after it.
    redraws_table: bool = False
    # The asker's buttons are the public table's, which speaks the table's
    # language (the chat's); else the asker's own page draws them in theirs.
    table_labels: bool = False

    def label(self, message: str, table: Table) -> str:
        """A table button's label as the asker sees it."""
        return label_on(message, table.language) if self.table_labels else _(message)

    def stale(self, table: Table) -> bool:
        if self.position is not None and self.position != table.position:
            return True
        return self.hand is not None and self.hand != table.hand_number


def in_hand(table: Table, ask: Ask) -> Seat:
    """The asker's seat in the hand being played, as they saw it."""
    seat = seat_at(table, ask.user_id)
    if table.stage is Stage.HAND_OVER:
        raise Refusal(_(HAND_IS_OVER, next_hand=ask.label(NEXT_HAND_LABEL, table)))
    if table.stage is not Stage.PLAYING or table.match is None:
        raise Refusal(_(NOT_STARTED))
    if ask.stale(table):
        raise Refusal(_(OUT_OF_DATE))
    return seat


def on_turn(table: Table, ask: Ask) -> Seat:
    """The asker's seat, when it is their turn in the hand being played."""
    seat = in_hand(table, ask)
    assert table.match is not None
    # The hand's own turn: a draw need not work out the player's view (its
    # legal moves) just to be checked.
    turn = table.match.hand.turn
    if turn != seat.key:
        raise Refusal(_(NOT_YOUR_TURN, who=table.name_of(turn)))
    return seat


def picked(table: Table, seat: Seat, codes: tuple[str, ...]) -> tuple[Card, ...]:
    """The picked cards, in the order they are held; a refusal for a card that
    is not a card, or not in the player's hand."""
    try:
        wanted = {Card.parse(code) for code in codes}
    except RummyError as error:
        raise Refusal(explain(error)) from None
    assert table.match is not None
    held = table.match.hand.hand_of(seat.key)
    if not wanted <= set(held):
        raise Refusal(_("That card is no longer in your hand."))
    return tuple(card for card in held if card in wanted)


def build_action(table: Table, seat: Seat, op: str, cards: tuple[Card, ...],
                 meld: int | None) -> Action:
    """The engine's move for a turn's ``op`` with the picked cards; what the
    engine would refuse anyway is refused here in plainer words."""
    if op == "draw":
        return DrawStock()
    if op == "take":
        return TakeDiscard()
    view = table.view_of(seat.key)
    if view.phase is not Phase.PLAY:
        raise Refusal(_(DRAW_FIRST))
    choices = Choices.of(view, cards)
    if op == "meld":
        if len(cards) < 3:
            raise Refusal(_("Pick at least 3 cards to meld: 3 or 4 of one rank, or a run."))
        # Not a legal meld: the engine says why, in its own words.
        return choices.meld or MeldCards(cards)
    if op == "lay_off":
        if not cards:
            raise Refusal(_("Pick the cards to lay off first."))
        if meld is None:
            raise Refusal(_("There is no such meld on the table."))
        fitting = [lay_off for lay_off in choices.lay_offs if lay_off.meld == meld]
        return fitting[0] if fitting else LayOff(cards, meld)
    if len(cards) != 1:
        raise Refusal(_("Pick exactly one card to discard."))
    return choices.discard or Discard(cards[0])


class SeatMoves:
    """Every action of a seated player, for both doors."""

    def __init__(
        self,
        work: TableWork,
        moves: Moves,
        hints: HintBook,
        prefs: PlayerPrefs,
        events: TableEvents,
    ) -> None:
        self.work = work
        self.moves = moves
        self.hints = hints
        self.prefs = prefs
        self.events = events

    # --- the turn's moves ---------------------------------------------------------------
    async def play(self, table: Table, ask: Ask, op: str) -> Done:
        """Draw, take, meld, lay off or discard, for the asker, with the table
        locked: saved, answered, then followed everywhere."""
        seat = on_turn(table, ask)
        if seat.autopilot:
            raise Refusal(_(AUTOPILOT))
        action = build_action(table, seat, op, picked(table, seat, ask.cards), ask.meld)
        return await self._change(table, ask, seat, Done(),
                                  lambda: self.moves.apply(table, seat.key, [action],
                                                           by_human=True))

    async def reclaim(self, table: Table, ask: Ask) -> Done:
        """Take the seat back from the computer that plays it."""
        seat = seat_at(table, ask.user_id)
        if table.match is None:
            raise Refusal(_(NOT_STARTED))
        if not seat.autopilot:
            raise Refusal(_("Your seat is already yours."))
        done = Done(note=_("Your seat is yours again."))
        return await self._change(table, ask, seat, done,
                                  lambda: self.moves.give_back(table, seat))

    async def _change(self, table: Table, ask: Ask, seat: Seat, done: Done,
                      make: Callable[[], object]) -> Done:
        try:
            async with self.work.change(table) as change:
                make()
                await change.save()
                if ask.answer is not None:
                    await ask.answer(done)
        except RummyError as error:
            raise Refusal(explain(error)) from None
        if ask.answer is None:
            self.events.emit(table, Moved(seat.key))
        return done

    async def next_hand(self, table: Table, ask: Ask) -> Done:
        """Deal the next hand; every door hears it dealt, with the hand just
        played (the chat keeps its message as that hand's result)."""
        seat_at(table, ask.user_id)
        match = table.match
        if (table.stage is not Stage.HAND_OVER or match is None
                or match.hand.outcome is None or ask.stale(table)):
            raise Refusal(_(EARLIER_HAND))
        finished, finished_hand = match.hand.outcome, match.hand_number
        done = Done()
        async with self.work.change(table, refresh=False) as change:
            self.moves.deal_next_hand(table)
            await change.save()
            # The asker's door answers first; what follows the deal (a new
            # message, DMs) must not make the click wait on rate limits.
            try:
                if ask.answer is not None:
                    await ask.answer(done)
            finally:
                self.events.emit(table, Dealt(ask.door, finished, finished_hand))
        return done

    # --- what only answers the asker ---------------------------------------------------
    async def hint(self, table: Table, ask: Ask) -> Done:
        """The strongest computer player's move for the asker now, with its cards
        picked; never played. Asked with the table settled, not locked: the
        expert thinks with the table free for moves."""
        seat = on_turn(table, ask)
        if table.rules.hints is Hints.OFF:
            raise Refusal(_("This table plays without hints."))
        view = table.view_of(seat.key)
        position = table.position
        advice = await asyncio.shield(self.hints.ask(table, seat.key))
        await table.lock.settled()
        if table.position != position:
            # A move while the expert thought: the hint is for a table that is gone.
            raise Refusal(_(OUT_OF_DATE))
        return Done(note=_("💡 Hint: {advice}", advice=render.advice(advice, view)),
                    cards=tuple(card.code for card in cards_of(advice)))

    def why_not(self, table: Table, ask: Ask) -> Done:
        """Why the picked cards make no move (``SeatView.why_not``), as the hand
        message says it under its dim buttons."""
        seat = on_turn(table, ask)
        cards = picked(table, seat, ask.cards)
        refused = SeatView.of(table, seat.key).why_not(cards)
        return Done(note="" if refused is None else explain(refused))

    def sort(self, table: Table, ask: Ask) -> Done:
        """Sort the asker's hand by suit, or by rank again."""
        seat = in_hand(table, ask)
        mode = table.sort_modes.get(seat.key, "rank")
        table.sort_modes[seat.key] = "suit" if mode == "rank" else "rank"
        return Done()

    def log(self, table: Table) -> Done:
        """Every move of the hand so far: what everyone at the table saw."""
        return Done(lines=tuple(render.hand_log_text(table).splitlines()))

    async def choose_language(self, table: Table | None, ask: Ask, code: str | None,
                              client_locale: str | None) -> Done:
        """Read the bot in ``code`` from now on, anywhere (None: as the Discord
        app, ``client_locale`` where the door knows it); said in it at once."""
        if code is not None and code not in LANGUAGES:
            raise Refusal(_("That language is not one I speak."))
        await self.prefs.choose_language(ask.user_id, code)
        seat = table.seat_of_user(ask.user_id) if table is not None else None
        if code is not None:
            language = code
        elif client_locale is not None:
            language = language_for(client_locale)
        else:
            # The Activity is not told the app's language: the seat keeps the
            # one it last saw, until the player's next click in the chat.
            language = seat.language if seat is not None else current().code
        use(language)
        if seat is not None:
            seat.language = language  # what their DMs and hand messages speak
        return Done(note=_("Saved."))
