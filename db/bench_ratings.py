"""Benchmark of ratings and history: part of ``python -m db.bench``.

Builds a throw-away database of one server with ``matches`` rated matches
(1,000,000 by default, one hand each: the hands are not what is timed), rated
in order with the bot's own rating code and stored with the bot's own SQL,
then times what members wait on: a page of the rating leaderboard (first,
middle, last), a page of the server's history and of a member's, and the
rating update of one more match inside its recording transaction.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from functools import partial
from pathlib import Path

import aiosqlite

from . import ratings
from .bench_timing import summary, timed
from .database import Database
from .models import HandRecord, MatchRecord, SeatRecord
from .results import (
    SQL_ADD_PLAYER_STATS,
    SQL_INSERT_HAND,
    SQL_INSERT_MATCH,
    SQL_INSERT_SEAT,
    match_rows,
)
from .sqlite_store import SqliteSession

GUILD = 1_000_000_000_000_000_001
BATCH = 20_000
LEVELS = ("easy", "hard")


def rated_match(rng: random.Random, players: int, number: int) -> MatchRecord:
    """A played-out match of 2-4 seats (a quarter of the others computers), one hand."""
    size = rng.choice((2, 2, 3, 3, 4))
    users = rng.sample(range(1, players + 1), size)
    seats = [
        SeatRecord(f"p{i}", None, "Computer", True, rng.choice(LEVELS))
        if i > 0 and rng.random() < 0.25
        else SeatRecord(f"p{i}", 10**17 + uid, f"player-{uid}", False)
        for i, uid in enumerate(users)
    ]
    keys = [s.player_key for s in seats]
    scores = {k: rng.choice((0, 0, rng.randint(1, 80))) for k in keys}
    out = max(keys, key=lambda k: scores[k])
    best = scores[out]
    ended = 1_600_000_000.0 + number * 30
    return MatchRecord(
        guild_id=GUILD,
        channel_id=GUILD + 1 + number % 50,
        seats=seats,
        rules={"hands": 1},
        hands=[HandRecord(1, out, False, scores, (out,), "went out")],
        totals=scores,
        winners=tuple(k for k in keys if scores[k] == best),
        abandoned=False,
        started_at=ended - 600,
        ended_at=ended,
    )


def bulk_rate(path: Path, players: int, matches: int, seed: int) -> None:
    """Record and rate ``matches`` matches straight through sqlite3, in big batches."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # set-up of a throw-away file
    conn.execute("PRAGMA foreign_keys = ON")
    priors: dict[str, ratings.Prior] = {}
    started = time.perf_counter()
    conn.execute("BEGIN")
    for number in range(matches):
        record = rated_match(rng, players, number)
        match_row, seats, hands, stats = match_rows(record)
        match_id = conn.execute(SQL_INSERT_MATCH, match_row).lastrowid
        assert match_id is not None
        conn.executemany(SQL_INSERT_SEAT, [(match_id, *r) for r in seats])
        conn.executemany(SQL_INSERT_HAND, [(match_id, *r) for r in hands])
        conn.executemany(SQL_ADD_PLAYER_STATS, stats)
        # The priors are kept here rather than read back: the same figures the
        # bot reads with SQL_PRIORS, at a fraction of the build time.
        keys = ratings.rated_keys(record)
        before = {key: priors.get(key) or ratings.prior_of([]) for key in keys}
        results = ratings.rate_results(record, before)
        put, added = ratings.rating_rows(match_id, GUILD, 1, results, before)
        conn.executemany(ratings.SQL_PUT_RATING, put)
        conn.executemany(ratings.SQL_ADD_MATCH_RATING, added)
        for row in put:
            priors[row[2]] = (row[5], row[6], row[9], row[10])
        if (number + 1) % BATCH == 0:
            conn.execute("COMMIT")
            rate = (number + 1) / (time.perf_counter() - started)
            print(f"  {number + 1:>9,} rated matches ({rate:,.0f}/s)", flush=True)
            conn.execute("BEGIN")
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def time_rating_update(path: Path, players: int, runs: int, seed: int) -> list[float]:
    """The rating part of recording a match (priors read, openskill, upserts), in
    the transaction that records it, on the full database: milliseconds each."""
    rng = random.Random(seed + 7)
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA journal_mode = WAL")
    times = []
    try:
        for n in range(runs):
            record = rated_match(rng, players, 10**7 + n)
            match_row, seats, hands, _ = match_rows(record)
            await conn.execute("BEGIN IMMEDIATE")
            inserted = await conn.execute_fetchall(SQL_INSERT_MATCH, match_row)
            match_id = int(next(iter(inserted))[0])
            await conn.executemany(SQL_INSERT_SEAT, [(match_id, *r) for r in seats])
            await conn.executemany(SQL_INSERT_HAND, [(match_id, *r) for r in hands])
            start = time.perf_counter()
            await ratings.rate_match(SqliteSession(conn), match_id, record)
            times.append((time.perf_counter() - start) * 1000)
            await conn.execute("COMMIT")
    finally:
        await conn.close()
    return times


async def measure(path: Path, players: int, runs: int, seed: int) -> None:
    db = await Database.open(path)
    try:
        first = await db.rating_board(GUILD)
        print(f"\nrating leaderboard: {first.total_players:,} players, {first.pages:,} pages")
        for label, page in (("page 1", 1), ("middle", first.pages // 2), ("last", first.pages)):
            times = await timed(partial(db.rating_board, GUILD, None, page), runs)
            print(f"  by rating {label:<7} {summary(times)}")
        top = first.rows[0].user_id
        profile = await timed(lambda: db.rating_profile(GUILD, top), runs)
        print(f"  rating_profile (stats) {summary(profile)}")
        print("\nhistory:")
        for label, page in (("server, page 1", 1), ("server, page 100", 100)):
            times = await timed(partial(db.history, GUILD, None, page), runs)
            print(f"  {label:<20} {summary(times)}")
        for label, page in (("member, page 1", 1), ("member, page 10", 10)):
            times = await timed(partial(db.history, GUILD, top, page), runs)
            print(f"  {label:<20} {summary(times)}")
    finally:
        await db.close()
    times = await time_rating_update(path, players, max(runs, 200), seed)
    print(f"\nrating update per match (in record_match's transaction): {summary(times)}")


def run(path: Path, players: int, matches: int, runs: int, seed: int) -> None:
    print(f"\nbuilding {path}: {matches:,} rated matches in one server, {players:,} players")
    started = time.perf_counter()
    bulk_rate(path, players, matches, seed)
    size = path.stat().st_size / 2**20
    print(f"built in {time.perf_counter() - started:.1f} s, {size:,.0f} MiB")
    asyncio.run(measure(path, players, runs, seed))
