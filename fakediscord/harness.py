"""Running a real discord.py client against the emulator.

``point_discord_at`` patches the two addresses discord.py has (REST base and
default gateway); ``run_client`` starts any Client/Bot, waits for on_ready and
returns a ``BotRunner`` whose ``stop()`` reports what went wrong in the bot:
a crashed client task, or errors discord.py logged (exceptions in commands,
views, event handlers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import traceback
from collections.abc import Iterator

import discord
import discord.gateway
import discord.http
import yarl

from .core.server import FakeDiscord

GUILD_READY_TIMEOUT = 0.05


@contextlib.contextmanager
def point_discord_at(emu: FakeDiscord) -> Iterator[None]:
    """Send discord.py's REST, webhook, callback and gateway traffic to ``emu``."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = emu.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(emu.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


class ErrorLog(logging.Handler):
    """Keeps the ERROR records of the loggers it is added to: an exception in a
    command, a view or a task is only logged (by discord.py, or by the bot), never
    raised to the test, which fails on them instead."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def describe(self) -> list[str]:
        """Each record as ``logger: message``, with its exception's traceback."""
        return [_describe(r) for r in self.records]


class BotRunner:
    """A client started on the emulator; ``await runner.stop()`` at the end."""

    def __init__(self, emu: FakeDiscord, client: discord.Client, task: asyncio.Task[None],
                 fail_on_logged_errors: bool) -> None:
        self.emu = emu
        self.client = client
        self.task = task
        self.fail_on_logged_errors = fail_on_logged_errors
        self.login_to_ready: float | None = None
        self.problems: list[str] = []
        self._errors = ErrorLog()
        logging.getLogger("discord").addHandler(self._errors)

    @property
    def logged_errors(self) -> list[str]:
        return self._errors.describe()

    def crashed(self) -> BaseException | None:
        if self.task.done() and not self.task.cancelled():
            return self.task.exception()
        return None

    async def stop(self) -> list[str]:
        """Close the client and return the problems found in it (also kept in ``problems``)."""
        crash = self.crashed()
        if crash is not None:
            self.problems.append("the bot crashed: " + "".join(traceback.format_exception(crash)))
        if not self.client.is_closed():
            await self.client.close()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), timeout=5.0)
        except (TimeoutError, asyncio.CancelledError):
            self.task.cancel()
        except Exception as exc:
            if crash is None:
                self.problems.append("the bot failed while stopping: " + repr(exc))
        logging.getLogger("discord").removeHandler(self._errors)
        if self.fail_on_logged_errors:
            self.problems += [f"discord.py logged an error: {e}" for e in self.logged_errors]
        return self.problems


async def run_client(emu: FakeDiscord, client: discord.Client, *, token: str | None = None,
                     ready_timeout: float = 10.0, fail_on_logged_errors: bool = True,
                     ) -> BotRunner:
    """Start ``client`` on ``emu`` (already started and pointed at) and wait for on_ready."""
    assert emu.api_base == discord.http.Route.BASE, "wrap the run in point_discord_at(emu)"
    # discord.py waits this long after the last GUILD_CREATE before on_ready (2 s by
    # default); the emulator sends them all at once.
    state = client._connection
    state.guild_ready_timeout = min(state.guild_ready_timeout, GUILD_READY_TIMEOUT)
    started = time.perf_counter()
    task = asyncio.create_task(client.start(token or emu.token), name="fakediscord-bot")
    runner = BotRunner(emu, client, task, fail_on_logged_errors)
    ready = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED)
    if not ready.done():
        ready.cancel()
        problems = await runner.stop()
        detail = "\n".join(problems) or f"no on_ready within {ready_timeout} s"
        raise AssertionError(f"the bot did not become ready:\n{detail}")
    runner.login_to_ready = time.perf_counter() - started
    return runner


def _describe(record: logging.LogRecord) -> str:
    text = f"{record.name}: {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        text += "\n" + "".join(traceback.format_exception(record.exc_info[1]))
    return text
