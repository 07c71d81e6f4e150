"""The save format: a hand or a match as plain JSON data, and back.

The bot keeps live games in its database across restarts, so this format never
changes shape: ``hand_to_dict`` and ``match_to_dict`` write exactly what they always
have, and everything they ever wrote still reads back.

Reading is in two steps. ``hand_from_dict`` and ``match_from_dict`` only decode: each
field must have its JSON type and name real cards and seated players, and otherwise
``InvalidStateError`` names the field (``hands.ann``, ``melds[2].kind``). The values
they return are then checked as a whole, by ``Hand.from_saved`` and
``Match.from_saved``, against the rules of the game: where the cards are
(``check_position``), whose turn it is and what they have done, and the scores.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NamedTuple

from engine.cards import Card
from engine.checks import (
    as_bool,
    as_card,
    as_cards,
    as_enum,
    as_int,
    as_object,
    as_player,
    check_keys,
    check_players,
    check_seed,
)
from engine.errors import InvalidStateError, RummyError, SetupError, SetupFault
from engine.melds import Meld, MeldKind, make_meld
from engine.rules import HouseRules
from engine.scoring import HandOutcome
from engine.state import Phase, TableMeld

__all__ = [
    "MATCH_VERSION",
    "STATE_VERSION",
    "SavedHand",
    "SavedMatch",
    "hand_from_dict",
    "hand_to_dict",
    "match_from_dict",
    "match_to_dict",
    "setup_error_as_invalid_state",
]

STATE_VERSION = 1
"""Format version written by ``hand_to_dict``."""
MATCH_VERSION = 1
"""Format version written by ``match_to_dict``."""

_HAND_KEYS = frozenset(
    {
        "version",
        "players",
        "rules",
        "dealer",
        "seed",
        "hands",
        "stock",
        "discard",
        "melds",
        "turn",
        "phase",
        "taken",
        "melds_this_turn",
        "played_this_turn",
        "played",
        "exhaustions",
        "turns",
        "outcome",
    }
)
_MELD_KEYS = frozenset({"kind", "cards", "owners"})
_MATCH_KEYS = frozenset(
    {"version", "players", "rules", "seed", "hand_number", "totals", "history", "hand"}
)


# Named tuples, not frozen dataclasses: Hand.to_dict builds a SavedHand on every save,
# and a tuple is made in one step where a frozen dataclass sets its fields one by one.
class SavedHand(NamedTuple):
    """A hand's whole state as plain values: what its saved JSON holds, decoded.

    ``stock`` lists its top card first, ``discard`` its bottom card first. ``turn`` is
    the seat of the player to move; once the hand is over it means nothing (the JSON
    names nobody, and reads back as 0). ``taken`` is the card taken from the discard
    pile this turn, ``melds_this_turn`` counts new melds this turn, ``played_this_turn``
    says whether the player to move has melded or laid off this turn, and ``played``
    who did so in an earlier turn. ``exhaustions`` counts rebuilds of the stock,
    ``turns`` completed turns.
    """

    players: tuple[str, ...]
    rules: HouseRules
    dealer: int
    seed: int
    hands: Mapping[str, tuple[Card, ...]]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    turn: int
    phase: Phase
    taken: Card | None
    melds_this_turn: int
    played_this_turn: bool
    played: frozenset[str]
    exhaustions: int
    turns: int
    outcome: HandOutcome | None


class SavedMatch(NamedTuple):
    """A match's whole state as plain values: its totals, the outcome of every finished
    hand in order (``history``), and the current hand (number ``hand_number``)."""

    players: tuple[str, ...]
    rules: HouseRules
    seed: int
    hand_number: int
    totals: Mapping[str, Any]
    history: tuple[HandOutcome, ...]
    hand: SavedHand


def setup_error_as_invalid_state(exc: SetupError) -> InvalidStateError:
    """A setup fault found in saved data, worded as the save format names its fields."""
    if exc.fault in (SetupFault.UNKNOWN_HAND, SetupFault.MISSING_HAND):
        return InvalidStateError("hands must hold exactly one entry per player")
    if exc.fault is SetupFault.UNSEATED_FIRST:
        return InvalidStateError(f"turn: {exc.subject!r} is not a player of this hand")
    return InvalidStateError(str(exc))


@contextmanager
def _as_invalid_state() -> Iterator[None]:
    # Players, seeds and house rules are checked by their own modules, whose messages
    # already say what is wrong; in saved data the error must still be InvalidStateError.
    try:
        yield
    except InvalidStateError:
        raise
    except SetupError as exc:
        raise setup_error_as_invalid_state(exc) from None
    except RummyError as exc:
        raise InvalidStateError(str(exc)) from None


# --- hands -------------------------------------------------------------------------------
def hand_to_dict(state: SavedHand) -> dict[str, Any]:
    """The hand as plain JSON data, format ``version`` 1."""
    players = state.players
    return {
        "version": STATE_VERSION,
        "players": list(players),
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "seed": state.seed,
        "hands": {p: [c.code for c in state.hands[p]] for p in players},
        "stock": [c.code for c in state.stock],
        "discard": [c.code for c in state.discard],
        "melds": [
            {
                "kind": m.meld.kind.value,
                "cards": [c.code for c in m.meld.cards],
                "owners": list(m.owners),
            }
            for m in state.melds
        ],
        "turn": None if state.phase is Phase.OVER else players[state.turn],
        "phase": state.phase.value,
        "taken": None if state.taken is None else state.taken.code,
        "melds_this_turn": state.melds_this_turn,
        "played_this_turn": state.played_this_turn,
        "played": [p for p in players if p in state.played],
        "exhaustions": state.exhaustions,
        "turns": state.turns,
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
    }


def hand_from_dict(data: Mapping[str, Any]) -> SavedHand:
    """Decode ``hand_to_dict`` data; ``InvalidStateError`` names the first bad field.

    Checks each field on its own (types, card codes, valid melds in table order,
    seated players, a scored outcome); ``Hand.from_saved`` checks how they fit together.
    """
    check_keys(data, _HAND_KEYS, "hand")
    if data["version"] != STATE_VERSION:
        raise InvalidStateError(f"unsupported hand format version {data['version']!r}")
    players, rules = _players_and_rules(data)
    dealer = as_int(data["dealer"], "dealer")
    seed = as_int(data["seed"], "seed")
    hands_data = as_object(data["hands"], "hands")
    hands = {p: tuple(as_cards(cards, f"hands.{p}")) for p, cards in hands_data.items()}
    stock = tuple(as_cards(data["stock"], "stock"))
    discard = tuple(as_cards(data["discard"], "discard"))
    melds_data = data["melds"]
    if not isinstance(melds_data, list):
        raise InvalidStateError("melds must be a list")
    melds = tuple(
        _table_meld(item, f"melds[{i}]", players, rules) for i, item in enumerate(melds_data)
    )
    phase = as_enum(Phase, data["phase"], "phase")
    turn = _turn(data["turn"], phase, players)
    taken = None if data["taken"] is None else as_card(data["taken"], "taken")
    melds_this_turn = as_int(data["melds_this_turn"], "melds_this_turn")
    played_this_turn = as_bool(data["played_this_turn"], "played_this_turn")
    played = _played(data["played"], players)
    exhaustions = as_int(data["exhaustions"], "exhaustions")
    turns = as_int(data["turns"], "turns")
    outcome = _outcome(data["outcome"], phase, players, rules)
    return SavedHand(
        players=players,
        rules=rules,
        dealer=dealer,
        seed=seed,
        hands=hands,
        stock=stock,
        discard=discard,
        melds=melds,
        turn=turn,
        phase=phase,
        taken=taken,
        melds_this_turn=melds_this_turn,
        played_this_turn=played_this_turn,
        played=played,
        exhaustions=exhaustions,
        turns=turns,
        outcome=outcome,
    )


def _players_and_rules(data: Mapping[str, Any]) -> tuple[tuple[str, ...], HouseRules]:
    """The seats and the house rules, each as valid as a new table's would be."""
    raw_players = data["players"]
    if not isinstance(raw_players, list):
        raise InvalidStateError("players must be a list")
    with _as_invalid_state():
        return check_players(raw_players), HouseRules.from_dict(as_object(data["rules"], "rules"))


