"""An exclusive, per-file process lock, so two bots never share one database.

SQLite's own locking keeps the file consistent with two writers, but two bot
processes would still both answer the same interactions and overwrite each
other's live tables.  So the bot takes ``flock`` on ``<database>.lock`` for
its whole life.  The kernel drops a ``flock`` when its holder exits in any
way, a crash included, so a stale lock file never blocks a restart.  (POSIX
only: the bot runs on Linux.)
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from .errors import DatabaseLockedError, StorageError


class ProcessLock:
    """Holds ``flock(LOCK_EX)`` on a lock file until :meth:`release`."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, database: Path) -> ProcessLock:
        """Lock ``database`` for this process or raise :class:`DatabaseLockedError`.

        Non-blocking on purpose: a second bot must fail at once with a clear
        message, not hang at start-up.  The lock file records the holder's pid
        to make that message more useful; it is never deleted, because
        unlinking a lock file lets a third process lock a fresh inode while the
        first still holds the old one.
        """
        lock_path = database.with_name(database.name + ".lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StorageError(f"cannot create the lock file {lock_path}: {exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _read_pid(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EACCES, errno.EAGAIN):
                raise StorageError(f"cannot lock {lock_path}: {exc}") from exc
            who = f" (pid {holder})" if holder else ""
            raise DatabaseLockedError(
                f"Another bot process{who} is already using {database}; stop it first"
            ) from None
        with contextlib.suppress(OSError):  # the pid is a courtesy, not a requirement
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(fd, lock_path)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Drop the lock (closing the descriptor releases it); safe to call twice."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        return int(text) if text else None
    except (OSError, ValueError):
        return None
