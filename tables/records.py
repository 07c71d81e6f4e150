"""Turn a finished (or abandoned) table into the database's match record."""

from __future__ import annotations

import time

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


def live_table(table: Table) -> LiveTable:
    state = {**table.to_dict(), "hand_messages": table.hand_messages_to_save()}
    host_panel = table.host_panel_to_save()
    if host_panel is not None:  # only a lobby's, while the host's controls are open
        state["host_panel"] = host_panel
    return LiveTable(
        channel_id=table.channel_id,
        guild_id=table.guild_id,
        message_id=table.message_id,
        rules=table.rules.to_dict(),
        state=state,
        updated_at=time.time(),
    )
