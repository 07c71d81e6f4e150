"""Memory of local play at machine speed: ``python -m tests.bench.attack_local
[--matches N] [--warmup N] [--bot-root DIR]``.

``python bot.py`` with no token (the bot and its stand-in for Discord in one
process, as a player runs it) plays match after match: Ann, driven through
local play's own page API and live feed as her browser would drive it, but
with no browser and no pause, against three easy computers that move at once
(``COMPUTER_DELAY=0``), one hand a match. After ``--warmup`` matches (the
bot's card emojis uploaded, caches and what the stand-in keeps of the past
filled up to their bounds) the process's resident memory is read after every
match; it prints the growth per match, and what the process held at the
start and the end. ``--bot-root DIR`` runs the bot.py
(and so the stand-in) of another checkout, a ``git worktree`` of an older
commit, for a before and after in one sitting.

A resident size wobbles by megabytes as the allocator takes and gives back
arenas. ``--traced`` measures the stand-in exactly instead: it runs here,
its Python heap traced, with the bot (of ``--bot-root``) in a process of its
own; for an older stand-in, run this module from that tree.

Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import html
import itertools
import json
import os
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tests.local.conftest import ROOT, LocalBot
from tests.ports import free_port

STEP_TIMEOUT = 30.0
BUTTON = re.compile(r'<button type="button" class="(?P<classes>[^"]*)" '
                    r'data-custom-id="(?P<custom_id>[^"]*)"[^>]*>(?P<inside>.*?)</button>', re.S)
LABEL = re.compile(r'<span class="label">(.*?)</span>', re.S)


@dataclass
class Button:
    custom_id: str
    label: str
    enabled: bool
    success: bool


@dataclass
class Shown:
    """A message as Ann's page was sent it."""

    id: int
    channel: str
    html: str

    def buttons(self) -> list[Button]:
        found = []
        for hit in BUTTON.finditer(self.html):
            label = LABEL.search(hit["inside"])
            classes = hit["classes"].split()
            found.append(Button(html.unescape(hit["custom_id"]),
                                html.unescape(label.group(1)) if label else "",
                                "disabled" not in classes, "success" in classes))
        return found

    def button(self, label: str) -> Button | None:
        return next((b for b in self.buttons() if b.label.startswith(label) and b.enabled), None)


@dataclass
class Ann:
    """Ann's page without the page: its live feed, and its requests."""

    http: aiohttp.ClientSession
    base: str
    channel: str = ""
    shown: dict[int, Shown] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def listen(self) -> None:
        headers = {"Origin": self.base}
        async with self.http.ws_connect(f"{self.base}/ws?as=ann", headers=headers) as feed:
            async for frame in feed:
                event = json.loads(frame.data)
                if event["type"] == "hello":
                    self.channel = next(c["id"] for c in event["channels"] if c["kind"] == "text")
                elif event["type"] == "message":
                    self.shown[int(event["id"])] = Shown(int(event["id"]), event["channel"],
                                                        event["html"])
                elif event["type"] == "delete":
                    self.shown.pop(int(event["id"]), None)
                self.changed.set()

    async def ask(self, action: str, **body: Any) -> None:
        async with self.http.post(f"{self.base}/api/{action}", json={"as": "ann", **body},
                                  headers={"Origin": self.base}) as answer:
            said = await answer.json()
        if said.get("error"):
            raise RuntimeError(f"{action}: {said['error']}")

    async def until(self, look: Callable[[], Any]) -> Any:
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            seen = look()
            if seen:
                return seen
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the page never showed what Ann waited for; it shows:\n"
                                   + self.describe())
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                continue

    def describe(self, count: int = 4) -> str:
        """The newest messages of the channel, as text, for a run that stalled."""
        newest = sorted((m for m in self.shown.values() if m.channel == self.channel),
                        key=lambda m: m.id)[-count:]
        return "\n".join(f"{m.id}: " + " ".join(re.sub(r"<[^>]+>", " ", m.html).split())[:300]
                         for m in newest)

    def newest(self, text: str, after: int = 0) -> Shown | None:
        found = [m for m in self.shown.values()
                 if m.channel == self.channel and m.id > after and text in m.html]
        return max(found, key=lambda m: m.id, default=None)

    async def click(self, message: Shown, button: Button) -> None:
        await self.ask("click", message=str(message.id), custom_id=button.custom_id)


