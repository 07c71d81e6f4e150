"""What the public table message shows for a table in its current state (a
player's hand message: ``presentation.hand_message``)."""

from __future__ import annotations

import discord

from tables import Stage, Table

from . import render
from .card_emoji import CardFaces
from .components import lobby_controls, table_controls

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
