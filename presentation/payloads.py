"""What each message shows for a table in its current state."""

from __future__ import annotations

import discord

from tables import Stage, Table

from . import render
from .card_emoji import CardFaces
from .components import lobby_controls, table_controls
from .hand_message import hand_layout
from .layouts import Layout

Payload = tuple[discord.Embed, discord.ui.View | None]


def public_payload(table: Table, faces: CardFaces) -> Payload:
    """The public table message: the lobby, the hand in play, or its result."""
    if table.stage is Stage.LOBBY:
        return render.lobby_embed(table), lobby_controls(table)
    assert table.match is not None
    outcome = table.match.hand.outcome
    if table.stage in (Stage.HAND_OVER, Stage.FINISHED) and outcome is not None:
        return render.hand_result_embed(table, outcome, faces), table_controls(table)
    return render.table_embed(table, faces), table_controls(table)


def hand_payload(
    table: Table,
    key: str,
    faces: CardFaces,
    note: str | None = None,
    *,
    four_colour: bool = False,
) -> Layout:
    """One player's private hand message; the hand's result once it is over."""
    return hand_layout(table, key, faces, note=note, four_colour=four_colour)
