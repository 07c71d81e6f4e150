"""Numbered schema migrations, applied in order at start-up.

``PRAGMA user_version`` holds the number of the last migration applied to a
file.  :func:`migrate` brings any older file up to :data:`LATEST_VERSION`, one
migration per transaction, so a failure leaves the file at the previous
version with nothing half-applied; a file is never dropped or rebuilt from
scratch, because it holds every score the bot has ever recorded.

Rules for adding a migration:

* Append it; never edit or reorder a migration that has shipped, since files
  in the wild were built by exactly that text.  Tests rebuild every earlier
  version from this list, so an edit shows up as a failing upgrade test.
* Keep it runnable inside one transaction.  A change SQLite cannot do with
  ``ALTER TABLE`` is done the documented way: create the new table, copy,
  drop the old one, rename.  (Foreign-key enforcement cannot be switched off
  inside a transaction; if a rebuild ever needs that, give :func:`migrate` a
  per-migration flag rather than weakening it for all.)
* If it adds derived data, fill it from the rows already stored, as migration
  2 does for the leaderboard, so an upgraded server keeps its history.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from .errors import DatabaseTooNewError, StorageError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Migration:
    """One step of the schema: ``version`` is the user_version it leaves behind."""

    version: int
    name: str
    script: str


_CORE = """
-- A finished or abandoned match.  Rules are the house rules it was played
-- with, as the engine's JSON.
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    rules       TEXT    NOT NULL CHECK (json_valid(rules)),
    abandoned   INTEGER NOT NULL CHECK (abandoned IN (0, 1)),
    started_at  REAL    NOT NULL,
    ended_at    REAL    NOT NULL
);
CREATE INDEX matches_by_guild ON matches (guild_id, ended_at);

-- Who sat at a match.  Computer seats have no user id; a human sits at most
-- once per match, so a user is never counted twice for one match.
CREATE TABLE match_seats (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    player_key  TEXT    NOT NULL,
    user_id     INTEGER,
    name        TEXT    NOT NULL,
    computer    INTEGER NOT NULL CHECK (computer IN (0, 1)),
    total       INTEGER,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (match_id, player_key),
    UNIQUE (match_id, seat),
    UNIQUE (match_id, user_id),
    CHECK ((computer = 1) = (user_id IS NULL))
) WITHOUT ROWID;
CREATE INDEX match_seats_by_user ON match_seats (user_id) WHERE user_id IS NOT NULL;

-- Every finished hand.  Scores ({player_key: points}) and winners
-- ([player_key]) are JSON; who went out must be a seat of the same match.
CREATE TABLE hands (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    number    INTEGER NOT NULL CHECK (number >= 1),
    went_out  TEXT,
    rummy     INTEGER NOT NULL CHECK (rummy IN (0, 1)),
    scores    TEXT    NOT NULL CHECK (json_valid(scores)),
    winners   TEXT    NOT NULL CHECK (json_valid(winners)),
    reason    TEXT    NOT NULL,
    PRIMARY KEY (match_id, number),
    FOREIGN KEY (match_id, went_out) REFERENCES match_seats (match_id, player_key),
    CHECK (rummy = 0 OR went_out IS NOT NULL)
) WITHOUT ROWID;

