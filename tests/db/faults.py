"""Real storage faults for tests: no mocks."""

from __future__ import annotations

import resource
import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def writes_fail() -> Iterator[None]:
    """Make every file write of this process fail, as a full disk does.

    RLIMIT_FSIZE turns writes past the limit into EFBIG (with SIGXFSZ ignored
    instead of killing us): a real failed write() under SQLite, no mocks.
    Nothing else may write while it is on, so the block must stay tiny.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
