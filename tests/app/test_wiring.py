"""Every component action the bot declares is bound to a handler."""

from __future__ import annotations

from pathlib import Path

import discord

from app.wiring import build_game
from chat.router import Handlers
from db import Database
from game.config import GameConfig
from presentation.actions import ACTIONS


async def test_every_declared_action_has_a_handler(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "rummy.sqlite3")
    try:
        game = build_game(discord.Client(intents=discord.Intents.none()), db, GameConfig())
        assert game.router.handlers.unbound() == []
        bound = game.router.handlers.at_table.keys() | game.router.handlers.server_wide.keys()
        assert {action.name for action in bound} == set(ACTIONS)
    finally:
        await db.close()


def test_an_action_without_a_handler_is_reported() -> None:
    handlers = Handlers()
    handlers.at_table[ACTIONS["draw"]] = None  # type: ignore[assignment]
    assert "draw" not in handlers.unbound()
    assert "discard" in handlers.unbound()