-- Games in progress, one per channel, rewritten after every action.  No JSON
-- check here on purpose: the loader is the one judge of a saved state, and a
-- damaged row must still be movable to set_aside_tables untouched.
CREATE TABLE live_tables (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    message_id  INTEGER,
    rules       TEXT    NOT NULL,
    state       TEXT    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- Live tables that could not be restored, kept exactly as found (the copied
-- columns have no declared type, so no affinity rewrites their values).
CREATE TABLE set_aside_tables (
    id            INTEGER PRIMARY KEY,
    channel_id,
    guild_id,
    message_id,
    rules,
    state,
    updated_at,
    error         TEXT NOT NULL,
    set_aside_at  REAL NOT NULL
);
CREATE INDEX set_aside_by_channel ON set_aside_tables (channel_id);
"""

_PLAYER_STATS = """
-- Per-server running totals for each human, kept in step with the results by
-- record_match (same transaction), so a leaderboard page never scans hands.
CREATE TABLE player_stats (
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    matches_played  INTEGER NOT NULL,
    matches_won     INTEGER NOT NULL,
    hands_won       INTEGER NOT NULL,
    points          INTEGER NOT NULL,
    rummies         INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- One index per leaderboard order, in exactly its ORDER BY (ties broken by
-- the other figures, then the lower user id), so a page is an index walk and
-- a rank is a COUNT over a range of the same index.  The trailing columns make
-- each index covering: a deep page (OFFSET 9,990) skips index entries only,
-- never table rows (3.4 ms -> 0.3 ms at 10,000 players).
CREATE INDEX player_stats_by_wins ON player_stats
    (guild_id, matches_won DESC, hands_won DESC, points DESC, user_id,
     matches_played, rummies, name);
CREATE INDEX player_stats_by_points ON player_stats
    (guild_id, points DESC, matches_won DESC, hands_won DESC, user_id,
     matches_played, rummies, name);
CREATE INDEX player_stats_by_rummies ON player_stats
    (guild_id, rummies DESC, matches_won DESC, points DESC, user_id,
     matches_played, hands_won, name);

-- Fill it from the results recorded before this version: the same figures
-- record_match adds up (abandoned matches are played but never won; the name
-- is the one from the latest recorded match).
INSERT INTO player_stats
    (guild_id, user_id, name, matches_played, matches_won, hands_won, points, rummies)
SELECT
    m.guild_id,
    s.user_id,
    (SELECT s2.name FROM match_seats AS s2 JOIN matches AS m2 ON m2.id = s2.match_id
      WHERE m2.guild_id = m.guild_id AND s2.user_id = s.user_id
      ORDER BY m2.id DESC LIMIT 1),
    COUNT(*),
    SUM(s.won = 1 AND m.abandoned = 0),
    SUM((SELECT COUNT(*) FROM hands AS h, json_each(h.winners) AS w
          WHERE h.match_id = s.match_id AND w.value = s.player_key)),
    SUM((SELECT COALESCE(SUM(sc.value), 0) FROM hands AS h, json_each(h.scores) AS sc
          WHERE h.match_id = s.match_id AND sc.key = s.player_key)),
    SUM((SELECT COUNT(*) FROM hands AS h
          WHERE h.match_id = s.match_id AND h.went_out = s.player_key AND h.rummy = 1))
FROM match_seats AS s JOIN matches AS m ON m.id = s.match_id
WHERE s.user_id IS NOT NULL
GROUP BY m.guild_id, s.user_id;
"""

_GUILD_SETTINGS = """
-- Per-server default house rules (engine-validated JSON) for /rummy start.
CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    rules       TEXT NOT NULL CHECK (json_valid(rules)),
    updated_at  REAL NOT NULL
);
"""

_FACES_AND_PREFERENCES = """
-- The bot's card faces, uploaded as its application emojis: which emoji
-- shows which card, and a digest of the image it was made from, so a new
-- drawing replaces the old emoji.
CREATE TABLE card_emoji (
    name        TEXT    PRIMARY KEY,
    emoji_id    INTEGER NOT NULL,
    digest      TEXT    NOT NULL
) WITHOUT ROWID;

-- What each person chose for themselves, wherever they play (DMs they
-- want, four-colour cards): a JSON object of the choices they made.
CREATE TABLE player_prefs (
    user_id     INTEGER PRIMARY KEY,
    prefs       TEXT    NOT NULL CHECK (json_valid(prefs)),
    updated_at  REAL    NOT NULL
);
"""

_ABANDONED_NOT_PLAYED = """
-- A match stopped with /rummy end (or closed as forgotten) was never played
-- out: it no longer counts as a match played, so it is no match lost. Its
-- finished hands still count.
UPDATE player_stats SET matches_played = (
    SELECT COUNT(*) FROM match_seats AS s JOIN matches AS m ON m.id = s.match_id
    WHERE m.guild_id = player_stats.guild_id AND s.user_id = player_stats.user_id
      AND m.abandoned = 0
);
"""

_RATINGS_SEASONS_HISTORY = """
-- Seasons that have ended, per server. The season being played has no row:
-- its number is one more than the last one here (1 in a server with none),
-- and it began when the last one ended. Names are unique in a server, in any
-- letter case, since members type them.
CREATE TABLE seasons (
    guild_id    INTEGER NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 1),
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    started_at  REAL,
    ended_at    REAL    NOT NULL,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;
CREATE UNIQUE INDEX seasons_by_name ON seasons (guild_id, name COLLATE NOCASE);

-- Each rated player's skill in one season of one server (openskill's
-- Plackett-Luce: mu and sigma), kept in step with match_ratings by
-- record_match, in its transaction. A person's key is 'u' and their user id;
-- a computer level's is 'cpu:' and the level: computers are rated so that
-- games against them count, but have no user id and are never listed.
-- ordinal (mu - 3 sigma) and provisional (fewer than 5 rated matches) are
-- stored so the leaderboard is a walk of one index.
CREATE TABLE ratings (
    guild_id     INTEGER NOT NULL,
    season       INTEGER NOT NULL,
    player       TEXT    NOT NULL,
    user_id      INTEGER,
    name         TEXT    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL CHECK (sigma > 0),
    ordinal      REAL    NOT NULL,
    provisional  INTEGER NOT NULL CHECK (provisional IN (0, 1)),
    matches      INTEGER NOT NULL CHECK (matches >= 1),
    wins         INTEGER NOT NULL CHECK (wins >= 0),
    PRIMARY KEY (guild_id, season, player),
    CHECK ((user_id IS NULL) = (player LIKE 'cpu:%'))
) WITHOUT ROWID;
-- The rating leaderboard's order (established players first, by ordinal,
-- then the lower user id), covering: a page never reads the table.
CREATE INDEX ratings_board ON ratings
    (guild_id, season, provisional, ordinal DESC, user_id, name, mu, sigma, matches, wins)
    WHERE user_id IS NOT NULL;

