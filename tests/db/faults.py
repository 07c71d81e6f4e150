"""Real storage faults for tests: no mocks."""

from __future__ import annotations

import contextlib
import os
import random
import resource
import shutil
import signal
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from db import Database, LiveTable

from .factories import computer, hand, human, match

NOBODY = 65534


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


# ------------------------------------------------------------ damaged files


async def build(path: Path, matches: int = 40) -> None:
    """A database with results in every table, all in the main file (no log left)."""
    async with await Database.open(path) as db:
        for n in range(matches):
            record = match(
                [human("a", 1 + n % 7), human("b", 100 + n % 5), computer("c")],
                [hand(h, {"a": 10 + h}, went_out="a") for h in range(1, 4)],
                ("a",),
                channel_id=1000 + n,
            )
            await db.record_match(record)
        await db.save_live_table(LiveTable(7, 1, 70, {}, {"turn": 3}, 1.0))
        await db.set_guild_rules(1, {"target": 200})


def pages(path: Path) -> tuple[int, int, dict[str, int]]:
    """The file's page size, page count, and the root page of every table and index."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        count = conn.execute("PRAGMA page_count").fetchone()[0]
        roots = dict(conn.execute("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0"))
    return size, count, roots


def damage_page(path: Path, page: int, page_size: int) -> None:
    """Garbage over one whole page (numbered from 1), as a bad sector or a stray write leaves."""
    garbage = random.Random(page).randbytes(page_size)
    with path.open("r+b") as file:
        file.seek((page - 1) * page_size)
        file.write(garbage)


# --------------------------------------------------------- read-only files


# Run in the child once everything it needs is imported: the interpreter itself
# may live where only root can read (a pyenv under /root).
DROP_PRIVILEGES = f"""
if os.geteuid() == 0:
    os.setgroups([])
    os.setgid({NOBODY})
    os.setuid({NOBODY})
"""


@contextmanager
def shared_folder() -> Iterator[Path]:
    """A folder an unprivileged user can reach: pytest's own are root's alone."""
    folder = Path(tempfile.mkdtemp(prefix="rummy-test-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def hand_over(folder: Path, files: list[Path]) -> None:
    """Give ``folder`` and ``files`` to the user the child runs as (when that is nobody)."""
    if os.geteuid() == 0:
        for owned in (folder, *files):
            os.chown(owned, NOBODY, NOBODY)
