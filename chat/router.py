"""Routes every click to its handler, by the action its custom id names.

Each action is declared once (``presentation.actions``); the flows bind a
handler to it (``Handlers``). The router does what every click needs: find
the table, check who may press it, wait for the table as the action says
(its lock, or only unsaved changes), answer a refusal privately with its
reason, and answer even a failure, once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

import discord

from engine import RummyError
from game.gate import GameEnded, admitted, host_only, seat_at
from presentation.actions import (
    ACTIONS,
    ComponentAction,
    ComponentId,
    Locking,
    Place,
    Who,
)
from presentation.explain import explain
from presentation.i18n import N_, _, current, label_on
from presentation.labels import SHOW_HAND_LABEL
from tables import NotSaved, Refusal, Seat, Table, TableRegistry
from transport import callbacks
from transport.events import clicked_on_its_message
from transport.private import Interaction

from .table_side import chat_side

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction past its 3 s
# A click not answered by then is deferred, so that Discord's 3 s are never missed.
DEFER_AFTER = 2.0
# Messages kept as constants are marked here and translated where they are shown.
UNRECOGNISED = N_("That control is not one I recognise.")
RESTARTING = N_("The bot is restarting; nothing was changed. Try again in a moment.")
WENT_WRONG = N_("Something went wrong on my side; nothing was changed.")
# The change was saved, and only its answer failed.
SHOWING_FAILED = N_(
    "That was done, but I could not show it to you: press **{show_hand}** on the table "
    "to see where things stand."
)
HAND_OF_EARLIER_GAME = N_("That was from an earlier game: here is your hand in this one.")
EARLIER_GAME = N_(
    "That button is from an earlier game in this channel: use the current game's table "
    "(Show hand opens your hand)."
)

# What a handler may hand back: an answer to send once the table's lock is let
# go, for clicks that change nothing and need not hold up the table.
AfterLock = Callable[[], Awaitable[None]]
TableHandler = Callable[[Interaction, Table, ComponentId, list[str]], Awaitable[AfterLock | None]]
ServerHandler = Callable[[Interaction, ComponentId], Awaitable[None]]
# Draws the clicked hand message anew with a note (a refusal, a notice).
InPlace = Callable[[Interaction, Table, str | None], Awaitable[None]]
# Told of every click once handled: its action, outcome (ok, refused, failed,
# late) and seconds taken. The bot's metrics.
Observer = Callable[[str, str, float], None]

# Whether the click being handled (this task) was refused.
_refused: ContextVar[bool] = ContextVar("refused", default=False)


@dataclass
class Handlers:
    """The flows' handler of each declared action: with a table, or server-wide."""

    at_table: dict[ComponentAction, TableHandler] = field(default_factory=dict)
    server_wide: dict[ComponentAction, ServerHandler] = field(default_factory=dict)
    # Refusals of hand-message controls are shown in the message clicked.
    hand_in_place: InPlace | None = None

    def unbound(self) -> list[str]:
        """Declared actions no handler is bound to (a test keeps this empty)."""
        bound = self.at_table.keys() | self.server_wide.keys()
        return [name for name, action in ACTIONS.items() if action not in bound]


def refusal_text(refusal: Exception) -> str:
    """Why an action was refused, in the current language: a flow's refusal is
    worded already, the engine's and the storage's are translated here."""
    if isinstance(refusal, RummyError):
        return explain(refusal)
    if isinstance(refusal, NotSaved):
        return _(str(refusal))  # tables.NOT_SAVED, marked where it is defined
    return str(refusal)


async def refuse(interaction: Interaction, text: str) -> None:
    """Tell the member privately why nothing happened (``text`` in their language)."""
    _refused.set(True)
    if callbacks.awaiting_answer(interaction):
        await callbacks.send_message(interaction, text, ephemeral=True)
    else:
        await interaction.followup.send(text, ephemeral=True)


def seat_of(interaction: Interaction, table: Table) -> Seat:
    """The clicking member's seat; a refusal if they have none."""
    return seat_at(table, interaction.user.id)


async def tell_closed_dms(interaction: Interaction, table: Table) -> None:
    """Tell a player once, privately, that their DMs are closed."""
    user_id = interaction.user.id
    side = chat_side(table)
    if user_id not in side.dm_closed or user_id in side.dm_closed_told:
        return
    side.dm_closed_told.add(user_id)
    await interaction.followup.send(
        _(
            "I couldn't send you a DM (your DMs are closed to this server). "
            "Press **{show_hand}** on the table whenever you want to see your cards.",
            show_hand=label_on(SHOW_HAND_LABEL, table.language),
        ),
        ephemeral=True,
    )


