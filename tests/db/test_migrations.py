"""Schema versions: a new file, every earlier version upgraded with its data, refusals."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from db import (
    LATEST_VERSION,
    Database,
    DatabaseTooNewError,
    LeaderboardOrder,
    LiveTable,
    MatchRecord,
    StorageError,
)
from db.lock import ProcessLock
from db.migrations import MIGRATIONS, migrate

from .factories import expected_order, expected_stats, random_matches

ORDERS: list[LeaderboardOrder] = ["wins", "points", "rummies"]


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        assert isinstance(version, int)
        return version
    finally:
        conn.close()


def table_names(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    finally:
        conn.close()


# What earlier releases wrote, frozen here as they shipped.  The live code may
# change how it writes; these must not, or the upgrade test stops testing the
# files that exist in the wild.


async def write_v1_data(
    conn: aiosqlite.Connection, matches: list[MatchRecord], live: list[LiveTable]
) -> None:
    await conn.execute("BEGIN")
    for m in matches:
        cursor = await conn.execute(
            "INSERT INTO matches (guild_id, channel_id, rules, abandoned, started_at, ended_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (m.guild_id, m.channel_id, json.dumps(m.rules), m.abandoned, m.started_at, m.ended_at),
        )
        match_id = cursor.lastrowid
        for seat_no, s in enumerate(m.seats):
            await conn.execute(
                "INSERT INTO match_seats"
                " (match_id, seat, player_key, user_id, name, computer, total, won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    seat_no,
                    s.player_key,
                    s.user_id,
                    s.name,
                    s.computer,
                    m.totals.get(s.player_key),
                    s.player_key in m.winners,
                ),
            )
        for h in m.hands:
            await conn.execute(
                "INSERT INTO hands (match_id, number, went_out, rummy, scores, winners, reason)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    h.number,
                    h.went_out,
                    h.rummy,
                    json.dumps(h.scores),
                    json.dumps(list(h.winners)),
                    h.reason,
                ),
            )
    for t in live:
        await conn.execute(
            "INSERT INTO live_tables (channel_id, guild_id, message_id, rules, state, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                t.channel_id,
                t.guild_id,
                t.message_id,
                json.dumps(t.rules),
                json.dumps(t.state),
                t.updated_at,
            ),
        )
    await conn.execute("COMMIT")


async def write_v2_data(conn: aiosqlite.Connection, matches: list[MatchRecord]) -> None:
    """Release 2 kept player_stats in step with every match it recorded (counting
    an abandoned match as played, which release 5 undoes)."""
    await conn.execute("BEGIN")
    for guild, by_user in expected_stats(matches, abandoned_played=True).items():
        for uid, f in by_user.items():
            await conn.execute(
                "INSERT INTO player_stats (guild_id, user_id, name, matches_played, matches_won,"
                " hands_won, points, rummies) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (guild, uid, f.name, f.played, f.won, f.hands_won, f.points, f.rummies),
            )
    await conn.execute("COMMIT")


async def build_old_database(
    path: Path, version: int, matches: list[MatchRecord], live: list[LiveTable]
) -> None:
    """A file exactly as release ``version`` left it: its migrations, then its data."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA journal_mode = WAL")
        assert await migrate(conn, path, target=version) == version
        if version >= 1:
            await write_v1_data(conn, matches, live)
        if version >= 2:
            await write_v2_data(conn, matches)
        if version >= 3:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, rules, updated_at) VALUES (?, ?, ?)",
                (1, json.dumps({"target": 250}), 1.0),
            )
    finally:
        await conn.close()
    assert user_version(path) == version


def as_stored(m: MatchRecord) -> MatchRecord:
    """Winners come back in seat order."""
    order = [s.player_key for s in m.seats]
    return dataclasses.replace(m, winners=tuple(k for k in order if k in m.winners))


LIVE = [
    LiveTable(
        channel_id=500,
        guild_id=1,
        message_id=None,
        rules={"hand_size": 10},
        state={"turn": 3, "names": ["Zoë", "Computer"]},
        updated_at=123.5,
    ),
    LiveTable(
        channel_id=501,
        guild_id=2,
        message_id=9_999_999_999_999_999,
        rules={},
        state={"turn": 0},
        updated_at=124.0,
    ),
]


