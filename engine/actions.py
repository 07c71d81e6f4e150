"""The moves a player can make, as small frozen (hashable) values.

A turn is: one draw (``DrawStock`` or ``TakeDiscard``), then any ``MeldCards`` and
``LayOff``, then one ``Discard`` unless the hand is already empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, format_cards
from engine.errors import RummyError

__all__ = [
    "Action",
    "Discard",
    "DrawStock",
    "LayOff",
    "MeldCards",
    "TakeDiscard",
    "action_from_dict",
    "action_to_dict",
    "describe_action",
]


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock (under an empty stock, see ``engine.hand``)."""


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the face-up card on top of the pile; it may not go straight back this turn."""


@dataclass(frozen=True, slots=True)
class MeldCards:
    """Put a new set or run from the hand face up on the table."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add cards from the hand to meld number ``meld`` (0-based, in table order)."""

    cards: tuple[Card, ...]
    meld: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Put one card face up on the discard pile, ending the turn."""

    card: Card


Action = DrawStock | TakeDiscard | MeldCards | LayOff | Discard

_KEYS: dict[str, set[str]] = {
    "draw": {"action", "source"},
    "meld": {"action", "cards"},
    "lay_off": {"action", "cards", "meld"},
    "discard": {"action", "card"},
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The replay-file form of an action, with canonical card codes."""
    match action:
        case DrawStock():
            return {"action": "draw", "source": "stock"}
        case TakeDiscard():
            return {"action": "draw", "source": "discard"}
        case MeldCards(cards=cards):
            return {"action": "meld", "cards": [str(c) for c in cards]}
        case LayOff(cards=cards, meld=meld):
            return {"action": "lay_off", "cards": [str(c) for c in cards], "meld": meld}
        case Discard(card=card):
            return {"action": "discard", "card": str(card)}
    raise RummyError(f"{action!r} is not an action")


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RummyError("'cards' must be a list of card codes")
    return tuple(Card.parse(code) for code in value)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read an action in replay-file form; raises ``RummyError`` when it is malformed.

    A ``player`` key is allowed (replay files put it beside the action) and ignored.
    """
    if not isinstance(data, Mapping):
        raise RummyError("an action must be an object")
    kind = data.get("action")
    if kind is None:
        raise RummyError("an action needs an 'action' field (draw, meld, lay_off or discard)")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise RummyError(f"unknown action {kind!r}: use draw, meld, lay_off or discard")
    expected = _KEYS[kind]
    for key in data:
        if key not in expected and key != "player":
            raise RummyError(f"unknown key {key!r} in a {kind} action")
    for key in sorted(expected):
        if key not in data:
            raise RummyError(f"a {kind} action needs a {key!r} field")
    if kind == "draw":
        source = data["source"]
        if source == "stock":
            return DrawStock()
        if source == "discard":
            return TakeDiscard()
        raise RummyError(f"unknown draw source {source!r}: use stock or discard")
    if kind == "meld":
        return MeldCards(_cards(data["cards"]))
    if kind == "lay_off":
        meld = data["meld"]
        if not isinstance(meld, int) or isinstance(meld, bool):
            raise RummyError("'meld' must be a meld number (0 for the first meld)")
        return LayOff(_cards(data["cards"]), meld)
    return Discard(Card.parse(data["card"]))


def describe_action(action: Action) -> str:
    """A short English label for an action, e.g. "Meld 7♠ 8♠ 9♠" (for buttons and logs).

    Melds are numbered from 1 here, as players count them; ``LayOff.meld`` is 0-based.
    """
    match action:
        case DrawStock():
            return "Draw from the stock"
        case TakeDiscard():
            return "Take the top discard"
        case MeldCards(cards=cards):
            return f"Meld {format_cards(cards)}"
        case LayOff(cards=cards, meld=meld):
            return f"Lay off {format_cards(cards)} on meld {meld + 1}"
        case Discard(card=card):
            return f"Discard {card.display}"
    raise RummyError(f"{action!r} is not an action")
