"""A consistent copy of the database, taken while the bot keeps running::

    python -m db.backup rummy.sqlite3 backups/rummy-2026-11-23.sqlite3
    python -m db.backup postgresql://rummy@db/rummy backups/rummy-2026-11-23.dump

SQLite's online backup copies the file page by page between the bot's
commits, so the copy is one moment of the database (every saved game, every
result), never a half-written file as a plain ``cp`` of a busy database can be.
For PostgreSQL it runs ``pg_dump``, which reads one snapshot of the database,
in its custom format (``pg_restore`` puts it back), with the password given
to it through its environment, never on a command line every local user can
read. Either copy is written to a work file of its own, checked, and only
then given its name.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

# Pages copied per step: the bot's saves get the file between steps.
PAGES_PER_STEP = 1024


class BackupError(Exception):
    """The backup could not be made; the message says why."""


@contextlib.contextmanager
def work_file(target: Path) -> Iterator[Path]:
    """A new, empty file beside ``target`` to write the copy to, removed unless
    renamed. Its name is made fresh, so it can never be the database being
    copied, whatever that is called."""
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=f"{target.name}.", suffix=".partial")
    os.close(handle)
    partial = Path(name)
    try:
        yield partial
    finally:
        partial.unlink(missing_ok=True)


def without_password(url: str) -> tuple[str, str | None]:
    """The URL with its password taken out (of the user part, or of a
    ``password=`` parameter), and the password."""
    parts = urlsplit(url)
    password = parts.password
    netloc = parts.netloc
    if password is not None:
        user_part, _, host = netloc.rpartition("@")
        netloc = f"{user_part.partition(':')[0]}@{host}"
    query = parse_qsl(parts.query, keep_blank_values=True)
    for key, value in query:
        if key == "password":
            password = value
    kept = urlencode([(key, value) for key, value in query if key != "password"])
    return urlunsplit((parts.scheme, netloc, parts.path, kept, parts.fragment)), password


def backup(source: Path, target: Path) -> int:
    """Copy ``source`` to the new file ``target``; the number of pages copied."""
    if not source.is_file():
        raise BackupError(f"{source} is not a database file")
    if target.exists():
        raise BackupError(f"{target} exists already: give a new file name")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a folder")
    pages = 0
    with work_file(target) as partial:
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
            raise BackupError(f"could not copy {source}: {error}") from error
        if verdict != "ok":
            raise BackupError(f"the copy of {source} failed its check: {verdict}")
        partial.rename(target)
    return pages


def dump(url: str, target: Path, pg_dump: str = "pg_dump") -> int:
    """``pg_dump`` the PostgreSQL database at ``url`` to the new file ``target``,
    then list it with ``pg_restore`` as the check; the number of entries in it."""
    if target.exists():
        raise BackupError(f"{target} exists already: give a new file name")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a folder")
    program = shutil.which(pg_dump)
    if program is None:
        raise BackupError(
            f"{pg_dump} was not found: install PostgreSQL's client programs "
            "(the same major version as the server), or give --pg-dump"
        )
    dbname, password = without_password(url)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    with work_file(target) as partial:
        made = subprocess.run(
            [program, "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={dbname}"],
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        if made.returncode != 0:
            raise BackupError(f"pg_dump failed: {' '.join(made.stderr.split())}")
        listed = subprocess.run(
            [str(Path(program).with_name("pg_restore")), "--list", str(partial)],
            capture_output=True,
            text=True,
            check=False,
        )
        if listed.returncode != 0 or "TABLE DATA" not in listed.stdout:
            raise BackupError(
                f"the dump of the database failed its check: {listed.stderr.strip()}"
            )
        partial.rename(target)
    return sum(1 for line in listed.stdout.splitlines() if line and not line.startswith(";"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m db.backup",
        description="Copy the bot's database to a new file while the bot runs.",
    )
    parser.add_argument(
        "database", help="the bot's database: its file (DATABASE_PATH) or its DATABASE_URL"
    )
    parser.add_argument("target", type=Path, help="the new file to write the copy to")
    parser.add_argument(
        "--pg-dump", default="pg_dump", help="the pg_dump program to use (default: from PATH)"
    )
    args = parser.parse_args(argv)
    try:
        if args.database.startswith(("postgresql://", "postgres://")):
            entries = dump(args.database, args.target, args.pg_dump)
            print(f"dumped the database to {args.target} ({entries} entries, checked)")
            return 0
        pages = backup(Path(args.database), args.target)
    except BackupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"copied {args.database} to {args.target} ({pages} pages, checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
