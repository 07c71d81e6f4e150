"""The message that closes a finished match: its score chart, with each
player's place, points and rating change. Posted once; a failure is logged
and never holds up anything (the chart is in the history all the same)."""

from __future__ import annotations

import io
import logging

import discord

from presentation.pacing import LATER, RequestBudget
from presentation.score_chart import FILENAME

log = logging.getLogger(__name__)


async def post_result(
    client: discord.Client, budget: RequestBudget, channel_id: int, text: str, chart: bytes
) -> None:
    """Post the chart and its line in the match's channel."""
    await budget.take(LATER)  # after the table edits players are waiting on
    channel = client.get_partial_messageable(channel_id)
    try:
        await channel.send(
            text,
            file=discord.File(io.BytesIO(chart), FILENAME),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not post the score chart in channel %s", channel_id, exc_info=True)
