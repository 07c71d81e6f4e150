"""The arena: every pairing reported with intervals, on the same deals for both sides."""

from __future__ import annotations

import pytest

from engine.arena import main, mean_interval, run_matchup, seat_levels, wilson
from engine.rules import HouseRules


def test_levels_swap_seats_on_the_same_deal() -> None:
    assert seat_levels(("expert", "hard"), 2, 0) == ["expert", "hard"]
    assert seat_levels(("expert", "hard"), 2, 1) == ["hard", "expert"]
    assert seat_levels(("expert", "hard"), 4, 1) == ["hard", "expert", "hard", "expert"]


def test_a_matchup_counts_every_hand_for_both_levels() -> None:
    tally = run_matchup(("expert", "hard"), 2, HouseRules(), 4, seed=3)
    assert tally.hands == 4
    assert sum(tally.wins.values()) >= 4
    assert tally.seat_hands == {"expert": 4, "hard": 4}
    assert tally.times["expert"] and tally.times["hard"]


def test_intervals() -> None:
    low, high = wilson(60, 100)
    assert 0.50 < low < 0.60 < high < 0.70
    assert mean_interval(10.0, 50.0, 2) == (5.0, 5.0)  # 5 and 5: no spread
    assert mean_interval(10.0, 100.0, 2) == pytest.approx((5.0 - 9.8, 5.0 + 9.8))  # 0 and 10


def test_the_report_names_every_pairing_with_intervals_and_think_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--hands", "2", "--players", "2", "4", "--matchups", "expert:hard"]) == 0
    out = capsys.readouterr().out
    assert "2 players, expert vs hard: 2 hands" in out
    assert "4 players, expert vs hard: 2 hands" in out
    headers = [line for line in out.splitlines() if line.strip().startswith("level")]
    # Win rate and average points, each with its interval, for both table sizes.
    assert len(headers) == 2 and all(line.count("95% CI") == 2 for line in headers)
    assert "expert ahead of hard on average points in 4-player hands" in out
    assert "expert decision time over" in out and "median" in out