async def play_match(ann: Ann) -> None:
    """Ann opens a one-hand game, adds three computers, starts and plays it out."""
    before = max(ann.shown, default=0)
    # Ann's client keeps what this match shows: its own memory is no figure here
    # (with --traced it is counted with the stand-in's).
    ann.shown = {message_id: shown for message_id, shown in ann.shown.items()
                 if message_id >= before}
    await ann.ask("command", channel=ann.channel, command="rummy start", options={"hands": 1})
    panel = await ann.until(lambda: ann.newest("Your controls as host", before))
    for seated in (2, 3, 4):
        button = await ann.until(lambda: ann.shown[panel.id].button("Add computer (easy)"))
        await ann.click(ann.shown[panel.id], button)
        await ann.until(lambda seated=seated: f"({seated}/6)" in ann.shown[panel.id].html)
    start = await ann.until(lambda: ann.shown[panel.id].button("Start"))
    await ann.click(ann.shown[panel.id], start)
    table = await ann.until(lambda: ann.newest("Show hand", before))
    await ann.click(table, await ann.until(lambda: table.button("Show hand")))
    await ann.until(lambda: ann.newest("Your hand", before))
    while await _turn(ann, before):
        pass
    # The match is recorded, and the channel free for the next one, a moment
    # after the hand's result.
    await ann.until(lambda: ann.newest("final places", before))


async def _turn(ann: Ann, before: int) -> bool:
    """Ann's plain turn: draw from the stock, throw the card drawn back. False
    once the hand is over. Her hand is its newest message: the bot may post
    it anew below the table."""
    draw = await ann.until(lambda: _over(ann, before) or _hand(ann, before).button(
        "Draw from stock"))
    if draw == "over":
        return False
    await ann.click(_hand(ann, before), draw)
    drawn = await ann.until(lambda: _over(ann, before) or _drawn(_hand(ann, before)))
    if drawn == "over":
        return False
    await ann.click(_hand(ann, before), drawn)
    discard = await ann.until(lambda: _over(ann, before) or _hand(ann, before).button("Discard"))
    if discard == "over":
        return False
    await ann.click(_hand(ann, before), discard)
    return True


def _drawn(hand: Shown) -> Button | None:
    """The card just drawn: green, or marked new."""
    return next((b for b in hand.buttons() if ":pick:" in b.custom_id
                 and (b.success or b.label.startswith("🆕"))), None)


def _hand(ann: Ann, before: int) -> Shown:
    hand = ann.newest("Your hand", before)
    assert hand is not None
    return hand


def _over(ann: Ann, before: int) -> str | None:
    return "over" if ann.newest("is over", before) is not None else None


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def measured(ann: Ann, matches: int, warmup: int, read: Callable[[], int]) -> Figures:
    """Plays the warm-up, then ``matches`` more, reading ``read()`` (KiB)
    before the first measured match and after each."""
    # The bot's commands reach the page once it synced them.
    await ann.until(lambda: ann.channel)
    await asyncio.sleep(2)
    figures = Figures()
    for number in range(warmup + matches):
        if number == warmup:
            figures.kib.append(read())
            figures.began = time.perf_counter()
        await play_match(ann)
        if number >= warmup:
            figures.kib.append(read())
        print(f"match {number + 1}: {figures.kib[-1] if figures.kib else read()} KiB",
              file=sys.stderr)
    figures.took = time.perf_counter() - figures.began
    return figures


@dataclass
class Figures:
    kib: list[int] = field(default_factory=list)
    began: float = 0.0
    took: float = 0.0


