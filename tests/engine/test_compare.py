"""Comparing expert settings on the same hands."""

from __future__ import annotations

import pytest

from engine.compare import main, paired_difference, parse_variant, play_variants
from engine.errors import RummyError
from engine.rules import HouseRules


def test_a_variant_names_knobs_and_typed_values() -> None:
    assert parse_variant("") == {}
    assert parse_variant("feed=0.2  slack=0") == {"feed": 0.2, "slack": 0}
    assert isinstance(parse_variant("slack=2")["slack"], int)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("feed", "write a change as NAME=VALUE"),
        ("=3", "write a change as NAME=VALUE"),
        ("fed=0.2", "'fed' is not an expert knob: choose from danger"),
        ("score=1", "'score' is not an expert knob"),
        ("slack=1.5", "slack takes int values"),
        ("feed=lots", "feed takes float values"),
        ("feed=-0.1", "feed cannot be negative"),
        ("feed=0.1 feed=0.2", "'feed' is changed twice"),
    ],
)
def test_a_bad_variant_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(RummyError, match=message):
        parse_variant(text)


def test_the_same_settings_play_the_same_hands_however_the_work_is_split() -> None:
    alone, again, fed = play_variants(
        [{}, {}, {"feed": 2.0}], "hard", 2, HouseRules(), 6, seed=4, jobs=1
    )
    assert [r.won for r in alone] == [r.won for r in again]
    assert [r.margin for r in alone] == [r.margin for r in again]
    assert paired_difference(again, alone) == (0.0, 0.0)
    # A knob that changes play changes some hand of the same deals.
    assert [r.margin for r in fed] != [r.margin for r in alone]
    (split,) = play_variants([{}], "hard", 2, HouseRules(), 6, seed=4, jobs=2)
    assert [r.margin for r in split] == [r.margin for r in alone]
    # Both seats of every deal: each hand is counted from the expert's side.
    assert all(r.times for r in alone)


def test_the_report_measures_each_variant_against_the_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["", "feed=2", "--hands", "4", "--seed", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "expert variants against hard, 2 players, 4 hands, seed 4; house rules: defaults"
    )
    rows = {line.split()[0]: line for line in out[2:]}
    assert "(baseline)" in out[2] and out[2].split()[0] == "defaults"
    assert "+0.0 ± 0.0 pts" in out[3]
    assert "feed=2" in rows and "95% CI" in out[1]
    assert main(["", "--hands", "1", "--rule", "ace=high_or_low"]) == 0
    assert "house rules: ace=high_or_low" in capsys.readouterr().out


def test_bad_arguments_go_to_stderr_and_play_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["decay=fast"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert "'decay=fast': decay takes float values" in captured.err
    assert captured.out == ""
    with pytest.raises(SystemExit):
        main(["", "--against", "pro"])
    assert "levels are random, easy, hard and expert" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["", "--against", "expert"])
    assert "the opponent must be random, easy or hard" in capsys.readouterr().err