-- What one rated match did to each seat's rating: the place it finished in
-- (ties share a place) and mu/sigma before and after. Abandoned matches have
-- none. The history shows the change; stats the trend and the opponents.
CREATE TABLE match_ratings (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    player        TEXT    NOT NULL,
    guild_id      INTEGER NOT NULL,
    season        INTEGER NOT NULL,
    user_id       INTEGER,
    name          TEXT    NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    PRIMARY KEY (match_id, player)
) WITHOUT ROWID;
CREATE INDEX match_ratings_by_user ON match_ratings (guild_id, user_id, match_id)
    WHERE user_id IS NOT NULL;

-- A finished hand as dealt (dealer's seat, seed) and its moves in the
-- compact text of engine.tape, for the history's replay. Hands recorded
-- before this version have none.
CREATE TABLE hand_moves (
    match_id  INTEGER NOT NULL,
    number    INTEGER NOT NULL,
    dealer    INTEGER NOT NULL CHECK (dealer >= 0),
    seed      INTEGER NOT NULL,
    moves     TEXT    NOT NULL,
    PRIMARY KEY (match_id, number),
    FOREIGN KEY (match_id, number) REFERENCES hands (match_id, number) ON DELETE CASCADE
) WITHOUT ROWID;

-- The match that just ended in a channel, for its closing score chart.
CREATE INDEX matches_by_channel ON matches (channel_id, id);

-- Matches recorded before ratings existed stay unrated: their order of play
-- is known, but rating them now would put all of a server's past into its
-- first season at once, and a rating is only the sum of the matches that
-- made it. Season 1 of every server starts with this version.
"""

# Which process serves which shards, when several share one PostgreSQL
# server (db.leases). A lease is held until expires_at (the database's clock,
# seconds since the epoch) and renewed before then; taking it over from a
# holder that stopped renewing raises its epoch, and every save of a live
# table names the epoch it was made under, so a process that lost its lease
# can no longer write. A single process on an SQLite file holds its file's
# lock instead and never writes here: the table is kept so that both stores
# have one schema.
_SHARD_LEASES = """
CREATE TABLE shard_leases (
    shard       INTEGER PRIMARY KEY,
    epoch       INTEGER NOT NULL CHECK (epoch >= 1),
    holder      TEXT    NOT NULL,
    expires_at  REAL    NOT NULL
);
"""

# Where each lease's holder serves the Activity, for the bot's other processes:
# Discord maps one address to the Activity, so a page may reach a process that
# does not serve its server, which then relays it to the one that does.
_LEASE_WEB_URL = """
ALTER TABLE shard_leases ADD COLUMN web_url TEXT;
"""

# A player's figures over every board they played on (each server's, each DM's
# and group DM's), read by user alone: without this index, by a walk of every
# board's rows.
_PLAYER_STATS_BY_USER = """
CREATE INDEX player_stats_by_user ON player_stats (user_id);
"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core schema: results, live tables, set-aside tables", _CORE),
    Migration(2, "leaderboard aggregates, filled from recorded results", _PLAYER_STATS),
    Migration(3, "per-server default house rules", _GUILD_SETTINGS),
    Migration(4, "card faces as emojis, and players' own choices", _FACES_AND_PREFERENCES),
    Migration(5, "abandoned matches are not matches played", _ABANDONED_NOT_PLAYED),
    Migration(6, "ratings, seasons, and finished hands' moves", _RATINGS_SEASONS_HISTORY),
    Migration(7, "shard leases with fencing epochs", _SHARD_LEASES),
    Migration(8, "where each lease's holder serves the Activity", _LEASE_WEB_URL),
    Migration(9, "a player's figures over every board", _PLAYER_STATS_BY_USER),
)
LATEST_VERSION = MIGRATIONS[-1].version

