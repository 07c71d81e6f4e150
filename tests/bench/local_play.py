"""Benchmark of local play: ``python -m tests.bench.local_play [--hands N]``.

Prints, never asserts:

* **start-up**: seconds from ``python bot.py`` (no token, a fresh directory) to
  a page that answers, and to a bot that has synced its commands;
* **latency**: from a click in the page to the updated message on screen
  (Chromium's own clock, a MutationObserver on the log), median and p99, over
  whole hands of Ann against three computers;
* **cost**: the stand-in's CPU and memory beside the bot's during those
  hands. For this part the stand-in and its page run here and the bot in a
  process of its own, as in ``tests.bench.load``, so each has its own figures
  (in ``python bot.py`` they share one process).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from playwright.async_api import Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot import local_environment
from fakediscord.local import LocalPlay
from tests.bot_process import CLOCK_TICKS, BotProcess
from tests.local.conftest import LocalBot, chromium_path
from tests.local.test_local_play import (
    DRAWN_CARD,
    host_panel,
    my_turn_or_over,
    open_hand,
    press,
    slash,
)
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
# Clicks the page measures: a click, then the first message drawn anew.
TIMED_CLICK = """(target) => new Promise((resolve) => {
    const log = document.getElementById('log');
    const start = performance.now();
    const seen = new MutationObserver(() => {
        seen.disconnect();
        resolve(performance.now() - start);
    });
    seen.observe(log, { childList: true, subtree: true });
    target.click();
})"""


async def start_up(home: Path) -> tuple[float, float]:
    """Seconds to a page that answers, and to a bot whose commands the page offers."""
    port = free_port()
    began = time.perf_counter()
    bot = LocalBot(home, port)
    starting = asyncio.create_task(bot.start())
    page_at = ready_at = 0.0
    async with aiohttp.ClientSession() as session:
        while not ready_at:
            try:
                async with session.get(f"http://127.0.0.1:{port}/") as answer:
                    if answer.status == 200 and not page_at:
                        page_at = time.perf_counter() - began
                async with session.ws_connect(f"http://127.0.0.1:{port}/ws?as=ann") as socket:
                    hello = await socket.receive_json()
                    if hello["commands"]:
                        ready_at = time.perf_counter() - began
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.02)
    await starting
    await bot.stop()
    return page_at, ready_at


async def timed(page: Page, label: str) -> float:
    hand = page.locator("#log .channel-log:not([hidden]) .msg", has_text="Your hand").last
    button = hand.locator(".btn:not(.disabled)", has_text=label).first
    return float(await button.evaluate(TIMED_CLICK))


async def play_hand(page: Page, latencies: list[float]) -> None:
    await open_hand(page)
    for _ in range(500):
        if await my_turn_or_over(page) == "over":
            return
        hand = page.locator("#log .channel-log:not([hidden]) .msg", has_text="Your hand").last
        drawn = hand.locator(DRAWN_CARD).first
        for _attempt in range(3):
            took = await timed(page, "Draw from stock")
            try:
                await drawn.wait_for(timeout=3000)
            except PlaywrightTimeout:
                # The message was drawn anew under the click: the click reached
                # a detached button. Not a latency; clicked again.
                continue
            latencies.append(took)
            break
        latencies.append(float(await drawn.evaluate(TIMED_CLICK)))
        latencies.append(await timed(page, "Discard"))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def hands(count: int, home: Path) -> None:
    local = await LocalPlay(host="127.0.0.1", port=free_port()).start()
    environment = local_environment(dict(os.environ), local.bot_environment(home / "db.sqlite3"))
    bot = await BotProcess.start(local.emu, home / "db.sqlite3", home / "bot.log",
                                 extra_env=environment)
    latencies: list[float] = []
    try:
        await local.emu.wait_for(lambda: local.emu.gateway.has_session_for(None), timeout=60)
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium_path(),
                                                       args=["--no-sandbox"])
            page = await (await browser.new_context()).new_page()
            await page.goto(local.url)
            await page.wait_for_selector("#server-name:not(:empty)", state="attached")
            stand_in_before, bot_before = own_cpu(), cpu_seconds(bot.pid)
            for number in range(count):
                panels = page.locator("#log .channel-log:not([hidden]) .msg",
                                      has_text="Your controls as host")
                before = await panels.count()
                await slash(page, "rummy start", hands="1")
                # This game's controls, not the last game's.
                await panels.nth(before).wait_for()
                panel = await host_panel(page)
                for _ in range(3):
                    await press(page, panel, "Add computer (easy)")
                    await asyncio.sleep(0.3)
                await press(page, await host_panel(page), "Start")
                await play_hand(page, latencies)
                print(f"hand {number + 1} played", file=sys.stderr)
            stand_in_cpu = own_cpu() - stand_in_before
            bot_cpu = cpu_seconds(bot.pid) - bot_before
            bot_memory = bot.memory_kb()[1] / 1024
            await browser.close()
    finally:
        await bot.stop()
        await local.close()
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(f"latency, click -> message on screen ({len(ordered)} clicks): "
          f"median {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms")
    stand_in_memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"CPU over {count} hand(s) of 4 players: bot {bot_cpu:.2f} s, "
          f"stand-in and page {stand_in_cpu:.2f} s (this process, the browser's driver included)")
    print(f"peak memory: bot {bot_memory:.1f} MiB, stand-in and page "
          f"{stand_in_memory:.1f} MiB")


async def run(count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="local-play-") as work:
        page_at, ready_at = await start_up(Path(work))
        print(f"start-up: page answers after {page_at:.2f} s, bot ready (commands offered) "
              f"after {ready_at:.2f} s")
        await hands(count, Path(work))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.local_play",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1, help="hands of 4 players to time")
    args = parser.parse_args(argv)
    asyncio.run(run(args.hands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
