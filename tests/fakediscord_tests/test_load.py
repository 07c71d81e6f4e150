"""The load benchmark's core on a tiny game night: it runs end to end and counts.

The benchmark itself (``python -m tests.bench.load``) is not part of the
test run; this checks that its pieces still fit together: the real bot as a
subprocess on the emulator, players finishing whole matches, the figures.
"""

from __future__ import annotations

import pytest

from tests.bench.load import LoadOptions, format_report, parse_args, run_load


async def test_two_tables_of_two_play_a_hand_with_every_click_answered() -> None:
    # The second table opens a second after the first (the ramp).
    options = LoadOptions(tables=2, players=2, hands=1, think=0.0, progress=False, ramp=2.0)
    result = await run_load(options)

    assert (result.tables_started, result.tables_finished, result.hands_played) == (2, 2, 2)
    assert result.latencies.sent > 10
    assert result.latencies.late_or_never == 0
    assert len(result.latencies.seconds) == result.latencies.sent
    assert result.bot_errors == 0 and result.problems == []
    # Every click was answered through its interaction callback, once.
    assert result.requests.by_kind["callbacks"] == result.latencies.sent
    assert result.requests.limited_detail["table"] == 0
    report = format_report(result)
    for figure in ("interactions sent", "not answered within 3 s", "p99", "429 responses",
                   "bot peak memory", "CPU seconds per 1,000 actions"):
        assert figure in report
    assert "tables opened over 2 s" in report


def test_a_negative_ramp_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--ramp", "-1"])
    assert "--ramp must be 0 or more seconds" in capsys.readouterr().err
