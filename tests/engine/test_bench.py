"""The benchmark is not a test; this only keeps it runnable (no timing is asserted)."""

from __future__ import annotations

import pytest

from engine import bench


def test_bench_prints_a_row_per_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seconds", "0.02"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows[2:]] == ["2", "4", "6"]


def test_bench_copy_times_both_ways_to_keep_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--copy", "--seconds", "0.02"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert "4-player match mid-hand" in rows[0]
    assert [row.split()[0] for row in rows[1:]] == [
        "Match.copy()",
        "Match.from_dict(match.to_dict())",
    ]


def test_the_copy_benchmark_starts_mid_hand() -> None:
    match = bench.mid_hand_match(4, seed=1)
    assert not match.hand.is_over and match.hand.melds
    assert match.hand.stock_size <= (52 - 4 * 7 - 1) // 2
