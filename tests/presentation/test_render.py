import json

import pytest

from chat.messages.scores_layout import stats_embed
from db import PlayerStats
from engine import Card, HouseRules, RummyError
from game.server_rules import merge_rules
from presentation import render


def _all_text(embed_dict: dict) -> str:  # type: ignore[type-arg]
    return json.dumps(embed_dict, ensure_ascii=False)


def test_meld_credit_names_each_player() -> None:
    from engine import Meld, MeldKind, TableMeld

    meld = TableMeld(
        meld=Meld(MeldKind.RUN, tuple(Card.parse(c) for c in ("6S", "7S", "8S", "9S"))),
        owners=("2", "1", "1", "1"),
    )
    line = render.describe_meld(meld, {"1": "Ann", "2": "Bob"})
    assert "Ann: 7♠ 8♠ 9♠" in line and "Bob: 6♠" in line


def test_merge_rules_applies_options_and_refuses_contradictions() -> None:
    base = HouseRules()
    assert merge_rules(base, {"hands": 3}).hands == 3
    assert merge_rules(base, {"hands": 3}).target is None
    assert merge_rules(merge_rules(base, {"hands": 3}), {"target": 50}).hands is None
    assert merge_rules(base, {"ace": "high_or_low", "target": None}).ace.value == "high_or_low"
    with pytest.raises(RummyError):
        merge_rules(base, {"hands": 3, "target": 50})


def test_rules_text_names_the_house_rules_in_force() -> None:
    text = render.rules_text(HouseRules.from_dict({"ace": "high_or_low", "hands": 4}))
    assert "Q-K-A" in text and "4" in text


def test_a_player_without_wins_has_no_rank_by_wins() -> None:
    text = _all_text(stats_embed(PlayerStats(1, "Ann", 3, 0, 2, 40, 0, rank=1), "Ann").to_dict())
    assert "no wins yet" in text and "#1" not in text
    ranked = _all_text(stats_embed(PlayerStats(1, "Ann", 3, 1, 2, 40, 0, rank=1), "Ann").to_dict())
    assert "#1" in ranked
