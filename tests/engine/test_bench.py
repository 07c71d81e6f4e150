"""The benchmark is not a test; this only keeps it runnable (no timing is asserted)."""

from __future__ import annotations

import pytest

from engine import bench


def test_bench_prints_a_row_per_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seconds", "0.02"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows[2:]] == ["2", "4", "6"]
