"""A thread that owns one SQLite connection from start to stop.

The live-table writer and the checkpointer each work on a connection of their
own, outside the event loop, so that neither the loop nor the other waits for
SQLite or the disk. This is their common life cycle: the connection is opened
on the thread (a ``sqlite3`` connection stays on the thread that made it),
``start`` raises whatever opening raised, and the connection is closed when
the thread's work ends.
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures
import sqlite3
import threading
from collections.abc import Callable


class ConnectionThread(abc.ABC):
    """A thread that owns one SQLite connection, opened and closed on it."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], name: str) -> None:
        self._connect = connect
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._opened: concurrent.futures.Future[None] = concurrent.futures.Future()

    async def start(self) -> None:
        """Open the connection on the thread; raises what opening raised."""
        self._thread.start()
        await asyncio.wrap_future(self._opened)

    async def stop(self) -> None:
        """Let the thread finish its work, then wait for it to close the connection."""
        self.stop_soon()
        await asyncio.to_thread(self._thread.join)

    @abc.abstractmethod
    def stop_soon(self) -> None:
        """Ask the thread to end after the work in hand, without waiting for it."""

    @abc.abstractmethod
    def _serve(self, conn: sqlite3.Connection) -> None:
        """The thread's work, until it is asked to stop."""

    def _run(self) -> None:
        try:
            conn = self._connect()
        except BaseException as exc:
            self._opened.set_exception(exc)
            return
        self._opened.set_result(None)
        try:
            self._serve(conn)
        finally:
            conn.close()
