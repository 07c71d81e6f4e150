"""The lobby host's own controls (``chat.messages.host_panel_layout``): sent to the
host, answered in place, and kept current as the lobby changes.

An ephemeral message can be edited only through the interaction that made it,
or that last answered a click on it, and only for 15 minutes. The chat keeps
that interaction's handle (``ChatSide.host_panel``), as it keeps each hand
message's, and every saved change of the lobby edits the host's latest
controls through it. Past the 15 minutes they stop following; a click on them
still works, answered by drawing them anew in the message clicked (with the
click's fresh token, they follow again from then on).

Once the lobby is over (the game started, or the lobby closed), the controls
are deleted through the same token, as an ephemeral message can be while its
token lives: "This game has already started." left in the channel was only
in the way. Where the delete cannot be made (the token is dead, or Discord
refuses), they are edited to say the lobby is over, as before.
"""

from __future__ import annotations

import logging
import time

import aiohttp
import discord

from chat.messages.host_panel_layout import host_panel_layout
from game.tasks import Supervisor
from presentation.i18n import speaking
from tables import Stage, Table
from transport import callbacks
from transport.handles import InteractionHandle
from transport.private import Interaction
from transport.tokens import TOKEN_LIFETIME

from .table_side import HostPanel, chat_side

log = logging.getLogger(__name__)

# A table's lobby, told from a later one in the same channel.
PanelKey = tuple[int, str]


def _key(table: Table) -> PanelKey:
    return (table.channel_id, table.game_id)


def host_language(table: Table) -> str:
    """What the host reads the bot in, as of their latest click at the table."""
    seat = table.seat_of_user(table.host_id)
    return seat.language if seat is not None else table.language


class HostPanels:
    """Sends the host's controls and keeps the latest of them current."""

    def __init__(self, tasks: Supervisor) -> None:
        self.tasks = tasks
        # Lobbies whose host's controls are being edited, and those to edit
        # once more when that edit is done: one edit at a time, drawn from the
        # table as it is then, however many changes came meanwhile.
        self._editing: set[PanelKey] = set()
        self._again: set[PanelKey] = set()
        # An edit on its way to Discord: drawn before, it may land after
        # a newer answer in place (``_track``).
        self._sending: set[PanelKey] = set()

    async def send(
        self,
        interaction: Interaction,
        table: Table,
        *,
        followup: bool = False,
        with_rules: bool = False,
        note: str | None = None,
    ) -> None:
        """Show the host their controls, in their language (the interaction's):
        as a follow-up of the answer that opened the lobby, or as the answer to
        their Rules or ``/rummy start``."""
        await table.lock.settled()
        layout = host_panel_layout(table, with_rules=with_rules, note=note)
        shows = table.changes
        if followup:
            message_id = await callbacks.send_followup(interaction, controls=layout, ephemeral=True)
        else:
            message_id = await callbacks.open_message(interaction, controls=layout, ephemeral=True)
        if message_id is None:
            # Sent late, after a deferral, as a follow-up whose id is unknown:
            # ``@original`` would be the message clicked, never to be drawn over.
            return
        # Tracked even if the lobby ended meanwhile: it is then told so at once.
        handle = InteractionHandle(interaction)
        panel = HostPanel(handle, time.time(), message_id, followup, shows, with_rules)
        self._track(table, panel)

    async def answer_in_place(self, interaction: Interaction, table: Table) -> None:
        """Answer a click on the host's controls by drawing them anew in the
        message clicked, which follows the lobby from now on."""
        message = interaction.message
        side = chat_side(table)
        tracked = side.host_panel
        same = tracked is not None and message is not None and tracked.message_id == message.id
        with_rules = tracked is not None and same and tracked.with_rules
        shows = table.changes
        await callbacks.update_message(
            interaction, controls=host_panel_layout(table, with_rules=with_rules)
        )
        if table.stage is not Stage.LOBBY:
            if same:
                side.host_panel = None  # it shows the lobby's end already
            if message is not None:
                # Answered first (a click must be, within 3 s), then deleted
                # with the click's fresh token, away from the table's lock.
                answered = HostPanel(InteractionHandle(interaction), time.time(), message.id)
                self.tasks.spawn(_delete(answered, _key(table)), "host-panel-delete")
            return
        handle = InteractionHandle(interaction)
        clicked = None if message is None else message.id
        self._track(table, HostPanel(handle, time.time(), clicked, False, shows, with_rules))

    def _track(self, table: Table, panel: HostPanel) -> None:
        """``panel`` is the host's latest controls: it follows the lobby."""
        key = _key(table)
        if key in self._sending:
            # That edit, drawn before, may land after this message was drawn:
            # one more edit, drawn after both.
            panel.shows = -1
            self._again.add(key)
        chat_side(table).host_panel = panel
        self.follow(table)

    def follow(self, table: Table) -> None:
        """After every saved change (and as a panel is sent): the host's latest
        controls are brought up to date soon, if they do not show the table."""
        panel = chat_side(table).host_panel
        if panel is None or panel.shows == table.changes:
            return
        key = _key(table)
        if key in self._editing:
            self._again.add(key)
            return
        self._editing.add(key)
        if self.tasks.spawn(self._refresh(table), "host-panel") is None:
            self._editing.discard(key)  # shutting down

    async def _refresh(self, table: Table) -> None:
        key = _key(table)
        try:
            again = True
            while again:
                self._again.discard(key)
                await self._edit(table)
                again = key in self._again
        finally:
            self._editing.discard(key)
            self._again.discard(key)

    async def _edit(self, table: Table) -> None:
        key = _key(table)
        # Drawn under the lock: an answer in place goes out under it, so what
        # is drawn here comes after every answer already given.
        side = chat_side(table)
        async with table.lock:
            panel = side.host_panel
            if panel is None or panel.shows == table.changes:
                return
            if time.time() - panel.opened_at > TOKEN_LIFETIME:
                side.host_panel = None  # a click on it brings it back
                return
            with speaking(host_language(table)):
                layout = host_panel_layout(table, with_rules=panel.with_rules)
            shows = table.changes
            over = table.stage is not Stage.LOBBY
            self._sending.add(key)
        try:
            if over and await _delete(panel, key):
                if side.host_panel is panel:
                    side.host_panel = None
                return
            if panel.followup and panel.message_id is not None:
                await panel.handle.edit_followup(panel.message_id, controls=layout)
            else:
                await panel.handle.edit_original_response(embed=None, controls=layout)
        except discord.HTTPException as error:
            # Dismissed, or its token has died early: Rules brings it back.
            log.info("the host's controls in channel %s stop following: %s", key[0], error)
            if side.host_panel is panel:
                side.host_panel = None
            return
        finally:
            self._sending.discard(key)
        if side.host_panel is panel:
            panel.shows = shows
            if table.stage is not Stage.LOBBY:
                side.host_panel = None  # the lobby is over: nothing more to follow


async def _delete(panel: HostPanel, key: PanelKey) -> bool:
    """Delete the host's controls through their token; whether they are gone."""
    handle = panel.handle
    if not isinstance(handle, InteractionHandle) or panel.message_id is None:
        return False
    if time.time() - panel.opened_at > TOKEN_LIFETIME:
        return False
    webhook = discord.Webhook.partial(handle.application_id, handle.token, session=handle.session)
    try:
        await webhook.delete_message(panel.message_id)
    except (discord.HTTPException, aiohttp.ClientError) as error:
        log.info("the host's controls in channel %s could not be deleted: %s", key[0], error)
        return False
    return True
