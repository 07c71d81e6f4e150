"""Turn a finished (or abandoned) table into the database's match record."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from db import HandRecord, LiveTable, MatchRecord, SeatRecord

from .table import Table
from .tapes import finished_tapes


def match_record(table: Table, *, abandoned: bool) -> MatchRecord:
    match = table.match
    assert match is not None
    tapes = finished_tapes(table)
    hands = [
        HandRecord(
            number=number,
            went_out=outcome.went_out,
            rummy=outcome.rummy,
            scores=dict(outcome.scores),
            winners=tuple(outcome.winners),
            reason=outcome.reason.value,
            moves=tapes.get(number),
        )
        for number, outcome in enumerate(match.history, 1)
    ]
    winners: tuple[str, ...] = ()
    if not abandoned and match.outcome is not None:
        winners = tuple(match.outcome.winners)
    return MatchRecord(
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        seats=[
            SeatRecord(
                player_key=seat.key,
                user_id=seat.user_id,
                name=seat.name,
                computer=seat.is_computer,
                level=seat.level if seat.is_computer else None,
            )
            for seat in table.seats
        ],
        rules=table.rules.to_dict(),
        hands=hands,
        totals=dict(match.totals),
        winners=winners,
        abandoned=abandoned,
        started_at=table.created_at,
        ended_at=time.time(),
    )


def live_table(table: Table, door: Mapping[str, Any]) -> LiveTable:
    """The table's saved row: the game's state with the keys its ``door`` keeps
    beside it (``TableWork``'s ``door_state``), and the table message's id,
    the door's too, in a column of its own."""
    state = {**table.to_dict(), **door}
    message_id = door.get("message_id")
    return LiveTable(
        channel_id=table.channel_id,
        guild_id=table.guild_id,
        message_id=None if message_id is None else int(message_id),
        rules=table.rules.to_dict(),
        state=state,
        updated_at=time.time(),
    )
