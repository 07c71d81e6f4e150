"""Benchmark of the storage layer: ``python -m db.bench [--players N] [--hands N]``.

Builds a throw-away database holding one server with 10,000 players and
1,000,000 recorded hands (by default), then times what the bot does while
people wait on it: a leaderboard page in each order (first page and deep
pages), a player's stats with rank, saving a ~10 KB live table, recording a
match.  It is not a test: nothing here asserts a time.

The bulk load goes straight through ``sqlite3`` in big transactions (calling
``record_match`` a hundred thousand times would measure fsync, not the
queries), but with the bot's own row builders and the bot's own SQL,
including the leaderboard upsert for every human seat, so the file it times
is the file the bot would have written.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from . import bench_ratings
from .bench_timing import summary, timed
from .database import Database
from .models import HandRecord, LeaderboardOrder, LiveTable, MatchRecord, SeatRecord
from .results import (
    SQL_ADD_PLAYER_STATS,
    SQL_INSERT_HAND,
    SQL_INSERT_MATCH,
    SQL_INSERT_SEAT,
    match_rows,
)

GUILD = 1_000_000_000_000_000_001
ORDERS: tuple[LeaderboardOrder, ...] = ("wins", "points", "rummies")
BATCH_MATCHES = 20_000
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARDS = [rank + suit for suit in "SHDC" for rank in RANKS]


def fake_match(
    rng: random.Random, players: int, hands: int, number: int, first_user: int | None = None
) -> MatchRecord:
    """A plausible match: 2-4 seats (a quarter of them computers), ``hands`` hands.

    Seat 0 is always a human, ``first_user`` if given.
    """
    size = rng.choice((2, 2, 3, 3, 4))
    users = rng.sample(range(1, players + 1), size)
    if first_user is not None:
        users = [first_user, *(u for u in users if u != first_user)][:size]
    seats = [
        SeatRecord(f"p{i}", None, "Computer", True)
        if i > 0 and rng.random() < 0.25
        else SeatRecord(f"p{i}", 10**17 + uid, f"player-{uid}", False)
        for i, uid in enumerate(users)
    ]
    keys = [s.player_key for s in seats]
    totals = dict.fromkeys(keys, 0)
    records = []
    for n in range(1, hands + 1):
        out = rng.choice(keys)
        score = rng.randint(5, 60)
        totals[out] += score
        records.append(
            HandRecord(
                number=n,
                went_out=out,
                rummy=rng.random() < 0.08,
                scores={k: (score if k == out else 0) for k in keys},
                winners=(out,),
                reason="went out",
            )
        )
    best = max(totals.values())
    ended = 1_700_000_000.0 + number * 60
    return MatchRecord(
        guild_id=GUILD,
        channel_id=GUILD + 1 + number % 50,
        seats=seats,
        rules={"hand_size": 7 if size > 2 else 10, "target": 100, "ace": "low"},
        hands=records,
        totals=totals,
        winners=tuple(k for k, v in totals.items() if v == best),
        abandoned=rng.random() < 0.02,
        started_at=ended - 900,
        ended_at=ended,
    )


def hand_counts(total: int, rng: random.Random) -> Iterator[int]:
    """Split ``total`` hands into matches of 5-15 hands."""
    left = total
    while left > 0:
        n = min(left, rng.randint(5, 15))
        left -= n
        yield n


def bulk_load(path: Path, players: int, hands: int, seed: int) -> tuple[int, int]:
    """Fill the (already migrated) file; returns (matches, hands) written."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    # Set-up only: nothing to protect in a throw-away file, so skip the fsyncs.
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA foreign_keys = ON")
    started = time.perf_counter()
    matches = written = 0
    pending: list[MatchRecord] = []
    counts = hand_counts(hands, rng)

    def flush() -> None:
        conn.execute("BEGIN")
        for record in pending:
            match_row, seats, hand_rows, stats = match_rows(record)
            match_id = conn.execute(SQL_INSERT_MATCH, match_row).lastrowid
            conn.executemany(SQL_INSERT_SEAT, [(match_id, *r) for r in seats])
            conn.executemany(SQL_INSERT_HAND, [(match_id, *r) for r in hand_rows])
            conn.executemany(SQL_ADD_PLAYER_STATS, stats)
        conn.execute("COMMIT")
        pending.clear()

    for n in counts:
        # The first `players` matches seat every user once, so the board has them all.
        first = matches + 1 if matches < players else None
        pending.append(fake_match(rng, players, n, matches, first))
        matches += 1
        written += n
        if len(pending) >= BATCH_MATCHES:
            flush()
            rate = written / (time.perf_counter() - started)
            print(f"  {written:>9,} hands, {matches:>7,} matches ({rate:,.0f} hands/s)", flush=True)
    if pending:
        flush()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return matches, written


