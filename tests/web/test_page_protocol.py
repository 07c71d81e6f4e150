"""The Activity's page protocol: an intent is one of the buttons' own actions,
parsed or refused by its shape, and the whole protocol is plain data for the
page's module."""

from __future__ import annotations

import pytest

from presentation.actions import DRAW, HINT, INTENTS, Locking
from web.page_protocol import (
    ANSWERS,
    CLOSE_CODES,
    VERSION,
    Answer,
    Intent,
    answer_frame,
    changes_table,
    described,
)


def test_every_intent_is_a_declared_action_whose_declaration_says_how_it_locks() -> None:
    assert INTENTS["draw"] is DRAW and INTENTS["hint"] is HINT
    assert set(INTENTS) >= {"draw", "take", "meld", "lay_off", "discard", "next_hand",
                            "reclaim", "hint", "why", "sort", "log", "language", "join",
                            "leave", "rematch"}
    for op, action in INTENTS.items():
        assert changes_table(op) is (action.locking is not Locking.LOOK)


def test_an_intent_is_read_from_its_frame() -> None:
    intent = Intent.parse({"op": "lay_off", "cards": ["7H", "8H"], "meld": 2,
                           "version": "playing.1.3.play.9"})
    assert intent == Intent("lay_off", ("7H", "8H"), 2, "playing.1.3.play.9")
    assert intent.action is INTENTS["lay_off"]
    # A look needs no picture of the table.
    assert Intent.parse({"op": "sort"}).version is None


@pytest.mark.parametrize(("frame", "says"), [
    ({"op": "explode"}, "unknown op"),
    ({"op": ["draw"]}, "unknown op"),
    ({"op": "meld", "cards": "7H", "version": "v"}, "cards"),
    ({"op": "meld", "cards": ["7H"] * 14, "version": "v"}, "cards"),
    ({"op": "lay_off", "meld": 0, "version": "v"}, "meld"),
    ({"op": "lay_off", "meld": True, "version": "v"}, "meld"),
    ({"op": "draw"}, "version"),
    ({"op": "language", "language": 7}, "language"),
])
def test_a_frame_of_the_wrong_shape_is_refused_saying_what_is_wrong(
    frame: dict[str, object], says: str
) -> None:
    with pytest.raises(ValueError, match=says):
        Intent.parse(frame)


def test_an_answer_frame_holds_only_what_it_has() -> None:
    assert answer_frame(Answer("done"), 4) == {"type": "done", "seq": 4}
    assert answer_frame(Answer("hint", "take it", ["7H"]), 5) == {
        "type": "hint", "seq": 5, "text": "take it", "cards": ["7H"]}


def test_the_protocol_is_plain_data_for_the_page() -> None:
    protocol = described()
    assert protocol["VERSION"] == VERSION
    assert set(protocol["OPS"]) == set(INTENTS)
    assert set(ANSWERS) <= set(protocol["FRAMES"].values())
    assert protocol["CLOSE"]["OPENED_ELSEWHERE"] == CLOSE_CODES["opened_elsewhere"]
    assert len(set(CLOSE_CODES.values())) == len(CLOSE_CODES)
