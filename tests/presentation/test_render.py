import json

import pytest

from db import PlayerStats
from engine import Card, HouseRules, RummyError
from flows.settings import merge_rules
from presentation import render
from presentation.scores import stats_embed
from tests.tables.helpers import playing_table


def _all_text(embed_dict: dict) -> str:  # type: ignore[type-arg]
    return json.dumps(embed_dict, ensure_ascii=False)


def test_public_table_never_shows_a_hand() -> None:
    table = playing_table()
    assert table.match is not None
    text = _all_text(render.table_embed(table).to_dict())
    top = table.match.hand.discard_top
    for seat in table.seats:
        for card in table.match.hand.hand_of(seat.key):
            if card != top:
                assert card.display not in text, f"{card} of {seat.name} leaked"


def test_table_shows_turn_counts_and_scores() -> None:
    table = playing_table()
    embed = render.table_embed(table).to_dict()
    text = _all_text(embed)
    assert "▶️" in text and "7 cards" in text and "0 points" in text
    assert "Stock" in text and "Discard pile" in text
    assert len(text) < 6000


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


def test_a_long_meld_list_is_split_never_cut() -> None:
    from engine import Meld, MeldKind, TableMeld

    table = playing_table()
    long_names = {seat.key: "N" * 32 for seat in table.seats}
    run = tuple(Card.parse(c) for c in ("3S", "4S", "5S", "6S", "7S", "8S", "9S"))
    melds = [
        TableMeld(meld=Meld(MeldKind.RUN, run), owners=tuple(long_names)[:3] * 2 + ("1",))
        for _ in range(12)
    ]
    lines = [f"{i}. {render.describe_meld(m, long_names)}" for i, m in enumerate(melds, 1)]
    chunks = render._chunks(lines, 1024)
    assert len(chunks) > 1 and all(len(chunk) <= 1024 for chunk in chunks)
    joined = "\n".join(chunks)
    assert all(f"{i}. " in joined for i in range(1, 13))  # the newest melds are not dropped


def test_a_player_without_wins_has_no_rank_by_wins() -> None:
    text = _all_text(stats_embed(PlayerStats(1, "Ann", 3, 0, 2, 40, 0, rank=1), "Ann").to_dict())
    assert "no wins yet" in text and "#1" not in text
    ranked = _all_text(stats_embed(PlayerStats(1, "Ann", 3, 1, 2, 40, 0, rank=1), "Ann").to_dict())
    assert "#1" in ranked


def test_one_hand_and_one_point_read_in_the_singular() -> None:
    table = playing_table(rules=HouseRules(target=None, hands=1))
    text = _all_text(render.table_embed(table).to_dict())
    assert "(1 hand)" in text and "1 hands" not in text
