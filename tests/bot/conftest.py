"""The real bot on the emulator with a real SQLite file."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import RummyBot, Settings
from fakediscord import Actor, BotRunner, ErrorLog, FakeDiscord
from fakediscord.core.world import Channel, Guild
from game.config import GameConfig
from tests.conftest import StartBot

from .harness import TablePlayer

FAST = GameConfig(
    computer_delay=0,
    lobby_timeout=900,
    idle_timeout=1800,
    sweep_interval=3600,
    request_rate=10_000,  # machine-speed play; pacing has its own tests
    card_emoji=False,  # cards as text: the emoji tests upload them themselves
    follow_after=0,  # every hand message follows each move before the next
    quiet_follow_after=0,
)


@dataclass
class Server:
    emu: FakeDiscord
    guild: Guild
    channel: Channel
    other_channel: Channel
    ann: Actor
    bob: Actor
    cat: Actor
    dan: Actor
    eve: Actor
    fay: Actor
    mod: Actor
    outsider: Actor

    def player(self, actor: Actor) -> TablePlayer:
        return TablePlayer(self.emu, actor, self.channel)


@pytest.fixture
def server(fake_discord: FakeDiscord) -> Server:
    return populate(fake_discord)


def populate(emu: FakeDiscord) -> Server:
    """The test server: a guild with two channels, seven members and a moderator."""
    guild = emu.create_guild("Card Club")
    channel = emu.create_text_channel(guild, "rummy")
    other = emu.create_text_channel(guild, "rummy-2")
    people = {
        name: emu.create_user(name.capitalize(), guild=guild)
        for name in ("ann", "bob", "cat", "dan", "eve", "fay", "outsider")
    }
    mod = emu.create_user("Mod", guild=guild, manage_messages=True, manage_guild=True)
    return Server(emu, guild, channel, other, mod=mod, **people)  # type: ignore[arg-type]


LaunchBot = Callable[..., Awaitable[RummyBot]]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "rummy.sqlite3"


@pytest.fixture
def runners() -> dict[int, BotRunner]:
    """The emulator runner of each bot a test launched, by id(bot)."""
    return {}


@pytest.fixture
async def launch(
    fake_discord: FakeDiscord, start_bot: StartBot, db_path: Path, runners: dict[int, BotRunner]
) -> AsyncIterator[LaunchBot]:
    """``bot = await launch()`` starts the real RummyBot; errors it logs fail the test."""
    errors = ErrorLog()
    for name in ("cogs", "rummy", "db"):
        logging.getLogger(name).addHandler(errors)
    bots: list[RummyBot] = []
    tolerate = False

    async def start(
        config: GameConfig = FAST,
        path: Path | None = None,
        *,
        allow_errors: bool = False,
        **more_settings: Any,
    ) -> RummyBot:
        """``allow_errors``: the test provokes failures the bot must log;
        ``more_settings``: other fields of ``Settings`` (``health_port=0``)."""
        nonlocal tolerate
        tolerate = tolerate or allow_errors
        settings = Settings(
            token=fake_discord.token, database_path=path or db_path, game=config, **more_settings
        )
        bot = RummyBot(settings)
        runners[id(bot)] = await start_bot(bot, fail_on_logged_errors=not allow_errors)
        bots.append(bot)
        return bot

    try:
        yield start
        for bot in bots:
            if not bot.is_closed() and hasattr(bot, "game"):
                await bot.game.tasks.wait_idle()
    finally:
        for name in ("cogs", "rummy", "db"):
            logging.getLogger(name).removeHandler(errors)
    if errors.records and not tolerate:
        pytest.fail("the bot logged errors:\n" + "\n".join(errors.describe()), pytrace=False)


StopBot = Callable[..., Awaitable[None]]


@pytest.fixture
def stop_bot(runners: dict[int, BotRunner]) -> StopBot:
    """``await stop_bot(bot)`` shuts down cleanly; ``crash=True`` kills it instead:
    its tasks die mid-flight and the OS releases its database lock, as when the
    process is killed."""

    async def stop(bot: RummyBot, *, crash: bool = False) -> None:
        runner = runners[id(bot)]
        if not crash:
            await runner.client.close()
            return
        game = bot.game
        game.tasks.closing = True
        doomed = [
            runner.task,
            *game.tasks.running(),
            *game.automation.timers(),
            *game.refresher.pending(),
        ]
        for task in doomed:
            task.cancel()
        assert bot.db is not None
        bot.db.abandon()
        bot.db = None
        await asyncio.gather(*doomed, return_exceptions=True)
        # What the dead process left behind: its HTTP session and socket.
        await bot.http.close()
        if bot.ws is not None:
            await bot.ws.close(code=1006)

    return stop


@pytest.fixture
async def pages() -> AsyncIterator[list[Any]]:
    """The Activity's pages a test opens (``activity_pages.Participant``), closed after it."""
    opened: list[Any] = []
    yield opened
    for page in opened:
        await page.close()