def _turn(value: object, phase: Phase, players: tuple[str, ...]) -> int:
    """The seat to move: a finished hand names nobody, a hand in play a seated player."""
    if phase is Phase.OVER:
        if value is not None:
            raise InvalidStateError("a finished hand has an outcome and nobody to move")
        return 0
    return players.index(as_player(value, players, "turn"))


def _played(value: object, players: tuple[str, ...]) -> frozenset[str]:
    """Who melded or laid off in an earlier turn: seated players, once each, in seat order."""
    if not isinstance(value, list):
        raise InvalidStateError("played must be a list of players")
    played = frozenset(as_player(p, players, "played") for p in value)
    if value != [p for p in players if p in played]:
        raise InvalidStateError("played must list players once each, in seat order")
    return played


def _outcome(
    value: object, phase: Phase, players: tuple[str, ...], rules: HouseRules
) -> HandOutcome | None:
    """The outcome of a finished hand, scored by the rules; null while the hand is in play."""
    if value is None:
        return None
    if phase is not Phase.OVER:
        raise InvalidStateError("a hand still in play has no outcome")
    return HandOutcome.from_dict(as_object(value, "outcome"), players, rules)


def _table_meld(data: object, where: str, players: tuple[str, ...], rules: HouseRules) -> TableMeld:
    """A saved meld must be valid under the house rules and listed in table order."""
    item = check_keys(data, _MELD_KEYS, where)
    kind = as_enum(MeldKind, item["kind"], f"{where}.kind")
    cards = as_cards(item["cards"], f"{where}.cards")
    try:
        meld = make_meld(cards, rules)
    except RummyError as exc:
        raise InvalidStateError(f"{where}: {exc}") from None
    if meld != Meld(kind, tuple(cards)):
        raise InvalidStateError(f"{where} is not a {kind.value} in table order")
    owners = item["owners"]
    if not isinstance(owners, list) or len(owners) != len(cards):
        raise InvalidStateError(f"{where}.owners must name one player per card")
    return TableMeld(meld, tuple(as_player(o, players, f"{where}.owners") for o in owners))


