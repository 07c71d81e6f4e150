"""The lobby: `/rummy start`, then Join, Leave and Rules for everyone, and the
host's own controls (``chat.host_panel``): Add/Remove computer, Start, Cancel."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import aiohttp
import discord

from chat.messages.table_layout import (
    cancelled_layout,
    lobby_layout,
    playing_layout,
    public_layout,
)
from engine import HouseRules
from game.config import GameConfig
from game.gate import JUST_ENDED
from game.lobby_seats import ALREADY_STARTED, HOST_CANCELLED, LobbySeats
from game.seat_moves import Ask, Done
from presentation import actions
from presentation.actions import ComponentId
from presentation.card_emoji import CardFaces
from presentation.i18n import N_, _, current, n_, speaking
from presentation.render import rules_text
from tables import NotSaved, Refusal, Stage, Table, TableWork
from tables.names import plain_name
from transport import callbacks
from transport.private import Interaction

from .activity_lobby import NOT_IN_BOT_DM, ActivityLobby
from .dms import Notifier
from .follow_ups import CHAT
from .host_panel import HostPanels
from .places import place_of
from .router import Handlers, refusal_text, refuse
from .table_refresher import TableRefresher
from .table_side import chat_side

log = logging.getLogger(__name__)


# What the public table needs: a game started without them would break at
# the first edit or at the next hand (interaction answers need none of them).
# Named as Discord's settings name them (in the member's language there too).
NEEDED_PERMISSIONS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "read_message_history": N_("Read Message History"),
}


def missing_permissions(granted: discord.Permissions) -> list[str]:
    return [label for flag, label in NEEDED_PERMISSIONS.items() if not getattr(granted, flag)]


def member_name(user: discord.abc.User) -> str:
    """A member's name as their seat keeps it (``tables.names``)."""
    return plain_name(getattr(user, "display_name", None) or user.name)


def table_link(table: Table) -> str:
    """A link to the table's message (to its channel until it has one)."""
    message_id = chat_side(table).message_id
    if message_id is None:
        return f"<#{table.channel_id}>"
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message_id}"


@dataclass(eq=False)
class WaitingJoin:
    """A Join click waiting for its table's lock, maybe in another click's group."""

    interaction: Interaction
    # The language its member reads the bot in: the group is answered by one
    # task, and each answer (and each seat) must still be in its own member's.
    language: str
    # Settled by the click that takes the lock for the group: a result once
    # this click is answered, or the error its own handler should raise.
    settled: asyncio.Future[None]


