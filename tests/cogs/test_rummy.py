"""The slash commands' house-rule options come from the engine's one declaration."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.rummy import RummyCog
from engine import RULE_OPTIONS


def command_options(name: str) -> dict[str, dict[str, Any]]:
    [command] = [c for c in RummyCog.__cog_app_commands__ if c.name == name]
    assert isinstance(command, app_commands.Command)
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    payload = command.to_dict(tree)
    return {option["name"]: option for option in payload["options"]}


def test_start_and_settings_offer_every_house_rule_as_declared() -> None:
    for name in ("start", "settings"):
        options = command_options(name)
        extra = ["language"] if name == "settings" else []
        assert list(options) == [*extra, *(option.name for option in RULE_OPTIONS)]
        for rule in RULE_OPTIONS:
            option = options[rule.name]
            assert option["description"] == rule.description
            assert option["required"] is False
            if rule.choices is not None:
                assert [c["value"] for c in option["choices"]] == list(rule.choices)
                names = [c["name"] for c in option["choices"]]
                assert not set(names) & set(rule.choices)  # people read names, not values
            else:
                assert (option["min_value"], option["max_value"]) == (rule.minimum, rule.maximum)
