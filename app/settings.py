"""The bot's settings, read from the environment (and a ``.env`` file)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from flows.config import GameConfig


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says how to fix it."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot is told from outside: its token, where Discord and
    its database are, how loudly it logs, and the game's timings."""

    token: str
    guild_id: int | None = None
    database_path: Path = Path("rummy.sqlite3")
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    game: GameConfig = field(default_factory=GameConfig)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ) if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put it in .env (copy .env.example) or the "
                "environment; get it from https://discord.com/developers/applications -> "
                "your application -> Bot -> Reset Token."
            )
        guild = env.get("DISCORD_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in logging.getLevelNamesMapping():
            raise SettingsError(f"LOG_LEVEL {level!r} is not a logging level (try INFO).")
        return cls(
            token=token,
            guild_id=int(guild) if guild else None,
            database_path=Path(env.get("DATABASE_PATH", "").strip() or "rummy.sqlite3"),
            log_level=level,
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            game=GameConfig(
                computer_delay=_seconds(env, "COMPUTER_DELAY", GameConfig.computer_delay),
                lobby_timeout=_seconds(env, "LOBBY_TIMEOUT", GameConfig.lobby_timeout),
                idle_timeout=_seconds(env, "IDLE_TABLE_TIMEOUT", GameConfig.idle_timeout),
                sweep_interval=_seconds(env, "SWEEP_INTERVAL", GameConfig.sweep_interval),
            ),
        )


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {raw!r}.") from None
    if value < 0:
        raise SettingsError(f"{name} cannot be negative.")
    return value
