"""Local play, tested as a person uses it: ``python bot.py`` with no token in a
process of its own, and its page in a real Chromium driven by Playwright.

Chromium is Debian's (``apt-get install chromium``): Playwright drives it by
its path and downloads nothing. ``.ci/run`` installs it where it is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.async_api import Browser, ConsoleMessage, Page, async_playwright

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
BROWSERS = ("chromium", "chromium-browser")
STARTED = re.compile(r"Open (http://\S+/) to play")
START_TIMEOUT = 60.0



@dataclass
class LocalBot:
    """``python bot.py`` playing locally, in a directory of its own."""

    home: Path
    port: int
    root: Path = ROOT  # the checkout whose bot.py runs (a benchmark may run an older one)
    # The Activity's port, picked free too: the default (the page's port + 1)
    # may be another test's or program's by then.
    activity_port: int = field(default_factory=free_port)
    # Settings of the bot's own a test gives it (a short idle timeout, say),
    # over the defaults below.
    extra_env: dict[str, str] = field(default_factory=dict)
    process: asyncio.subprocess.Process | None = None
    url: str = ""
    output: list[str] = field(default_factory=list)
    _reader: asyncio.Task[None] | None = None

    async def start(self) -> LocalBot:
        env = {name: value for name, value in os.environ.items()
               if not name.startswith(("DISCORD_", "DATABASE_", "LOCAL_PLAY"))}
        # No token: local play, as on a fresh machine. The computers move at
        # once, so that a hand ends in moments.
        env |= {"LOCAL_PLAY_PORT": str(self.port), "WEB_PORT": str(self.activity_port),
                "COMPUTER_DELAY": "0",
                "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "WARNING"} | self.extra_env
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, str(self.root / "bot.py"), "--no-browser", cwd=self.home, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        self._reader = asyncio.create_task(self._read())
        deadline = asyncio.get_running_loop().time() + START_TIMEOUT
        while not self.url:
            if self.process.returncode is not None:
                raise AssertionError("bot.py stopped:\n" + "\n".join(self.output))
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("no local page after a minute:\n" + "\n".join(self.output))
            await asyncio.sleep(0.05)
        return self

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        async for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            self.output.append(line)
            found = STARTED.search(line)
            if found:
                self.url = found.group(1)

    async def stop(self, *, kill: bool = False) -> int:
        if self.process is None:
            return 0
        if self.process.returncode is not None:
            return self.process.returncode
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGINT)
        code = await asyncio.wait_for(self.process.wait(), 30)
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self.url = ""
        return code


@pytest.fixture
async def local_bot(tmp_path: Path) -> AsyncIterator[LocalBot]:
    bot = await LocalBot(tmp_path, free_port()).start()
    try:
        yield bot
    finally:
        code = await bot.stop()
        # Pytest shows this with a failing test only: what the bot said, and how it ended.
        print(f"bot.py ended with {code}; its output:", *bot.output, sep="\n")


def chromium_path() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    raise AssertionError("no chromium on PATH: install Debian's chromium package "
                         "(apt-get install chromium); .ci/run does")


@dataclass
class Browsing:
    browser: Browser
    console_errors: list[str] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)

    async def open(self, url: str, *, width: int = 1200, height: int = 900,
                   bypass_csp: bool = False, touch: bool = False) -> Page:
        """``bypass_csp``: a test may add scripts of its own to every frame (axe);
        ``touch``: a phone's touch screen, with no mouse."""
        context = await self.browser.new_context(viewport={"width": width, "height": height},
                                                 bypass_csp=bypass_csp, has_touch=touch,
                                                 is_mobile=touch)
        page = await context.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        await page.goto(url)
        await page.wait_for_selector("#server-name:not(:empty)", state="attached")
        self.pages.append(page)
        return page

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)


@pytest.fixture
async def browsing() -> AsyncIterator[Browsing]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(),
                                                   args=["--no-sandbox"])
        browsing = Browsing(browser)
        try:
            yield browsing
        finally:
            await browser.close()
    # Every page of every test: the page itself never logs an error.
    assert browsing.console_errors == [], browsing.console_errors


OpenPage = Callable[..., Awaitable[Page]]