def live_state(rng: random.Random) -> dict[str, Any]:
    """An engine-like saved state of about 10 KB (four hands, piles, an action log)."""
    deck = CARDS[:]
    rng.shuffle(deck)
    state: dict[str, Any] = {
        "format": 1,
        "seed": rng.getrandbits(64),
        "turn": {"seat": 2, "phase": "discard", "number": 41},
        "seats": [
            {"key": f"p{i}", "user_id": i, "name": f"P{i}", "hand": deck[7 * i : 7 * i + 7]}
            for i in range(4)
        ],
        "stock": deck[28:45],
        "discard": deck[45:],
        "melds": [{"owner": "p1", "cards": ["7H", "7S", "7D"]}],
        "scores": {"p0": 35, "p1": 12, "p2": 0, "p3": 61},
        "log": [],
    }
    while len(json.dumps(state, separators=(",", ":"))) < 10_000:
        state["log"].append({"seat": rng.randrange(4), "action": "draw", "card": rng.choice(CARDS)})
    return state


async def measure(path: Path, runs: int, saves: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    db = await Database.open(path)
    try:
        first = await db.leaderboard(GUILD)
        print(f"\nleaderboard: {first.total_players:,} players, {first.pages:,} pages of 10")
        for order in ORDERS:
            for label, page in (("page 1", 1), ("middle", first.pages // 2), ("last", first.pages)):
                times = await timed(partial(db.leaderboard, GUILD, order, page), runs)
                print(f"  by {order:<8} {label:<7} {summary(times)}")
        last = (await db.leaderboard(GUILD, page=first.pages)).rows[-1]
        for label, uid in (("first", first.rows[0].user_id), ("last", last.user_id)):
            times = await timed(partial(db.player_stats, GUILD, uid), runs)
            print(f"  player_stats ({label:<5} ranked) {summary(times)}")

        state = live_state(rng)
        size = len(json.dumps(state, separators=(",", ":")))
        print(f"\nsave_live_table, {size:,}-byte state, synchronous=NORMAL:")
        turn = 0

        async def save() -> None:
            nonlocal turn
            turn += 1
            state["turn"]["number"] = turn
            table = LiveTable(GUILD + 7, GUILD, GUILD + 8, {"hand_size": 7}, state, time.time())
            await db.save_live_table(table)

        print(f"  {summary(await timed(save, saves))}")

        matches = [fake_match(rng, 10_000, 10, 10**6 + i) for i in range(max(20, saves // 4))]
        it = iter(matches)
        times = await timed(lambda: db.record_match(next(it)), len(matches))
        print("\nrecord_match (10 hands, on the full database, synchronous=FULL):")
        print(f"  {summary(times)}")
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m db.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=50, help="repeats of each query")
    parser.add_argument("--saves", type=int, default=200, help="live-table saves to time")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    parser.add_argument(
        "--rated-matches",
        type=int,
        default=1_000_000,
        help="rated matches in the ratings and history database (0: skip that part)",
    )
    parser.add_argument(
        "--only-ratings", action="store_true", help="skip the leaderboard and live-table part"
    )
    args = parser.parse_args(argv)
    if args.players < 4 or args.hands < 1:
        parser.error("need at least 4 players and 1 hand")

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rummy-bench-") as tmp:
        if args.rated_matches > 0:
            rated = Path(tmp) / "rated.db"
            asyncio.run(_create(rated))
            bench_ratings.run(rated, args.players, args.rated_matches, args.runs, args.seed)
            rated.unlink()
        if args.only_ratings:
            print(f"\ntotal {time.perf_counter() - started:.1f} s")
            return
        path = args.keep or Path(tmp) / "bench.db"
        if path.exists():
            parser.error(f"{path} exists; --keep wants a new file")
        asyncio.run(_create(path))  # the schema, through the bot's own migrations
        print(f"building {path}: {args.players:,} players, {args.hands:,} hands")
        load_start = time.perf_counter()
        matches, hands = bulk_load(path, args.players, args.hands, args.seed)
        size = path.stat().st_size / 2**20
        print(
            f"built in {time.perf_counter() - load_start:.1f} s: {matches:,} matches, "
            f"{hands:,} hands, {size:,.0f} MiB"
        )
        asyncio.run(measure(path, args.runs, args.saves, args.seed))
    print(f"\ntotal {time.perf_counter() - started:.1f} s")


async def _create(path: Path) -> None:
    await (await Database.open(path)).close()


if __name__ == "__main__":
    main()
