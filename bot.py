"""Entry point: `python bot.py` runs the Rummy bot.

With no DISCORD_TOKEN (or with `--local`) it plays locally: the same bot, on a
stand-in for Discord (``fakediscord``), played in a page in the browser. With
a token it connects to Discord.

Settings come from the environment and a `.env` file (see `.env.example`),
and are checked before anything starts. The database is opened, and so
checked, before logging in to Discord; the rest of the async set-up happens in
``RummyBot.setup_hook`` (``app.bot``): build the game, load the cog, restore
live tables, sync the slash commands. Any failure to start is one line on
stderr and a non-zero exit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from dotenv import load_dotenv

from app.bot import RummyBot
from app.local_play import (
    LOCAL_DATABASE,
    LOCAL_WORLD,
    activity_port,
    announce,
    local_address,
    local_environment,
    wants_local_play,
    wipe,
)
from app.logs import setup_logging
from app.settings import Settings, SettingsError
from app.standby import claim_shards, keep_shards
from db import StorageError
from transport.private import missing_private_parts, point_at
from web.connections import raise_open_files_limit

if TYPE_CHECKING:
    from fakediscord.local import LocalPlay

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


async def serve(bot: RummyBot, token: str, stop: asyncio.Event | None = None) -> int:
    """Open the database, take this process's shards, log in and run until
    stopped, closing the bot (and its database) on the way out; the exit code.

    SIGTERM (what ``docker stop`` and systemd send) and SIGINT (Ctrl-C) stop it
    gracefully: no new clicks are taken, those in flight finish and are saved,
    then the gateway and the database close and the process exits 0. On
    PostgreSQL it first waits, as a standby, until no other process serves its
    shards (``app.standby``), and exits 1 if it ever has to step down from them.
    ``stop``: set by whoever else may stop it (local play's Reset).
    """
    stop = stop or asyncio.Event()
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
            # Closed: nothing is left to wait for. While Discord is unreachable,
            # discord.py's shards sleep out a reconnect's backoff (minutes)
            # before they notice, and a stop would wait all that time.
            connection.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await connection
        finally:
            if keeper is not None:
                keeper.cancel()
            if leases is not None:
                # After a graceful stop closed the database: a standby that takes
                # over starts from every save made.
                await leases.release()
    return 1 if lost.is_set() else 0


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python bot.py",
        description="Run the Rummy bot: on Discord with DISCORD_TOKEN set, else locally, "
        "played in a page in the browser.",
    )
    parser.add_argument("--local", action="store_true",
                        help="play locally even though DISCORD_TOKEN is set")
    parser.add_argument("--no-browser", action="store_true",
                        help="print the local page's address without opening a browser")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """``argv``: the command line's arguments (none when called from Python)."""
    options = arguments(argv or [])
    load_dotenv()
    env = dict(os.environ)
    try:
        local = options.local or wants_local_play(env)
        settings = None if local else Settings.from_env(env)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    missing = missing_private_parts()
    if missing:
        print(
            "error: this discord.py lacks what the bot relies on: "
            + "; ".join(missing)
            + ". Install the version in requirements.txt.",
            file=sys.stderr,
        )
        return 1
    if settings is None:
        return play_locally(env, open_browser=not options.no_browser)
    prepare(settings)
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
    except SettingsError as error:
        # A setting only Discord's answer shows to be wrong (at log-in).
        print(f"error: {error}", file=sys.stderr)
        return 2
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


def prepare(settings: Settings) -> None:
    """Logging, where Discord is, and the collector, before the bot starts."""
    activity_secret = settings.activity.client_secret if settings.activity else ""
    setup_logging(
        logging.getLevelNamesMapping()[settings.log_level],
        secrets=[settings.token, activity_secret],
        json_lines=settings.log_format == "json",
    )
    point_at(settings.api_base, settings.gateway_url)
    # Many systems start a service allowed 1,024 open files whatever its hard
    # limit: the Activity's visitors must not use up what Discord needs.
    raise_open_files_limit()
    # A click allocates thousands of short-lived objects (discord.py's parsed
    # events, requests, embeds), and a finished click is freed by reference
    # counting (see transport.events), so young collections find almost
    # nothing; at the default threshold they ran many times a second under
    # load, each a pause for every table while the clicks in flight were
    # walked (docs/performance.md has the measurements).
    gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)


# --- local play -------------------------------------------------------------------------
def play_locally(env: dict[str, str], *, open_browser: bool) -> int:
    try:
        # Loaded to play locally alone: the bot on Discord never loads the
        # stand-in, and the container image does not even hold it.
        from fakediscord.local import LocalPlay
    except ImportError:
        print("error: DISCORD_TOKEN is not set, and this installation cannot play locally "
              "(it leaves out the fakediscord package); set DISCORD_TOKEN.", file=sys.stderr)
        return 2
    try:
        host, port = local_address(env)
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        with contextlib.suppress(KeyboardInterrupt):
            return run_event_loop(
                run_locally(LocalPlay(host=host, port=port, snapshot=LOCAL_WORLD,
                                      activity_port=activity_port(env, port)),
                            env, open_browser=open_browser))
    except StorageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


async def run_locally(local: LocalPlay, env: dict[str, str], *, open_browser: bool) -> int:
    """The stand-in and its page, then the bot on it until stopped; a Reset in
    the page stops the bot, wipes local play's database and starts both afresh."""
    host, port = local.host, local.port
    try:
        await local.start()
    except OSError as error:
        await local.close()
        print(f"error: the local page cannot listen on {host}:{port} ({error.strerror}); "
              "set LOCAL_PLAY_PORT to a free port.", file=sys.stderr)
        return 1
    try:
        announce(local.url, host, open_browser=open_browser)
        prepared = False
        while True:
            settings = Settings.from_env(
                local_environment(env, local.bot_environment(LOCAL_DATABASE)))
            if not prepared:
                prepare(settings)
                prepared = True
            # A Reset's stand-in listens on a port of its own.
            point_at(settings.api_base, settings.gateway_url)
            stop = asyncio.Event()
            local.on_reset = stop.set
            code = await serve(RummyBot(settings), settings.token, stop)
            if not local.reset_requested:
                return code
            wipe(LOCAL_DATABASE)
            await local.restart()
    finally:
        await local.close()


def one_line(error: BaseException, limit: int = 300) -> str:
    """An error's text for a one-line message: a server's answer may be a whole web page."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
