"""A finished hand kept as its deal and its moves, to be stepped through again.

A hand is dealt from its seed (``Hand.deal``), and any reshuffle of the stock is
seeded from the same seed, so the deal's dealer and seed and the list of moves
made are the whole hand: replaying the moves from the deal reaches every
position the players saw, in order, and ends where the hand ended.

Moves are kept in a compact text, one word a move, because a live table carries
the moves of its current match in every save: ``<seat><kind>[<cards>]`` with
the seat's index (0-5) and the kind ``d`` (draw from the stock), ``t`` (take
the discard), ``m`` (meld the cards), ``l<meld>:`` (lay the cards off on meld
number ``meld``, 0-based) or ``x`` (discard the card); cards are their codes
joined by dots. For example ``0d 0xKD 1t 1m3H.4H.5H 1l0:6H 1x2C``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.actions import (
    Action,
    Discard,
    DrawStock,
    LayOff,
    MeldCards,
    TakeDiscard,
    action_to_dict,
)
from engine.cards import Card
from engine.errors import RummyError
from engine.hand import Hand
from engine.rules import HouseRules
from engine.state import Event

__all__ = ["HandTape", "Move", "Turn", "decode_move", "encode_move", "parse_moves"]

Move = tuple[str, Action]
"""A move: the player who made it, and the action."""


def _cards(cards: Sequence[Card]) -> str:
    return ".".join(str(card) for card in cards)


def encode_move(seat: int, action: Action) -> str:
    """One move as its word in the compact text (see the module's docstring)."""
    if not 0 <= seat <= 9:
        raise RummyError(f"seat {seat} cannot be written as one digit")
    match action:
        case DrawStock():
            return f"{seat}d"
        case TakeDiscard():
            return f"{seat}t"
        case MeldCards(cards=cards):
            return f"{seat}m{_cards(cards)}"
        case LayOff(cards=cards, meld=meld):
            return f"{seat}l{meld}:{_cards(cards)}"
        case Discard(card=card):
            return f"{seat}x{card}"
    raise RummyError(f"{action!r} is not an action")


def decode_move(word: str) -> tuple[int, Action]:
    """The seat index and action a word of the compact text stands for;
    ``RummyError`` for a word this module never writes."""
    if len(word) < 2 or not word[0].isdigit():
        raise RummyError(f"{word!r} is not a move")
    seat, kind, rest = int(word[0]), word[1], word[2:]
    try:
        if kind == "d" and not rest:
            return seat, DrawStock()
        if kind == "t" and not rest:
            return seat, TakeDiscard()
        if kind == "m":
            return seat, MeldCards(tuple(Card.parse(c) for c in rest.split(".")))
        if kind == "l":
            meld, _, cards = rest.partition(":")
            return seat, LayOff(tuple(Card.parse(c) for c in cards.split(".")), int(meld))
        if kind == "x":
            return seat, Discard(Card.parse(rest))
    except ValueError:
        pass
    raise RummyError(f"{word!r} is not a move")


def parse_moves(players: Sequence[str], text: str) -> list[Move]:
    """Every move of a compact text, with the players named; ``RummyError`` if
    a word is not a move or names a seat nobody has."""
    moves: list[Move] = []
    for word in text.split():
        seat, action = decode_move(word)
        if seat >= len(players):
            raise RummyError(f"{word!r} names seat {seat} of {len(players)}")
        moves.append((players[seat], action))
    return moves


class Turn(NamedTuple):
    """Where a turn of a hand began: the moves made before it, and whose turn it was."""

    step: int
    player: str


@dataclass(frozen=True)
class HandTape:
    """A hand as dealt and the moves made in it, in order."""

    players: tuple[str, ...]
    rules: HouseRules
    dealer: int
    seed: int
    moves: tuple[Move, ...]

    @classmethod
    def read(
        cls, players: Sequence[str], rules: HouseRules, dealer: int, seed: int, text: str
    ) -> HandTape:
        """A tape from its compact text; ``RummyError`` if the text is not one."""
        return cls(tuple(players), rules, dealer, seed, tuple(parse_moves(players, text)))

    def dealt(self) -> Hand:
        """The hand as it was dealt, before anyone moved."""
        return Hand.deal(self.players, self.rules, self.dealer, self.seed)

    def at(self, step: int) -> Hand:
        """The hand after its first ``step`` moves (0: as dealt; clamped to the tape).

        Raises ``RummyError`` if a move is refused: the tape is not this hand's.
        """
        hand = self.dealt()
        for player, action in self.moves[: max(0, min(step, len(self.moves)))]:
            hand.apply(player, action)
        return hand

    def step(self, step: int) -> tuple[Hand, list[Event]]:
        """The hand after its first ``step`` moves, and what the last of them did
        (nothing at step 0)."""
        step = max(0, min(step, len(self.moves)))
        if step == 0:
            return self.dealt(), []
        hand = self.at(step - 1)
        player, action = self.moves[step - 1]
        return hand, hand.apply(player, action)

    def turns(self) -> tuple[Turn, ...]:
        """The hand's turns in order. A turn begins with its draw, from the stock or
        the discard pile, and no other move draws: so a turn begins at every draw,
        and the first at the deal."""
        return tuple(
            Turn(step, player)
            for step, (player, action) in enumerate(self.moves)
            if isinstance(action, DrawStock | TakeDiscard)
        )

    def final(self) -> Hand:
        """The hand after every move."""
        return self.at(len(self.moves))

    def export(self) -> dict[str, Any]:
        """The document ``python -m engine.replay`` reads: the deal laid out card by
        card, and every move, which replays to the hand's end."""
        dealt = self.dealt()
        saved = dealt.to_saved()
        return {
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "hands": {p: [str(c) for c in saved.hands[p]] for p in self.players},
            "stock": [str(c) for c in saved.stock],
            "discard": [str(c) for c in saved.discard],
            "first": dealt.turn,
            "seed": self.seed,
            "actions": [{"player": p, **action_to_dict(a)} for p, a in self.moves],
        }
