"""Activity benchmark: ``python -m tests.bench.activity [--moves N] [--load-tables N]``.

``--bot-root DIR`` runs the bot of another checkout (a ``git worktree`` of an
older commit), for a before-and-after in one sitting.

The real bot runs as ``python bot.py`` in its own process, on the emulator in
this one, with its Activity on. Two members sit at one table and both play
through the Activity, each with the WebSocket a page holds: a move's journey
is the time from one page sending a move until the other page has the table
that shows it (the state frame with the new position), the time a tap takes
to reach the other participants' screens, less the drawing.

``--group-dm`` seats the two members in a group DM of theirs instead (each
having installed the app), where the bot is no member and the Activity is the
game's only door: `/rummy start` there, then the lobby is joined and started
from the pages.

``--load-tables N`` runs N tables of four simulated people beside it, playing
over the chat's buttons as in ``tests.bench.load`` (thinking ``--think``
seconds before each click). Printed: the journey's median, p90, p99 and max,
and the bot's CPU seconds per 1,000 moves, for the Activity's moves alone and
then for the same heads-up game played with the chat's buttons, measured the
same way in the same run.

Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from fakediscord.core.actors import Actor
from fakediscord.core.server import FakeDiscord
from fakediscord.core.world import Channel
from tests.bot_process import BotProcess
from tests.ports import free_port

from .load import LoadOptions, LoadTable, Scene, _run_table, make_emulator, probe
from .load_players import LoadPlayer

PACE = 0.2  # seconds between one page's moves



class Page:
    """One member's Activity page, as its traffic reaches the bot."""

    def __init__(self, base: str, emu: FakeDiscord, actor: Actor, channel: Channel) -> None:
        self.base, self.emu, self.actor, self.channel = base, emu, actor, channel
        self.http = aiohttp.ClientSession()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.state: dict[str, Any] = {}
        self.seen: dict[str, float] = {}  # position -> when this page first had it
        self.seq = 0
        self.changed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        instance = self.emu.world.launch_activity(self.actor.id, self.channel.id)
        code = self.emu.world.issue_oauth_code(self.actor.id, ["identify"])
        answer = await self.http.post(f"{self.base}/api/token",
                                      json={"code": code, "instance_id": instance.instance_id})
        session = (await answer.json())["session"]
        self.ws = await self.http.ws_connect(f"{self.base}/ws", max_msg_size=0)
        await self.ws.send_str(json.dumps({"type": "hello", "session": session}))
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            frame = json.loads(message.data)
            if frame["type"] == "state":
                self.state = frame
                self.seen.setdefault(frame.get("version", ""), time.perf_counter())
                self.changed.set()

    async def until(self, check: Any) -> None:
        """Wait until ``check(state)`` holds for this page's latest state."""
        while not check(self.state):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)

    async def send(self, op: str, **extra: Any) -> None:
        assert self.ws is not None
        self.seq += 1
        await self.ws.send_str(json.dumps({"type": "intent", "seq": self.seq, "op": op,
                                           "version": self.state["version"], **extra}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.close()


async def start_heads_up(emu: FakeDiscord, host: Actor, guest: Actor, channel: Channel) -> None:
    """Open a lobby, seat the guest, start: over the chat, as people do."""
    player = LoadPlayer(emu, host, channel, 0.0, random.Random(1), host=True)
    other = LoadPlayer(emu, guest, channel, 0.0, random.Random(2))
    table = LoadTable(channel, [player, other])
    task = asyncio.create_task(_run_table(emu, table, hands=50))
    # The two people play by hand here: stop the simulated ones once it is dealt.
    await emu._wait_until(lambda: table.started, 30.0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def start_in_group_dm(emu: FakeDiscord, base: str, host: Actor, guest: Actor
                            ) -> list[Page]:
    """A group DM of the two, a lobby opened there with `/rummy start`, joined
    and started from their pages; the two pages, dealt in."""
    emu.world.enable_user_install()
    for person in (host, guest):
        emu.world.install_for_user(person.user)
    group = emu.create_private_channel([host, guest], name="bench")
    await host.slash(group, "rummy start")
    pages = [Page(base, emu, actor, group) for actor in (host, guest)]
    for page in pages:
        await page.open()
        await page.until(lambda state: state.get("stage") == "lobby")
    await pages[1].send("join")
    await pages[0].until(lambda state: len(state.get("seats", ())) == 2)
    await pages[0].send("start")
    for page in pages:
        await page.until(lambda state: bool(state.get("turn")))
    return pages


async def in_step(pages: list[Page]) -> None:
    """Wait until every page has the same, latest picture of the table."""
    for _ in range(3000):
        versions = {page.state.get("version") for page in pages}
        if len(versions) == 1 and None not in versions:
            return
        await asyncio.sleep(0.01)
    raise TimeoutError("the pages never agreed on the table")


async def activity_moves(pages: list[Page], moves: int) -> list[float]:
    """Play ``moves`` moves (a draw and a discard each turn); each one's journey."""
    journeys: list[float] = []
    while len(journeys) < moves:
        await in_step(pages)
        if pages[0].state["stage"] == "hand_over":
            now = pages[0].state["version"]
            await pages[0].send("next_hand")
            await pages[0].until(lambda state, now=now: state.get("version") != now)
            continue
        turn = pages[0].state["turn"]
        mover = next(p for p in pages if p.state.get("you") == turn)
        other = next(p for p in pages if p is not mover)
        before = mover.state["version"]
        op = "draw" if mover.state["phase"] == "draw" else "discard"
        extra = {} if op == "draw" else {"cards": [mover.state["legal"]["discards"][-1]]}
        sent = time.perf_counter()
        await mover.send(op, **extra)
        await other.until(lambda state, before=before: state.get("version") != before)
        journeys.append(other.seen[other.state["version"]] - sent)
        # A person's pace, well inside the page's limit of 8 frames a second.
        await asyncio.sleep(PACE)
    return journeys


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    return (f"median {statistics.median(ordered) * 1000:.1f} ms, p90 {at(0.9):.1f} ms, "
            f"p99 {at(0.99):.1f} ms, max {ordered[-1] * 1000:.1f} ms ({len(ordered)} moves)")


async def button_moves(emu: FakeDiscord, host: Actor, guest: Actor, channel: Channel,
                       moves: int) -> int:
    """The same heads-up game over the chat's buttons: simulated people playing
    at machine speed until ``moves`` interactions; the interactions sent."""
    players = [LoadPlayer(emu, host, channel, 0.0, random.Random(3), host=True),
               LoadPlayer(emu, guest, channel, 0.0, random.Random(4))]
    before = len(emu.world.interactions)
    table = LoadTable(channel, players)
    task = asyncio.create_task(_run_table(emu, table, hands=50))
    await emu._wait_until(lambda: len(emu.world.interactions) - before >= moves, 600.0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return len(emu.world.interactions) - before


async def run(moves: int, load_tables: int, think: float, bot_root: Path | None = None,
              group_dm: bool = False) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="rummy-activity-"))
    emu: FakeDiscord = make_emulator(LoadOptions())
    await emu.start()
    emu.world.enable_activities()
    port = free_port()
    scene = Scene(emu, load_tables + 2, 4, 10)
    bot = await BotProcess.start(emu, workdir / "rummy.sqlite3", workdir / "bot.log", extra_env={
        "DISCORD_CLIENT_SECRET": emu.world.client_secret, "WEB_PORT": str(port)}, root=bot_root)
    pages: list[Page] = []
    load: list[asyncio.Task[None]] = []
    try:
        await bot.wait_connected(emu)
        await probe(emu, scene.people[0][0], scene.channels[0])
        if load_tables:
            rng = random.Random(1)
            tables = [LoadTable(channel, [
                LoadPlayer(emu, actor, channel, think, random.Random(rng.random()),
                           host=seat == 0) for seat, actor in enumerate(people)])
                for channel, people in zip(scene.channels[2:], scene.people[2:], strict=True)]
            load = [asyncio.create_task(_run_table(emu, table, 50, delay=i * 0.02))
                    for i, table in enumerate(tables)]
            await asyncio.sleep(10)  # the load tables open and deal
        ann, bob = scene.people[0][:2]
        base = f"http://127.0.0.1:{port}"
        if group_dm:
            pages = await start_in_group_dm(emu, base, ann, bob)
        else:
            channel = scene.channels[0]
            await start_heads_up(emu, ann, bob, channel)
            pages = [Page(base, emu, actor, channel) for actor in (ann, bob)]
            for page in pages:
                await page.open()
                await page.until(lambda state: bool(state.get("turn")))
        await activity_moves(pages, 10)  # warm-up
        # The bot's own ticking (timers, heartbeats) while nobody plays, taken
        # off both measurements: the Activity's moves come at a person's pace.
        cpu, clock = bot.cpu_seconds(), time.perf_counter()
        await asyncio.sleep(10)
        idle = (bot.cpu_seconds() - cpu) / (time.perf_counter() - clock)
        cpu, clock = bot.cpu_seconds(), time.perf_counter()
        clicks = len(emu.world.interactions)
        journeys = await activity_moves(pages, moves)
        elapsed = time.perf_counter() - clock
        activity_cpu = bot.cpu_seconds() - cpu - idle * elapsed
        clicks = len(emu.world.interactions) - clicks
        for page in pages:
            await page.close()
        where = "in a group DM" if group_dm else "in a server's channel"
        print(f"Activity {where}, {load_tables} load tables beside it (think {think:g} s):")
        print(f"  a move's journey, tap to the other page: {summary(journeys)}")
        print(f"  meanwhile: {clicks / elapsed:.1f} chat interactions a second from the other "
              f"tables; the bot's CPU {(bot.cpu_seconds() - cpu) / elapsed * 100:.0f} %")
        if not load_tables:
            print(f"  bot CPU at rest: {idle * 100:.2f} % (taken off both figures below)")
            print(f"  bot CPU: {activity_cpu / moves * 1000:.2f} s per 1,000 Activity moves")
            second = scene.channels[1]
            cat, dan = scene.people[1][:2]
            cpu, clock = bot.cpu_seconds(), time.perf_counter()
            sent = await button_moves(emu, cat, dan, second, moves)
            button_cpu = bot.cpu_seconds() - cpu - idle * (time.perf_counter() - clock)
            print(f"  bot CPU: {button_cpu / sent * 1000:.2f} s per 1,000 chat interactions "
                  f"({sent} of them, the same heads-up game over the buttons)")
    finally:
        for task in load:
            task.cancel()
        await asyncio.gather(*load, return_exceptions=True)
        for page in pages:
            await page.close()
        await bot.stop()
        await emu.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--load-tables", type=int, default=0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--group-dm", action="store_true",
                        help="play the measured game in a group DM (the Activity alone)")
    parser.add_argument("--bot-root", type=Path,
                        help="the checkout whose bot runs (a git worktree of another commit)")
    options = parser.parse_args(argv)
    if options.moves < 1 or options.load_tables < 0 or options.think < 0:
        print("error: --moves must be at least 1, --load-tables and --think not negative",
              file=sys.stderr)
        return 2
    asyncio.run(run(options.moves, options.load_tables, options.think, options.bot_root,
                    options.group_dm))
    return 0


if __name__ == "__main__":
    sys.exit(main())
