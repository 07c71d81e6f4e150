"""What a table keeps of an interaction to edit its response later: the token.

A parsed ``discord.Interaction`` holds the message it came from (embeds,
components), the member, the channel: about 10 KB. A table kept one for each
player's hand view, which made the interactions, not the games, most of the
bot's memory at a thousand tables. Editing the response needs only the
application id and the token.
"""

from __future__ import annotations

from typing import Any

import discord


class InteractionHandle:
    """Edits the response of an interaction, as ``Interaction.edit_original_response``."""

    __slots__ = ("application_id", "client", "token")

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.client = interaction.client
        self.application_id = interaction.application_id
        self.token = interaction.token

    async def edit_original_response(
        self, *, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        webhook = discord.Webhook.partial(self.application_id, self.token, client=self.client)
        # "@original" is the response of the interaction this token belongs to,
        # the route Interaction.edit_original_response uses; discord.py types
        # the message id as an int but only puts it in the path.
        original: Any = "@original"
        await webhook.edit_message(original, embed=embed, view=view)
