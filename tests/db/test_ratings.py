"""Skill ratings, seasons and the history, on real SQLite files.

Expected ratings come straight from openskill, in the test, from the places
the rules give; the database must hold exactly those figures.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from db import Database, LiveTable, MatchRecord, SeasonRefused, SeatRecord, StorageError

from .conftest import Outside
from .factories import computer, hand, human, match

MODEL = PlackettLuce()


def three_way(scores: dict[str, int], *, guild_id: int = 1, ended_at: float = 1e9) -> MatchRecord:
    seats = [human("a", 11, "Ann"), human("b", 12, "Bob"), human("c", 13, "Cy")]
    best = max(scores.values())
    return match(
        seats,
        [hand(1, scores, went_out=max(scores, key=lambda k: scores[k]))],
        tuple(k for k, v in scores.items() if v == best),
        guild_id=guild_id,
        ended_at=ended_at,
    )


async def test_ratings_are_openskills_own_figures(db: Database) -> None:
    a, b, c = MODEL.rating(), MODEL.rating(), MODEL.rating()
    results = [
        ({"a": 40, "b": 10, "c": 0}, [1, 2, 3]),
        ({"a": 0, "b": 70, "c": 30}, [3, 1, 2]),
        ({"a": 20, "b": 5, "c": 60}, [2, 3, 1]),
    ]
    for number, (scores, ranks) in enumerate(results):
        await db.record_match(three_way(scores, ended_at=1e9 + number))
        [[a], [b], [c]] = MODEL.rate([[a], [b], [c]], ranks=ranks)
    board = await db.rating_board(1)
    got = {row.user_id: (row.mu, row.sigma, row.ordinal, row.matches) for row in board.rows}
    for uid, want in ((11, a), (12, b), (13, c)):
        mu, sigma, value, played = got[uid]
        assert mu == pytest.approx(want.mu, rel=1e-12)
        assert sigma == pytest.approx(want.sigma, rel=1e-12)
        assert value == pytest.approx(want.ordinal(), rel=1e-12)
        assert played == 3
    # All provisional (3 < 5): ordered by ordinal among themselves.
    assert [r.user_id for r in board.rows] == sorted(got, key=lambda u: -got[u][2])
    assert all(r.provisional for r in board.rows)


async def test_a_tie_rates_equally(db: Database) -> None:
    await db.record_match(three_way({"a": 50, "b": 50, "c": 10}))
    board = {r.user_id: r for r in (await db.rating_board(1)).rows}
    assert board[11].mu == board[12].mu and board[11].sigma == board[12].sigma
    assert board[11].mu > board[13].mu
    [[x], [_y], [z]] = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1, 1, 3])
    assert board[11].mu == pytest.approx(x.mu) and board[13].mu == pytest.approx(z.mu)


async def test_computers_are_rated_per_level_and_never_listed(
    db_target: str | Path, outside: Outside
) -> None:
    seats = [
        human("a", 11, "Ann"),
        SeatRecord("c1", None, "Ada", True, "hard"),
        SeatRecord("c2", None, "Bea", True, "hard"),
        SeatRecord("c3", None, "Cid", True, "easy"),
    ]
    scores = {"a": 30, "c1": 10, "c2": 20, "c3": 0}
    async with await Database.open(db_target) as db:
        await db.record_match(match(seats, [hand(1, scores, went_out="a")], ("a",)))
        board = await db.rating_board(1)
    assert [r.user_id for r in board.rows] == [11] and board.total_players == 1
    stored = dict((str(p), int(m)) for p, m in await outside("SELECT player, matches FROM ratings"))
    assert stored == {"u11": 1, "cpu:hard": 1, "cpu:easy": 1}
    # Both hard computers were rated from the same prior; the level keeps their mean.
    after = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[1, 3, 2, 4])
    mean = (after[1][0].mu + after[2][0].mu) / 2
    [(hard_mu,)] = await outside("SELECT mu FROM ratings WHERE player = 'cpu:hard'")
    assert hard_mu == pytest.approx(mean)


async def test_abandoned_and_one_seat_matches_are_not_rated(db: Database) -> None:
    abandoned = match(
        [human("a", 11), human("b", 12)], [hand(1, {"a": 5, "b": 0}, "a")], (), abandoned=True
    )
    await db.record_match(abandoned)
    assert (await db.rating_board(1)).total_players == 0
    page = await db.history(1)
    assert page.entries[0].abandoned
    assert [s.rating_change for s in page.entries[0].seats] == [None, None]


REFUSE_RATINGS = {
    "sqlite": "CREATE TRIGGER no_ratings BEFORE INSERT ON match_ratings"
    " BEGIN SELECT RAISE(ABORT, 'refused'); END",
    "postgresql": "ALTER TABLE match_ratings ADD CONSTRAINT no_ratings CHECK (place < 0)",
}


async def test_a_refused_rating_records_nothing_of_the_match(
    db_target: str | Path, store: str, outside: Outside
) -> None:
    async with await Database.open(db_target) as db:
        pass
    await outside(REFUSE_RATINGS[store])
    async with await Database.open(db_target) as db:
        with pytest.raises(StorageError):
            await db.record_match(three_way({"a": 9, "b": 1, "c": 0}))
        assert (await db.history(1)).entries == []
        assert (await db.leaderboard(1)).total_players == 0
    assert await outside("SELECT COUNT(*) FROM ratings") == [(0,)]


async def test_a_match_is_rated_once_when_the_bot_dies_after_recording_it(
    db_target: str | Path, outside: Outside
) -> None:
    record = three_way({"a": 9, "b": 1, "c": 0})
    db = await Database.open(db_target)
    await db.save_live_table(LiveTable(100, 1, None, {}, {"x": 1}, 1.0))
    await db.record_match(record, remove_live=100)
    db.abandon()  # killed at once, no clean close
    async with await Database.open(db_target) as db:
        # The live table left with the result: a restart has nothing to finish
        # again, and the rating counted the match once.
        assert (await db.load_live_tables()).tables == []
        assert [r.matches for r in (await db.rating_board(1)).rows] == [1, 1, 1]
    assert await outside("SELECT COUNT(*) FROM match_ratings") == [(3,)]


async def test_rating_becomes_the_default_once_someone_is_established(db: Database) -> None:
    for n in range(4):
        await db.record_match(three_way({"a": 9, "b": 1, "c": 0}, ended_at=1e9 + n))
    assert not await db.rating_is_default(1)
    await db.record_match(three_way({"a": 9, "b": 1, "c": 0}, ended_at=2e9))
    assert await db.rating_is_default(1)
    board = await db.rating_board(1)
    assert [(r.user_id, r.provisional) for r in board.rows] == [
        (11, False),
        (12, False),
        (13, False),
    ]


async def test_a_provisional_player_is_listed_after_the_established(db: Database) -> None:
    for n in range(5):
        await db.record_match(three_way({"a": 0, "b": 1, "c": 2}, ended_at=1e9 + n))
    # A newcomer who wins once is still below the established players.
    newcomer = match(
        [human("n", 99, "Newt"), human("a", 11, "Ann")], [hand(1, {"n": 50, "a": 0}, "n")], ("n",)
    )
    await db.record_match(newcomer)
    board = await db.rating_board(1)
    assert board.rows[-1].user_id == 99 and board.rows[-1].provisional
    profile = await db.rating_profile(1, 99)
    assert profile.rating is not None and profile.rating.rank == 4


async def test_season_end_archives_and_starts_afresh(db: Database) -> None:
    await db.record_match(three_way({"a": 9, "b": 1, "c": 0}))
    before = await db.rating_board(1)
    season = await db.end_season(1, "Spring", now=5e9)
    assert (season.number, season.name, season.ended_at) == (1, "Spring", 5e9)
    # Everyone starts afresh...
    current = await db.rating_board(1)
    assert current.season.number == 2 and current.season.started_at == 5e9
    assert current.rows == [] and not await db.rating_is_default(1)
    # ...and the archive is the standings as they were, found by name or number.
    found = await db.find_season(1, "spring")
    assert found is not None and found.number == 1
    assert await db.find_season(1, "1") == found
    archived = await db.rating_board(1, found.number)
    assert archived.rows == before.rows and archived.season == found
    # The next match is rated from the start again.
    await db.record_match(three_way({"a": 0, "b": 1, "c": 9}, ended_at=6e9))
    assert [r.matches for r in (await db.rating_board(1)).rows] == [1, 1, 1]
    assert [r.matches for r in (await db.rating_board(1, 1)).rows] == [1, 1, 1]


async def test_a_season_end_that_cannot_be_changes_nothing(db: Database) -> None:
    with pytest.raises(SeasonRefused, match="no rated match"):
        await db.end_season(1, None, now=1.0)
    await db.record_match(three_way({"a": 9, "b": 1, "c": 0}))
    assert (await db.end_season(1, None, now=2.0)).name == "Season 1"
    await db.record_match(three_way({"a": 9, "b": 1, "c": 0}))
    with pytest.raises(SeasonRefused, match="already has a season named 'Season 1'"):
        await db.end_season(1, "SEASON 1", now=3.0)
    assert [s.name for s in await db.seasons(1)] == ["Season 1"]
    assert (await db.rating_board(1)).season.number == 2
    assert await db.find_season(1, "Winter") is None


async def test_history_pages_newest_first(db: Database) -> None:
    for n in range(23):
        guild = 2 if n % 5 == 0 else 1
        await db.record_match(three_way({"a": n, "b": 1, "c": 0}, guild_id=guild, ended_at=1e9 + n))
    seen: list[float] = []
    number = 1
    while True:
        page = await db.history(1, page=number, per_page=5)
        seen += [e.ended_at for e in page.entries]
        if not page.has_next:
            break
        number += 1
    assert number == 4  # 18 matches of server 1: 5 + 5 + 5 + 3
    assert seen == sorted((1e9 + n for n in range(23) if n % 5), reverse=True)
    assert (await db.history(1, page=5, per_page=5)).entries == []  # past the end
    # A member's history holds their matches only.
    solo = match([human("x", 77), computer("c")], [hand(1, {"x": 5, "c": 0}, "x")], ("x",))
    await db.record_match(solo)
    mine = await db.history(1, user_id=77)
    assert [len(e.seats) for e in mine.entries] == [2] and not mine.has_next
    assert await db.history(1, user_id=5) == type(mine)([], 1, False)


async def test_history_shows_places_points_and_rating_change(db: Database) -> None:
    await db.record_match(three_way({"a": 10, "b": 10, "c": 40}))
    [entry] = (await db.history(1)).entries
    assert [(s.name, s.place, s.total, s.won) for s in entry.seats] == [
        ("Ann", 2, 10, False),
        ("Bob", 2, 10, False),
        ("Cy", 1, 40, True),
    ]
    after = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[2, 2, 1])
    start = MODEL.rating().ordinal()
    for seat, [rated] in zip(entry.seats, after, strict=True):
        assert seat.rating_change == pytest.approx(rated.ordinal() - start)
    summary = await db.match_summary(1, entry.match_id)
    assert summary is not None and summary.entry == entry
    assert await db.match_summary(2, entry.match_id) is None  # another server's


async def test_stats_show_trend_and_opponents(db: Database) -> None:
    # Ann beats Bob three times and loses to Cy three times.
    for n in range(3):
        await db.record_match(three_way({"a": 20, "b": 10, "c": 30}, ended_at=1e9 + n))
    profile = await db.rating_profile(1, 11)
    assert profile.rating is not None and profile.rating.matches == 3
    assert len(profile.trend) == 4 and profile.trend[0] == pytest.approx(MODEL.rating().ordinal())
    assert profile.trend[-1] == pytest.approx(profile.rating.ordinal)
    assert profile.best is not None and profile.best.name == "Bob" and profile.best.ahead == 3
    assert profile.worst is not None and profile.worst.name == "Cy"
    assert profile.worst.behind == 3
    nobody = await db.rating_profile(1, 404)
    assert nobody.rating is None and nobody.trend == [] and nobody.best is None
