"""What a table keeps of an interaction to edit its answer later: the token.

A parsed ``discord.Interaction`` holds the message it came from (embeds,
components), the member, the channel: kilobytes each. A table kept one for each
player's hand message, which made the interactions, not the games, most of
the bot's memory at a thousand tables. Editing the answer needs only the
application id and the token (and the HTTP session to send it on).
"""

from __future__ import annotations

import aiohttp
import discord

from . import callbacks
from .private import Interaction, session_of
from .tokens import ResumableHandle


class InteractionHandle(ResumableHandle):
    """Edits the answer of an interaction, as ``Interaction.edit_original_response``."""

    __slots__ = ("session",)

    def __init__(self, interaction: Interaction) -> None:
        self.session: aiohttp.ClientSession = session_of(interaction)
        self.application_id = interaction.application_id
        self.token = interaction.token

    @classmethod
    def restored(cls, client: discord.Client, application_id: int, token: str) -> InteractionHandle:
        """A handle saved before a restart, sending on ``client``'s session: the
        token lives 15 minutes from its click, whichever process holds it."""
        handle = cls.__new__(cls)
        # discord.py's own way to a client's session (a webhook made from it).
        handle.session = discord.Webhook.partial(application_id, token, client=client).session
        handle.application_id = application_id
        handle.token = token
        return handle

    async def edit_original_response(
        self, *, embed: discord.Embed | None, controls: callbacks.Components | None
    ) -> None:
        await callbacks.edit_original(
            self.session,
            self.application_id,
            self.token,
            data=callbacks.message_data(embed=embed, controls=controls),
        )

    async def edit_followup(self, message_id: int, *, controls: callbacks.Components) -> None:
        """Edit one of the interaction's follow-up messages (not its answer)."""
        await callbacks.edit_followup(
            self.session,
            self.application_id,
            self.token,
            message_id,
            data=callbacks.message_data(controls=controls),
        )

    async def send_followup(self, *, controls: callbacks.Components) -> int | None:
        """Post a new message only its member sees, below everything since the
        click, and return its id (``edit_followup`` edits it)."""
        return await callbacks.post_followup(
            self.session, self.application_id, self.token, controls=controls, ephemeral=True
        )
