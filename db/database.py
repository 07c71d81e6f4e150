"""The bot's store: the one object the layers above hold.

:class:`Database` has every read and write the bot makes as a method, each one
unit of work; the queries themselves are written once over a
:class:`~db.session.Session`, in modules named for what they store:
``db.live_tables`` (games in progress), ``db.results`` (recorded matches),
``db.leaderboard``, ``db.ratings`` with ``db.seasons`` and
``db.rating_board``, ``db.history``, ``db.settings`` (servers' house rules and
people's own choices) and ``db.card_emoji``. The stores behind it say how to
connect and how a unit of work gets its connection: ``db.sqlite_store`` (one
process on one file, the default) and ``db.postgres_store`` (several
processes on one server). Both keep the same promises: a live table is
committed before the action is answered, a match result, its leaderboard
figures and its ratings go in one transaction, and a saved table comes back
after any restart.
"""

from __future__ import annotations

import abc
import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Final, TypeVar

from . import (
    card_emoji,
    history,
    leaderboard,
    live_tables,
    rating_board,
    results,
    seasons,
    settings,
)
from .errors import StorageError
from .jsontext import to_json
from .leases import ShardLeases
from .models import (
    BrokenTable,
    HistoryPage,
    LeaderboardOrder,
    LeaderboardPage,
    LiveTable,
    LoadResult,
    MatchRecord,
    MatchSummary,
    PlayerStats,
    PlayerTotals,
    RatingPage,
    RatingProfile,
    Season,
)
from .session import Session

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_PER_PAGE: Final = 100
SERVER_SCHEMES: Final = ("postgresql://", "postgres://")


def is_server_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(SERVER_SCHEMES)


