"""Local play's settings: the bot is told the stand-in's addresses and a
database of its own, and keeps every other setting of the user's."""

from __future__ import annotations

import dataclasses

import pytest

from app.local_play import activity_port, local_address, local_environment, wants_local_play
from app.settings import Settings, SettingsError


def test_local_play_runs_the_bot_with_the_same_settings_pointed_at_the_stand_in() -> None:
    env = {"DISCORD_TOKEN": "", "COMPUTER_DELAY": "0.5", "LOBBY_TIMEOUT": "60", "LOG_LEVEL": "INFO",
           "LOG_FORMAT": "json", "DATABASE_URL": "postgresql://u@db/rummy", "SHARD_COUNT": "2"}
    stand_in = {"DISCORD_TOKEN": "local.abc", "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
                "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/", "DATABASE_PATH": "rummy-local.sqlite3"}
    local = Settings.from_env(local_environment(env, stand_in))
    on_discord = Settings.from_env(env | {"DISCORD_TOKEN": "real", "DATABASE_URL": "",
                                              "SHARD_COUNT": ""})
    differ = {f.name for f in dataclasses.fields(local)
              if getattr(local, f.name) != getattr(on_discord, f.name)}
    # Everything else (the game's timings, the log format) is the user's own.
    assert differ == {"token", "api_base", "gateway_url", "database_path"}
    assert local.database_url is None and local.shard_count is None


def test_local_play_is_chosen_with_no_token_unless_turned_off() -> None:
    assert wants_local_play({})
    assert not wants_local_play({"DISCORD_TOKEN": "real"})
    assert not wants_local_play({"LOCAL_PLAY": "off"})
    with pytest.raises(SettingsError, match="LOCAL_PLAY"):
        wants_local_play({"LOCAL_PLAY": "sometimes"})


def test_the_page_listens_on_this_machine_unless_told_an_address() -> None:
    assert local_address({}) == ("127.0.0.1", 8765)
    assert local_address({"LOCAL_PLAY_HOST": "0.0.0.0", "LOCAL_PLAY_PORT": "9000"}) == (
        "0.0.0.0", 9000)
    with pytest.raises(SettingsError, match="IP address"):
        local_address({"LOCAL_PLAY_HOST": "my-laptop"})
    with pytest.raises(SettingsError, match="port number"):
        local_address({"LOCAL_PLAY_PORT": "99999"})
    assert activity_port({}, 8765) == 8766
    assert activity_port({"WEB_PORT": "7000"}, 8765) == 7000
