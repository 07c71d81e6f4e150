"""What a finished hand scores, and the outcome that records it.

Whoever goes out scores the point value of every card left in the other hands (ace 1,
or 15 under ``ace = high_or_low``; 2-10 face value; J Q K 10), doubled for a rummy
under ``rummy_bonus = double``. When nobody went out, the lowest count in hand wins and
scores the sum of how far each other count is above it; tied lowest players split that
sum, rounded down.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.cards import Card
from engine.checks import as_bool, as_cards, as_enum, as_object, as_player, check_keys
from engine.errors import InvalidStateError
from engine.rules import HouseRules, RummyBonus

__all__ = [
    "HandOutcome",
    "Termination",
    "hand_points",
    "lowest_count_scores",
    "score_hand",
]


class Termination(StrEnum):
    """Why a hand ended."""

    WENT_OUT = "went_out"
    STOCK_EXHAUSTED = "stock_exhausted"
    TURN_LIMIT = "turn_limit"


_OUTCOME_KEYS = frozenset(
    {"went_out", "winners", "scores", "rummy", "reason", "remaining", "counts"}
)


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a hand ended and what each player scores for it.

    ``scores`` has every player as a key (0 for all but the winners); ``remaining``
    and ``counts`` give each player's cards left in hand and their point value.
    """

    went_out: str | None
    winners: tuple[str, ...]
    scores: dict[str, int]
    rummy: bool
    reason: Termination
    remaining: dict[str, tuple[Card, ...]]
    counts: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form, as saved hands and matches hold it."""
        return {
            "went_out": self.went_out,
            "winners": list(self.winners),
            "scores": dict(self.scores),
            "rummy": self.rummy,
            "reason": self.reason.value,
            "remaining": {p: [str(c) for c in cards] for p, cards in self.remaining.items()},
            "counts": dict(self.counts),
        }

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], players: Sequence[str], rules: HouseRules
    ) -> HandOutcome:
        """Read an outcome back, checking it against the scoring rules.

        Winners, scores and counts must be exactly what the remaining cards give, so a
        corrupted record raises ``InvalidStateError`` instead of paying wrong points.
        """
        check_keys(data, _OUTCOME_KEYS, "outcome")
        went_out = data["went_out"]
        if went_out is not None:
            went_out = as_player(went_out, players, "outcome.went_out")
        rummy = as_bool(data["rummy"], "outcome.rummy")
        reason = as_enum(Termination, data["reason"], "outcome.reason")
        remaining_data = as_object(data["remaining"], "outcome.remaining")
        if set(remaining_data) != set(players):
            raise InvalidStateError("outcome.remaining must list every player")
        remaining = {p: as_cards(remaining_data[p], f"outcome.remaining.{p}") for p in players}
        if (went_out is None) != (reason is not Termination.WENT_OUT):
            raise InvalidStateError("outcome.went_out does not match outcome.reason")
        if went_out is None and rummy:
            raise InvalidStateError("outcome.rummy needs somebody to have gone out")
        if went_out is not None and remaining[went_out]:
            raise InvalidStateError("outcome: the player who went out still holds cards")
        expected = score_hand(players, rules, remaining, went_out, rummy, reason)
        wanted = expected.to_dict()
        for key in ("winners", "scores", "counts"):
            if data[key] != wanted[key]:
                raise InvalidStateError(f"outcome.{key} does not match the cards left in hand")
        return expected


def hand_points(cards: Iterable[Card], rules: HouseRules) -> int:
    """Point value of cards left in a hand (house rule ``ace``: an ace is 1 or 15)."""
    return sum(card.points(rules) for card in cards)


def lowest_count_scores(counts: Mapping[str, int]) -> tuple[tuple[str, ...], dict[str, int]]:
    """Scoring when nobody went out: the lowest count in hand wins the hand.

    The winner scores the sum, over every other player, of how much higher their count
    is. Players tied for lowest split that sum equally, rounded down. With counts
    6, 15, 7 and 21 the 6 wins 9 + 1 + 15 = 25. Returns (winners in seat order, scores).
    """
    low = min(counts.values())
    winners = tuple(p for p, count in counts.items() if count == low)
    pot = sum(count - low for count in counts.values())
    share = pot // len(winners)
    return winners, {p: share if p in winners else 0 for p in counts}


def score_hand(
    players: Sequence[str],
    rules: HouseRules,
    remaining: Mapping[str, Sequence[Card]],
    went_out: str | None,
    rummy: bool,
    reason: Termination,
) -> HandOutcome:
    """The outcome of a finished hand (house rules ``ace`` and ``rummy_bonus``).

    Whoever went out scores every other player's count, doubled for rummy under
    ``rummy_bonus = double``; otherwise ``lowest_count_scores`` decides.
    """
    counts = {p: hand_points(remaining[p], rules) for p in players}
    if went_out is not None:
        total = sum(counts[p] for p in players if p != went_out)
        if rummy and rules.rummy_bonus is RummyBonus.DOUBLE:
            total *= 2
        winners: tuple[str, ...] = (went_out,)
        scores = {p: total if p == went_out else 0 for p in players}
    else:
        winners, scores = lowest_count_scores(counts)
    return HandOutcome(
        went_out=went_out,
        winners=winners,
        scores=scores,
        rummy=rummy,
        reason=reason,
        remaining={p: tuple(remaining[p]) for p in players},
        counts=counts,
    )
