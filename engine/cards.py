"""Cards of the single 52-card deck Rummy is played with (no jokers).

A card has a canonical text code (``10H``, ``AS``, ``QD``) used in saved state and
in replay files, and a display form with a suit symbol (``10♥``) for players.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from engine.errors import RummyError
from engine.rules import AceRule, HouseRules

__all__ = [
    "RANK_NAMES",
    "SUIT_ORDER",
    "Card",
    "Suit",
    "card_at",
    "format_cards",
    "full_deck",
    "parse_cards",
    "rank_key",
    "sort_by_rank",
    "sort_by_suit",
    "suit_key",
]


class Suit(StrEnum):
    """The four suits; the value is the one-letter code used in card codes."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit's symbol for display: ♣ ♦ ♥ ♠."""
        return _SYMBOLS[self]


_SYMBOLS: dict[Suit, str] = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
}
# Sorting puts suits in the order C D H S everywhere (hands, sets, replay output).
SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_INDEX: dict[Suit, int] = {suit: i for i, suit in enumerate(SUIT_ORDER)}

RANK_NAMES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
_RANK_BY_NAME: dict[str, int] = {name: rank for rank, name in RANK_NAMES.items()}
# Players may type the symbol instead of the letter; the white symbols are common too.
_SUIT_BY_CHAR: dict[str, Suit] = {s.value: s for s in Suit} | {
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
}


@dataclass(frozen=True, order=False, slots=True)
class Card:
    """One playing card: ``rank`` 1 (ace) to 13 (king) and a suit."""

    rank: int
    suit: Suit
    # Both written once: saving a table and drawing a hand view name every card,
    # and building the name each time was a measurable part of every click.
    code: str = field(init=False, repr=False, compare=False)
    display: str = field(init=False, repr=False, compare=False)
    """The card as players see it, with its suit symbol: ``10♥``, ``A♠``."""

    def __post_init__(self) -> None:
        if (
            not isinstance(self.rank, int)
            or isinstance(self.rank, bool)
            or not 1 <= self.rank <= 13
        ):
            raise RummyError(f"{self.rank!r} is not a rank: ranks run from 1 (ace) to 13 (king)")
        if not isinstance(self.suit, Suit):
            raise RummyError(f"{self.suit!r} is not a suit")
        object.__setattr__(self, "code", RANK_NAMES[self.rank] + self.suit.value)
        object.__setattr__(self, "display", RANK_NAMES[self.rank] + _SYMBOLS[self.suit])

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code: a rank (A, 2-10, J, Q, K) then a suit (C, D, H, S), any case.

        ``"10H"``, ``"as"`` and ``"Qd"`` are cards; the suit symbols are accepted as well.
        """
        if isinstance(text, str):
            code = text.strip().upper()
            suit = _SUIT_BY_CHAR.get(code[-1:])
            rank = _RANK_BY_NAME.get(code[:-1])
            if suit is not None and rank is not None:
                return card_at(rank, suit)
        raise RummyError(
            f"{text!r} is not a card: write a rank (A, 2-10, J, Q, K) and a suit (C, D, H, S),"
            " like 10H or QS"
        )

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def points(self, rules: HouseRules) -> int:
        """Penalty value of the card when it is left in a hand at the end of a hand.

        Number cards count their face value and J, Q, K count 10 each. An ace counts 1,
        or 15 under the house rule ``ace = high_or_low``: whether it would have been
        played high cannot be known for a card still in hand, so it always counts 15.
        """
        if self.rank == 1:
            return 15 if rules.ace is AceRule.HIGH_OR_LOW else 1
        return min(self.rank, 10)


# One shared instance per card: parsing and move generation never build new ones.
_CARDS: dict[tuple[int, Suit], Card] = {
    (rank, suit): Card(rank, suit) for suit in SUIT_ORDER for rank in range(1, 14)
}


def card_at(rank: int, suit: Suit) -> Card:
    """The card of this rank (1-13) and suit."""
    return _CARDS[(rank, suit)]


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order (suits C D H S, ace to king): shuffles start from it."""
    return list(_CARDS.values())


def rank_key(card: Card) -> tuple[int, int]:
    """Sort key: rank with the ace low, then suit C D H S."""
    return (card.rank, _SUIT_INDEX[card.suit])


def suit_key(card: Card) -> tuple[int, int]:
    """Sort key: suit C D H S, then rank with the ace low."""
    return (_SUIT_INDEX[card.suit], card.rank)


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards ordered by rank (ace low), ties by suit C D H S."""
    return sorted(cards, key=rank_key)


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    """Cards ordered by suit C D H S, then by rank (ace low)."""
    return sorted(cards, key=suit_key)


def parse_cards(codes: Iterable[str]) -> list[Card]:
    """Parse several card codes; raises ``RummyError`` naming the first bad one."""
    return [Card.parse(code) for code in codes]


def format_cards(cards: Iterable[Card]) -> str:
    """Display forms joined by spaces, in the given order: ``7♠ 8♠ 9♠``."""
    return " ".join(card.display for card in cards)
