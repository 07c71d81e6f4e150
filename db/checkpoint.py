"""Moving the write-ahead log into the database file, off the savers' path.

SQLite's default is that whichever commit takes the log past 1,000 pages
copies it into the database file and flushes both to the disk, before that
commit returns. With hundreds of busy tables that happens often, and a slow
disk can take a large part of a second over the flush: every move on every
table waited behind it. Here the live-table writer's connection never
does it (``wal_autocheckpoint = 0``); this thread does, with a connection of
its own, soon after saves were committed. SQLite lets one connection
checkpoint while another commits, so the saves go on meanwhile. The shared
connection keeps SQLite's default, as a backstop should this thread fall
behind.

It also bounds how long a move saved with ``synchronous=NORMAL`` can sit in
a log that is not yet on the disk: one interval, not "until the log is full".
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable

from .connection_thread import ConnectionThread

log = logging.getLogger(__name__)

# How often, at most, the log is checkpointed while saves keep coming.
CHECKPOINT_INTERVAL = 0.5
# SQLite starts the log file over only when a write finds it wholly copied,
# which with saves arriving all the time may not happen for a while. Past
# this many pages a RESTART checkpoint makes it: the saves wait for it, but
# the PASSIVE one just before has left it little to copy.
RESTART_PAGES = 10_000


class Checkpointer(ConnectionThread):
    """A thread that runs a PASSIVE checkpoint after saves were committed."""

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        interval: float = CHECKPOINT_INTERVAL,
        restart_pages: int = RESTART_PAGES,
    ) -> None:
        super().__init__(connect, "db-checkpointer")
        self._interval = interval
        self._restart_pages = restart_pages
        self._wanted = threading.Event()
        self._stopping = threading.Event()
        self.checkpoints = 0  # completed ones, so tests can wait for one
        self.restarts = 0

    def request(self) -> None:
        """There are committed saves in the log: checkpoint them soon."""
        self._wanted.set()

    def stop_soon(self) -> None:
        """End the thread after the checkpoint in progress, without waiting."""
        self._stopping.set()
        self._wanted.set()

    # ------------------------------------------------------------ on the thread
    def _serve(self, conn: sqlite3.Connection) -> None:
        while True:
            self._wanted.wait()
            if self._stopping.is_set():
                break
            self._wanted.clear()
            self._checkpoint(conn)
            # Saves committed meanwhile wait for the next round: one
            # checkpoint an interval at most, however busy the tables.
            if self._stopping.wait(self._interval):
                break

    def _checkpoint(self, conn: sqlite3.Connection) -> None:
        try:
            # PASSIVE: copy what no reader still needs and wait for nobody.
            _, pages, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if pages > self._restart_pages:
                conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                self.restarts += 1
        except sqlite3.Error:
            # The log only grows until the next round; closing the last
            # connection checkpoints it in any case.
            log.warning("checkpointing the database log failed", exc_info=True)
            return
        self.checkpoints += 1