class Lobby:
    """Opens lobbies and answers their buttons."""

    def __init__(
        self,
        config: GameConfig,
        work: TableWork,
        lobby_seats: LobbySeats,
        notifier: Notifier,
        faces: CardFaces,
        refresher: TableRefresher,
        panels: HostPanels,
    ) -> None:
        self.faces = faces
        self.refresher = refresher
        self.panels = panels
        self.config = config
        self.work = work
        self.tables = work.tables
        self.lobby_seats = lobby_seats
        self.notifier = notifier
        self.activity_lobby = ActivityLobby(config, lobby_seats, work.tables)
        # Per channel: the Join clicks waiting for the table's lock together.
        self._joining: dict[int, list[WaitingJoin]] = {}

    def bind(self, handlers: Handlers) -> None:
        handlers.server_wide[actions.REMATCH] = self.rematch
        handlers.at_table.update(
            {
                actions.JOIN: self.join,
                actions.LEAVE: self.leave,
                actions.LOBBY_RULES: self.rules,
                actions.ADD_COMPUTER: self.add_computer,
                actions.REMOVE_COMPUTER: self.remove_computer,
                actions.START: self.start,
                actions.CANCEL: self.cancel,
            }
        )

    # --- /rummy start ------------------------------------------------------------------
    async def open(
        self,
        interaction: Interaction,
        rules: HouseRules,
        language: str,
        *,
        chose_rules: bool = False,
    ) -> None:
        """Open a lobby in the interaction's channel, with its caller as host; its
        public messages in ``language``. ``chose_rules``: some of ``rules`` were
        given as the command's options."""
        place = place_of(interaction)
        if place is None:
            await refuse(interaction, _(NOT_IN_BOT_DM))
            return
        if place.activity_only:
            await self.activity_lobby.open(interaction, place, rules, language,
                                           member_name(interaction.user))
            return
        if not await self._channel_is_free(interaction, rules if chose_rules else None):
            return
        assert interaction.channel_id is not None
        ask = Ask(interaction.user.id, CHAT, table_labels=True,
                  name=member_name(interaction.user))
        table = self.lobby_seats.new_lobby(place, ask, rules, language)
        await self._post_lobby(interaction, table)

    async def rematch(self, interaction: Interaction, parsed: ComponentId) -> None:
        """The finished match's players play again: same rules, same computers. The
        one who asks is seated as host; each other player joins with one click, and
        the game starts by itself once they all have."""
        ended = self.tables.ended(parsed.scope)
        ask = Ask(interaction.user.id, CHAT, table_labels=True,
                  name=member_name(interaction.user))
        try:
            self.lobby_seats.check_rematch(ended, ask, game=parsed.game)
            if not await self._channel_is_free(interaction):
                return
            table = self.lobby_seats.rematch(ended, ask, game=parsed.game)
        except Refusal as refusal:
            await refuse(interaction, str(refusal))
            return
        await self._post_lobby(interaction, table)

    async def _channel_is_free(
        self, interaction: Interaction, rules: HouseRules | None = None
    ) -> bool:
        """Whether a game may open here; if not, the member is told why, and the
        host of the lobby open here is given their controls (again). ``rules``:
        those the member chose for the game they meant to open."""
        existing = self.tables.get(interaction.channel_id or 0)
        if (
            existing is not None
            and existing.stage is Stage.LOBBY
            and existing.host_id == interaction.user.id
        ):
            note = None
            if rules is not None and rules != existing.rules:
                note = _(
                    "This lobby keeps the house rules it opened with. To change them, "
                    "press **Cancel**, then `/rummy start` again."
                )
            await self.panels.send(interaction, existing, note=note)
            return False
        if existing is not None:
            await refuse(
                interaction,
                _(
                    "A game is already open in this channel: {link}. "
                    "Join it, or wait for it to end.",
                    link=table_link(existing),
                ),
            )
            return False
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            await refuse(
                interaction,
                n_(
                    "I can't run a game in this channel: I need the {permissions} permission "
                    "here. Ask a server admin to grant it, then try again.",
                    "I can't run a game in this channel: I need the {permissions} permissions "
                    "here. Ask a server admin to grant them, then try again.",
                    len(missing),
                    permissions=", ".join(_(label) for label in missing),
                ),
            )
            return False
        return True

    async def _post_lobby(self, interaction: Interaction, table: Table) -> None:
        dealt = table.stage is Stage.PLAYING  # a rematch with nobody to wait for
        async with table.lock:
            # Put into play and posted under the lock: a Join can come as soon
            # as the message exists, before the reply that says its id is read,
            # and a rematch dealt at once has its first computer's move on its
            # way once in play; either would find no message to show it in.
            try:
                await self.work.open(table)
            except NotSaved as refusal:
                await refuse(interaction, refusal_text(refusal))
                return
            with speaking(table.language):
                layout = (playing_layout(table, self.faces, activity=self.config.activity)
                          if dealt else lobby_layout(table))
            chat_side(table).message_id = await callbacks.open_message(interaction, controls=layout)
        if dealt:
            self.notifier.dealt(table)
        else:
            try:
                await self.panels.send(interaction, table, followup=True)
            except (discord.HTTPException, aiohttp.ClientError):
                # The lobby is open all the same: Rules gives the host their controls.
                log.warning("could not send the host's controls in channel %s",
                            table.channel_id)
        # Saved outside the lock, so the first Joins need not wait for the
        # disk; with the host's controls, so they follow the lobby after a
        # restart. A Join saved after it carries both too (the later save wins).
        await self.work.record_message(table)

    # --- guards ------------------------------------------------------------------------
    @staticmethod
    def _on_panel(interaction: Interaction) -> bool:
        """Whether the click came from the host's own controls, not the public lobby."""
        message = interaction.message
        return message is not None and message.flags.ephemeral

    async def _panel_left_over(self, interaction: Interaction, table: Table) -> bool:
        """Whether the click was on host's controls the lobby's end could not
        take away (their token had died): they are answered in place, saying
        the lobby is over, and deleted with this click's token."""
        if table.stage is Stage.LOBBY or not self._on_panel(interaction):
            return False
        await self.panels.answer_in_place(interaction, table)
        return True

    def _require_lobby(self, interaction: Interaction, table: Table) -> None:
        if table.stage is not Stage.LOBBY:
            raise Refusal(_(ALREADY_STARTED))
        if self._on_panel(interaction):
            return  # the host's controls: any of them, of this game (its id says)
        message = interaction.message
        side = chat_side(table)
        if message is not None and side.message_id is None:
            # Its id was lost to a failed save or a crash. Inside a Join's
            # change: undone with it (``table_side.undo_point``).
            side.message_id = message.id
        if message is not None and message.id != side.message_id:
            raise Refusal(_("That button is on an old message: use the current lobby."))

    async def _show_lobby(self, interaction: Interaction, table: Table) -> None:
        with speaking(table.language):  # the public lobby
            layout = lobby_layout(table)
        await callbacks.update_message(interaction, controls=layout)
        self._after_public_answer(table)

    def _after_public_answer(self, table: Table) -> None:
        """An edit of the public lobby already on its way (the host's controls
        changed it) may land after this answer: one more, of the table as it is."""
        if self.refresher.editing(table):
            self.refresher.request(table)

    async def _answer_host(self, interaction: Interaction, table: Table) -> None:
        """Answer a host's control in the message it was on: their own controls
        (the public lobby follows through the refresher), or a public lobby
        drawn before they had them."""
        if self._on_panel(interaction):
            await self.panels.answer_in_place(interaction, table)
            return
        with speaking(table.language):  # the public table
            layout = public_layout(table, self.faces, activity=self.config.activity)
        await callbacks.update_message(interaction, controls=layout)
        self._after_public_answer(table)

    async def rules(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        """The rules of the game; for the host, with their controls."""
        if table.stage is Stage.LOBBY and interaction.user.id == table.host_id:
            await self.panels.send(interaction, table, with_rules=True)
            return
        await callbacks.send_message(interaction, rules_text(table.rules), ephemeral=True)

    # --- Join, gathered --------------------------------------------------------------------
    def _seat_joiner(self, interaction: Interaction, table: Table) -> None:
        self._require_lobby(interaction, table)
        ask = Ask(interaction.user.id, CHAT, table_labels=True,
                  name=member_name(interaction.user))
        self.lobby_seats.take_seat(table, ask)

    async def join(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        """Join ``table`` together with whoever else is joining it at this moment.

        A lobby fills in a burst when a game is called, and every Join saves the
        table and answers under its lock: the third of three simultaneous joins
        waited for two saves and two answers before its own. Joins that arrive
        while one waits for the lock go with it instead, one save for all and
        their answers sent at once. Those answers all show the same lobby, so
        the order they land in does not matter, and the next group waits for
        the lock, as a single Join does.
        """
        me = WaitingJoin(interaction, current().code, asyncio.get_running_loop().create_future())
        group = self._joining.get(table.channel_id)
        if group is not None:
            group.append(me)
            await me.settled
            return
        group = self._joining[table.channel_id] = [me]
        outcomes: list[BaseException | None] = []
        try:
            async with table.lock:
                # Joins sent in the same instant are already on their way in:
                # one turn of the event loop lets them into this group.
                await asyncio.sleep(0)
                del self._joining[table.channel_id]
                outcomes = await self._join_group(table, group)
        except BaseException as failure:
            if self._joining.get(table.channel_id) is group:
                del self._joining[table.channel_id]  # it never got the lock
            # Every click of the group fails as this one does: its handler
            # answers "something went wrong", or it is cancelled at shutdown.
            outcomes = [failure] * len(group)
            raise
        finally:
            for other, outcome in zip(group[1:], outcomes[1:], strict=True):
                if other.settled.done():  # its own task was cancelled meanwhile
                    continue
                if outcome is None:
                    other.settled.set_result(None)
                elif isinstance(outcome, asyncio.CancelledError):
                    other.settled.cancel()
                else:
                    other.settled.set_exception(outcome)
        if outcomes[0] is not None:
            raise outcomes[0]

    async def _join_group(
        self, table: Table, group: list[WaitingJoin]
    ) -> list[BaseException | None]:
        """Seat, save and answer a group of joins; what each click's answer raised."""
        refused: dict[WaitingJoin, str] = {}
        dealt = False
        if self.tables.get(table.channel_id) is not table:
            for entry in group:
                with speaking(entry.language):
                    refused[entry] = _(JUST_ENDED)
        try:
            async with self.work.change(table, refresh=False) as change:
                for entry in group:
                    if entry in refused:
                        continue
                    with speaking(entry.language):
                        try:
                            self._seat_joiner(entry.interaction, table)
                        except Refusal as refusal:
                            refused[entry] = str(refusal)
                if len(refused) < len(group):
                    dealt = self.lobby_seats.deal_if_all_back(table)
                    await change.save()
        except NotSaved as not_saved:
            dealt = False
            for entry in group:
                if entry not in refused:
                    with speaking(entry.language):
                        refused[entry] = refusal_text(not_saved)
        with speaking(table.language):  # the public table
            layout = (
                playing_layout(table, self.faces, activity=self.config.activity)
                if dealt
                else lobby_layout(table)
            )
        if dealt:
            self.notifier.dealt(table)
        answers = [
            refuse(entry.interaction, refused[entry])
            if entry in refused
            else callbacks.update_message(entry.interaction, controls=layout)
            for entry in group
        ]
        results = await asyncio.gather(*answers, return_exceptions=True)
        self._after_public_answer(table)
        return [result if isinstance(result, BaseException) else None for result in results]

    # --- the other lobby buttons --------------------------------------------------------------
    async def leave(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        self._require_lobby(interaction, table)

        async def show_lobby(_done: Done) -> None:
            await self._show_lobby(interaction, table)

        await self.lobby_seats.leave(table, Ask(interaction.user.id, CHAT, table_labels=True,
                                                answer=show_lobby))

    def _host_ask(self, interaction: Interaction, table: Table) -> Ask:
        """A host's control as the shared flow reads it: answered in the message it
        was on (their own controls, or a public lobby drawn before they had them)."""
        async def answer(_done: Done) -> None:
            await self._answer_host(interaction, table)

        return Ask(interaction.user.id, CHAT, table_labels=True, answer=answer,
                   redraws_table=not self._on_panel(interaction))

    async def add_computer(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        if await self._panel_left_over(interaction, table):
            return
        self._require_lobby(interaction, table)
        await self.lobby_seats.add_computer(table, self._host_ask(interaction, table), parsed.arg)

    async def remove_computer(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        if await self._panel_left_over(interaction, table):
            return
        self._require_lobby(interaction, table)
        await self.lobby_seats.remove_computer(table, self._host_ask(interaction, table))

    async def start(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        if await self._panel_left_over(interaction, table):
            return
        self._require_lobby(interaction, table)
        await self.lobby_seats.start(table, self._host_ask(interaction, table),
                                     interaction.created_at.timestamp())

    async def cancel(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        if await self._panel_left_over(interaction, table):
            return
        self._require_lobby(interaction, table)
        on_panel = self._on_panel(interaction)

        async def answer(done: Done) -> None:
            if on_panel:
                await self.panels.answer_in_place(interaction, table)
                return
            with speaking(table.language):  # the public table
                cancelled = cancelled_layout(_(HOST_CANCELLED))
            await callbacks.update_message(interaction, controls=cancelled)
            if self.refresher.editing(table):
                self.refresher.replace(table, cancelled)  # see _after_public_answer

        await self.lobby_seats.cancel(table, Ask(interaction.user.id, CHAT, table_labels=True,
                                                 answer=answer,
                                                 redraws_table=not on_panel))

