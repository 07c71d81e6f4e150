"""A match: hands played one after another until the house rules say it is over.

The first dealer is drawn at random from the match seed; after each hand the deal
passes one seat to the left (the next index in ``players``). Each hand's scores are
added to the totals. House rule ``target``: the match ends after the hand in which
any total reaches the target. House rule ``hands``: it ends after that many hands.
The highest total wins; totals tied for first share the win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.checks import check_players, check_seed
from engine.errors import HandOverError, InvalidStateError, NotSeatedError
from engine.hand import Hand
from engine.rules import HouseRules
from engine.saved import SavedMatch, match_from_dict, match_to_dict
from engine.scoring import HandOutcome
from engine.state import Event
from engine.words import N_

__all__ = ["Match", "MatchOutcome", "hand_seed"]


def hand_seed(match_seed: int, number: int) -> int:
    """Seed of hand ``number`` (1-based): derived from the match seed, so a whole match
    replays from one seed and its actions."""
    return match_seed * 1000 + number


def _first_dealer(match_seed: int, players: Sequence[str]) -> int:
    """The seat of the first dealer, drawn at random from the match seed."""
    return random.Random(match_seed).randrange(len(players))


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """The finished match: who won (several when tied), final totals, hands played."""

    winners: tuple[str, ...]
    totals: dict[str, int]
    hands_played: int


class Match:
    """Hands in sequence with rotating dealer and running totals.

    ``apply`` plays a move in the current hand and books its scores when the hand
    ends; ``next_hand`` deals the next one. The match never deals by itself, so the
    table can show a hand's result before the next deal.
    """

    __slots__ = ("_hand", "_hand_number", "_history", "_players", "_rules", "_seed", "_totals")

    def __init__(
        self,
        *,
        players: tuple[str, ...],
        rules: HouseRules,
        seed: int,
        hand_number: int,
        hand: Hand,
        totals: dict[str, int],
        history: list[HandOutcome],
    ) -> None:
        """Low-level constructor; use ``start`` or ``from_dict``."""
        self._players = players
        self._rules = rules
        self._seed = seed
        self._hand_number = hand_number
        self._hand = hand
        self._totals = totals
        self._history = history

    @classmethod
    def start(cls, players: Sequence[str], rules: HouseRules, seed: int) -> Match:
        """Begin a match: pick the first dealer at random from ``seed`` and deal hand 1."""
        seats = check_players(players)
        seed = check_seed(seed)
        dealer = _first_dealer(seed, seats)
        hand = Hand.deal(seats, rules, dealer, hand_seed(seed, 1))
        return cls(
            players=seats,
            rules=rules,
            seed=seed,
            hand_number=1,
            hand=hand,
            totals=dict.fromkeys(seats, 0),
            history=[],
        )

    def copy(self) -> Match:
        """An independent copy, to try moves on and throw away: whatever is applied to
        the copy never changes this match, and the other way round.

        The current hand is copied (``Hand.copy``); the totals and the history are new
        containers of the same outcomes, which are never changed once made.
        """
        return Match(
            players=self._players,
            rules=self._rules,
            seed=self._seed,
            hand_number=self._hand_number,
            hand=self._hand.copy(),
            totals=dict(self._totals),
            history=list(self._history),
        )

    # --- read-only state -------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def rules(self) -> HouseRules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def hand_number(self) -> int:
        """Number of the current (or last) hand, from 1."""
        return self._hand_number

    @property
    def hand(self) -> Hand:
        """The current hand; after it ends, it stays here until ``next_hand``.

        Change it only through ``Match.apply``, which books the scores.
        """
        return self._hand

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total so far (a copy), in seat order."""
        return dict(self._totals)

    @property
    def history(self) -> list[HandOutcome]:
        """The outcome of every finished hand, in order (a copy)."""
        return list(self._history)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (house rules ``target`` / ``hands``)."""
        if not self._hand.is_over:
            return False
        if self._rules.target is not None:
            return max(self._totals.values()) >= self._rules.target
        return self._rules.hands is not None and self._hand_number >= self._rules.hands

    @property
    def outcome(self) -> MatchOutcome | None:
        """Winners by highest total (ties share the win), once the match is over."""
        if not self.is_over:
            return None
        best = max(self._totals.values())
        return MatchOutcome(
            winners=tuple(p for p in self._players if self._totals[p] == best),
            totals=dict(self._totals),
            hands_played=len(self._history),
        )

    def legal_actions(self, player: str) -> list[Action]:
        """What ``player`` may do now in the current hand (see ``Hand.legal_actions``)."""
        if self.is_over:
            return []
        return self._hand.legal_actions(player)

    # --- play ------------------------------------------------------------------------
    def apply(self, player: str, action: Action) -> list[Event]:
        """Play a move in the current hand; when it ends the hand, add its scores to the
        totals. Raises like ``Hand.apply`` (nothing changes on an error)."""
        if player not in self._players:
            raise NotSeatedError(N_("You are not playing in this match"))
        if self.is_over:
            raise HandOverError(N_("This match is over"))
        if self._hand.is_over:
            raise HandOverError(N_("This hand is over: the next one has not been dealt yet"))
        events = self._hand.apply(player, action)
        outcome = self._hand.outcome
        if outcome is not None:
            for p, points in outcome.scores.items():
                self._totals[p] += points
            self._history.append(outcome)
        return events

    def next_hand(self) -> list[Event]:
        """Deal the next hand, the deal passing one seat to the left.

        Raises ``HandOverError`` while a hand is being played or once the match is over.
        """
        if self.is_over:
            raise HandOverError(N_("The match is over"))
        if not self._hand.is_over:
            raise HandOverError(N_("The current hand is still being played"))
        number = self._hand_number + 1
        dealer = (self._hand.dealer + 1) % len(self._players)
        self._hand = Hand.deal(self._players, self._rules, dealer, hand_seed(self._seed, number))
        self._hand_number = number
        return [Event("deal", self._players[dealer], (self._hand.discard_pile[-1],))]

    # --- saved state -----------------------------------------------------------------
    def to_saved(self) -> SavedMatch:
        """The whole match as plain values (a snapshot: later moves do not change it)."""
        return SavedMatch(
            players=self._players,
            rules=self._rules,
            seed=self._seed,
            hand_number=self._hand_number,
            totals=dict(self._totals),
            history=tuple(self._history),
            hand=self._hand.to_saved(),
        )

    @classmethod
    def from_saved(cls, state: SavedMatch) -> Match:
        """The match ``state`` describes, once it is checked to be one play can reach.

        The current hand must pass ``Hand.from_saved`` and be this match's hand number
        ``hand_number`` (its players, house rules, seed and dealer); ``history`` holds one
        outcome per finished hand, the current one last once it is over; the totals are
        the sums of those scores; and the match did not go on past its target or its
        number of hands. Raises ``InvalidStateError``.
        """
        players, rules, seed, number = state.players, state.rules, state.seed, state.hand_number
        hand = Hand.from_saved(state.hand)
        if (
            hand.players != players
            or hand.rules != rules
            or hand.seed != hand_seed(seed, number)
            or hand.dealer != (_first_dealer(seed, players) + number - 1) % len(players)
        ):
            raise InvalidStateError("the current hand does not belong to this match")
        history = list(state.history)
        finished = number if hand.is_over else number - 1
        if len(history) != finished:
            raise InvalidStateError("history does not hold one outcome per finished hand")
        if hand.is_over and history[-1] != hand.outcome:
            raise InvalidStateError("the last outcome in history is not the current hand's")
        expected = {p: sum(outcome.scores[p] for outcome in history) for p in players}
        if dict(state.totals) != expected:
            raise InvalidStateError("totals are not the sum of the hands' scores")
        # A saved match that should have ended must not go on dealing.
        for past in range(1, finished):
            running = {p: sum(o.scores[p] for o in history[:past]) for p in players}
            if rules.target is not None and max(running.values()) >= rules.target:
                raise InvalidStateError("the match went on after its target was reached")
        if rules.hands is not None and number > rules.hands:
            raise InvalidStateError("the match has more hands than agreed")
        return cls(
            players=players,
            rules=rules,
            seed=seed,
            hand_number=number,
            hand=hand,
            totals=expected,
            history=history,
        )

    def to_dict(self) -> dict[str, Any]:
        """The whole match as plain JSON data, with format ``version`` 1."""
        return match_to_dict(self.to_saved())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        """Rebuild a match from ``to_dict`` data; ``InvalidStateError`` when anything is
        malformed or inconsistent (totals must be the sum of the hands' scores)."""
        return cls.from_saved(match_from_dict(data))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal now, maybe not later

    def __repr__(self) -> str:
        return f"<Match hand {self._hand_number}, totals {self._totals}>"
