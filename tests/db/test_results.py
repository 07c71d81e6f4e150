"""Recording matches and reading leaderboards and player figures back."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from pathlib import Path

import pytest

from db import (
    Database,
    HandRecord,
    LeaderboardOrder,
    LiveTable,
    PlayerStats,
    SeatRecord,
    StorageError,
)
from db.leaderboard import SQL_LEADERBOARD, SQL_RANK

from .factories import (
    RULES,
    computer,
    expected_order,
    expected_stats,
    hand,
    human,
    match,
    random_matches,
)

ORDERS: list[LeaderboardOrder] = ["wins", "points", "rummies"]


def figures(s: PlayerStats) -> tuple[int, int, int, int, int]:
    return (s.matches_played, s.matches_won, s.hands_won, s.points, s.rummies)


async def test_match_round_trip(db: Database) -> None:
    record = match(
        [human("a", 11, "Ann"), computer("b", "Bot"), human("c", 12, "Cid")],
        [
            hand(1, {"a": 25, "b": 0, "c": 0}, went_out="a", rummy=True),
            hand(2, {"a": 0, "b": 0, "c": 0}, reason="stock ran out"),
            hand(3, {"a": 0, "b": 10, "c": 10}, went_out="b", winners=("b", "c")),
        ],
        winners=("a",),
    )
    match_id = await db.record_match(record)
    assert await db.get_match(match_id) == record
    assert await db.get_match(match_id + 1) is None


async def test_figures_follow_the_definitions(db: Database) -> None:
    ann, cid = human("a", 11, "Ann"), human("c", 12, "Cid")
    await db.record_match(
        match(
            [ann, computer("b"), cid],
            [
                hand(1, {"a": 25, "b": 0, "c": 0}, went_out="a", rummy=True),
                hand(2, {"a": 0, "b": 7, "c": 0}, went_out="b"),
                hand(3, {"a": 0, "b": 0, "c": 12}, went_out="c", winners=("c", "a")),
            ],
            winners=("a",),
        )
    )
    # Abandoned: its hands still count, but it is neither won nor lost.
    await db.record_match(
        match(
            [ann, cid],
            [hand(1, {"a": 3, "c": 0}, went_out="a", rummy=True)],
            winners=("a",),
            abandoned=True,
        )
    )
    a = await db.player_stats(1, 11)
    c = await db.player_stats(1, 12)
    assert a is not None and c is not None
    assert figures(a) == (1, 1, 3, 28, 2)
    assert figures(c) == (1, 0, 1, 12, 0)
    assert (a.rank, c.rank) == (1, 2)


async def test_computer_seats_never_reach_the_leaderboard(db: Database) -> None:
    await db.record_match(
        match(
            [computer("x", "Deep Rummy"), human("h", 5)],
            [hand(1, {"x": 40, "h": 0}, went_out="x", rummy=True)],
            winners=("x",),
        )
    )
    for order in ORDERS:
        board = await db.leaderboard(1, order)
        assert [r.user_id for r in board.rows] == [5]
        assert board.total_players == 1


async def test_latest_display_name_is_kept(db: Database) -> None:
    for n, name in enumerate(["old", "middle", "new"]):
        await db.record_match(match([human("a", 7, name), computer("b")], [], (), ended_at=n))
    stats = await db.player_stats(1, 7)
    assert stats is not None and stats.name == "new"


async def test_servers_never_see_each_others_players(db: Database) -> None:
    await db.record_match(match([human("a", 1), human("b", 2)], [], ("a",), guild_id=100))
    await db.record_match(match([human("a", 1), human("c", 3)], [], ("c",), guild_id=200))
    board_100 = await db.leaderboard(100)
    board_200 = await db.leaderboard(200)
    assert [(r.user_id, r.matches_won) for r in board_100.rows] == [(1, 1), (2, 0)]
    assert [(r.user_id, r.matches_won) for r in board_200.rows] == [(3, 1), (1, 0)]
    assert (await db.player_stats(100, 3)) is None
    one_in_200 = await db.player_stats(200, 1)
    assert one_in_200 is not None and (one_in_200.matches_played, one_in_200.rank) == (1, 2)
    empty = await db.leaderboard(300)
    assert (empty.rows, empty.page, empty.pages, empty.total_players) == ([], 1, 1, 0)


async def test_a_group_dms_board_is_its_own_and_a_players_totals_span_every_board(
    db: Database,
) -> None:
    # A group DM's board is keyed by the conversation's id, as a server's by its own.
    server, group = 100, 9_000_000_000_000_000_001
    await db.record_match(match([human("a", 1, "Ann"), human("b", 2)], [], ("a",),
                                guild_id=server))
    await db.record_match(match([human("a", 1, "Annie"), human("c", 3)], [], ("c",),
                                guild_id=group))
    await db.record_match(match([human("a", 1, "Annie"), human("c", 3)], [], ("a",),
                                guild_id=group))
    assert [r.user_id for r in (await db.leaderboard(server)).rows] == [1, 2]
    assert [(r.user_id, r.matches_won) for r in (await db.leaderboard(group)).rows] == [
        (1, 1), (3, 1)]
    in_group = await db.player_stats(group, 1)
    assert in_group is not None and in_group.matches_played == 2
    totals = await db.player_totals(1)
    assert totals is not None
    assert (totals.boards, totals.matches_played, totals.matches_won) == (2, 3, 2)
    assert totals.name in ("Ann", "Annie")
    only_here = await db.player_totals(2)
    assert only_here is not None and (only_here.boards, only_here.matches_played) == (1, 1)
    assert await db.player_totals(4) is None


async def test_each_order_ranks_by_its_figure_then_the_others(db: Database) -> None:
    # wins: 1 (2 wins) > 2 (1 win, more hands) > 3 (1 win)
    # points: 3 (60) > 2 (30) > 1 (20)
    # rummies: 2 (2) > 3 (1) > 1 (0)
    seats = [human("p1", 1), human("p2", 2), human("p3", 3)]
    await db.record_match(match(seats, [hand(1, {"p1": 10}, went_out="p1")], ("p1",)))
    await db.record_match(match(seats, [hand(1, {"p1": 10}, went_out="p1")], ("p1",)))
    await db.record_match(
        match(
            seats,
            [
                hand(1, {"p2": 15}, went_out="p2", rummy=True),
                hand(2, {"p2": 15}, went_out="p2", rummy=True),
            ],
            ("p2",),
        )
    )
    await db.record_match(match(seats, [hand(1, {"p3": 60}, went_out="p3", rummy=True)], ("p3",)))
    expected = {"wins": [1, 2, 3], "points": [3, 2, 1], "rummies": [2, 3, 1]}
    for order in ORDERS:
        board = await db.leaderboard(1, order)
        assert [r.user_id for r in board.rows] == expected[order], order
        assert [r.rank for r in board.rows] == [1, 2, 3]


async def test_exact_ties_fall_to_the_lower_user_id(db: Database) -> None:
    # Same figures for everyone: one match each against a computer, no hands.
    for uid in (30, 10, 20):
        await db.record_match(match([human("h", uid), computer("c")], [], ()))
    for order in ORDERS:
        board = await db.leaderboard(1, order)
        assert [(r.user_id, r.rank) for r in board.rows] == [(10, 1), (20, 2), (30, 3)]
    for uid, rank in ((10, 1), (20, 2), (30, 3)):
        stats = await db.player_stats(1, uid)
        assert stats is not None and stats.rank == rank


async def test_paging_and_clamping(db: Database) -> None:
    for uid in range(1, 26):  # user n wins n-1 hands against a computer
        hands = [hand(i, {"h": 1}, went_out="h") for i in range(1, uid)]
        await db.record_match(match([human("h", uid), computer("c")], hands, ()))
    best_first = list(range(25, 0, -1))
    pages = [await db.leaderboard(1, "wins", page=p, per_page=10) for p in (1, 2, 3)]
    assert [p.page for p in pages] == [1, 2, 3]
    assert all(p.pages == 3 and p.total_players == 25 for p in pages)
    assert [r.user_id for p in pages for r in p.rows] == best_first
    assert [r.rank for p in pages for r in p.rows] == list(range(1, 26))
    assert [len(p.rows) for p in pages] == [10, 10, 5]
    assert (await db.leaderboard(1, page=0)).page == 1
    assert (await db.leaderboard(1, page=-5)).page == 1
    too_far = await db.leaderboard(1, page=99)
    assert too_far.page == 3 and [r.user_id for r in too_far.rows] == best_first[20:]
    exact = await db.leaderboard(1, per_page=5, page=5)
    assert (exact.pages, [r.rank for r in exact.rows]) == (5, [21, 22, 23, 24, 25])


async def test_bad_arguments_are_refused(db: Database) -> None:
    with pytest.raises(ValueError, match="per_page"):
        await db.leaderboard(1, per_page=0)
    with pytest.raises(ValueError, match="order"):
        await db.leaderboard(1, "losses")  # type: ignore[arg-type]


async def test_random_results_match_the_reference(db: Database) -> None:
    """Many matches with many ties: every order, every rank, every figure."""
    rng = random.Random(5)
    users = list(range(1000, 1030))
    matches = random_matches(rng, 150, users, [1, 2])
    for m in matches:
        await db.record_match(m)
    reference = expected_stats(matches)
    for guild, by_user in reference.items():
        for order in ORDERS:
            board = await db.leaderboard(guild, order, per_page=100)
            assert [r.user_id for r in board.rows] == expected_order(by_user, order), order
            for row in board.rows:
                f = by_user[row.user_id]
                assert (row.name, *figures(row)) == (
                    f.name,
                    f.played,
                    f.won,
                    f.hands_won,
                    f.points,
                    f.rummies,
                )
        by_wins = expected_order(by_user, "wins")
        for uid in by_user:
            stats = await db.player_stats(guild, uid)
            assert stats is not None and stats.rank == by_wins.index(uid) + 1


# ----------------------------------------------------------------- atomicity


@pytest.mark.parametrize(
    "bad_hand",
    [
        pytest.param(hand(1, {"a": 5}, went_out="a"), id="duplicate hand number"),
        pytest.param(
            hand(3, {"a": 5}, went_out="zed", winners=()), id="went_out not seated (foreign key)"
        ),
        pytest.param(hand(-1, {"a": 5}, went_out="a"), id="hand number below 1 (check)"),
    ],
)
async def test_a_refused_hand_stores_nothing_of_the_match(
    db: Database, bad_hand: HandRecord
) -> None:
    good = [hand(1, {"a": 5}, went_out="a"), hand(2, {"b": 4}, went_out="b")]
    seats = [human("a", 1), human("b", 2)]
    with pytest.raises(StorageError, match="recording a match"):
        await db.record_match(match(seats, [*good, bad_hand], ("a",)))
    board = await db.leaderboard(1)
    assert board.rows == [] and board.total_players == 0
    # The same match without the bad hand records fine, as the first match.
    match_id = await db.record_match(match(seats, good, ("a",)))
    assert await db.get_match(match_id - 1) is None
    assert [r.matches_played for r in (await db.leaderboard(1)).rows] == [1, 1]


@pytest.mark.parametrize(
    ("seats", "winners", "message"),
    [
        ([human("a", 1), human("b", 1)], (), "recording a match"),  # one user, two seats
        ([human("a", 1), human("a", 2)], (), "recording a match"),  # one key, two seats
        (
            [human("a", 1), dataclasses.replace(computer("b"), user_id=2)],
            (),
            "recording a match",
        ),
        ([human("a", 1)], ("ghost",), "unseated"),
        ([], (), "without seats"),
    ],
    ids=["user twice", "key twice", "computer with a user id", "unseated winner", "no seats"],
)
async def test_malformed_matches_are_refused(
    db: Database, seats: list[SeatRecord], winners: tuple[str, ...], message: str
) -> None:
    record = match([], [], winners)
    record = dataclasses.replace(record, seats=seats, totals={})
    with pytest.raises(StorageError, match=message):
        await db.record_match(record)
    assert (await db.leaderboard(1)).total_players == 0


async def test_unseated_hand_scores_are_refused(db: Database) -> None:
    record = match([human("a", 1)], [hand(1, {"b": 3})], ())
    with pytest.raises(StorageError, match="hand 1 scores"):
        await db.record_match(dataclasses.replace(record, totals={"a": 0}))


async def test_rules_round_trip_in_a_match(db: Database) -> None:
    rules = {**RULES, "name": "Ünïcode ♠", "nested": {"list": [1, 2.5, None, True]}}
    record = dataclasses.replace(match([human("a", 1)], [], ()), rules=rules)
    got = await db.get_match(await db.record_match(record))
    assert got is not None and got.rules == rules


# -------------------------------------------------------------- query plans


async def test_leaderboard_queries_walk_an_index_and_never_sort(db_path: Path) -> None:
    """The speed promise in a form a test can check without timing anything."""
    database = await Database.open(db_path)
    await database.close()
    conn = sqlite3.connect(db_path)
    try:
        for order in ORDERS:
            plan = " | ".join(
                row[3]
                for row in conn.execute("EXPLAIN QUERY PLAN " + SQL_LEADERBOARD[order], (1, 10, 0))
            )
            assert f"COVERING INDEX player_stats_by_{order}" in plan, plan
            assert "TEMP B-TREE" not in plan, plan
            rank_plan = [
                row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + SQL_RANK[order], (1,) * 9)
            ]
            counts = [p for p in rank_plan if "player_stats" in p]
            assert len(counts) == 2 and all("COVERING INDEX" in p for p in counts), rank_plan
            assert all("SCAN" not in p for p in counts), rank_plan
    finally:
        conn.close()


async def test_recording_a_match_can_retire_its_live_table_atomically(db: Database) -> None:
    seats = [human("a", 1), human("b", 2)]
    live = LiveTable(channel_id=77, guild_id=1, message_id=5, rules={}, state={"s": 1},
                     updated_at=1.0)
    await db.save_live_table(live)
    # A refused record leaves the live table where it was.
    with pytest.raises(StorageError):
        await db.record_match(match(seats, [hand(-1, {"a": 5}, went_out="a")], ("a",)),
                              remove_live=77)
    assert [t.channel_id for t in (await db.load_live_tables()).tables] == [77]
    await db.record_match(match(seats, [hand(1, {"a": 5}, went_out="a")], ("a",)),
                          remove_live=77)
    assert (await db.load_live_tables()).tables == []
    assert (await db.leaderboard(1)).total_players == 2
