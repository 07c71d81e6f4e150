"""The bot's buttons and selects, laid out as each message's controls.

Controls are only what a message shows: its components written as Discord's
payload (``Controls``). Clicks are routed by custom id alone
(``chat.router``), so a click reaches its table whenever it arrives, before
discord.py would have stored a view and after a restart, and what it may do
is decided in the flows and the engine, never by the controls.

Why not discord.py's ``Button``/``Select`` items: building a hand message's
controls out of them, and discord.py rebuilding the clicked message's whole
view to find a dynamic item on every click, were a large share of the bot's
CPU at hundreds of clicks a second.
"""

from __future__ import annotations

from typing import Any

import discord

from presentation import actions
from presentation.i18n import _
from presentation.labels import (
    JOIN_LABEL,
    NEXT_HAND_LABEL,
    OPEN_TABLE_LABEL,
    REMATCH_LABEL,
    RULES_LABEL,
    SHOW_HAND_LABEL,
)
from tables import MAX_SEATS, MIN_SEATS, Stage, Table

Component = dict[str, Any]

PRIMARY = discord.ButtonStyle.primary
SECONDARY = discord.ButtonStyle.secondary
SUCCESS = discord.ButtonStyle.success
DANGER = discord.ButtonStyle.danger


class Controls(discord.ui.View):
    """Rows of components, sent as they are; discord.py keeps nothing of them.

    A ``discord.ui.View`` only because discord.py's message calls take one."""

    def __init__(self, *rows: list[Component]) -> None:
        super().__init__(timeout=None)
        self.rows = [row for row in rows if row]

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self.rows]

    # Nothing to listen for: the routing is by custom id, so discord.py must
    # not store this view (nor time it out) when it is sent.
    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False


def button(
    custom_id: str, label: str, style: discord.ButtonStyle = SECONDARY, *, disabled: bool = False
) -> Component:
    return {
        "type": 2,
        "custom_id": custom_id,
        "label": label,
        "style": style.value,
        "disabled": disabled,
    }


def select(
    custom_id: str,
    placeholder: str,
    options: list[Component],
    *,
    min_values: int = 1,
    max_values: int = 1,
) -> Component:
    return {
        "type": 3,
        "custom_id": custom_id,
        "placeholder": placeholder,
        "options": options,
        "min_values": min_values,
        "max_values": max_values,
    }


def option(label: str, value: str, *, default: bool = False) -> Component:
    return {"label": label, "value": value, "default": default}


# --- lobby ---------------------------------------------------------------------
def lobby_controls(table: Table) -> Controls:
    """What everyone may press on the public lobby; the host's own controls are
    in their own view (``host_controls``)."""
    ch = actions.table_scope(table.channel_id, table.game_id)
    full = len(table.seats) >= MAX_SEATS
    return Controls(
        [
            button(actions.JOIN.id(ch), _(JOIN_LABEL), PRIMARY, disabled=full),
            button(actions.LEAVE.id(ch), _("Leave")),
            button(actions.LOBBY_RULES.id(ch), _(RULES_LABEL)),
        ]
    )


def host_controls(table: Table) -> Controls:
    """The host's controls, in the view only the host sees. Start and Remove
    computer are greyed out while they could only be refused, as on the
    Activity's lobby; a click from an older message is still refused."""
    ch = actions.table_scope(table.channel_id, table.game_id)
    full = len(table.seats) >= MAX_SEATS
    too_few = len(table.seats) < MIN_SEATS
    no_computer = not any(seat.is_computer for seat in table.seats)
    return Controls(
        [
            button(actions.START.id(ch), _("Start"), SUCCESS, disabled=too_few),
            button(actions.CANCEL.id(ch), _("Cancel"), DANGER),
        ],
        [
            button(actions.ADD_COMPUTER.id(ch, "easy"), _("Add computer (easy)"), disabled=full),
            button(actions.ADD_COMPUTER.id(ch, "hard"), _("Add computer (hard)"), disabled=full),
            button(
                actions.ADD_COMPUTER.id(ch, "expert"), _("Add computer (expert)"), disabled=full
            ),
            button(actions.REMOVE_COMPUTER.id(ch), _("Remove computer"), disabled=no_computer),
        ],
    )


# --- public table --------------------------------------------------------------
def table_controls(table: Table, *, activity: bool = False) -> Controls | None:
    """The public table's buttons; ``activity``: with Open table, which opens the
    graphical table inside Discord (the same game)."""
    ch = actions.table_scope(table.channel_id, table.game_id)
    rules = button(actions.RULES.id(ch), _(RULES_LABEL))
    opening = [button(actions.OPEN_TABLE.id(ch), _(OPEN_TABLE_LABEL))] if activity else []
    if table.stage is Stage.PLAYING:
        return Controls(
            [button(actions.SHOW_HAND.id(ch), _(SHOW_HAND_LABEL), PRIMARY), *opening, rules]
        )
    if table.stage is Stage.HAND_OVER:
        next_hand = button(
            actions.NEXT_HAND.id(ch, table.hand_number), _(NEXT_HAND_LABEL), SUCCESS
        )
        return Controls([next_hand, *opening, rules])
    if table.stage is Stage.FINISHED and table.match is not None and table.match.is_over:
        return Controls([button(actions.REMATCH.id(ch), _(REMATCH_LABEL), SUCCESS)])
    return None


def share_controls(guild_id: int, user_id: int) -> Controls:
    """Share: what the asker saw alone, posted for the channel."""
    share = button(actions.SHARE_STATS.id(guild_id, user_id), _("Share in the channel"))
    return Controls([share])


def leaderboard_controls(guild_id: int, order: str, page: int, pages: int) -> Controls:
    """Previous and Next, where there is more than one page (an empty or a short
    board would show two buttons that lead nowhere)."""
    if pages <= 1:
        return Controls()
    page_id = actions.LEADERBOARD_PAGE.id
    return Controls(
        [
            button(page_id(guild_id, f"{order}.{page - 1}"), _("Previous"), disabled=page <= 1),
            button(page_id(guild_id, f"{order}.{page + 1}"), _("Next"), disabled=page >= pages),
        ]
    )
