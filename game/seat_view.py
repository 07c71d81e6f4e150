"""One seat's view of a table, as data both doors draw in their own way.

The chat's hand message and the Activity's page show the same things: whose
turn it is and what to do, what happened since the player last moved, which
moves are legal and why a pick is none. Worked out once here, from the
engine's ``HandView`` and what the table keeps beside it (its log, the card
just drawn, the turn's deadline), neither door reads the other's text. It
holds no words: a refusal is the engine's own, a template each door says in
its reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine import (
    Card,
    Discard,
    DrawStock,
    HandView,
    IllegalMoveError,
    LayOff,
    MeldCards,
    Phase,
    RummyError,
    TakeDiscard,
    sort_by_rank,
    sort_by_suit,
)
from engine.words import N_
from tables import LogLine, Table

# Lines of "since your last turn" shown: the newest of them, so that a round
# of six players stays within a phone screen.
SINCE_LINES = 8
# A selection fits at most this many melds at once: a set of its rank and the
# runs of its suit at either end.
MAX_FITTING_MELDS = 3
# Two picked cards that fit no meld on the table: too few to meld, too many to
# discard.
TWO_CARDS = N_("Two cards are no meld, and fit none on the table: pick a third, "
               "or one card to discard.")


def sorted_hand(cards: Sequence[Card], mode: str) -> list[Card]:
    """The hand in the order its player chose: ``suit``, else by rank."""
    return sort_by_suit(cards) if mode == "suit" else sort_by_rank(cards)


@dataclass(frozen=True)
class Choices:
    """What the selected cards can do now, as the engine's own legal actions."""

    meld: MeldCards | None
    lay_offs: tuple[LayOff, ...]
    discard: Discard | None

    @classmethod
    def of(cls, view: HandView, selected: Sequence[Card]) -> Choices:
        chosen = frozenset(selected)
        meld: MeldCards | None = None
        lay_offs: list[LayOff] = []
        discard: Discard | None = None
        for action in view.legal:
            if isinstance(action, MeldCards) and frozenset(action.cards) == chosen:
                meld = action
            elif isinstance(action, LayOff) and frozenset(action.cards) == chosen:
                lay_offs.append(action)
            elif isinstance(action, Discard) and len(selected) == 1 and action.card in chosen:
                discard = action
        return cls(meld, tuple(lay_offs[:MAX_FITTING_MELDS]), discard)


@dataclass(frozen=True)
class Legal:
    """Every move the seat may make now; a meld of the same cards found in more
    than one order is listed once."""

    draw: bool
    take: bool
    melds: tuple[MeldCards, ...]
    lay_offs: tuple[LayOff, ...]
    discards: tuple[Discard, ...]

    @classmethod
    def of(cls, view: HandView) -> Legal:
        melds: list[MeldCards] = []
        seen: set[frozenset[Card]] = set()
        for action in view.legal:
            if isinstance(action, MeldCards) and frozenset(action.cards) not in seen:
                seen.add(frozenset(action.cards))
                melds.append(action)
        return cls(
            draw=DrawStock() in view.legal,
            take=TakeDiscard() in view.legal,
            melds=tuple(melds),
            lay_offs=tuple(a for a in view.legal if isinstance(a, LayOff)),
            discards=tuple(a for a in view.legal if isinstance(a, Discard)),
        )


@dataclass(frozen=True)
class Status:
    """Whose turn it is and where it stands, as the seat may know it."""

    turn: str | None  # the seat whose turn it is
    mine: bool  # the turn is this seat's
    phase: Phase
    discard_top: Card | None  # what a draw may take instead of the stock
    # The card this seat drew or took this turn (its own turn only).
    drawn: Card | None
    # The drawn card came off the discard pile and is still held, so it may
    # not go straight back on it.
    taken: bool
    may_not_discard: Card | None
    deadline: float | None  # when the turn runs out (epoch seconds), if it does


class Since(Enum):
    """Which moves the latest lines are."""

    LAST_TURN = "last_turn"  # the others', since the seat last moved
    SO_FAR = "so_far"  # the seat has not moved this hand: all of it
    LATEST = "latest"  # a watcher's: the hand's newest moves, whoever made them


@dataclass(frozen=True)
class SinceLines:
    """The newest moves the seat has not made itself, at most ``SINCE_LINES``."""

    since: Since
    lines: tuple[LogLine, ...]

    def __bool__(self) -> bool:
        return bool(self.lines)


class SeatView:
    """What seat ``key`` (None: a watcher) may see and do at a dealt table now."""

    def __init__(self, table: Table, key: str | None) -> None:
        match = table.match
        assert match is not None, "a seat has a view only once dealt"
        self.table = table
        self.key = key
        self.view = table.view_of(key) if key is not None else match.hand.view_for(None)

    @classmethod
    def of(cls, table: Table, key: str | None) -> SeatView:
        return cls(table, key)

    @property
    def my_turn(self) -> bool:
        return self.key is not None and self.view.turn == self.key

    @property
    def legal(self) -> Legal:
        return Legal.of(self.view)

    def choices(self, selected: Sequence[Card]) -> Choices:
        return Choices.of(self.view, selected)

    def status(self) -> Status:
        view = self.view
        drawn: Card | None = None
        if self.my_turn and view.phase is Phase.PLAY:
            fresh = self.table.fresh_cards.get(self.key or "")
            drawn = None if fresh is None else Card.parse(fresh)
        return Status(
            turn=view.turn,
            mine=self.my_turn,
            phase=view.phase,
            discard_top=view.discard_top,
            drawn=drawn,
            taken=drawn is not None and drawn == view.may_not_discard,
            may_not_discard=view.may_not_discard,
            deadline=self.table.turn_deadline,
        )

    def since(self) -> SinceLines:
        """The others' moves since this seat's last move, newest last; during
        its own turn, those between its previous turn and this one. Every draw
        from the stock is there (the card unnamed): whether a player drew
        blind or took the discard is what the others play on."""
        entries = list(self.table.hand_log)
        if self.key is None:
            return SinceLines(Since.LATEST, tuple(line for _by, line in entries[-SINCE_LINES:]))
        end = len(entries)
        if self.my_turn:
            while end and entries[end - 1][0] == self.key:
                end -= 1  # this turn's own moves
        start = end
        while start and entries[start - 1][0] != self.key:
            start -= 1
        window = entries[start:end]
        since = Since.LAST_TURN if start else Since.SO_FAR
        if all(by is None for by, _line in window):
            return SinceLines(since, ())  # the deal alone: nobody has moved yet
        return SinceLines(since, tuple(line for _by, line in window[-SINCE_LINES:]))

    def why_not(self, selected: Sequence[Card]) -> RummyError | None:
        """Why the picked cards cannot be played, as the engine refuses it,
        where the pick leaves a move dim: a meld that is none, a card that may
        not be discarded, two cards that fit nothing. None: the pick is a move,
        or on its way to one (a card more may make a meld)."""
        if not selected or self.key is None:
            return None
        choices = self.choices(selected)
        if choices.lay_offs:
            return None
        match = self.table.match
        assert match is not None
        if len(selected) >= 3 and choices.meld is None:
            return match.hand.why_not(self.key, MeldCards(tuple(selected)))
        if len(selected) == 1 and choices.discard is None:
            return match.hand.why_not(self.key, Discard(selected[0]))
        if len(selected) == 2:
            # No single move is refused here: the engine has no word for it.
            return IllegalMoveError(TWO_CARDS)
        return None