async def test_new_file_gets_the_whole_schema(db_path: Path) -> None:
    assert not db_path.parent.exists()  # the folder is created too
    db = await Database.open(db_path)
    await db.close()
    assert user_version(db_path) == LATEST_VERSION
    assert {
        "matches",
        "match_seats",
        "hands",
        "live_tables",
        "set_aside_tables",
        "player_stats",
        "guild_settings",
    } <= table_names(db_path)
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_reopening_a_current_file_changes_nothing(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.save_live_table(LIVE[0])
    async with await Database.open(db_path) as db:
        assert (await db.load_live_tables()).tables == [LIVE[0]]
    assert user_version(db_path) == LATEST_VERSION


@pytest.mark.parametrize("version", range(LATEST_VERSION))
async def test_every_earlier_version_is_upgraded_with_its_data(db_path: Path, version: int) -> None:
    matches = random_matches(random.Random(version), 60, list(range(10, 22)), [1, 2])
    await build_old_database(db_path, version, matches, LIVE)
    stored = matches if version >= 1 else []

    async with await Database.open(db_path) as db:
        assert user_version(db_path) == LATEST_VERSION
        # The saved games and the history are all there.
        assert (await db.load_live_tables()).tables == (LIVE if version >= 1 else [])
        for match_id, m in enumerate(stored, start=1):
            assert await db.get_match(match_id) == as_stored(m)
        # The leaderboard is what recording them one by one gives.
        reference = expected_stats(stored)
        for guild in (1, 2):
            by_user = reference.get(guild, {})
            for order in ORDERS:
                board = await db.leaderboard(guild, order, per_page=100)
                assert [r.user_id for r in board.rows] == expected_order(by_user, order)
                assert [(r.name, r.points, r.hands_won, r.rummies) for r in board.rows] == [
                    (by_user[u].name, by_user[u].points, by_user[u].hands_won, by_user[u].rummies)
                    for u in expected_order(by_user, order)
                ]
        # And it keeps counting from there.
        extra = random_matches(random.Random(99), 10, list(range(10, 22)), [1, 2])
        for m in extra:
            await db.record_match(m)
        after = expected_stats(stored + extra)
        for guild in (1, 2):
            board = await db.leaderboard(guild, "points", per_page=100)
            assert [r.user_id for r in board.rows] == expected_order(after[guild], "points")
        # Settings: kept if the version had them, usable either way.
        assert await db.get_guild_rules(1) == ({"target": 250} if version >= 3 else None)
        await db.set_guild_rules(2, {"target": 500})
        assert await db.get_guild_rules(2) == {"target": 500}


async def test_backfill_equals_recording_one_by_one(tmp_path: Path) -> None:
    """Migration 2 and record_match must add up the same figures."""
    matches = random_matches(random.Random(7), 120, list(range(1, 15)), [1])
    old, fresh = tmp_path / "old.db", tmp_path / "fresh.db"
    await build_old_database(old, 1, matches, [])
    async with await Database.open(fresh) as db:
        for m in matches:
            await db.record_match(m)
    boards = []
    for path in (old, fresh):
        async with await Database.open(path) as db:
            boards.append([await db.leaderboard(1, o, per_page=100) for o in ORDERS])
    assert boards[0] == boards[1]


async def test_a_newer_database_is_refused_and_left_alone(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.save_live_table(LIVE[0])
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()
    with pytest.raises(DatabaseTooNewError) as caught:
        await Database.open(db_path)
    message = str(caught.value)
    assert str(db_path) in message
    assert f"version {LATEST_VERSION + 1}" in message and f"up to {LATEST_VERSION}" in message
    assert user_version(db_path) == LATEST_VERSION + 1
    ProcessLock.acquire(db_path).release()  # the refused open let go of the lock


async def test_a_failed_migration_leaves_the_previous_version(db_path: Path) -> None:
    matches = random_matches(random.Random(3), 5, [1, 2, 3], [1])
    await build_old_database(db_path, 1, matches, LIVE)
    # Something in the way of migration 2 (an operator's stray table, say).
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE player_stats (x)")
    conn.close()
    with pytest.raises(StorageError, match=r"migration 2 .* left unchanged at version 1"):
        await Database.open(db_path)
    assert user_version(db_path) == 1
    assert "guild_settings" not in table_names(db_path)
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 5
    conn.execute("DROP TABLE player_stats")
    conn.close()
    async with await Database.open(db_path) as db:  # once cleared, it upgrades
        assert (await db.leaderboard(1)).total_players == 3


async def test_a_foreign_database_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    conn.close()
    with pytest.raises(StorageError, match="not a Rummy bot database"):
        await Database.open(db_path)
    assert table_names(db_path) == {"invoices"}


async def test_a_file_that_is_not_sqlite_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with open(db_path, "wb") as junk:  # noqa: ASYNC230 (test set-up, a few bytes)
        junk.write(b"this is a text file, not a database\n" * 200)
    with pytest.raises(StorageError, match="cannot open the database"):
        await Database.open(db_path)
    ProcessLock.acquire(db_path).release()


def test_migrations_are_numbered_from_one_without_gaps() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))
    assert LATEST_VERSION >= 2


async def test_version_5_file_gains_ratings_history_and_replays(db_path: Path) -> None:
    """Today's schema (5), holding results, stats, settings and live games, upgraded to 6:
    every match is in the history, unrated; the next matches are rated and keep moves."""
    matches = random_matches(random.Random(55), 40, list(range(10, 22)), [1, 2])
    await build_old_database(db_path, 5, matches, LIVE)
    before = sqlite3.connect(db_path)
    counts = [
        before.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
        for name in ("matches", "match_seats", "hands", "player_stats", "live_tables")
    ]
    before.close()
    assert counts[0] == 40 and counts[2] > 0 and counts[4] == 2

    async with await Database.open(db_path) as db:
        assert user_version(db_path) == LATEST_VERSION >= 6
        after = sqlite3.connect(db_path)
        assert [
            after.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
            for name in ("matches", "match_seats", "hands", "player_stats", "live_tables")
        ] == counts
        assert {"seasons", "ratings", "match_ratings", "hand_moves"} <= table_names(db_path)
        after.close()
        # The old matches are listed, newest first, unrated; their hands have no moves.
        guild_1 = [m for m in matches if m.guild_id == 1]
        listed = await db.history(1, per_page=100)
        assert len(listed.entries) == len(guild_1)
        assert [e.ended_at for e in listed.entries] == sorted(
            (m.ended_at for m in guild_1), reverse=True
        )
        assert all(s.rating_change is None for e in listed.entries for s in e.seats)
        old = await db.get_match(1)
        assert old is not None and all(h.moves is None for h in old.hands)
        assert (await db.rating_board(1)).total_players == 0
        assert (await db.rating_board(1)).season.number == 1
        # From here on, matches are rated.
        for m in random_matches(random.Random(56), 10, list(range(10, 22)), [1]):
            await db.record_match(m)
        assert (await db.rating_board(1)).total_players > 0
        assert (await db.load_live_tables()).tables == LIVE
