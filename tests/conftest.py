"""Fixtures of the Discord emulator (fakediscord): a local Discord and a bot on it.

    async def test_join(fake_discord, start_bot):
        guild = fake_discord.create_guild("Test Server")
        channel = fake_discord.create_text_channel(guild, "rummy")
        alice = fake_discord.create_user("alice", guild=guild)
        await start_bot(RummyBot())
        reply = await alice.slash(channel, "rummy start")
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import discord
import pytest

from db import Database
from fakediscord import BotRunner, FakeDiscord, point_discord_at, run_client
from tests.postgres_server import PostgresServer

StartBot = Callable[..., Awaitable[BotRunner]]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started emulator with discord.py pointed at it; fails at teardown on any problem
    it recorded (unknown routes, spec violations, 400s, unanswered interactions)."""
    emu = FakeDiscord()
    await emu.start()
    try:
        with point_discord_at(emu):
            yield emu
    finally:
        await emu.stop()
    problems = emu.take_problems()
    if problems:
        pytest.fail("FakeDiscord problems:\n" + "\n".join(f"  - {p}" for p in problems),
                    pytrace=False)


@pytest.fixture
async def start_bot(fake_discord: FakeDiscord) -> AsyncIterator[StartBot]:
    """``runner = await start_bot(bot)``: the bot logs in, syncs, and is ready.

    At teardown every bot is stopped and the test fails if one crashed, logged an
    error through discord.py, or the emulator recorded a problem. Pass
    ``fail_on_logged_errors=False`` for a test that provokes errors on purpose.
    """
    runners: list[BotRunner] = []

    async def start(client: discord.Client, *, token: str | None = None,
                    ready_timeout: float = 10.0, fail_on_logged_errors: bool = True) -> BotRunner:
        runner = await run_client(fake_discord, client, token=token, ready_timeout=ready_timeout,
                                  fail_on_logged_errors=fail_on_logged_errors)
        runners.append(runner)
        return runner

    yield start
    problems = [p for runner in runners for p in await runner.stop()]
    problems += fake_discord.take_problems()
    if problems:
        pytest.fail("Bot run problems:\n" + "\n".join(f"  - {p}" for p in problems), pytrace=False)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the whole run, started on first use."""
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """The bot's database as a fresh SQLite file, closed after the test (the
    storage tests have their own, on both stores: tests/db/conftest.py)."""
    database = await Database.open(tmp_path / "rummy.sqlite3")
    try:
        yield database
    finally:
        await database.close()
