"""The package exports the whole public API of the contract."""

from __future__ import annotations

import inspect

import engine
from engine import Hand, HouseRules, Match

CONTRACT_NAMES = [
    "RummyError",
    "IllegalMoveError",
    "NotYourTurnError",
    "NotSeatedError",
    "HandOverError",
    "InvalidStateError",
    "Suit",
    "Card",
    "full_deck",
    "sort_by_rank",
    "sort_by_suit",
    "parse_cards",
    "format_cards",
    "AceRule",
    "MeldsPerTurn",
    "GoOut",
    "RummyBonus",
    "EmptyStock",
    "HouseRules",
    "MeldKind",
    "Meld",
    "make_meld",
    "extend_meld",
    "fits_meld",
    "DrawStock",
    "TakeDiscard",
    "MeldCards",
    "LayOff",
    "Discard",
    "Action",
    "action_to_dict",
    "action_from_dict",
    "Phase",
    "Termination",
    "TableMeld",
    "HandOutcome",
    "Event",
    "Hand",
    "MAX_RESHUFFLES",
    "MAX_TURNS",
    "HandView",
    "MatchOutcome",
    "Match",
]


def test_every_contract_name_is_exported() -> None:
    missing = [name for name in CONTRACT_NAMES if not hasattr(engine, name)]
    assert missing == []
    assert set(CONTRACT_NAMES) <= set(engine.__all__)


def test_error_hierarchy() -> None:
    assert issubclass(engine.RummyError, ValueError)
    for name in ("NotYourTurnError", "NotSeatedError", "HandOverError"):
        assert issubclass(getattr(engine, name), engine.IllegalMoveError)
    assert issubclass(engine.IllegalMoveError, engine.RummyError)
    assert issubclass(engine.InvalidStateError, engine.RummyError)


def test_signatures_of_the_contract() -> None:
    assert list(inspect.signature(Hand.deal).parameters) == ["players", "rules", "dealer", "seed"]
    assert list(inspect.signature(Hand.from_position).parameters) == [
        "players", "rules", "hands", "stock", "discard", "first", "seed",
    ]  # fmt: skip
    assert list(inspect.signature(Hand.apply).parameters) == ["self", "player", "action"]
    assert list(inspect.signature(Match.start).parameters) == ["players", "rules", "seed"]
    assert [f for f in HouseRules.__dataclass_fields__] == [
        "ace", "melds_per_turn", "go_out", "rummy_bonus", "empty_stock",
        "target", "hands", "turn_timeout", "hints",
    ]  # fmt: skip
    assert (engine.MAX_RESHUFFLES, engine.MAX_TURNS) == (3, 500)
