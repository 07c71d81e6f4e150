"""The bot's buttons and selects, and the views that lay them out.

Every control is a ``DynamicItem``: a click is routed by its custom id alone,
so it reaches its table whenever it arrives (before discord.py has stored the
view, and after a restart). The callbacks only hand the click to the game
service; what a click may do is decided there and in the engine.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from engine import Card, DrawStock, Phase, TakeDiscard

from .ids import PREFIX, ComponentId, cid
from .table import MAX_SEATS, Stage, Table

if TYPE_CHECKING:
    from .game import GameService

SELECT_ACTIONS = ("cards", "onto", "level")
_SELECT_ALT = "|".join(SELECT_ACTIONS)
BUTTON_TEMPLATE = re.compile(
    rf"{PREFIX}:(?!(?:{_SELECT_ALT}):)[a-z_]+:[0-9]{{1,20}}(?::[A-Za-z0-9_.-]{{1,40}})?"
)
SELECT_TEMPLATE = re.compile(
    rf"{PREFIX}:(?:{_SELECT_ALT}):[0-9]{{1,20}}(?::[A-Za-z0-9_.-]{{1,40}})?"
)


class _HasGame(Protocol):
    game: GameService


def _game(interaction: discord.Interaction[Any]) -> GameService:
    client: _HasGame = interaction.client
    return client.game


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(
        self,
        custom_id: str,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        return cls(match.group(0), item.label or "", style=item.style, disabled=item.disabled)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        parsed = ComponentId.parse(self.custom_id)
        await _game(interaction).on_component(interaction, parsed, [])
        release(self.view)  # the view discord.py rebuilt from the message to find us


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(
        self,
        custom_id: str,
        *,
        placeholder: str,
        options: list[discord.SelectOption],
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                placeholder=placeholder,
                options=options,
                min_values=min_values,
                max_values=max_values,
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(
            match.group(0),
            placeholder=item.placeholder or "",
            options=list(item.options) or [discord.SelectOption(label="-")],
            min_values=item.min_values,
            max_values=item.max_values,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        parsed = ComponentId.parse(self.custom_id)
        await _game(interaction).on_component(interaction, parsed, list(self.item.values))
        release(self.view)  # the view discord.py rebuilt from the message to find us


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, GameSelect)


def release(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Break the view <-> item reference cycles once a view has been sent.

    A view and its items point at each other, so a spent view waited for the
    cyclic garbage collector; at hundreds of clicks a second its full passes
    took a quarter of the bot's CPU and held garbage in memory. A view of
    dynamic items only is never kept by discord.py, so nothing still uses it.
    """
    if view is not None and all(isinstance(i, discord.ui.DynamicItem) for i in view.children):
        view.clear_items()


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# --- lobby ---------------------------------------------------------------------
def lobby_view(table: Table, *, computers: bool = True) -> discord.ui.View:
    ch = table.channel_id
    full = len(table.seats) >= MAX_SEATS
    items: list[discord.ui.Item[Any]] = [
        GameButton(
            cid("join", ch), "Join", style=discord.ButtonStyle.primary, disabled=full, row=0
        ),
        GameButton(cid("leave", ch), "Leave", row=0),
        GameButton(cid("start", ch), "Start", style=discord.ButtonStyle.success, row=0),
        GameButton(cid("cancel", ch), "Cancel", style=discord.ButtonStyle.danger, row=0),
    ]
    if computers:
        items += [
            GameButton(cid("addcpu", ch, "easy"), "Add computer (easy)", disabled=full, row=1),
            GameButton(cid("addcpu", ch, "hard"), "Add computer (hard)", disabled=full, row=1),
            GameButton(cid("dropcpu", ch), "Remove computer", row=1),
        ]
    return _view(*items)


# --- public table --------------------------------------------------------------
def table_view(table: Table) -> discord.ui.View | None:
    ch = table.channel_id
    if table.stage is Stage.PLAYING:
        return _view(
            GameButton(cid("hand", ch), "Show hand", style=discord.ButtonStyle.primary),
            GameButton(cid("rules", ch), "Rules"),
        )
    if table.stage is Stage.HAND_OVER:
        return _view(
            GameButton(
                cid("next", ch, table.hand_number), "Next hand", style=discord.ButtonStyle.success
            ),
            GameButton(cid("rules", ch), "Rules"),
        )
    return None


# --- the private hand view -------------------------------------------------------
def hand_view(table: Table, key: str, cards: list[Card]) -> discord.ui.View:
    """The controls of one player's hand; buttons that cannot apply now are disabled."""
    match = table.match
    assert match is not None
    ch, hand_no = table.channel_id, table.hand_number
    view = match.hand.view_for(key)
    selected = set(table.selections.get(key, []))
    my_turn = view.turn == key
    playing = my_turn and view.phase is Phase.PLAY
    items: list[discord.ui.Item[Any]] = []
    if cards:
        options = [
            discord.SelectOption(label=c.display, value=str(c), default=str(c) in selected)
            for c in cards[:25]
        ]
        items.append(
            GameSelect(
                cid("cards", ch, hand_no),
                placeholder="Select cards",
                options=options,
                min_values=0,
                max_values=len(options),
                row=0,
            )
        )
    legal = set(view.legal)
    n = len(selected)
    items += [
        GameButton(
            cid("draw", ch, hand_no),
            "Draw from stock",
            style=discord.ButtonStyle.primary,
            disabled=DrawStock() not in legal,
            row=1,
        ),
        GameButton(
            cid("take", ch, hand_no),
            "Take discard",
            style=discord.ButtonStyle.primary,
            disabled=TakeDiscard() not in legal,
            row=1,
        ),
        GameButton(
            cid("meld", ch, hand_no),
            "Meld",
            style=discord.ButtonStyle.success,
            disabled=not (playing and n >= 3),
            row=1,
        ),
        GameButton(
            cid("layoff", ch, hand_no),
            "Lay off",
            style=discord.ButtonStyle.success,
            disabled=not (playing and n >= 1 and bool(view.melds)),
            row=1,
        ),
        GameButton(
            cid("discard", ch, hand_no),
            "Discard",
            style=discord.ButtonStyle.danger,
            disabled=not (playing and n == 1),
            row=1,
        ),
        GameButton(
            cid("sort", ch, hand_no),
            "Sort by suit" if table.sort_modes.get(key, "rank") == "rank" else "Sort by rank",
            row=2,
        ),
        GameButton(cid("refresh", ch, hand_no), "Refresh", row=2),
    ]
    seat = table.seat(key)
    if seat.autopilot:
        items.append(
            GameButton(
                cid("reclaim", ch), "Take my seat back", style=discord.ButtonStyle.success, row=2
            )
        )
    return _view(*items)


def lay_off_choice_view(table: Table, meld_numbers: list[int]) -> discord.ui.View:
    ch, hand_no = table.channel_id, table.hand_number
    options = [discord.SelectOption(label=f"Meld {i + 1}", value=str(i)) for i in meld_numbers[:25]]
    return _view(
        GameSelect(
            cid("onto", ch, hand_no), placeholder="Lay off onto which meld?", options=options, row=0
        ),
        GameButton(cid("refresh", ch, hand_no), "Back", row=1),
    )


def leaderboard_view(guild_id: int, order: str, page: int, pages: int) -> discord.ui.View:
    return _view(
        GameButton(cid("lb", guild_id, f"{order}.{page - 1}"), "Previous", disabled=page <= 1),
        GameButton(cid("lb", guild_id, f"{order}.{page + 1}"), "Next", disabled=page >= pages),
    )