class ComponentRouter:
    """Answers every click on the bot's messages (see the module's docstring)."""

    def __init__(self, tables: TableRegistry, handlers: Handlers) -> None:
        self.tables = tables
        self.handlers = handlers
        self.observe: Observer | None = None

    async def route(self, interaction: Interaction, custom_id: str, values: list[str]) -> None:
        started = time.perf_counter()
        parsed = ComponentId.parse(custom_id)
        outcome = await self._answered(interaction, parsed, values)
        if self.observe is not None:
            action = parsed.action.name if parsed is not None else "unknown"
            self.observe(action, outcome, time.perf_counter() - started)

    async def _answered(
        self, interaction: Interaction, parsed: ComponentId | None, values: list[str]
    ) -> str:
        """Route the click, answering it whatever happens; how it went."""
        table = self.tables.get(parsed.scope) if parsed is not None else None
        changes_before = table.changes if table is not None else 0
        refused = _refused.set(False)
        try:
            with callbacks.deferred_when_slow(interaction, DEFER_AFTER):
                await self._route(interaction, parsed, table, values)
            return "refused" if _refused.get() else "ok"
        except Exception as error:
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
                # Answered after Discord's 3 s: the token is dead and a second
                # answer would fail the same way (on an overloaded bot, adding
                # a request and a traceback to every late click).
                log.warning("component %s was answered too late", parsed)
                return "late"
            log.exception("component %s failed", parsed)
            saved = table is not None and table.changes != changes_before
            if callbacks.awaiting_answer(interaction):
                said = (
                    _(SHOWING_FAILED, show_hand=label_on(SHOW_HAND_LABEL, table.language))
                    if saved and table is not None
                    else _(WENT_WRONG)
                )
                await refuse(interaction, said)
            return "failed"
        finally:
            _refused.reset(refused)

    async def _route(
        self,
        interaction: Interaction,
        parsed: ComponentId | None,
        table: Table | None,
        values: list[str],
    ) -> None:
        if parsed is None:
            await refuse(interaction, _(UNRECOGNISED))
            return
        if not clicked_on_its_message(interaction):
            await refuse(interaction, self._not_shown(interaction, parsed, table))
            return
        ephemeral = interaction.message is not None and interaction.message.flags.ephemeral
        if not parsed.action.place.shown_on(ephemeral):
            # A forged click: a table's button on a hand message, or the reverse.
            await refuse(interaction, _(UNRECOGNISED))
            return
        server_handler = self.handlers.server_wide.get(parsed.action)
        if server_handler is not None:
            if parsed.action.place is Place.LEADERBOARD and self._is_table_message(interaction):
                await refuse(interaction, _(UNRECOGNISED))
                return
            await server_handler(interaction, parsed)
            return
        if table is None or parsed.scope != interaction.channel_id:
            await refuse(
                interaction,
                _("There is no game running here any more. `/rummy start` opens a new one."),
            )
            return
        if parsed.game != table.game_id:
            if parsed.action.place is Place.HAND and table.seat_of_user(interaction.user.id):
                # A seated player's hand message from an earlier game heals
                # into this game's hand.
                await self._answer_refusal(interaction, table, parsed.action,
                                          _(HAND_OF_EARLIER_GAME))
            else:
                await refuse(interaction, _(EARLIER_GAME))
            return
        handler = self.handlers.at_table.get(parsed.action)
        if handler is None:
            await refuse(interaction, _(UNRECOGNISED))
            return
        after_lock = None
        if parsed.action.locking is Locking.GROUP:
            # The handler gathers the clicks that arrive together and locks for them.
            await handler(interaction, table, parsed, values)
        else:
            try:
                async with admitted(self.tables, table, interaction.user.id, parsed.action):
                    after_lock = await self._handle(interaction, table, parsed, values, handler)
            except GameEnded as ended:
                await refuse(interaction, str(ended))
                return
            except Refusal as refusal:  # the gate's: not the asker's to press
                await self._answer_refusal(interaction, table, parsed.action, str(refusal))
                return
        if after_lock is not None:
            await after_lock()
        # A follow-up message, so after the answer; it needs no lock.
        await tell_closed_dms(interaction, table)

    async def _handle(
        self,
        interaction: Interaction,
        table: Table,
        parsed: ComponentId,
        values: list[str],
        handler: TableHandler,
    ) -> AfterLock | None:
        """Run a click the gate let in, answering its refusal; what to send after
        the lock."""
        seat = table.seat_of_user(interaction.user.id)
        if seat is not None:
            # Looking at your hand counts as being there, not only moving.
            table.last_seen = table.seen_at[seat.key] = time.time()
            # What they read the bot in follows their latest click (DMs too).
            seat.language = current().code
        try:
            return await handler(interaction, table, parsed, values)
        except (Refusal, RummyError) as refusal:
            await self._answer_refusal(interaction, table, parsed.action, refusal_text(refusal))
        return None

    async def _answer_refusal(
        self, interaction: Interaction, table: Table, action: ComponentAction, text: str
    ) -> None:
        _refused.set(True)
        in_place = self.handlers.hand_in_place
        seated = table.seat_of_user(interaction.user.id) is not None
        if (
            in_place is not None
            and action.place is Place.HAND
            and seated
            and callbacks.awaiting_answer(interaction)
        ):
            await in_place(interaction, table, f"⚠️ {text}")
        else:
            await refuse(interaction, text)

    @staticmethod
    def _not_shown(interaction: Interaction, parsed: ComponentId, table: Table | None) -> str:
        """Why a click on a control its message does not show is refused. The
        host's controls are in the host's own view: anyone else who sends one
        (a client showing an old lobby, or a forged click) is told who may."""
        if (
            parsed.action.who is Who.HOST
            and table is not None
            and parsed.scope == interaction.channel_id
            and interaction.user.id != table.host_id
        ):
            return host_only(table, parsed.action)
        return _(UNRECOGNISED)

    def _is_table_message(self, interaction: Interaction) -> bool:
        table = self.tables.get(interaction.channel_id or 0)
        message = interaction.message
        return (
            table is not None and message is not None
            and message.id == chat_side(table).message_id
        )
