"""Checks of what reaches the engine from outside: players, seeds, laid-out positions,
and the fields of saved JSON.

Two kinds of refusal. Players, a seed or a position that no hand can be set up from
raise ``SetupError``, whose ``fault`` lets each input format word the problem its own
way. A field of saved data that cannot be read raises ``InvalidStateError`` naming
where it is (``hands.ann``, ``melds[2].kind``), so a corrupt record is easy to find.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypeVar

from engine.cards import Card
from engine.errors import InvalidStateError, RummyError, SetupError, SetupFault
from engine.limits import MAX_PLAYERS, MIN_PLAYERS
from engine.state import TableMeld
from engine.words import N_

__all__ = [
    "as_bool",
    "as_card",
    "as_cards",
    "as_enum",
    "as_int",
    "as_object",
    "as_player",
    "check_keys",
    "check_players",
    "check_position",
    "check_seed",
]

_E = TypeVar("_E", bound=Enum)


# --- setting up a hand -------------------------------------------------------------------
def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """The seats, in order: 2 to 6 distinct non-empty player ids."""
    if isinstance(players, str):
        raise SetupError("players must be a list of player ids", SetupFault.PLAYER_LIST)
    seats = tuple(players)
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise SetupError(
            N_("Rummy is played by {low} to {high} players"),
            SetupFault.PLAYER_COUNT,
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    for p in seats:
        if not isinstance(p, str) or not p:
            raise SetupError("every player id must be a non-empty string", SetupFault.PLAYER_ID, p)
    if len(set(seats)) != len(seats):
        raise SetupError("a player cannot take two seats", SetupFault.PLAYER_TWICE)
    return seats


def check_seed(seed: object) -> int:
    """A seed is a whole number (``True`` and ``False`` are not)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError("the seed must be a whole number", SetupFault.SEED, seed)
    return seed


def check_position(
    players: Sequence[str],
    hands: Mapping[str, Sequence[Card]],
    stock: Sequence[Card],
    discard: Sequence[Card],
    first: str,
    seed: int,
    melds: Sequence[TableMeld] = (),
) -> tuple[str, ...]:
    """Check that a hand can be set up with these cards, and return the seats.

    The players must be valid (``check_players``) and the seed a whole number; every
    seated player, and nobody else, has a hand (of any size); the player to move is
    seated; and no card is in two places among the hands, the stock, the discard pile
    and the melds. Not all 52 cards need be present. Raises ``SetupError``.
    """
    seats = check_players(players)
    check_seed(seed)
    for player in hands:
        if player not in seats:
            raise SetupError(f"unknown player {player!r} in hands", SetupFault.UNKNOWN_HAND, player)
    for player in seats:
        if player not in hands:
            raise SetupError(
                f"no hand given for player {player!r}", SetupFault.MISSING_HAND, player
            )
    if first not in seats:
        raise SetupError(
            f"unknown player {first!r} to move first", SetupFault.UNSEATED_FIRST, first
        )
    seen: set[Card] = set()
    places = [(f"{p}'s hand", hands[p]) for p in seats]
    places += [("the stock", stock), ("the discard pile", discard)]
    places += [("the melds", [c for m in melds for c in m.cards])]
    for place, cards in places:
        for card in cards:
            if not isinstance(card, Card):
                raise SetupError(f"{card!r} in {place} is not a card", SetupFault.NOT_A_CARD, card)
            if card in seen:
                raise SetupError(f"{card} is in two places", SetupFault.CARD_TWICE, card)
            seen.add(card)
    return seats


# --- reading saved JSON ------------------------------------------------------------------
def as_object(value: object, where: str) -> Mapping[str, Any]:
    """A JSON object (any mapping)."""
    if not isinstance(value, Mapping):
        raise InvalidStateError(f"{where} must be an object")
    return value


def check_keys(data: object, expected: frozenset[str], where: str) -> Mapping[str, Any]:
    """A JSON object with exactly the ``expected`` keys; the message names the first
    unknown key, else the first missing one, in alphabetical order."""
    mapping = as_object(data, where)
    unknown = sorted(set(mapping) - expected)
    if unknown:
        raise InvalidStateError(f"unknown key {unknown[0]!r} in {where}")
    missing = sorted(expected - set(mapping))
    if missing:
        raise InvalidStateError(f"{where} is missing {missing[0]!r}")
    return mapping


def as_int(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number (not a boolean), from ``low`` to ``high`` when they are given."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidStateError(f"{where} must be a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidStateError(f"{where} is out of range")
    return value


def as_bool(value: object, where: str) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise InvalidStateError(f"{where} must be true or false")
    return value


def as_player(value: object, players: Sequence[str], where: str) -> str:
    """One of ``players``."""
    if not isinstance(value, str) or value not in players:
        raise InvalidStateError(f"{where}: {value!r} is not a player of this hand")
    return value


def as_card(value: object, where: str) -> Card:
    """A card code, read as ``Card.parse`` reads it."""
    try:
        return Card.parse(value)  # type: ignore[arg-type]  # parse rejects non-strings itself
    except RummyError as exc:
        raise InvalidStateError(f"{where}: {exc}") from None


def as_cards(value: object, where: str) -> list[Card]:
    """A list of card codes."""
    if not isinstance(value, list):
        raise InvalidStateError(f"{where} must be a list of card codes")
    return [as_card(item, where) for item in value]


def as_enum(kind: type[_E], value: object, where: str) -> _E:
    """The member of ``kind`` whose value this is."""
    for member in kind:
        if member.value == value:
            return member
    raise InvalidStateError(f"{where}: {value!r} is not a valid value")
