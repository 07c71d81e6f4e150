"""`/rummy season end`: a server's admin closes the season; its rating
standings are kept as they are, and everyone starts the next one afresh."""

from __future__ import annotations

import time
from collections.abc import Callable

from chat.router import refuse
from db import Database, SeasonRefused
from presentation.i18n import _, speaking
from tables.names import shown_name
from transport.private import Interaction


class Seasons:
    """Ends seasons on request (members with Manage Server)."""

    def __init__(self, db: Database, public_language: Callable[[Interaction], str]) -> None:
        self.db = db
        # The season's end is announced to the channel: in the server's language.
        self.public_language = public_language

    async def end(self, interaction: Interaction, name: str | None) -> None:
        assert interaction.guild_id is not None
        if not interaction.permissions.manage_guild:
            await refuse(interaction, _("Only a member with Manage Server can end a season."))
            return
        try:
            season = await self.db.end_season(interaction.guild_id, name, time.time())
        except SeasonRefused as refusal:
            await refuse(interaction, _(refusal.template, **refusal.params))
            return
        with speaking(self.public_language(interaction)):
            announcement = _(
                "🏁 **{season}** is over: its standings are kept "
                "(`/rummy leaderboard season:{ended}`), and season {number} "
                "starts now, with everyone unrated.",
                season=shown_name(season.name),
                # Its number, not its name: a code span shows a name's escapes.
                ended=season.number,
                number=season.number + 1,
            )
        await interaction.response.send_message(announcement)
