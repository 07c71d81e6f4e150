"""A consistent copy of the database, taken while the bot keeps running::

    python -m db.backup rummy.sqlite3 backups/rummy-2026-11-23.sqlite3

SQLite's online backup copies the file page by page between the bot's
commits, so the copy is one moment of the database (every saved game, every
result), never a half-written file as a plain ``cp`` of a busy database can be.
The copy is checked before the command says it is done.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

# Pages copied per step: the bot's saves get the file between steps.
PAGES_PER_STEP = 1024


class BackupError(Exception):
    """The backup could not be made; the message says why."""


def backup(source: Path, target: Path) -> int:
    """Copy ``source`` to the new file ``target``; the number of pages copied."""
    if not source.is_file():
        raise BackupError(f"{source} is not a database file")
    if target.exists():
        raise BackupError(f"{target} exists already: give a new file name")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a folder")
    partial = target.with_name(target.name + ".partial")
    pages = 0
    try:
        reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            writer = sqlite3.connect(partial)
            try:

                def progress(_: int, remaining: int, total: int) -> None:
                    nonlocal pages
                    pages = total - remaining

                reader.backup(writer, pages=PAGES_PER_STEP, progress=progress)
                (verdict,) = writer.execute("PRAGMA quick_check").fetchone()
            finally:
                writer.close()
        finally:
            reader.close()
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"could not copy {source}: {error}") from error
    if verdict != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"the copy of {source} failed its check: {verdict}")
    partial.rename(target)
    return pages


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m db.backup",
        description="Copy the bot's database to a new file while the bot runs.",
    )
    parser.add_argument("database", type=Path, help="the bot's database (DATABASE_PATH)")
    parser.add_argument("target", type=Path, help="the new file to write the copy to")
    args = parser.parse_args(argv)
    try:
        pages = backup(args.database, args.target)
    except BackupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"copied {args.database} to {args.target} ({pages} pages, checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
