"""What each message shows for a table in its current state: an embed and its controls."""

from __future__ import annotations

import discord

from tables import Stage, Table

from . import render
from .components import hand_controls, lobby_controls, table_controls

Payload = tuple[discord.Embed, discord.ui.View | None]


def public_payload(table: Table) -> Payload:
    """The public table message: the lobby, the hand in play, or its result."""
    if table.stage is Stage.LOBBY:
        return render.lobby_embed(table), lobby_controls(table)
    assert table.match is not None
    outcome = table.match.hand.outcome
    if table.stage in (Stage.HAND_OVER, Stage.FINISHED) and outcome is not None:
        return render.hand_result_embed(table, outcome), table_controls(table)
    return render.table_embed(table), table_controls(table)


def hand_payload(table: Table, key: str, note: str | None = None) -> Payload:
    """One player's private hand message; the hand's result once it is over."""
    match = table.match
    assert match is not None
    outcome = match.hand.outcome
    if outcome is not None:
        return render.hand_result_embed(table, outcome), None
    view = match.hand.view_for(key)
    cards = render.sorted_hand(view.hand, table.sort_modes.get(key, "rank"))
    return render.hand_embed(table, key, note, view), hand_controls(table, key, cards, view)
