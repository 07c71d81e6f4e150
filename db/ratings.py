"""Skill ratings: the rating of each finished match.

A finished match of 2-6 seats rates every seat by its final place, with
openskill's Plackett-Luce model: places come from the final totals, higher
first, and equal totals share a place. People are rated under their user id,
computers under their level (every easy computer of a server is one player),
so that games against computers count; computers are never listed. An
abandoned match is never rated.

A match is rated in the server's current season (``db.seasons``); the rating
leaderboard and profiles read the ratings back (``db.rating_board``).
Everything here runs inside the caller's transaction: ``rate_match`` is part
of recording the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from .models import MatchRecord, SeatRecord
from .seasons import current_season
from .session import Session

# The model's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) are the ones
# the Weng-Lin paper and openskill's documentation use.
MODEL: Final = PlackettLuce()
# A player is listed as provisional until this many rated matches in a season.
PROVISIONAL_BELOW: Final = 5
MIN_RATED_SEATS: Final = 2
MAX_RATED_SEATS: Final = 6
COMPUTER_PREFIX: Final = "cpu:"

SQL_PRIORS: Final = """
SELECT player, mu, sigma, matches, wins FROM ratings
WHERE guild_id = ? AND season = ? AND player = ?
"""
SQL_PUT_RATING: Final = """
INSERT INTO ratings
    (guild_id, season, player, user_id, name, mu, sigma, ordinal, provisional, matches, wins)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, season, player) DO UPDATE SET
    name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,
    ordinal = excluded.ordinal, provisional = excluded.provisional,
    matches = excluded.matches, wins = excluded.wins
"""
SQL_ADD_MATCH_RATING: Final = """
INSERT INTO match_ratings
    (match_id, player, guild_id, season, user_id, name, place,
     mu_before, sigma_before, mu_after, sigma_after)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate the leaderboard ranks by: mu minus three sigma."""
    return mu - 3 * sigma


def rated_key(seat: SeatRecord) -> str:
    """Who a seat is rated as: a person by user id, a computer by its level."""
    if seat.computer or seat.user_id is None:
        return f"{COMPUTER_PREFIX}{seat.level or 'computer'}"
    return f"u{seat.user_id}"


def computer_name(level: str) -> str:
    return f"Computer ({level})"


def places(totals: dict[str, int], keys: Sequence[str]) -> dict[str, int]:
    """Each seat's final place: 1 + the number of seats with a higher total, so
    equal totals share a place (1, 2, 2, 4). A seat without a total is last."""
    score = {key: totals.get(key) for key in keys}
    lowest = min((v for v in score.values() if v is not None), default=0) - 1
    figures = {key: lowest if value is None else value for key, value in score.items()}
    return {key: 1 + sum(other > figures[key] for other in figures.values()) for key in keys}


@dataclass(frozen=True)
class Rated:
    """One rated player's part in a match: before and after."""

    player: str
    user_id: int | None
    name: str
    place: int
    won: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def rate(priors: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """openskill's Plackett-Luce update of one-player teams finishing at ``ranks``
    (lower is better; equal ranks tie): each player's new (mu, sigma)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def is_rated(match: MatchRecord) -> bool:
    """Whether a match is rated: played out, by 2 to 6 seats."""
    return not match.abandoned and MIN_RATED_SEATS <= len(match.seats) <= MAX_RATED_SEATS


Prior = tuple[float, float, int, int]  # mu, sigma, matches, wins


def rated_keys(match: MatchRecord) -> list[str]:
    """The rated key of each seat, in seat order (a level may appear twice)."""
    return [rated_key(seat) for seat in match.seats]


def rate_results(match: MatchRecord, priors: dict[str, Prior]) -> list[Rated]:
    """What a match does to each rated key, from their ratings before it.

    Two computers of the same level in one match are both rated as that level
    from the same prior; the level keeps the mean of their two results (and
    the better of their places), as one player who played twice.
    """
    place_of = places(match.totals, [seat.player_key for seat in match.seats])
    keys = rated_keys(match)
    after = rate(
        [priors[key][:2] for key in keys], [place_of[seat.player_key] for seat in match.seats]
    )
    results: list[Rated] = []
    for key in dict.fromkeys(keys):
        seats = [i for i, k in enumerate(keys) if k == key]
        first = match.seats[seats[0]]
        mu, sigma, _, _ = priors[key]
        results.append(
            Rated(
                player=key,
                user_id=None if first.computer else first.user_id,
                name=computer_name(first.level or "computer") if first.computer else first.name,
                place=min(place_of[match.seats[i].player_key] for i in seats),
                won=any(match.seats[i].player_key in match.winners for i in seats),
                mu_before=mu,
                sigma_before=sigma,
                mu_after=sum(after[i][0] for i in seats) / len(seats),
                sigma_after=sum(after[i][1] for i in seats) / len(seats),
            )
        )
    return results


def rating_rows(
    match_id: int,
    guild_id: int,
    season: int,
    results: Sequence[Rated],
    priors: dict[str, Prior],
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The SQL_PUT_RATING rows and the SQL_ADD_MATCH_RATING rows of a rated match."""
    put: list[tuple[Any, ...]] = []
    for r in results:
        _, _, played, wins = priors[r.player]
        played += 1
        put.append(
            (
                guild_id,
                season,
                r.player,
                r.user_id,
                r.name,
                r.mu_after,
                r.sigma_after,
                ordinal(r.mu_after, r.sigma_after),
                int(played < PROVISIONAL_BELOW),
                played,
                wins + int(r.won),
            )
        )
    added = [
        (
            match_id,
            r.player,
            guild_id,
            season,
            r.user_id,
            r.name,
            r.place,
            r.mu_before,
            r.sigma_before,
            r.mu_after,
            r.sigma_after,
        )
        for r in results
    ]
    return put, added


def prior_of(found: Sequence[Sequence[Any]]) -> Prior:
    """A key's rating before a match: its SQL_PRIORS row, or the model's start."""
    if not found:
        return (MODEL.mu, MODEL.sigma, 0, 0)
    _, mu, sigma, played, wins = found[0]
    return (float(mu), float(sigma), int(played), int(wins))


async def rate_match(conn: Session, match_id: int, match: MatchRecord) -> list[Rated]:
    """Rate a just-recorded match in the server's current season, inside the
    caller's transaction; nothing for an unrated match (``rate_results``)."""
    if not is_rated(match):
        return []
    season = await current_season(conn, match.guild_id)
    priors: dict[str, Prior] = {}
    for key in dict.fromkeys(rated_keys(match)):
        found = list(await conn.fetch(SQL_PRIORS, (match.guild_id, season, key)))
        priors[key] = prior_of(found)
    results = rate_results(match, priors)
    put, added = rating_rows(match_id, match.guild_id, season, results, priors)
    await conn.executemany(SQL_PUT_RATING, put)
    await conn.executemany(SQL_ADD_MATCH_RATING, added)
    return results
