"""`/rummy end`: the host or a moderator stops the game in a channel."""

from __future__ import annotations

import discord

from chat.messages.table_layout import ended_layout
from chat.router import refusal_text, refuse
from chat.table_refresher import TableRefresher
from presentation.i18n import N_, _, speaking
from tables import LogLine, NotSaved, TableWork
from tables.names import plain_name, shown_name
from transport.private import Interaction

# What the Activity's pages still open on the game say happened to it.
ENDED_BY = N_("{who} ended the game.")


class Ending:
    """Ends games on request; the sweeper ends forgotten ones (game.timers)."""

    def __init__(self, work: TableWork, refresher: TableRefresher) -> None:
        self.work = work
        self.tables = work.tables
        self.refresher = refresher

    async def end(self, interaction: Interaction) -> None:
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            await refuse(interaction, _("There is no game in this channel."))
            return
        member = interaction.user
        allowed = member.id == table.host_id or (
            isinstance(member, discord.Member) and interaction.permissions.manage_messages
        )
        if not allowed:
            await refuse(
                interaction, _("Only the host or a member with Manage Messages can end this game.")
            )
            return
        async with table.lock:
            if self.tables.get(table.channel_id) is not table:
                await refuse(interaction, _("That game has just ended."))
                return
            named = getattr(member, "display_name", member.name)
            who = shown_name(named)
            try:
                await self.work.close(table, LogLine.of(ENDED_BY, who=plain_name(named)))
            except NotSaved as refusal:
                await refuse(interaction, refusal_text(refusal))
                return
            with speaking(table.language):  # said in public, like the table
                said = _("🛑 {who} ended the Rummy game here.", who=who)
                layout = ended_layout(table, who)
            await interaction.response.send_message(said)
            self.refresher.replace(table, layout)
