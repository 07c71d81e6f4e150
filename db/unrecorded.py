"""Match results the database could not take, kept as files to record later.

When the database keeps refusing a finished (or abandoned) match, a damaged
results table for instance, the bot does not hold the channel hostage: it
writes the result to a folder (beside an SQLite file), closes the table and tells
the players. Once the database is repaired, the host records every kept
result with::

    python -m db.unrecorded rummy.sqlite3      (or the DATABASE_URL)

(with the bot stopped, for SQLite: its file takes one process at a time). Each file
is removed once its match is recorded, so running it twice records nothing
twice.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .database import Database
from .errors import StorageError
from .models import HandMoves, HandRecord, MatchRecord, SeatRecord
from .sqlite_store import kept_results_folder

folder_for = kept_results_folder


def keep(folder: Path, record: MatchRecord) -> Path:
    """Write ``record`` to its own file in ``folder``, whole or not at all.

    Raises StorageError if even that fails (the disk is full or read-only).
    """
    kind = "abandoned" if record.abandoned else "finished"
    name = f"{record.channel_id}-{int(record.started_at * 1000)}-{kind}.json"
    path = folder / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(dataclasses.asdict(record)), encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise StorageError(f"cannot keep the unrecorded result in {path}: {error}") from error
    return path


def load(path: Path) -> MatchRecord:
    """Read a kept result back; ValueError/KeyError/TypeError if it is damaged."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return MatchRecord(
        guild_id=int(data["guild_id"]),
        channel_id=int(data["channel_id"]),
        seats=[SeatRecord(**seat) for seat in data["seats"]],
        rules=dict(data["rules"]),
        hands=[
            HandRecord(
                **{
                    **hand,
                    "winners": tuple(hand["winners"]),
                    "moves": None if hand.get("moves") is None else HandMoves(**hand["moves"]),
                }
            )
            for hand in data["hands"]
        ],
        totals={str(key): int(value) for key, value in data["totals"].items()},
        winners=tuple(data["winners"]),
        abandoned=bool(data["abandoned"]),
        started_at=float(data["started_at"]),
        ended_at=float(data["ended_at"]),
    )


def kept_files(folder: Path) -> list[Path]:
    """The kept results in ``folder``, oldest channel first."""
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


async def record_kept(db: Database, folder: Path) -> tuple[int, list[str]]:
    """Record every kept result into ``db``; how many were, and what failed why."""
    recorded, problems = 0, []
    for path in await asyncio.to_thread(kept_files, folder):
        try:
            record = load(path)
        except (ValueError, KeyError, TypeError) as error:
            problems.append(f"{path.name}: unreadable ({error})")
            continue
        try:
            await db.record_match(record)
        except StorageError as error:
            problems.append(f"{path.name}: {error}")
            continue
        path.unlink()
        recorded += 1
    return recorded, problems


async def _record_into(database: str, folder: Path | None) -> int:
    db = await Database.open(database)
    try:
        folder = folder or db.kept_results
        recorded, problems = await record_kept(db, folder)
    finally:
        await db.close()
    print(f"recorded {recorded} kept result(s) from {folder}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m db.unrecorded",
        description="Record the match results the bot kept because its database refused them.",
    )
    parser.add_argument(
        "database", help="the bot's database: its file (DATABASE_PATH) or DATABASE_URL"
    )
    parser.add_argument(
        "--folder", type=Path, help="where the results were kept (default: beside the database)"
    )
    args = parser.parse_args(argv)
    try:
        return asyncio.run(_record_into(args.database, args.folder))
    except StorageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