class Database(abc.ABC):
    """The bot's store: open one with ``await Database.open(target)``.

    Every read and write of the bot is a method here, running the queries of
    the module of its concern over a :class:`~db.session.Session`; a store
    (``db.sqlite_store``, ``db.postgres_store``) adds how it connects, how a
    unit of work gets its session, and how live tables are saved. Each public
    method is one unit of work: a failure raises StorageError and leaves
    nothing half-written.
    """

    where: str
    """How logs and errors name the store: its file, or its server and database."""
    kept_results: Path
    """The folder for results the store refused (``db.unrecorded``)."""

    _stores: ClassVar[list[type[Database]]] = []
    load_live_sql: ClassVar[str] = live_tables.SQL_LOAD_LIVE

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Database._stores.append(cls)

    @classmethod
    def handles(cls, target: str | os.PathLike[str]) -> bool:
        """Whether this store opens ``target``."""
        return False

    @classmethod
    async def open(
        cls, target: str | os.PathLike[str], *, kept_results: Path | None = None
    ) -> Database:
        """Open the store ``target`` names: a ``postgresql://`` URL opens
        PostgreSQL, anything else is the path of an SQLite file.
        ``kept_results`` overrides the store's folder for refused results."""
        for store in Database._stores:
            if store.handles(target):
                return await store.open(target, kept_results=kept_results)
        raise StorageError(f"no store can open {target!s}")

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish the work in progress and let go of the store; safe to call
        twice. After it, every method raises StorageError."""

    @abc.abstractmethod
    def abandon(self) -> None:
        """Let go of the store as a crashed process would, for restart tests:
        what the next process sees is exactly what was committed."""

    @abc.abstractmethod
    async def save_live_table(self, table: LiveTable) -> None:
        """Insert or replace the saved state of the game in ``table.channel_id``.

        Either the new state is committed when this returns, or StorageError
        is raised and the previous state is still the saved one (the caller
        keeps its old in-memory state then). A save whose caller is cancelled
        is written all the same.
        """

    @abc.abstractmethod
    def time_commits(self, observe: Callable[[float], None]) -> None:
        """Tell ``observe`` how long each commit of live-table saves takes, in
        seconds (possibly from another thread)."""

    @abc.abstractmethod
    async def _unit(self, what: str, body: Callable[[Session], Awaitable[T]]) -> T:
        """Run ``body`` on a session of its own; the store's errors become
        StorageError naming ``what``."""

    def shard_leases(self, *, ttl: float, shard_count: int | None) -> ShardLeases | None:
        """The shard leases of a store several processes share (``db.leases``),
        which from then on fence this store's saves of live tables; None where
        one process has the store to itself (an SQLite file)."""
        return None

    def _start_unit(self, what: str, body: Callable[[Session], Awaitable[T]]) -> asyncio.Future[T]:
        """The task that runs the unit (``_unit``)."""
        return asyncio.ensure_future(self._unit(what, body))

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def ping(self) -> None:
        """A read through the store: StorageError if it cannot answer."""

        async def body(conn: Session) -> None:
            await conn.fetch("SELECT 1")

        await self._run("checking the database", body)

    async def delete_live_table(self, channel_id: int) -> None:
        """Forget a finished or cancelled game; no error if there was none."""
        await self._run(
            f"deleting the live table in channel {channel_id}",
            lambda conn: live_tables.delete(conn, channel_id, self.fence()),
        )

    def fence(self) -> live_tables.Fence | None:
        """What keeps a process that lost its shard's lease (``db.leases``)
        from writing a game's end or a result; None where one process has the
        store to itself."""
        return None

    async def load_live_tables(self) -> LoadResult:
        """Read every saved game; set aside (keep, not delete) those that cannot be read.

        A row is readable when its rules and state are UTF-8 JSON objects and
        its ids are integers.  Unreadable rows are moved to
        ``set_aside_tables`` in the same transaction as the read, so the next
        start-up does not trip on them again, and are listed in ``broken`` for
        the bot to tell their channels.  Whether the engine can restore a
        readable state is the bot's call: see :meth:`set_aside_live_table`.
        """
        return await self._run(
            "loading the live tables", lambda conn: live_tables.load(conn, self.load_live_sql)
        )

    async def set_aside_live_table(self, channel_id: int, error: str) -> None:
        """Move a saved game the engine could not restore out of the live set.

        The row is copied unchanged to ``set_aside_tables`` with ``error`` and
        then removed from ``live_tables``, in one transaction.  No error if the
        channel has no saved game.
        """
        if await self._run(
            f"setting aside the live table in channel {channel_id}",
            lambda conn: live_tables.set_aside(conn, channel_id, error),
        ):
            log.warning("live table in channel %d set aside: %s", channel_id, error)

    async def set_aside_tables(self) -> list[BrokenTable]:
        """Every game ever set aside, oldest first (for operators and tests)."""
        return await self._run("listing the set-aside tables", live_tables.set_aside_list)

    # ---------------------------------------------------------------- results

    async def record_match(self, match: MatchRecord, *, remove_live: int | None = None) -> int:
        """Store a finished match and update the leaderboard, in ONE transaction.

        The match, its seats, its hands (with their moves), each human's
        running figures and every seat's rating (``db.ratings``) go in
        together: if any row is refused (a constraint, a full disk),
        nothing of the match is stored and StorageError is raised, so a
        leaderboard can never count a match that is not in the history, nor
        the reverse.  Returns the new match's id.

        ``remove_live`` names the channel whose live table this match was:
        it leaves the live set in the same transaction, so a crash can neither
        lose the result nor bring the finished game back to be counted twice.
        """
        rows = results.match_rows(match)
        return await self._run(
            f"recording a match in guild {match.guild_id}",
            lambda conn: results.record(conn, match, rows, remove_live, self.fence()),
        )

    async def get_match(self, match_id: int) -> MatchRecord | None:
        """A recorded match as stored, or None.

        Seats and winners come back in seat order; ``totals`` holds the seats
        that had a total.
        """
        return await self._run(
            f"reading match {match_id}", lambda conn: results.read(conn, match_id)
        )

    async def leaderboard(
        self,
        guild_id: int,
        order: LeaderboardOrder = "wins",
        page: int = 1,
        per_page: int = 10,
    ) -> LeaderboardPage:
        """One page of a server's human players, best first, in ``order``.

        ``page`` is clamped to 1..pages (an empty server has one empty page),
        so a stale "next" button shows the last page instead of failing.
        Ties fall to the other figures, then to the lower user id, so the
        order never changes between two identical queries; ``rank`` is the
        position in that order.
        """
        if order not in leaderboard.ORDER_KEYS:
            known = list(leaderboard.ORDER_KEYS)
            raise ValueError(f"unknown leaderboard order {order!r}; use one of {known}")
        if not 1 <= per_page <= MAX_PER_PAGE:
            raise ValueError(f"per_page must be 1..{MAX_PER_PAGE}, not {per_page}")
        return await self._run(
            f"reading the leaderboard of guild {guild_id}",
            lambda conn: leaderboard.page(conn, guild_id, order, page, per_page),
        )

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A player's figures in one server with their rank by wins; None if never played."""
        return await self._run(
            f"reading the stats of user {user_id} in guild {guild_id}",
            lambda conn: leaderboard.player(conn, guild_id, user_id),
        )

    async def player_totals(self, user_id: int) -> PlayerTotals | None:
        """A person's figures over every board they played on (each server's,
        DM's and group DM's); None if they never finished a match."""
        return await self._run(
            f"reading the totals of user {user_id}",
            lambda conn: leaderboard.totals(conn, user_id),
        )

    # -------------------------------------------------- ratings and seasons

    async def rating_board(
        self, guild_id: int, season: int | None = None, page: int = 1, per_page: int = 10
    ) -> RatingPage:
        """One page of a season's rating leaderboard (the current season if
        ``season`` is None): people only, established players first by
        ordinal, then provisional ones; ties to the lower user id. ``page`` is
        clamped to 1..pages, as for :meth:`leaderboard`."""
        if not 1 <= per_page <= MAX_PER_PAGE:
            raise ValueError(f"per_page must be 1..{MAX_PER_PAGE}, not {per_page}")
        return await self._run(
            f"reading the rating leaderboard of guild {guild_id}",
            lambda conn: rating_board.page(conn, guild_id, season, page, per_page),
        )

    async def rating_is_default(self, guild_id: int) -> bool:
        """Whether the server's leaderboard opens by rating: once someone has
        played enough rated matches this season to be no longer provisional."""
        return await self._run(
            f"reading the rating leaderboard of guild {guild_id}",
            lambda conn: rating_board.is_default(conn, guild_id),
        )

    async def rating_profile(
        self, guild_id: int, user_id: int, *, trend: int = 10, opponents_over: int = 200
    ) -> RatingProfile:
        """A person's rating this season with its rank, the ordinal through their
        latest ``trend`` rated matches this season, and their best and worst
        opponents (most finishes ahead of / behind them, over their latest
        ``opponents_over`` rated matches in any season)."""
        return await self._run(
            f"reading the rating of user {user_id} in guild {guild_id}",
            lambda conn: rating_board.profile(conn, guild_id, user_id, trend, opponents_over),
        )

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's ended seasons, latest first."""
        return await self._run(
            f"listing the seasons of guild {guild_id}",
            lambda conn: seasons.ended(conn, guild_id),
        )

    async def find_season(self, guild_id: int, name: str) -> Season | None:
        """An ended season by name (any letter case) or by number, or None."""
        return await self._run(
            f"finding a season of guild {guild_id}",
            lambda conn: seasons.find(conn, guild_id, name),
        )

    async def end_season(self, guild_id: int, name: str | None, now: float) -> Season:
        """End the server's current season under ``name`` (default "Season N"):
        its ratings stay as they are, as its archive, and the next season
        starts with nobody rated. Raises ``SeasonRefused`` with nothing changed
        if the name is taken or no match was rated in the season."""
        wanted = " ".join((name or "").split())
        return await self._run(
            f"ending the season of guild {guild_id}",
            lambda conn: seasons.end(conn, guild_id, wanted, now),
        )

    # --------------------------------------------------------------- history

    async def history(
        self, guild_id: int, user_id: int | None = None, page: int = 1, per_page: int = 10
    ) -> HistoryPage:
        """Page ``page`` (from 1, not clamped: a page past the end is empty) of
        the server's recorded matches, or of those ``user_id`` sat at, newest first."""
        if not 1 <= per_page <= MAX_PER_PAGE:
            raise ValueError(f"per_page must be 1..{MAX_PER_PAGE}, not {per_page}")
        if page < 1:
            raise ValueError(f"pages are numbered from 1, not {page}")
        return await self._run(
            f"reading the match history of guild {guild_id}",
            lambda conn: history.page(conn, guild_id, user_id, page, per_page),
        )

    async def match_summary(self, guild_id: int, match_id: int) -> MatchSummary | None:
        """A match of this server with its hands and their moves, or None (no
        such match, or another server's)."""
        record = await self.get_match(match_id)
        if record is None or record.guild_id != guild_id:
            return None
        return await self._run(
            f"reading match {match_id}",
            lambda conn: history.summary(conn, guild_id, match_id, record),
        )

    async def latest_match(self, channel_id: int) -> int | None:
        """The id of the match recorded last in a channel, or None."""
        return await self._run(
            f"reading the latest match in channel {channel_id}",
            lambda conn: history.latest_in_channel(conn, channel_id),
        )

    # ----------------------------------------------------------- guild rules

    async def get_guild_rules(self, guild_id: int) -> dict[str, Any] | None:
        """The server's default house rules, or None if never set."""
        return await self._run(
            f"reading the house rules of guild {guild_id}",
            lambda conn: settings.guild_rules(conn, guild_id),
        )

    async def load_guild_rules(self) -> dict[int, dict[str, Any]]:
        """Every server's default house rules, for the bot to keep in memory.

        A row that is not a JSON object is left out with a warning: one
        damaged setting must not stop the bot from starting.
        """
        return await self._run("reading the servers' house rules", settings.all_guild_rules)

    async def set_guild_rules(self, guild_id: int, rules: dict[str, Any]) -> None:
        """Replace the server's default house rules (already validated by the engine)."""
        try:
            text = to_json(rules)
        except (TypeError, ValueError) as exc:
            raise StorageError(f"cannot serialise the house rules: {exc}") from exc
        await self._run(
            f"saving the house rules of guild {guild_id}",
            lambda conn: settings.set_guild_rules(conn, guild_id, text),
        )

    # ------------------------------------------------------------ card faces

    async def card_emoji(self) -> dict[str, tuple[int, str]]:
        """The card emojis uploaded so far: name -> (emoji id, digest of its image)."""
        return await self._run("reading the card emojis", card_emoji.read)

    async def set_card_emoji(self, emojis: dict[str, tuple[int, str]]) -> None:
        """Record the card emojis as they now are, replacing what was recorded."""
        rows = [(name, emoji_id, digest) for name, (emoji_id, digest) in emojis.items()]
        await self._run("recording the card emojis", lambda conn: card_emoji.replace(conn, rows))

    # ----------------------------------------------------- players' own choices

    async def load_player_prefs(self) -> dict[int, dict[str, Any]]:
        """Every person's own choices, for the bot to keep in memory; a row that
        is not a JSON object is left out with a warning."""
        return await self._run("reading the players' choices", settings.all_player_prefs)

    async def player_prefs(self, user_id: int) -> dict[str, Any]:
        """One person's own choices as stored now ({} if none)."""
        return await self._run(
            f"reading the choices of user {user_id}",
            lambda conn: settings.player_prefs(conn, user_id),
        )

    async def change_player_prefs(self, user_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Set only the choices ``changes`` names, keeping the others as stored
        (whatever another process changed meanwhile); the choices now stored.
        Every process watching (``watch_player_prefs``) hears of it."""
        return await self._run(
            f"saving the choices of user {user_id}",
            lambda conn: settings.change_player_prefs(conn, user_id, changes),
        )

    def watch_player_prefs(self, heard: Callable[[int | None], None]) -> None:
        """Call ``heard`` with the id of each person whose choices another
        process changed, or None when it may have missed some (read them all
        again). Nothing to hear where one process has the store to itself."""
        return None

    # --------------------------------------------------------------- plumbing

    async def _run(self, what: str, body: Callable[[Session], Awaitable[T]]) -> T:
        """Run ``body`` as one cancellation-proof unit (``_unit``).

        The unit runs in its own task behind ``asyncio.shield``: a cancelled
        caller (a bot shutting down mid-click) cannot leave a transaction
        half-open; the unit still commits or rolls back, and the caller just
        stops waiting for it.
        """
        task = self._start_unit(what, body)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            # The caller gave up; the unit still finishes.  Make sure a failure
            # is not lost silently (a match that did not record, say).
            task.add_done_callback(lambda t: _log_orphan(what, t))
            raise


def _log_orphan(what: str, task: asyncio.Future[Any]) -> None:
    if task.cancelled():
        log.error("%s was cancelled before it finished", what)
    elif (exc := task.exception()) is not None:
        log.error("%s failed after its caller stopped waiting: %s", what, exc)
