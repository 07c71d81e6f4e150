"""The bot's buttons and selects, and the views that lay them out.

A view here is only what a message shows: its components written as Discord's
payload (``Controls``). Clicks are routed by custom id alone
(``RummyCog.route_component`` in ``cogs/rummy.py``), so a click reaches its
table whenever it arrives, before discord.py would have stored a view and
after a restart, and what it may do is decided in the game service and the
engine, never by the view.

Why not discord.py's ``Button``/``Select`` items: building one hand view out of
them cost about half a millisecond, and discord.py rebuilt the clicked
message's whole view again to find a dynamic item, on every click. At hundreds
of clicks a second those two were a third of the bot's CPU.
"""

from __future__ import annotations

from typing import Any

import discord

from engine import Card, DrawStock, HandView, Phase, TakeDiscard

from .ids import cid
from .table import MAX_SEATS, Stage, Table

Component = dict[str, Any]

PRIMARY = discord.ButtonStyle.primary
SECONDARY = discord.ButtonStyle.secondary
SUCCESS = discord.ButtonStyle.success
DANGER = discord.ButtonStyle.danger


class Controls(discord.ui.View):
    """Rows of components, sent as they are; discord.py keeps nothing of them."""

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
def lobby_view(table: Table, *, computers: bool = True) -> Controls:
    ch = table.channel_id
    full = len(table.seats) >= MAX_SEATS
    players = [
        button(cid("join", ch), "Join", PRIMARY, disabled=full),
        button(cid("leave", ch), "Leave"),
        button(cid("start", ch), "Start", SUCCESS),
        button(cid("cancel", ch), "Cancel", DANGER),
    ]
    if not computers:
        return Controls(players)
    return Controls(
        players,
        [
            button(cid("addcpu", ch, "easy"), "Add computer (easy)", disabled=full),
            button(cid("addcpu", ch, "hard"), "Add computer (hard)", disabled=full),
            button(cid("dropcpu", ch), "Remove computer"),
        ],
    )


# --- public table --------------------------------------------------------------
def table_view(table: Table) -> Controls | None:
    ch = table.channel_id
    if table.stage is Stage.PLAYING:
        return Controls(
            [button(cid("hand", ch), "Show hand", PRIMARY), button(cid("rules", ch), "Rules")]
        )
    if table.stage is Stage.HAND_OVER:
        return Controls(
            [
                button(cid("next", ch, table.hand_number), "Next hand", SUCCESS),
                button(cid("rules", ch), "Rules"),
            ]
        )
    return None


# --- the private hand view -------------------------------------------------------
def hand_view(
    table: Table, key: str, cards: list[Card], view: HandView | None = None
) -> Controls:
    """The controls of one player's hand; buttons that cannot apply now are disabled.

    ``view`` is the player's ``HandView`` when the caller has it already.
    """
    match = table.match
    assert match is not None
    ch, hand_no = table.channel_id, table.hand_number
    view = view or match.hand.view_for(key)
    selected = set(table.selections.get(key, []))
    my_turn = view.turn == key
    playing = my_turn and view.phase is Phase.PLAY
    card_row: list[Component] = []
    if cards:
        options = [option(c.display, c.code, default=c.code in selected) for c in cards[:25]]
        card_row.append(
            select(
                cid("cards", ch, hand_no),
                "Select cards",
                options,
                min_values=0,
                max_values=len(options),
            )
        )
    legal = set(view.legal)
    n = len(selected)
    moves = [
        button(cid("draw", ch, hand_no), "Draw from stock", PRIMARY,
               disabled=DrawStock() not in legal),
        button(cid("take", ch, hand_no), "Take discard", PRIMARY,
               disabled=TakeDiscard() not in legal),
        button(cid("meld", ch, hand_no), "Meld", SUCCESS, disabled=not (playing and n >= 3)),
        button(cid("layoff", ch, hand_no), "Lay off", SUCCESS,
               disabled=not (playing and n >= 1 and bool(view.melds))),
        button(cid("discard", ch, hand_no), "Discard", DANGER,
               disabled=not (playing and n == 1)),
    ]
    sort_label = "Sort by suit" if table.sort_modes.get(key, "rank") == "rank" else "Sort by rank"
    tools = [
        button(cid("sort", ch, hand_no), sort_label),
        button(cid("refresh", ch, hand_no), "Refresh"),
    ]
    if table.seat(key).autopilot:
        tools.append(button(cid("reclaim", ch), "Take my seat back", SUCCESS))
    return Controls(card_row, moves, tools)


def lay_off_choice_view(table: Table, meld_numbers: list[int]) -> Controls:
    ch, hand_no = table.channel_id, table.hand_number
    options = [option(f"Meld {i + 1}", str(i)) for i in meld_numbers[:25]]
    return Controls(
        [select(cid("onto", ch, hand_no), "Lay off onto which meld?", options)],
        [button(cid("refresh", ch, hand_no), "Back")],
    )


def leaderboard_view(guild_id: int, order: str, page: int, pages: int) -> Controls:
    return Controls(
        [
            button(cid("lb", guild_id, f"{order}.{page - 1}"), "Previous", disabled=page <= 1),
            button(cid("lb", guild_id, f"{order}.{page + 1}"), "Next", disabled=page >= pages),
        ]
    )
