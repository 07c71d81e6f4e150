"""Entry point: `python bot.py` runs the Rummy bot.

Settings come from the environment and a `.env` file (see `.env.example`),
and are checked before anything starts. The database is opened, and so
checked, before logging in to Discord; the rest of the async set-up happens in
``RummyBot.setup_hook`` (``app.bot``): build the game, load the cog, restore
live tables, sync the slash commands. Any failure to start is one line on
stderr and a non-zero exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Coroutine
from typing import Any

import aiohttp
import discord
from dotenv import load_dotenv

from app.bot import RummyBot
from app.logs import setup_logging
from app.settings import Settings, SettingsError
from app.standby import claim_shards, keep_shards
from db import StorageError
from transport.private import missing_private_parts, point_at

log = logging.getLogger("rummy")

__all__ = ["RummyBot", "Settings", "SettingsError", "main"]

# Where discord.py sends REST calls unless DISCORD_API_BASE says otherwise.
DISCORD_API = "https://discord.com/api/v10"

# New container objects between two young collections (Python's default: 700).
GC_YOUNG_THRESHOLD = 100_000


def run_event_loop(main: Coroutine[Any, Any, int]) -> int:
    try:
        import uvloop
    except ImportError:  # Windows has no uvloop: the standard loop does the same job
        return asyncio.run(main)
    return uvloop.run(main)


async def serve(bot: RummyBot, token: str) -> int:
    """Open the database, take this process's shards, log in and run until
    stopped, closing the bot (and its database) on the way out; the exit code.

    SIGTERM (what ``docker stop`` and systemd send) and SIGINT (Ctrl-C) stop it
    gracefully: no new clicks are taken, those in flight finish and are saved,
    then the gateway and the database close and the process exits 0. On
    PostgreSQL it first waits, as a standby, until no other process serves its
    shards (``app.standby``), and exits 1 if it ever has to step down from them.
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C still interrupts
            loop.add_signal_handler(signum, stop.set)
    lost = asyncio.Event()

    async def step_down() -> None:
        lost.set()
        await bot.step_down()
        stop.set()

    async with bot:
        # Before Discord: a database the bot cannot use (held by another bot,
        # damaged, read-only, a server down) stops it before it connects to Discord.
        db = await bot.open_database()
        leases = db.shard_leases(
            ttl=bot.settings.lease_ttl, shard_count=bot.settings.shard_count
        )
        keeper: asyncio.Task[None] | None = None
        try:
            if leases is not None:
                await bot.serve_health()
                bot.waiting_for_shards = True
                shards = await claim_shards(leases, bot.settings, stop)
                bot.waiting_for_shards = False
                if stop.is_set():
                    return 0
                bot.serve_shards(shards, leases)
                keeper = asyncio.create_task(
                    keep_shards(leases, bot.settings.lease_check, step_down, stop),
                    name="shard-leases",
                )
            await bot.login(token)  # runs setup_hook: the game, the restored tables
            # What start-up built lives as long as the process: the collector's full
            # passes need not walk it again and again.
            gc.freeze()
            connection = asyncio.create_task(bot.connect(), name="gateway")
            stopped = asyncio.create_task(stop.wait(), name="stop-signal")
            await asyncio.wait((connection, stopped), return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if connection.done():
                connection.result()  # the gateway failed for good: say why
                return 0
            log.info("stopping: finishing the clicks in flight")
            await bot.close()
            await connection
        finally:
            if keeper is not None:
                keeper.cancel()
            if leases is not None:
                # After a graceful stop closed the database: a standby that takes
                # over starts from every save made.
                await leases.release()
    return 1 if lost.is_set() else 0


def main() -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    setup_logging(
        logging.getLevelNamesMapping()[settings.log_level],
        secrets=[settings.token],
        json_lines=settings.log_format == "json",
    )
    missing = missing_private_parts()
    if missing:
        print(
            "error: this discord.py lacks what the bot relies on: "
            + "; ".join(missing)
            + ". Install the version in requirements.txt.",
            file=sys.stderr,
        )
        return 1
    point_at(settings.api_base, settings.gateway_url)
    # A click allocates thousands of short-lived objects (discord.py's parsed
    # events, requests, embeds), and a finished click is freed by reference
    # counting (see transport.events), so young collections find almost
    # nothing; at the default threshold they ran many times a second under
    # load, each a pause for every table while the clicks in flight were
    # walked (the README's performance section has the measurements).
    gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)
    bot = RummyBot(settings)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            # uvloop: the same asyncio, with the event loop and sockets in C; at
            # hundreds of clicks a second the loop's own bookkeeping is a
            # noticeable share of the bot's CPU.
            return run_event_loop(serve(bot, settings.token))
    except StorageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(
            "error: Discord refused DISCORD_TOKEN; reset the token and update .env.",
            file=sys.stderr,
        )
        return 1
    except aiohttp.ClientError as error:
        print(
            f"error: cannot reach Discord at {settings.api_base or DISCORD_API}: "
            f"{one_line(error)}; check the network, or DISCORD_API_BASE.",
            file=sys.stderr,
        )
        return 1
    except discord.HTTPException as error:
        print(
            f"error: {settings.api_base or DISCORD_API} answered {one_line(error)}; "
            "is DISCORD_API_BASE a Discord API?",
            file=sys.stderr,
        )
        return 1
    return 0


def one_line(error: BaseException, limit: int = 300) -> str:
    """An error's text for a one-line message: a server's answer may be a whole web page."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


if __name__ == "__main__":
    sys.exit(main())
