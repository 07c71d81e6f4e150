"""`/rummy start` where the bot is no member: a DM, a group DM, or a server
that did not install it (a member's own install answered).

Nothing can be posted there with the bot's token, so there is no public table
to keep: the lobby opens for the Activity, and the command's own answer (sent
through its token, which works anywhere) says a game is open, with a button
that opens the Activity for whoever presses it.
"""

from __future__ import annotations

import logging

import discord

from engine import HouseRules
from game.config import GameConfig
from game.lobby_seats import LobbySeats
from game.seat_moves import Ask
from presentation import actions
from presentation.i18n import N_, _
from presentation.labels import PLAY_LABEL
from tables import NotSaved, Place, Refusal, Table, TableRegistry
from tables.names import shown_name
from transport import callbacks
from transport.private import Interaction, session_of

from .follow_ups import CHAT
from .messages.components import PRIMARY, Controls, button
from .router import refusal_text, refuse

log = logging.getLogger(__name__)

NO_ACTIVITY = N_(
    "Here the game can only be played in the Activity, and this bot's Activity is "
    "not set up: ask whoever hosts the bot to turn it on.")
NOT_IN_BOT_DM = N_(
    "A game needs friends to sit with: start one in a server's channel, or in a DM "
    "or group DM (there it is played in the Activity).")
SEEN_BY_YOU_ALONE = N_(
    "Only you can see this: this server does not let your apps answer in public "
    "here (**Use External Apps** is off for you), so the others cannot see a table. "
    "The lobby is open all the same: press **{play}** to open it in the Activity, "
    "and bring your friends in from there.")


def launch_controls(table: Table) -> Controls:
    scope = actions.table_scope(table.channel_id, table.game_id)
    return Controls([button(actions.OPEN_TABLE.id(scope), _(PLAY_LABEL), PRIMARY)])


def open_line(host: str) -> str:
    """The line that says a game is open; ``host``: their plain name, shown as
    literal text (a name may hold markdown's characters)."""
    return _("🃏 **{host}** opened a game of Rummy here. Press **{play}** to take a seat "
             "or watch: the game is played in the Activity.", host=shown_name(host),
             play=_(PLAY_LABEL))


class ActivityLobby:
    """Opens lobbies the Activity alone can hold, and answers with the way in."""

    def __init__(self, config: GameConfig, lobby_seats: LobbySeats,
                 tables: TableRegistry) -> None:
        self.config = config
        self.lobby_seats = lobby_seats
        self.tables = tables

    async def open(self, interaction: Interaction, place: Place, rules: HouseRules,
                   language: str, host: str) -> None:
        if not self.config.activity:
            await refuse(interaction, _(NO_ACTIVITY))
            return
        table = self.tables.get(place.channel_id)
        if table is None:
            try:
                table = await self.lobby_seats.open(
                    place, Ask(interaction.user.id, CHAT, name=host), rules, language)
            except NotSaved as refusal:
                await refuse(interaction, refusal_text(refusal))
                return
            except Refusal as refusal:  # opened by someone else meanwhile
                await refuse(interaction, str(refusal))
                return
            text = open_line(host)
        else:
            # A game is on here already: the same way in, to it.
            text = _("A game of Rummy is already on here. Press **{play}** to join it or "
                     "watch.", play=_(PLAY_LABEL))
        controls = launch_controls(table)
        if await callbacks.answer_in_public(interaction, text, controls=controls):
            return
        # Discord showed the answer to its sender alone (Use External Apps):
        # the line would promise the others a table they cannot see.
        try:
            await callbacks.edit_original(
                session_of(interaction), interaction.application_id,
                interaction.token,
                data=callbacks.message_data(
                    content=_(SEEN_BY_YOU_ALONE, play=_(PLAY_LABEL)), controls=controls))
        except discord.HTTPException:
            log.warning("could not say in channel %s that its answer was private",
                        place.channel_id)
