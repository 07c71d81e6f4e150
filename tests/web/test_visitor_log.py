"""What the Activity's server logs of requests it cannot read: one short line
at most every so often, counting those left out; a failure of the bot's own
handlers keeps every detail."""

from __future__ import annotations

import logging

import pytest
from aiohttp.http_exceptions import BadStatusLine

from web.visitor_log import OneLineEvery, quiet_visitor_log


def unreadable(logger: logging.Logger) -> None:
    try:
        raise BadStatusLine("GARBAGE / HTTP/9")
    except BadStatusLine:
        logger.exception("Error handling request from %s", "203.0.113.9")


def test_unreadable_requests_are_one_short_line_now_and_then(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1000.0]
    monkeypatch.setattr("web.visitor_log.time.monotonic", lambda: clock[0])
    logger = logging.getLogger("test.visitors")
    logger.addFilter(OneLineEvery(10.0))
    caplog.set_level(logging.DEBUG, logger=logger.name)
    for _ in range(5):
        unreadable(logger)
    clock[0] += 11
    unreadable(logger)
    lines = [record for record in caplog.records if record.name == logger.name]
    assert len(lines) == 2
    assert all(record.exc_info is None and record.levelno == logging.WARNING for record in lines)
    assert "203.0.113.9" in lines[0].getMessage() and "GARBAGE" in lines[0].getMessage()
    assert "(4 more since the last)" in lines[1].getMessage()


def test_the_bots_own_failure_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    logger = quiet_visitor_log()
    caplog.set_level(logging.DEBUG, logger=logger.name)
    try:
        raise KeyError("a bug of ours")
    except KeyError:
        logger.exception("Error handling request")
    (record,) = [r for r in caplog.records if r.name == logger.name]
    assert record.exc_info is not None and record.levelno == logging.ERROR
