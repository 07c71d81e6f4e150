"""What one hand holds at a moment, and its saved form.

The cards (each hand, the stock, the discard pile, the melds), whose turn it
is and what they have done this turn, read-only; and the hand as plain values
(``to_saved``, ``to_dict``) and back (``from_saved``, ``from_dict``), where a
saved state is checked against the rules of play before it becomes a hand
again. The rules that change a hand (the deal, the legal moves, ``apply``)
are ``engine.hand``'s ``Hand``, built on this.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from engine.cards import Card, rank_key
from engine.checks import check_position
from engine.errors import InvalidStateError, NotSeatedError, SetupError
from engine.limits import MAX_RESHUFFLES, MAX_TURN_OVERS, MAX_TURNS
from engine.rules import EmptyStock, HouseRules, MeldsPerTurn
from engine.saved import SavedHand, hand_from_dict, hand_to_dict, setup_error_as_invalid_state
from engine.scoring import HandOutcome
from engine.state import Phase, TableMeld
from engine.words import N_

__all__ = ["HandState"]


class HandState:
    """The state of one hand, read-only, and its saved form (see ``engine.hand.Hand``)."""

    __slots__ = (
        "_dealer",
        "_discard",
        "_exhaustions",
        "_hands",
        "_melds",
        "_melds_this_turn",
        "_outcome",
        "_phase",
        "_played",
        "_played_this_turn",
        "_players",
        "_rules",
        "_seed",
        "_stock",
        "_taken",
        "_turn",
        "_turns",
    )

    def __init__(
        self,
        *,
        players: tuple[str, ...],
        rules: HouseRules,
        dealer: int,
        seed: int,
        hands: dict[str, list[Card]],
        stock: list[Card],
        discard: list[Card],
        first: int,
    ) -> None:
        """Low-level constructor; use ``deal``, ``from_position`` or ``from_dict``."""
        self._players = players
        self._rules = rules
        self._dealer = dealer
        self._seed = seed
        self._hands = {p: sorted(hands[p], key=rank_key) for p in players}
        self._stock = stock  # top card first
        self._discard = discard  # bottom card first
        self._melds: list[TableMeld] = []
        self._turn = first
        self._phase = Phase.DRAW
        self._taken: Card | None = None
        self._melds_this_turn = 0
        self._played_this_turn = False
        self._played: set[str] = set()  # melded or laid off in an earlier turn
        self._exhaustions = 0
        self._turns = 0
        self._outcome: HandOutcome | None = None

    def copy(self) -> Self:
        """An independent copy, to try moves on (look-ahead, rollback, tests): whatever
        is applied to the copy never changes this hand, and the other way round.

        Cards, melds and the outcome are never changed once made, so they are shared;
        every list and set that moves change is copied.
        """
        other = type(self).__new__(type(self))
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = {p: list(cards) for p, cards in self._hands.items()}
        other._stock = list(self._stock)
        other._discard = list(self._discard)
        other._melds = list(self._melds)
        other._played = set(self._played)
        return other

    # --- read-only state -------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """Seating order, clockwise."""
        return self._players

    @property
    def rules(self) -> HouseRules:
        return self._rules

    @property
    def dealer(self) -> int:
        """Index of the dealer in ``players``."""
        return self._dealer

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def turn(self) -> str | None:
        """Whose turn it is; ``None`` once the hand is over."""
        return None if self._phase is Phase.OVER else self._players[self._turn]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def discard_top(self) -> Card | None:
        return self._discard[-1] if self._discard else None

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom card first (all of it was played face up)."""
        return tuple(self._discard)

    @property
    def melds(self) -> tuple[TableMeld, ...]:
        """Melds in the order they were put on the table (lay-off indexes refer to it)."""
        return tuple(self._melds)

    @property
    def outcome(self) -> HandOutcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def taken_discard(self) -> Card | None:
        """The card the player to move took from the discard pile this turn, if any."""
        return self._taken

    @property
    def melded_this_turn(self) -> int:
        return self._melds_this_turn

    @property
    def stock_exhaustions(self) -> int:
        """Reshuffles or turn-overs of the discard pile so far."""
        return self._exhaustions

    @property
    def turns_played(self) -> int:
        """Completed turns (each ended by a discard) so far."""
        return self._turns

    def hand_of(self, player: str) -> tuple[Card, ...]:
        """The player's cards, sorted by rank (ace low) then suit."""
        self._seat(player)
        return tuple(self._hands[player])

    def card_counts(self) -> dict[str, int]:
        """How many cards each player holds, in seat order."""
        return {p: len(self._hands[p]) for p in self._players}

    def has_melded(self, player: str) -> bool:
        """Whether ``player`` melded or laid off in an earlier turn (no rummy possible)."""
        self._seat(player)
        return player in self._played

    def _seat(self, player: str) -> None:
        if player not in self._hands:
            raise NotSeatedError(N_("You are not playing in this hand"))

    # --- saved state -----------------------------------------------------------------
    def to_saved(self) -> SavedHand:
        """The whole state as plain values (a snapshot: later moves do not change it)."""
        return SavedHand(
            players=self._players,
            rules=self._rules,
            dealer=self._dealer,
            seed=self._seed,
            hands={p: tuple(self._hands[p]) for p in self._players},
            stock=tuple(self._stock),
            discard=tuple(self._discard),
            melds=tuple(self._melds),
            turn=self._turn,
            phase=self._phase,
            taken=self._taken,
            melds_this_turn=self._melds_this_turn,
            played_this_turn=self._played_this_turn,
            played=frozenset(self._played),
            exhaustions=self._exhaustions,
            turns=self._turns,
            outcome=self._outcome,
        )

    @classmethod
    def from_saved(cls, state: SavedHand) -> Self:
        """The hand ``state`` describes, once it is checked to be one play can reach.

        The cards must form a position (``check_position``: a hand for every seat and
        each card in one place), and the turn must be one the rules allow: a dealer in
        a seat, a rebuild count and turn count within ``engine.limits``, an outcome
        exactly when the hand is over, taken or melded cards only after the draw, no
        more melds this turn than the house rules and the table allow, and a card the
        player to move may keep. Raises ``InvalidStateError``.
        """
        # A seat out of range names nobody, and no player id is empty.
        to_move = state.players[state.turn] if 0 <= state.turn < len(state.players) else ""
        try:
            players = check_position(
                state.players,
                state.hands,
                state.stock,
                state.discard,
                to_move,
                state.seed,
                state.melds,
            )
        except SetupError as exc:
            raise setup_error_as_invalid_state(exc) from None
        _check_turn_state(state)
        hand = cls(
            players=players,
            rules=state.rules,
            dealer=state.dealer,
            seed=state.seed,
            hands={p: list(state.hands[p]) for p in players},
            stock=list(state.stock),
            discard=list(state.discard),
            first=state.turn,
        )
        hand._melds = list(state.melds)
        hand._phase = state.phase
        hand._taken = state.taken
        hand._melds_this_turn = state.melds_this_turn
        hand._played_this_turn = state.played_this_turn
        hand._played = set(state.played)
        hand._exhaustions = state.exhaustions
        hand._turns = state.turns
        if state.outcome is not None:
            # The outcome lists each hand as play leaves it: sorted by rank.
            if state.outcome.remaining != {p: tuple(hand._hands[p]) for p in players}:
                raise InvalidStateError("outcome.remaining does not match the hands")
            hand._outcome = state.outcome
        return hand

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON data; ``from_dict`` rebuilds an equal hand."""
        return hand_to_dict(self.to_saved())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a hand from ``to_dict`` data, checking it thoroughly.

        Anything malformed or inconsistent (unknown cards, a card in two places, an
        invalid meld, a turn state that cannot happen, a wrong score) raises
        ``InvalidStateError``.
        """
        return cls.from_saved(hand_from_dict(data))


