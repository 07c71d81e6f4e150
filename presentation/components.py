"""The bot's buttons and selects, laid out as each message's controls.

Controls are only what a message shows: its components written as Discord's
payload (``Controls``). Clicks are routed by custom id alone
(``flows.router``), so a click reaches its table whenever it arrives, before
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

from engine import Card, DrawStock, HandView, Phase, TakeDiscard
from tables import MAX_SEATS, Stage, Table

from . import actions

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
def lobby_controls(table: Table, *, computers: bool = True) -> Controls:
    ch = actions.table_scope(table.channel_id, table.game_id)
    full = len(table.seats) >= MAX_SEATS
    players = [
        button(actions.JOIN.id(ch), "Join", PRIMARY, disabled=full),
        button(actions.LEAVE.id(ch), "Leave"),
        button(actions.START.id(ch), "Start", SUCCESS),
        button(actions.CANCEL.id(ch), "Cancel", DANGER),
    ]
    if not computers:
        return Controls(players)
    return Controls(
        players,
        [
            button(actions.ADD_COMPUTER.id(ch, "easy"), "Add computer (easy)", disabled=full),
            button(actions.ADD_COMPUTER.id(ch, "hard"), "Add computer (hard)", disabled=full),
            button(actions.REMOVE_COMPUTER.id(ch), "Remove computer"),
        ],
    )


# --- public table --------------------------------------------------------------
def table_controls(table: Table) -> Controls | None:
    ch = actions.table_scope(table.channel_id, table.game_id)
    if table.stage is Stage.PLAYING:
        return Controls(
            [
                button(actions.SHOW_HAND.id(ch), "Show hand", PRIMARY),
                button(actions.RULES.id(ch), "Rules"),
            ]
        )
    if table.stage is Stage.HAND_OVER:
        return Controls(
            [
                button(actions.NEXT_HAND.id(ch, table.hand_number), "Next hand", SUCCESS),
                button(actions.RULES.id(ch), "Rules"),
            ]
        )
    return None


# --- the private hand message -------------------------------------------------------
def hand_controls(
    table: Table, key: str, cards: list[Card], view: HandView | None = None
) -> Controls:
    """The controls of one player's hand message; buttons that cannot apply now
    are disabled. ``view`` is the player's ``HandView`` when the caller has it."""
    match = table.match
    assert match is not None
    ch = actions.table_scope(table.channel_id, table.game_id)
    hand_no = table.hand_number
    view = view or match.hand.view_for(key)
    selected = set(table.selections.get(key, []))
    my_turn = view.turn == key
    playing = my_turn and view.phase is Phase.PLAY
    card_row: list[Component] = []
    if cards:
        options = [option(c.display, c.code, default=c.code in selected) for c in cards[:25]]
        card_row.append(
            select(
                actions.SELECT_CARDS.id(ch, hand_no),
                "Select cards",
                options,
                min_values=0,
                max_values=len(options),
            )
        )
    legal = set(view.legal)
    n = len(selected)
    moves = [
        button(actions.DRAW.id(ch, hand_no), "Draw from stock", PRIMARY,
               disabled=DrawStock() not in legal),
        button(actions.TAKE.id(ch, hand_no), "Take discard", PRIMARY,
               disabled=TakeDiscard() not in legal),
        button(actions.MELD.id(ch, hand_no), "Meld", SUCCESS, disabled=not (playing and n >= 3)),
        button(actions.LAY_OFF.id(ch, hand_no), "Lay off", SUCCESS,
               disabled=not (playing and n >= 1 and bool(view.melds))),
        button(actions.DISCARD.id(ch, hand_no), "Discard", DANGER,
               disabled=not (playing and n == 1)),
    ]
    sort_label = "Sort by suit" if table.sort_modes.get(key, "rank") == "rank" else "Sort by rank"
    tools = [
        button(actions.SORT.id(ch, hand_no), sort_label),
        button(actions.REFRESH.id(ch, hand_no), "Refresh"),
    ]
    if table.seat(key).autopilot:
        tools.append(button(actions.RECLAIM.id(ch), "Take my seat back", SUCCESS))
    return Controls(card_row, moves, tools)


def lay_off_choice_controls(table: Table, meld_numbers: list[int]) -> Controls:
    ch = actions.table_scope(table.channel_id, table.game_id)
    hand_no = table.hand_number
    options = [option(f"Meld {i + 1}", str(i)) for i in meld_numbers[:25]]
    return Controls(
        [select(actions.LAY_OFF_ONTO.id(ch, hand_no), "Lay off onto which meld?", options)],
        [button(actions.REFRESH.id(ch, hand_no), "Back")],
    )


def leaderboard_controls(guild_id: int, order: str, page: int, pages: int) -> Controls:
    page_id = actions.LEADERBOARD_PAGE.id
    return Controls(
        [
            button(page_id(guild_id, f"{order}.{page - 1}"), "Previous", disabled=page <= 1),
            button(page_id(guild_id, f"{order}.{page + 1}"), "Next", disabled=page >= pages),
        ]
    )
