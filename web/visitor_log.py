"""What the Activity's web server logs of requests it could not read.

aiohttp logs every malformed request with its whole traceback (about 750
bytes). Anyone can send those, as fast as they like, so they would push the
lines that matter out of a rotated log. Here a malformed request is one short
line at most every ``EVERY`` seconds, counting the ones left out; an error in
the bot's own handlers still logs in full.
"""

from __future__ import annotations

import logging
import time

from aiohttp.http_exceptions import HttpProcessingError

EVERY = 10.0

visitors = logging.getLogger("web.visitors")


class OneLineEvery(logging.Filter):
    def __init__(self, every: float) -> None:
        super().__init__()
        self.every = every
        self.last = -every
        self.left_out = 0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True  # the bot's own failure: every detail is wanted
        now = time.monotonic()
        if now - self.last < self.every:
            self.left_out += 1
            return False
        self.last = now
        summary = " ".join(str(error.message or error).split())[:120]
        record.msg = "unreadable request from %s: %s%s"
        record.args = (
            record.args[0] if isinstance(record.args, tuple) and record.args else "?",
            summary,
            f" ({self.left_out} more since the last)" if self.left_out else "",
        )
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = None
        record.exc_text = None
        self.left_out = 0
        return True


def quiet_visitor_log(every: float = EVERY) -> logging.Logger:
    """The logger to give aiohttp's request handler (set up once)."""
    if not any(isinstance(f, OneLineEvery) for f in visitors.filters):
        visitors.addFilter(OneLineEvery(every))
    return visitors
