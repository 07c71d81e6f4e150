"""Settings from the environment, and a clear exit from bot.py when they are wrong."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import Settings, SettingsError
from db.lock import ProcessLock

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_from_a_token_alone() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert settings.token == "abc" and settings.guild_id is None
    assert settings.database_path == Path("rummy.sqlite3") and settings.log_level == "INFO"
    assert settings.api_base is None and settings.game.computer_delay == 1.0
    assert settings.health_port is None and settings.log_format == "text"


def test_every_setting_is_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "abc",
            "DISCORD_GUILD_ID": "123",
            "DATABASE_PATH": "/tmp/x.db",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/",
            "COMPUTER_DELAY": "0.5",
            "LOBBY_TIMEOUT": "60",
            "IDLE_TABLE_TIMEOUT": "120",
            "SWEEP_INTERVAL": "5",
            "HEALTH_PORT": "8080",
            "HEALTH_HOST": "0.0.0.0",
            "LOG_FORMAT": "JSON",
            "REST_RATE": "12.5",
            "SHARD_COUNT": "4",
            "SHARD_IDS": "3, 1",
        }
    )
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    assert settings.serves(1 << 22) and not settings.serves(2 << 22)
    assert settings.game.request_rate == 12.5
    assert (settings.health_port, settings.health_host, settings.log_format) == (
        8080,
        "0.0.0.0",
        "json",
    )
    assert settings.guild_id == 123 and settings.log_level == "DEBUG"
    assert settings.database_path == Path("/tmp/x.db")
    assert settings.gateway_url == "ws://127.0.0.1:9/"
    assert (settings.game.computer_delay, settings.game.lobby_timeout) == (0.5, 60.0)
    assert (settings.game.idle_timeout, settings.game.sweep_interval) == (120.0, 5.0)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "DISCORD_GUILD_ID": "my-server"}, "DISCORD_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": "t", "COMPUTER_DELAY": "soon"}, "COMPUTER_DELAY"),
        ({"DISCORD_TOKEN": "t", "LOBBY_TIMEOUT": "-5"}, "LOBBY_TIMEOUT"),
        ({"DISCORD_TOKEN": "t", "HEALTH_PORT": "0"}, "HEALTH_PORT must be a TCP port"),
        ({"DISCORD_TOKEN": "t", "HEALTH_PORT": "70000"}, "HEALTH_PORT must be a TCP port"),
        ({"DISCORD_TOKEN": "t", "HEALTH_PORT": "http"}, "HEALTH_PORT must be a TCP port"),
        ({"DISCORD_TOKEN": "t", "LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json"),
        ({"DISCORD_TOKEN": "t", "REST_RATE": "50"}, "REST_RATE must be a number"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "0"}, "SHARD_COUNT must be a number of shards"),
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "1,2"}, r"SHARD_IDS \[2\] are"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "one"}, "shard numbers"),
        ({"DISCORD_TOKEN": "t", "REST_RATE": "nan"}, "REST_RATE must be a number"),
    ],
)
def test_bad_settings_are_refused_with_the_fix(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env(env)


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        # nan compares false with everything: every computer turn failed on it.
        ("COMPUTER_DELAY", "nan"),
        ("COMPUTER_DELAY", "inf"),
        ("COMPUTER_DELAY", "61"),
        ("COMPUTER_DELAY", "-0.5"),
        # 0 made the sweeper spin on a full core.
        ("SWEEP_INTERVAL", "0"),
        ("SWEEP_INTERVAL", "0.5"),
        ("SWEEP_INTERVAL", "nan"),
        ("SWEEP_INTERVAL", "3601"),
        ("LOBBY_TIMEOUT", "0"),
        ("LOBBY_TIMEOUT", "NaN"),
        ("LOBBY_TIMEOUT", "1e400"),
        ("IDLE_TABLE_TIMEOUT", "0"),
        ("IDLE_TABLE_TIMEOUT", "-inf"),
        ("IDLE_TABLE_TIMEOUT", "604801"),
    ],
)
def test_a_time_out_of_range_is_refused_by_name(name: str, raw: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"DISCORD_TOKEN": "t", name: raw})
    message = str(caught.value)
    assert message.startswith(f"{name} must be ") and repr(raw) in message
    assert "\n" not in message and message.endswith(".")


@pytest.mark.parametrize(
    ("name", "raw", "expected"),
    [
        ("COMPUTER_DELAY", "0", 0.0),
        ("COMPUTER_DELAY", "60", 60.0),
        ("SWEEP_INTERVAL", "1", 1.0),
        ("SWEEP_INTERVAL", "3600", 3600.0),
        ("LOBBY_TIMEOUT", "1", 1.0),
        ("IDLE_TABLE_TIMEOUT", "604800", 604800.0),
    ],
)
def test_the_ends_of_each_range_are_accepted(name: str, raw: str, expected: float) -> None:
    game = Settings.from_env({"DISCORD_TOKEN": "t", name: raw}).game
    read = {
        "COMPUTER_DELAY": game.computer_delay,
        "SWEEP_INTERVAL": game.sweep_interval,
        "LOBBY_TIMEOUT": game.lobby_timeout,
        "IDLE_TABLE_TIMEOUT": game.idle_timeout,
    }
    assert read[name] == expected


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("DISCORD_API_BASE", "not a url"),
        ("DISCORD_API_BASE", "discord.com/api/v10"),
        ("DISCORD_API_BASE", "/api/v10"),
        ("DISCORD_API_BASE", "ftp://127.0.0.1/api"),
        ("DISCORD_API_BASE", "ws://127.0.0.1:9/api"),
        ("DISCORD_API_BASE", "http://"),
        ("DISCORD_API_BASE", "http://127.0.0.1:99999/api"),
        ("DISCORD_GATEWAY_URL", "not a url"),
        ("DISCORD_GATEWAY_URL", "gateway.discord.gg"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg/"),
        ("DISCORD_GATEWAY_URL", "wss://"),
    ],
)
def test_a_url_that_is_not_absolute_or_of_the_wrong_kind_is_refused(name: str, raw: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"DISCORD_TOKEN": "t", name: raw})
    message = str(caught.value)
    assert message.startswith(f"{name} must be ") and repr(raw) in message


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("DISCORD_API_BASE", "https://discord.com/api/v10"),
        ("DISCORD_API_BASE", "http://127.0.0.1:8080/api/v10/"),
        ("DISCORD_GATEWAY_URL", "wss://gateway.discord.gg/"),
        ("DISCORD_GATEWAY_URL", "ws://[::1]:9000"),
    ],
)
def test_absolute_urls_of_the_right_kind_are_accepted(name: str, raw: str) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t", name: raw})
    assert raw in (settings.api_base, settings.gateway_url)


@pytest.mark.parametrize("raw", ["0", "9223372036854775808", "١٢٣"])
def test_a_guild_id_that_is_no_snowflake_is_refused(raw: str) -> None:
    with pytest.raises(SettingsError, match="DISCORD_GUILD_ID must be a server id"):
        Settings.from_env({"DISCORD_TOKEN": "t", "DISCORD_GUILD_ID": raw})


def test_env_example_lists_every_setting() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    # The bot's own settings, and local play's (read by the entry point).
    source = "".join((ROOT / name).read_text(encoding="utf-8")
                     for name in ("app/settings.py", "app/local_play.py", "bot.py"))
    names = {line.split("=")[0] for line in example.splitlines() if "=" in line and line[0] != "#"}
    for name in names:
        assert f'"{name}"' in source, f"{name} is in .env.example but the bot never reads it"
    read = set(re.findall(r'env\.get\("([A-Z_]+)"', source))
    read |= set(re.findall(r'_(?:seconds|url)\(env, "([A-Z_]+)"', source))
    assert read, "found no settings read by the bot"
    assert read <= names, f"settings missing from .env.example: {sorted(read - names)}"


def test_running_without_a_token_exits_with_one_clear_line(tmp_path: Path) -> None:
    # Where local play is off (the container image), a missing token is an error.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LOCAL_PLAY"))}
    env["LOCAL_PLAY"] = "off"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,  # no .env there
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert result.stdout == ""


def test_second_process_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    path = tmp_path / "rummy.sqlite3"
    holder = ProcessLock.acquire(path)  # what the first bot process holds while it runs
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env |= {"DISCORD_TOKEN": "not-a-real-token", "DATABASE_PATH": str(path)}
        # Nowhere to connect to: the lock must stop the process before any network.
        env["DISCORD_API_BASE"] = "http://127.0.0.1:9/api/v10"
        result = subprocess.run(
            [sys.executable, str(ROOT / "bot.py")],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        holder.release()
    assert result.returncode == 1
    assert "Another bot process" in result.stderr and str(path) in result.stderr


def test_postgresql_settings_are_read() -> None:
    settings = Settings.from_env({
        "DISCORD_TOKEN": "abc", "DATABASE_URL": "postgresql://bot:pw@db/rummy",
        "SHARD_COUNT": "4", "STANDBY": "true", "LEASE_CHECK": "0.5", "LEASE_TTL": "2",
        "DATABASE_PATH": "/data/rummy.sqlite3",
    })
    assert settings.database == "postgresql://bot:pw@db/rummy"
    assert settings.standby and settings.lease_check == 0.5 and settings.lease_ttl == 2
    assert settings.kept_results == Path("/data/rummy-results.unrecorded")
    plain = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert plain.database == Path("rummy.sqlite3") and plain.kept_results is None
    assert not plain.standby


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"DATABASE_URL": "mysql://bot:hunter2@db/rummy"}, "must be a postgresql:// URL"),
        ({"DATABASE_URL": "rummy.sqlite3"}, "leave it empty to use the SQLite file"),
        ({"STANDBY": "true", "SHARD_COUNT": "2"}, "STANDBY needs DATABASE_URL and SHARD_COUNT"),
        ({"STANDBY": "true", "DATABASE_URL": "postgresql://db/r"}, "STANDBY needs DATABASE_URL"),
        ({"STANDBY": "maybe"}, "STANDBY must be true or false"),
        ({"LEASE_CHECK": "0"}, "LEASE_CHECK must be a number of seconds from 0.05 to 60"),
        ({"LEASE_TTL": "0.1"}, "LEASE_TTL must be a number of seconds from 0.5 to 600"),
        ({"LEASE_TTL": "3", "LEASE_CHECK": "1"}, "LEASE_TTL (3) must be at least 4 times"),
    ],
)
def test_bad_postgresql_settings_are_refused(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(says)) as caught:
        Settings.from_env({"DISCORD_TOKEN": "abc", **env})
    assert "hunter2" not in str(caught.value)


def test_a_postgresql_server_that_is_down_stops_the_bot_with_one_clear_line(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env |= {"DISCORD_TOKEN": "not-a-real-token",
            "DATABASE_URL": "postgresql://rummy:hunter2@127.0.0.1:1/rummy",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "cannot connect to PostgreSQL at postgresql://rummy@127.0.0.1:1/rummy" in lines[0]
    assert "check that the server is running" in lines[0] and "hunter2" not in lines[0]


def test_where_the_other_processes_reach_the_activity_is_an_http_url() -> None:
    activity = {"DISCORD_TOKEN": "t", "DISCORD_CLIENT_SECRET": "s"}
    settings = Settings.from_env({**activity, "WEB_PEER_URL": "http://10.0.0.2:8081"}).activity
    assert settings is not None and settings.peer_url == "http://10.0.0.2:8081"
    assert "10.0.0.2" in repr(settings) and "'s'" not in repr(settings)
    unset = Settings.from_env(activity).activity
    assert unset is not None and unset.peer_url is None
    for raw in ("10.0.0.2:8081", "ws://10.0.0.2:8081", "http://"):
        with pytest.raises(SettingsError) as caught:
            Settings.from_env({**activity, "WEB_PEER_URL": raw})
        assert str(caught.value).startswith("WEB_PEER_URL must be an absolute http:// or https://")