# --- matches -----------------------------------------------------------------------------
def match_to_dict(state: SavedMatch) -> dict[str, Any]:
    """The match as plain JSON data, format ``version`` 1, its current hand included."""
    return {
        "version": MATCH_VERSION,
        "players": list(state.players),
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "hand_number": state.hand_number,
        "totals": dict(state.totals),
        "history": [outcome.to_dict() for outcome in state.history],
        "hand": hand_to_dict(state.hand),
    }


def match_from_dict(data: Mapping[str, Any]) -> SavedMatch:
    """Decode ``match_to_dict`` data; ``InvalidStateError`` names the first bad field.

    ``Match.from_saved`` checks that the hand, the history and the totals fit together.
    """
    mapping = check_keys(data, _MATCH_KEYS, "match")
    if mapping["version"] != MATCH_VERSION:
        raise InvalidStateError(f"unsupported match format version {mapping['version']!r}")
    players, rules = _players_and_rules(mapping)
    with _as_invalid_state():
        seed = check_seed(mapping["seed"])
    number = mapping["hand_number"]
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise InvalidStateError("hand_number must be a whole number from 1")
    hand = hand_from_dict(as_object(mapping["hand"], "hand"))
    history_data = mapping["history"]
    if not isinstance(history_data, list):
        raise InvalidStateError("history must be a list")
    history = tuple(
        HandOutcome.from_dict(as_object(item, "history"), players, rules) for item in history_data
    )
    return SavedMatch(
        players=players,
        rules=rules,
        seed=seed,
        hand_number=number,
        totals=as_object(mapping["totals"], "totals"),
        history=history,
        hand=hand,
    )
