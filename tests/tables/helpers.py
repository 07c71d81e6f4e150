"""Tables built in memory for rendering and persistence tests."""

from __future__ import annotations

from engine import HouseRules, Match
from tables import Seat, Stage, Table


def playing_table(seed: int = 42, rules: HouseRules | None = None) -> Table:
    rules = rules or HouseRules()
    table = Table(
        channel_id=10,
        guild_id=20,
        host_id=1,
        rules=rules,
        seed=seed,
        seats=[Seat("1", "Ann", 1), Seat("2", "Bob", 2), Seat("cpu1", "Ada", level="hard")],
    )
    table.match = Match.start([seat.key for seat in table.seats], rules, seed)
    table.stage = Stage.PLAYING
    table.message_id = 99
    return table