# The list is the schema's history: versions must be 1, 2, 3, ... with no gap.
assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))


def migration_failed(migration: Migration, where: str, exc: BaseException) -> StorageError:
    """The refusal when a migration fails: nothing of it was applied."""
    return StorageError(
        f"migration {migration.version} ({migration.name}) failed on {where}: {exc}; "
        f"the database is left unchanged at version {migration.version - 1}"
    )


def too_new(where: str, version: int) -> DatabaseTooNewError:
    """The refusal of a database a newer release wrote."""
    return DatabaseTooNewError(
        f"{where} has schema version {version}, but this bot only knows versions up to "
        f"{LATEST_VERSION}: it was written by a newer release. Run that release (or "
        "restore a backup); this one will not touch it."
    )


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The migration number recorded in the file (0 for a new, empty file)."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    version = rows[0][0]
    assert isinstance(version, int)
    return version


async def migrate(conn: aiosqlite.Connection, path: Path, target: int = LATEST_VERSION) -> int:
    """Apply every migration between the file's version and ``target``.

    ``conn`` must be in autocommit mode (``isolation_level=None``) so the
    explicit transactions here are the only ones.  ``target`` below the latest
    exists for tests, which build each earlier version exactly as it shipped.
    Returns the version the file is left at.
    """
    if not 0 <= target <= LATEST_VERSION:
        raise ValueError(f"no migration {target}; the latest is {LATEST_VERSION}")
    current = await schema_version(conn)
    if current > LATEST_VERSION:
        raise too_new(str(path), current)
    if current == 0 and await _has_tables(conn):
        raise StorageError(
            f"{path} already holds tables but no schema version: it is not a Rummy bot "
            "database. Point DATABASE_PATH at a new file or at the bot's own database."
        )
    for migration in MIGRATIONS[current:target]:
        # executescript cannot bind parameters; the version is our own integer.
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.script}\n"
            f"PRAGMA user_version = {migration.version:d};\n"
            "COMMIT;"
        )
        try:
            await conn.executescript(script)
        except Exception as exc:
            await _rollback_quietly(conn)
            raise migration_failed(migration, str(path), exc) from exc
        log.info("database %s migrated to version %d: %s", path, migration.version, migration.name)
    return max(current, target)


async def _has_tables(conn: aiosqlite.Connection) -> bool:
    rows = list(
        await conn.execute_fetchall(
            "SELECT 1 FROM sqlite_schema WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!' LIMIT 1"
        )
    )
    return bool(rows)


async def _rollback_quietly(conn: aiosqlite.Connection) -> None:
    """Undo a failed transaction; if none is open (SQLite already rolled back), fine."""
    try:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
    except Exception:  # the original error is the one worth reporting
        log.debug("rollback after a failed transaction also failed", exc_info=True)
