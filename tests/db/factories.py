"""Builders for match records and an independent reference for the leaderboard.

The reference (``expected_stats``/``expected_order``) is written from the
rules in the issue, in plain loops, without looking at the SQL: the tests
compare the database against it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from db import HandRecord, MatchRecord, SeatRecord

RULES: dict[str, Any] = {"hand_size": 7, "target": 100, "ace": "low"}


def human(key: str, user_id: int, name: str | None = None) -> SeatRecord:
    return SeatRecord(
        player_key=key, user_id=user_id, name=name or f"user{user_id}", computer=False
    )


def computer(key: str, name: str = "Computer") -> SeatRecord:
    return SeatRecord(player_key=key, user_id=None, name=name, computer=True)


def hand(
    number: int,
    scores: dict[str, int],
    went_out: str | None = None,
    rummy: bool = False,
    winners: tuple[str, ...] | None = None,
    reason: str = "went out",
) -> HandRecord:
    if winners is None:
        winners = (went_out,) if went_out else ()
    return HandRecord(
        number=number, went_out=went_out, rummy=rummy, scores=scores, winners=winners, reason=reason
    )


def match(
    seats: list[SeatRecord],
    hands: list[HandRecord],
    winners: tuple[str, ...],
    guild_id: int = 1,
    channel_id: int = 100,
    abandoned: bool = False,
    ended_at: float = 1_700_000_100.0,
) -> MatchRecord:
    totals: dict[str, int] = {s.player_key: 0 for s in seats}
    for h in hands:
        for key, score in h.scores.items():
            totals[key] = totals.get(key, 0) + score
    return MatchRecord(
        guild_id=guild_id,
        channel_id=channel_id,
        seats=seats,
        rules=RULES,
        hands=hands,
        totals=totals,
        winners=winners,
        abandoned=abandoned,
        started_at=ended_at - 100.0,
        ended_at=ended_at,
    )


def random_matches(
    rng: random.Random, count: int, users: list[int], guilds: list[int]
) -> list[MatchRecord]:
    """Many small matches with small score ranges, so figures tie often."""
    result: list[MatchRecord] = []
    for n in range(count):
        seated = rng.sample(users, rng.randint(1, 3))
        seats = [human(f"p{i}", u, f"name{u}-{n}") for i, u in enumerate(seated)]
        if len(seats) < 2 or rng.random() < 0.3:
            seats.append(computer(f"c{len(seats)}"))
        keys = [s.player_key for s in seats]
        hands = []
        for number in range(1, rng.randint(0, 3) + 1):
            out = rng.choice([*keys, None])
            scores = {k: (rng.randint(0, 3) if k == out else 0) for k in keys}
            hands.append(
                hand(number, scores, went_out=out, rummy=out is not None and rng.random() < 0.3)
            )
        winners = tuple(rng.sample(keys, rng.randint(0, 2)))
        result.append(
            match(
                seats,
                hands,
                winners,
                guild_id=rng.choice(guilds),
                abandoned=rng.random() < 0.15,
                ended_at=1_700_000_000.0 + n,
            )
        )
    return result


@dataclass
class Figures:
    name: str = ""
    played: int = 0
    won: int = 0
    hands_won: int = 0
    points: int = 0
    rummies: int = 0


def expected_stats(
    matches: list[MatchRecord], *, abandoned_played: bool = False
) -> dict[int, dict[int, Figures]]:
    """guild -> user -> figures, straight from the definitions in the issue.

    ``abandoned_played``: count abandoned matches as played, as the releases
    before schema version 5 did."""
    out: dict[int, dict[int, Figures]] = {}
    for m in matches:
        for seat in m.seats:
            if seat.computer:
                continue
            assert seat.user_id is not None
            f = out.setdefault(m.guild_id, {}).setdefault(seat.user_id, Figures())
            key = seat.player_key
            f.name = seat.name
            if abandoned_played or not m.abandoned:  # abandoned: neither won nor lost
                f.played += 1
            if not m.abandoned and key in m.winners:
                f.won += 1
            for h in m.hands:
                if key in h.winners:
                    f.hands_won += 1
                f.points += h.scores.get(key, 0)
                if h.rummy and h.went_out == key:
                    f.rummies += 1
    return out


def expected_order(figures: dict[int, Figures], order: str) -> list[int]:
    """User ids best first: the chosen figure, the documented tie-breaks, then lower id."""

    def key(item: tuple[int, Figures]) -> tuple[int, ...]:
        uid, f = item
        if order == "wins":
            return (-f.won, -f.hands_won, -f.points, uid)
        if order == "points":
            return (-f.points, -f.won, -f.hands_won, uid)
        return (-f.rummies, -f.won, -f.points, uid)

    return [uid for uid, _ in sorted(figures.items(), key=key)]
