"""What a table keeps of an interaction to edit its response later: the token.

A parsed ``discord.Interaction`` holds the message it came from (embeds,
components), the member, the channel: about 10 KB. A table kept one for each
player's hand view, which made the interactions, not the games, most of the
bot's memory at a thousand tables. Editing the response needs only the
application id and the token (and the HTTP session to send it on).
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from . import answer


class InteractionHandle:
    """Edits the response of an interaction, as ``Interaction.edit_original_response``."""

    __slots__ = ("application_id", "session", "token")

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.session: aiohttp.ClientSession = interaction._session
        self.application_id = interaction.application_id
        self.token = interaction.token

    async def edit_original_response(
        self, *, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        await answer.edit_original(
            self.session, self.application_id, self.token, embed=embed, view=view
        )
