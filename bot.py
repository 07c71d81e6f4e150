"""Entry point: `python bot.py` runs the Rummy bot.

Settings come from the environment and a `.env` file (see `.env.example`).
All async set-up happens in `RummyBot.setup_hook`: open the database, register
the buttons, load the cog, restore live tables, sync the slash commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import yarl
from discord.ext import commands
from dotenv import load_dotenv

from cogs.game import GameConfig, GameService
from cogs.rummy import RummyCog
from cogs.slim_events import slim_clicked_messages
from db import Database, StorageError
from db.lock import ProcessLock

log = logging.getLogger("rummy")

# New container objects between two young collections (Python's default: 700).
GC_YOUNG_THRESHOLD = 100_000


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says how to fix it."""


@dataclass(frozen=True)
class Settings:
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


def check_database_free(path: Path) -> None:
    """Stop before connecting to Discord when another bot process holds the
    database: both would answer the same clicks. ``Database.open`` takes the
    same lock for good once the bot runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    ProcessLock.acquire(path).release()


def point_at_discord(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST and gateway traffic to a proxy (or the test emulator) instead of Discord."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class RummyBot(commands.Bot):
    """The bot process: one database, one game service, one cog."""

    game: GameService

    def __init__(self, settings: Settings, **options: object) -> None:
        # Slash commands and components need only the guilds intent: no
        # privileged intents (members, presences, message content).
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            **options,  # type: ignore[arg-type]
        )
        slim_clicked_messages(self)
        self.settings = settings
        self.db: Database | None = None
        self.restored_tables = 0
        self.broken_tables = 0

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database_path)
        self.game = GameService(self, self.db, self.settings.game)
        self.game.refresher.on_moved = self._save_moved_table
        await self.add_cog(RummyCog(self))
        await self.game.load_guild_rules()
        self.restored_tables, self.broken_tables = await self.game.restore()
        log.info("restored %d live tables (%d set aside)", self.restored_tables, self.broken_tables)
        self.game.automation.start_sweeper()
        if self.settings.guild_id is not None:
            guild = discord.Object(id=self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _save_moved_table(self, table: object) -> None:
        from cogs.records import live_table
        from cogs.table import Table

        assert isinstance(table, Table)
        async with table.lock:
            # A table that has left play must not come back into the live set.
            if self.db is not None and self.game.tables.get(table.channel_id) is table:
                try:
                    await self.db.save_live_table(live_table(table))
                except StorageError:
                    log.exception("could not save the moved table message")

    async def on_ready(self) -> None:
        log.info("logged in as %s; %d live tables", self.user, len(self.game.tables))

    async def close(self) -> None:
        if hasattr(self, "game"):
            await self.game.automation.stop()
            await self.game.wait_idle(limit=5)
            await self.game.close()
        if self.db is not None:
            await self.db.close()
            self.db = None
        await super().close()


def run_event_loop(main: Coroutine[Any, Any, None]) -> None:
    try:
        import uvloop
    except ImportError:  # Windows has no uvloop: the standard loop does the same job
        asyncio.run(main)
    else:
        uvloop.run(main)


async def serve(bot: RummyBot, token: str) -> None:
    """Log in and run until stopped, closing the bot (and its database) on the way out."""
    async with bot:
        await bot.login(token)  # runs setup_hook: the database, the restored tables
        # What start-up built lives as long as the process: the collector's full
        # passes need not walk it again and again.
        gc.freeze()
        await bot.connect()


def main() -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=logging.getLevelNamesMapping()[settings.log_level])
    # The bot has no voice features; discord.py's start-up notes about voice
    # libraries would only alarm whoever reads the log.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage()
    )
    point_at_discord(settings.api_base, settings.gateway_url)
    # A click allocates thousands of short-lived objects (discord.py's parsed
    # events, requests, embeds), and a finished click is freed by reference
    # counting (see cogs.rummy), so young collections find almost nothing. With
    # the default threshold of 700 they ran over a hundred times a second at
    # 200 busy tables. At 10,000 they still ran twenty times in the first
    # second and a half of 200 tables opening at once, 150-310 ms in all, every
    # one of them a pause for every table, because the clicks then in flight
    # were all alive to be walked. At 100,000 that opening sees one pass of
    # 25-45 ms, and peak memory at 1,000 tables is unchanged.
    gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)
    bot = RummyBot(settings)
    try:
        check_database_free(settings.database_path)
        with contextlib.suppress(KeyboardInterrupt):
            # uvloop: the same asyncio, with the event loop and sockets in C. At
            # hundreds of clicks a second the loop's own bookkeeping was a tenth
            # of the bot's CPU.
            run_event_loop(serve(bot, settings.token))
    except StorageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(
            "error: Discord refused DISCORD_TOKEN; reset the token and update .env.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