async def run(matches: int, warmup: int, root: Path) -> None:
    """``python bot.py`` as a player runs it: its resident memory."""
    with tempfile.TemporaryDirectory(prefix="attack-local-") as home:
        bot = await LocalBot(Path(home), free_port(), root=root).start()
        assert bot.process is not None
        pid = bot.process.pid
        try:
            async with aiohttp.ClientSession() as http:
                ann = Ann(http, bot.url.rstrip("/"))
                feed = asyncio.create_task(ann.listen())
                figures = await measured(ann, matches, warmup, lambda: resident_kib(pid))
                feed.cancel()
        finally:
            await bot.stop()
    report(f"local play's process (python bot.py from {root}), resident memory", figures)


async def run_traced(matches: int, warmup: int, root: Path) -> None:
    """The stand-in and its page in this process, its Python heap traced (no
    allocator's wobble); the bot in a process of its own, as in
    ``tests.bench.local_play``."""
    # Here only: a run of another checkout's bot.py loads no stand-in in this process.
    from bot import local_environment
    from fakediscord.local import LocalPlay
    from tests.bot_process import BotProcess

    with tempfile.TemporaryDirectory(prefix="attack-local-") as work:
        home = Path(work)
        local = await LocalPlay(host="127.0.0.1", port=free_port()).start()
        environment = local_environment(dict(os.environ),
                                        local.bot_environment(home / "db.sqlite3"))
        bot = await BotProcess.start(local.emu, home / "db.sqlite3", home / "bot.log",
                                     extra_env=environment, root=root)
        tracemalloc.start()
        try:
            await local.emu.wait_for(lambda: local.emu.gateway.has_session_for(None),
                                     timeout=60)
            async with aiohttp.ClientSession() as http:
                ann = Ann(http, local.url.rstrip("/"))
                feed = asyncio.create_task(ann.listen())
                figures = await measured(ann, matches, warmup, traced_kib)
                bot_kib = resident_kib(bot.pid)
                feed.cancel()
        finally:
            tracemalloc.stop()
            await bot.stop()
            await local.close()
    report("the stand-in and its page (this process, the benchmark's client included), "
           "Python heap", figures)
    print(f"  the bot (its own process, from {root}): {bot_kib / 1024:.1f} MiB resident "
          "at the end")


def traced_kib() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0] // 1024


def report(what: str, figures: Figures) -> None:
    kib = figures.kib
    matches = len(kib) - 1
    grown = kib[-1] - kib[0]
    # The resident size wobbles by megabytes as the allocator keeps and gives
    # back arenas: the trend over every match says more than two ends.
    trend = statistics.linear_regression(range(len(kib)), kib).slope
    steps = [after - before for before, after in itertools.pairwise(kib)]
    print(f"{what}, over {matches} matches of Ann and three easy computers at machine speed, "
          f"{figures.took / matches:.2f} s a match:")
    print(f"  {kib[0] / 1024:.1f} MiB after the warm-up, {kib[-1] / 1024:.1f} MiB at the end "
          f"({grown / 1024:+.1f} MiB), highest {max(kib) / 1024:.1f} MiB")
    print(f"  growth per match: {trend:.0f} KiB (least-squares trend), "
          f"{grown / matches:.0f} KiB (end to end), median step {statistics.median(steps):.0f} KiB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.attack_local",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=60, help="matches measured")
    # Enough for what is bounded to fill up first: the card emojis, the spec
    # checker's cache, the interactions and channels kept (about 70 matches).
    parser.add_argument("--warmup", type=int, default=70,
                        help="matches played first, unmeasured")
    parser.add_argument("--bot-root", type=Path, default=ROOT,
                        help="the checkout whose bot.py runs (default: this one)")
    parser.add_argument("--traced", action="store_true",
                        help="run the stand-in here and trace its heap; the bot, of "
                             "--bot-root, alone in its process (the stand-in is always this "
                             "checkout's: run the module from another tree for its own)")
    args = parser.parse_args(argv)
    runner = run_traced if args.traced else run
    asyncio.run(runner(args.matches, args.warmup, args.bot_root.resolve()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
