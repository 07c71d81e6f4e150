"""One process per file, crashes, and disk errors: what the bot must survive."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
from pathlib import Path

import pytest

from db import Database, DatabaseLockedError, LiveTable, StorageError

from .conftest import StoreFails
from .factories import computer, hand, human, match

ROOT = Path(__file__).resolve().parents[2]


def table(channel_id: int, turn: int) -> LiveTable:
    return LiveTable(
        channel_id=channel_id,
        guild_id=1,
        message_id=10,
        rules={},
        state={"turn": turn, "pad": "x" * 5000},
        updated_at=float(turn),
    )


# ------------------------------------------------------------------ the lock


async def test_a_second_open_is_refused_until_the_first_closes(db_path: Path) -> None:
    first = await Database.open(db_path)
    with pytest.raises(DatabaseLockedError) as caught:
        await Database.open(db_path)
    assert f"Another bot process (pid {os.getpid()}) is already using {db_path}" in str(
        caught.value
    )
    assert "stop it first" in str(caught.value)
    await first.save_live_table(table(1, 1))  # the refusal did not disturb the holder
    await first.close()
    async with await Database.open(db_path) as second:
        assert [t.state["turn"] for t in (await second.load_live_tables()).tables] == [1]


async def test_abandon_lets_a_new_process_object_take_over(db_path: Path) -> None:
    first = await Database.open(db_path)
    await first.save_live_table(table(1, 5))
    await first.record_match(match([human("a", 1), computer("b")], [], ("a",)))
    first.abandon()
    with pytest.raises(StorageError, match="closed"):
        await first.save_live_table(table(1, 6))
    async with await Database.open(db_path) as second:
        assert [t.state["turn"] for t in (await second.load_live_tables()).tables] == [5]
        assert (await second.leaderboard(1)).rows[0].matches_won == 1
    first.abandon()  # twice is harmless
    await first.close()  # and so is closing afterwards


async def test_another_process_holding_the_file_is_refused(db_path: Path) -> None:
    holder = await _python(
        f"""
        db = await Database.open({str(db_path)!r})
        print("ready", flush=True)
        sys.stdin.readline()
        await db.close()
    """,
        pipes=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert (await holder.stdout.readline()).strip() == b"ready"
        with pytest.raises(DatabaseLockedError, match=f"pid {holder.pid}"):
            await Database.open(db_path)
    finally:
        holder.stdin.close()
        assert await asyncio.wait_for(holder.wait(), 30) == 0
    (await Database.open(db_path)).abandon()


async def test_a_killed_process_loses_nothing_it_committed(db_path: Path) -> None:
    """A real crash: the process dies at once, no close, no checkpoint."""
    crashed = await _python(f"""
        db = await Database.open({str(db_path)!r})
        await db.save_live_table(LiveTable(7, 1, 70, {{}}, {{"turn": 9}}, 1.0))
        seats = [SeatRecord("a", 42, "Ann", False), SeatRecord("b", None, "CPU", True)]
        hands = [HandRecord(1, "a", True, {{"a": 30, "b": 0}}, ("a",), "went out")]
        await db.record_match(
            MatchRecord(1, 7, seats, {{}}, hands, {{"a": 30}}, ("a",), False, 0.0, 1.0)
        )
        os._exit(9)
    """)
    assert await asyncio.wait_for(crashed.wait(), 60) == 9
    wal = db_path.with_name(db_path.name + "-wal")
    assert os.path.getsize(wal) > 0, "a crash leaves its log"  # noqa: ASYNC240 (test check)
    async with await Database.open(db_path) as db:  # the dead process's lock is gone
        assert (await db.load_live_tables()).tables == [LiveTable(7, 1, 70, {}, {"turn": 9}, 1.0)]
        ann = await db.player_stats(1, 42)
        assert ann is not None and (ann.matches_won, ann.points, ann.rummies) == (1, 30, 1)


async def _python(body: str, pipes: bool = False) -> asyncio.subprocess.Process:
    """Run ``body`` inside ``async def main()`` in a fresh Python process."""
    script = textwrap.dedent("""
        import asyncio, os, sys
        from db import *
        async def main():
        {body}
        asyncio.run(main())
    """).format(body=textwrap.indent(textwrap.dedent(body), "    "))
    pipe = asyncio.subprocess.PIPE if pipes else None
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, cwd=ROOT, stdin=pipe, stdout=pipe
    )


# ------------------------------------------------------------- disk failures


async def test_a_failed_save_raises_and_the_saved_state_stays(
    db: Database, store_fails: StoreFails
) -> None:
    await db.save_live_table(table(1, turn=1))
    with store_fails(), pytest.raises(StorageError) as caught:
        await db.save_live_table(table(1, turn=2))
    assert "saving the live table in channel 1 failed" in str(caught.value)
    assert [t.state["turn"] for t in (await db.load_live_tables()).tables] == [1]
    # Once the disk is back the same connection saves again.
    await db.save_live_table(table(1, turn=2))
    assert [t.state["turn"] for t in (await db.load_live_tables()).tables] == [2]


async def test_a_failed_record_stores_nothing(db: Database, store_fails: StoreFails) -> None:
    record = match(
        [human("a", 1), human("b", 2)],
        [hand(n, {"a": 1}, went_out="a") for n in range(1, 200)],
        ("a",),
    )
    with store_fails(), pytest.raises(StorageError, match="recording a match"):
        await db.record_match(record)
    assert (await db.leaderboard(1)).total_players == 0
    match_id = await db.record_match(record)
    assert match_id == 1
    assert (await db.player_stats(1, 1)) is not None


async def test_every_method_fails_cleanly_after_close(db: Database) -> None:
    await db.close()
    calls = [
        db.save_live_table(table(1, 1)),
        db.delete_live_table(1),
        db.load_live_tables(),
        db.set_aside_live_table(1, "x"),
        db.record_match(match([human("a", 1)], [], ())),
        db.leaderboard(1),
        db.player_stats(1, 1),
        db.get_guild_rules(1),
        db.set_guild_rules(1, {}),
    ]
    for call in calls:
        with pytest.raises(StorageError, match="is closed"):
            await call
    await db.close()  # closing twice is fine


async def test_a_cancelled_caller_does_not_cut_a_transaction_short(db: Database) -> None:
    """Once started, a unit commits even if the interaction that asked for it is cancelled."""
    record = match([human("a", 1), human("b", 2)], [hand(1, {"a": 3}, went_out="a")], ("a",))
    task = asyncio.create_task(db.record_match(record))
    await asyncio.sleep(0)  # it is now waiting on its unit
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # It commits all the same (on SQLite the next unit runs after it, on the same
    # connection, which is not left mid-transaction; on PostgreSQL beside it).
    for _ in range(500):
        board = await db.leaderboard(1)
        if board.total_players:
            break
        await asyncio.sleep(0.01)
    assert [(r.user_id, r.matches_won) for r in board.rows] == [(1, 1), (2, 0)]
    await db.save_live_table(table(3, 3))


async def test_a_save_whose_caller_was_cancelled_is_still_written(db: Database) -> None:
    task = asyncio.create_task(db.save_live_table(table(4, turn=7)))
    await asyncio.sleep(0)  # it is now waiting for the group commit
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await db.save_live_table(table(5, turn=1))  # committed after it, on the same connection
    saved = {t.channel_id: t.state["turn"] for t in (await db.load_live_tables()).tables}
    assert saved == {4: 7, 5: 1}


async def test_a_failed_save_nobody_waits_for_is_logged(
    db: Database, store_fails: StoreFails, caplog: pytest.LogCaptureFixture
) -> None:
    with store_fails():
        task = asyncio.create_task(db.save_live_table(table(4, turn=7)))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        with pytest.raises(StorageError):
            await db.save_live_table(table(5, turn=1))  # in the same failed commit
    assert "saving the live table in channel 4 failed" in caplog.text
    assert "stopped waiting" in caplog.text