def _check_turn_state(state: SavedHand) -> None:
    """Raise ``InvalidStateError`` unless the turn ``state`` records can happen in play."""
    players = state.players
    if not 0 <= state.dealer < len(players):
        raise InvalidStateError("dealer is out of range")
    if state.melds_this_turn < 0:
        raise InvalidStateError("melds_this_turn is out of range")
    rebuilds = MAX_RESHUFFLES if state.rules.empty_stock is EmptyStock.RESHUFFLE else MAX_TURN_OVERS
    if not 0 <= state.exhaustions <= rebuilds:
        raise InvalidStateError("exhaustions is out of range")
    if not 0 <= state.turns <= MAX_TURNS:
        raise InvalidStateError("turns is out of range")
    if state.phase is Phase.OVER:
        if state.outcome is None:
            raise InvalidStateError("a finished hand has an outcome and nobody to move")
    else:
        if state.outcome is not None:
            raise InvalidStateError("a hand still in play has no outcome")
        if state.turns >= MAX_TURNS:
            raise InvalidStateError("turns is at the limit but the hand is not over")
    taken = state.taken
    played_this_turn = state.played_this_turn
    melds_this_turn = state.melds_this_turn
    if state.phase is not Phase.PLAY and (taken is not None or melds_this_turn or played_this_turn):
        raise InvalidStateError("only a player who has drawn can have taken or melded cards")
    if melds_this_turn and not played_this_turn:
        raise InvalidStateError("melds_this_turn and played_this_turn disagree")
    if melds_this_turn > len(state.melds):
        raise InvalidStateError("melds_this_turn is more than the melds on the table")
    if state.rules.melds_per_turn is MeldsPerTurn.ONE and melds_this_turn > 1:
        raise InvalidStateError("more than one meld this turn at a one-meld table")
    if state.phase is Phase.PLAY:
        mover = state.hands[players[state.turn]]
        if not mover:
            raise InvalidStateError("the player to move holds no card")
        if taken is not None and (taken not in mover or tuple(mover) == (taken,)):
            raise InvalidStateError("taken must be a card the player to move can keep")
