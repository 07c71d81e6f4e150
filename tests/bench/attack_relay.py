"""Relay attack benchmark: ``python -m tests.bench.attack_relay MODE [--bot-root DIR]``.

What one member can do through the Activity's relay to a bot sharded over
two processes on one PostgreSQL (embedded), and what a frozen process does to
the pages relayed to it. Two ``python bot.py`` run on the emulator in this
one: "zero" holds shard 0, "one" shard 1 (``SHARD_COUNT=2``), with the lease
timings of production unless ``--lease-ttl`` says otherwise. A game is dealt
in a server of shard 1 and its first mover signs in: their page that reaches
zero is relayed to one. Real HTTP and WebSockets on 127.0.0.1.

MODE:

- ``flood``: the member reconnects in ``--loops`` loops at once (connect,
  hello, one answer, close) at zero for ``--seconds``, while a player of a
  server of shard 0 keeps a page open at zero, looking at the hand's log once
  a second: the hellos a second and their answers, zero's missed lease
  renewals, whether it stepped down, its warnings and CPU, whether the other
  page stayed and was answered;
- ``frozen``: the member's page is relayed through zero to one, then one is
  stopped (SIGSTOP) for ``--freeze`` seconds: the seconds until that page is
  closed and its code, the same for a page opened at zero as the freeze
  begins, then (SIGCONT) until a fresh page at zero has its table again;
- ``relay120``: ``--members`` members of the game's server each open 3 pages
  at zero at once: how many had the table, and how many were closed (with
  which codes), within 15 s.

``--bot-root DIR`` runs the bot of another checkout for both processes (a
``git worktree`` of an older commit), for a before-and-after in one sitting.
Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from fakediscord.core.actors import Actor
from fakediscord.core.server import FakeDiscord
from fakediscord.core.world import Channel, Guild
from tests.bot.harness import TablePlayer
from tests.bot.test_standby import deal_and_draw, until_logged
from tests.bot_process import ANSI, BotProcess
from tests.ports import free_port
from tests.postgres_server import PostgresServer
from web.page_protocol import CLOSE_CODES

from .load import LoadOptions, make_emulator

MODES = ("flood", "frozen", "relay120")
TRY_AGAIN = 1013  # web.relay's code: the page reconnects a moment later
CODE_NAMES = {code: name for name, code in CLOSE_CODES.items()} | {
    TRY_AGAIN: "try again", 1000: "normal", 1001: "going away", 1006: "abnormal",
    1011: "server error"}
NOT_CONNECTED = "not connected"
ANSWER_WITHIN = 5.0  # a flood connection waits this long for its one answer, as the test does
LOOK_WITHIN = 5.0
RELAY_WINDOW = 15.0
THAW_WITHIN = 30.0  # after the thaw, fresh pages are tried this long
PAGES_EACH = 3
LEASES_MISSED = "cannot confirm the shard leases"
NO_LOOKUP = "cannot tell which process"
# What alike warnings differ in: seconds, addresses, ids (a count of pages stays).
ALIKE = re.compile(r"(?:\d+[.:])*\d+\.\d+(?:[.:]\d+)*|\d{4,}")


@dataclass
class Options:
    mode: str
    loops: int = 40
    seconds: float = 30.0
    freeze: float = 12.0
    members: int = 40
    lease_ttl: float | None = None
    bot_root: Path | None = None


@dataclass
class Cluster:
    """The two processes, the emulator they are on, and the member of the game."""

    emu: FakeDiscord
    bots: dict[str, BotProcess]
    ports: dict[str, int]
    tables: dict[int, tuple[Guild, Channel, list[TablePlayer]]]
    http: aiohttp.ClientSession
    watchers: list[Actor] = field(default_factory=list)
    # Where each process's log stood when the measurement began.
    marks: dict[str, int] = field(default_factory=dict)
    session: str = ""

    def base(self, name: str) -> str:
        return f"http://127.0.0.1:{self.ports[name]}"


def named(code: int | None) -> str:
    return "no code" if code is None else f"{code} ({CODE_NAMES.get(code, '?')})"


def log_lines(bot: BotProcess, text: str, since: int = 0) -> list[str]:
    """The lines of the bot's log holding ``text``, from byte ``since`` on."""
    with bot.log_path.open("rb") as log:
        log.seek(since)
        lines = ANSI.sub("", log.read().decode(errors="replace")).splitlines()
    return [line for line in lines if text in line]


# --- pages ------------------------------------------------------------------------------------
class Page:
    """One page's WebSocket at a process: when it had its table, when and how
    it was closed. Its reader is never cancelled by a wait, so a page not
    closed within a limit can still be seen closing later."""

    def __init__(self, http: aiohttp.ClientSession, base: str, session: str) -> None:
        self.http, self.base, self.session = http, base, session
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[dict[str, Any]] = []
        self.opened_at = 0.0
        self.table_at: float | None = None  # the game's table, being played
        self.other_stage = ""  # the stage of a picture that was not the game in play
        self.closed_at: float | None = None
        self.code: int | None = None
        self.failed = ""  # why the connection could not even be opened
        self.seq = 0
        self.settled = asyncio.Event()  # the table came, or the page was closed
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        self.opened_at = time.monotonic()
        try:
            self.ws = await self.http.ws_connect(f"{self.base}/ws")
            await self.ws.send_str(json.dumps({"type": "hello", "session": self.session}))
        except (aiohttp.ClientError, OSError) as error:
            self.failed = type(error).__name__
            self._end()
            return
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            async for message in self.ws:
                if message.type is not aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                self.frames.append(frame)
                if frame.get("type") != "state" or self.table_at is not None:
                    continue
                # An empty table ("none") is what a process that does not play the
                # server would show: not the game, however fast it came.
                if frame.get("stage") == "playing":
                    self.table_at = time.monotonic()
                else:
                    self.other_stage = str(frame.get("stage"))
                self.settled.set()
        self.code = self.ws.close_code
        self._end()

    def _end(self) -> None:
        self.closed_at = time.monotonic()
        self.settled.set()

    async def settled_within(self, seconds: float) -> bool:
        """Whether the table came, or the page was closed, within ``seconds``."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settled.wait(), seconds)
        return self.settled.is_set()

    async def look(self) -> float | None:
        """Seconds an intent that only looks (the hand's log) took to be
        answered, or None if no answer came within ``LOOK_WITHIN``."""
        if self.ws is None or self.closed_at is not None:
            return None
        self.seq += 1
        seq, seen, started = self.seq, len(self.frames), time.monotonic()
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_str(json.dumps({"type": "intent", "seq": seq, "op": "log"}))
        while time.monotonic() - started < LOOK_WITHIN and self.closed_at is None:
            if any(f.get("seq") == seq for f in self.frames[seen:]):
                return time.monotonic() - started
            await asyncio.sleep(0.002)
        return None

    def outcome(self) -> str:
        if self.failed:
            return f"not connected ({self.failed})"
        if self.table_at is not None:
            return "the table"
        if self.other_stage:
            return f"a table at stage {self.other_stage}"
        return "no answer" if self.closed_at is None else f"closed {named(self.code)}"

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


async def sign_in(cluster: Cluster, where: str, actor: Actor, channel: Channel) -> str:
    """A session for ``actor``, launched into the Activity in ``channel`` and
    signed in at process ``where``, waiting as long as a refusal asks."""
    instance = cluster.emu.world.launch_activity(actor.id, channel.id)
    for _ in range(30):
        code = cluster.emu.world.issue_oauth_code(actor.id, ["identify"])
        async with cluster.http.post(f"{cluster.base(where)}/api/token", json={
                "code": code, "instance_id": instance.instance_id}) as answer:
            if answer.status == 200:
                return str((await answer.json())["session"])
            if answer.status != 429:
                raise RuntimeError(f"sign-in refused: {answer.status} {await answer.text()}")
            wait = float(answer.headers.get("Retry-After", "1"))
        await asyncio.sleep(wait)
    raise RuntimeError("the sign-in was told to wait 30 times")


# --- the processes ----------------------------------------------------------------------------
def tables_on_shards(emu: FakeDiscord) -> dict[int, tuple[Guild, Channel, list[TablePlayer]]]:
    """A server on each of the two shards, with a channel and two players each."""
    tables: dict[int, tuple[Guild, Channel, list[TablePlayer]]] = {}
    while len(tables) < 2:
        guild = emu.create_guild("Club")
        shard = (guild.id >> 22) % 2
        if shard not in tables:
            channel = emu.create_text_channel(guild, "rummy")
            people = [emu.create_user(f"{name}{guild.id % 1000}", guild=guild)
                      for name in ("Ann", "Bob")]
            tables[shard] = (guild, channel, [TablePlayer(emu, p, channel) for p in people])
    return tables


@contextlib.asynccontextmanager
async def cluster_of_two(options: Options) -> AsyncIterator[Cluster]:
    workdir = Path(tempfile.mkdtemp(prefix="rummy-attack-relay-"))
    postgres = PostgresServer()
    emu = make_emulator(LoadOptions())
    bots: dict[str, BotProcess] = {}
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    try:
        await asyncio.to_thread(postgres.start)
        url = await asyncio.to_thread(postgres.new_database)
        await emu.start()
        emu.world.enable_activities()
        tables = tables_on_shards(emu)
        watchers = [emu.create_user(f"watcher{n}", guild=tables[1][0])
                    for n in range(options.members if options.mode == "relay120" else 0)]
        ports = {name: free_port() for name in ("zero", "one")}
        for name, shard in (("zero", "0"), ("one", "1")):
            env = {"DATABASE_URL": url, "SHARD_COUNT": "2", "SHARD_IDS": shard,
                   "DISCORD_CLIENT_SECRET": emu.world.client_secret,
                   "WEB_HOST": "127.0.0.1", "WEB_PORT": str(ports[name])}
            if options.lease_ttl is not None:
                env["LEASE_TTL"] = f"{options.lease_ttl:g}"
            bots[name] = await BotProcess.start(
                emu, workdir / "unused", workdir / f"{name}.log", log_level="INFO",
                extra_env=env, root=options.bot_root)
        for bot in bots.values():
            # Ready once each of its shards is: both on the gateway, as the test waits for.
            await until_logged(bot, "logged in as", 60)
            await until_logged(bot, "the Activity's table is served", 60)
            # The card faces' upload draws on the bot's allowance of requests to
            # Discord, which the pages' hellos draw on too: measured after it.
            await until_logged(bot, "card faces:", 120)
        yield Cluster(emu, bots, ports, tables, http, watchers)
    finally:
        await http.close()
        for bot in bots.values():
            if bot.process.returncode is None:
                # A run cut short mid-freeze must not leave a stopped process behind.
                with contextlib.suppress(ProcessLookupError):
                    bot.process.send_signal(signal.SIGCONT)
            await bot.stop()
        await emu.stop()
        await asyncio.to_thread(postgres.remove)
        shutil.rmtree(workdir, ignore_errors=True)


async def seat_member(cluster: Cluster) -> None:
    """Deal the game of shard 1's server and sign its first mover in at one
    (the process that plays it: a session is good in every process)."""
    _guild, channel, players = cluster.tables[1]
    mover = await deal_and_draw(channel, players)
    cluster.session = await sign_in(cluster, "one", mover.actor, channel)


async def settle_exit(cluster: Cluster, name: str) -> None:
    """A process that said it is stopping is given the time to exit: it
    closes its gateway and pages first, and whether it exits is told."""
    bot = cluster.bots[name]
    if log_lines(bot, "stopping", cluster.marks.get(name, 0)):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(bot.process.wait(), 15)


def process_lines(cluster: Cluster, name: str) -> list[str]:
    """What a process said of its leases and of where servers are played, and
    its warnings since the measurement began."""
    bot = cluster.bots[name]
    errors, warnings = bot.log_counts()
    stopping = log_lines(bot, "stopping")
    state = ("still running" if bot.process.returncode is None
             else f"exited with {bot.process.returncode}")
    said = [f"{name}: {state}; {len(log_lines(bot, LEASES_MISSED))} lease renewals missed "
            f"('{LEASES_MISSED}'), {len(stopping)} lines saying 'stopping'",
            f"{name} logged {errors} errors and {warnings} warnings, "
            f"{len(log_lines(bot, NO_LOOKUP))} of them '{NO_LOOKUP}'"]
    said += [f"  {line[:200]}" for line in first_error(bot)]
    since = warned(bot, cluster.marks.get(name, 0)).most_common()
    said += [f"  since the measurement began, {count} x: {text}" for text, count in since[:4]]
    return said


def first_error(bot: BotProcess) -> list[str]:
    """The first error the bot logged, with the end of its traceback."""
    lines = ANSI.sub("", bot.log_tail(100_000)).splitlines()
    at = next((n for n, line in enumerate(lines) if " ERROR " in line), None)
    if at is None:
        return []
    after = list(itertools.takewhile(lambda line: not line[:4].isdigit(), lines[at + 1:]))
    return [lines[at], *after[-6:]]


def warned(bot: BotProcess, since: int) -> Counter[str]:
    """The bot's warnings, alike ones counted together: they differ in ids,
    addresses and seconds alone (a count of pages stays)."""
    return Counter(ALIKE.sub("N", line.split(" WARNING ", 1)[1].strip())[:140]
                   for line in log_lines(bot, " WARNING ", since))


# --- the modes --------------------------------------------------------------------------------
async def hello_once(http: aiohttp.ClientSession, base: str, session: str) -> str:
    """Connect, say hello, read one answer (and the close after a closing
    frame), close: what the process answered."""
    try:
        ws = await http.ws_connect(f"{base}/ws")
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        return f"{NOT_CONNECTED} ({type(error).__name__})"
    async with ws:
        await ws.send_str(json.dumps({"type": "hello", "session": session}))
        try:
            message = await ws.receive(timeout=ANSWER_WITHIN)
        except TimeoutError:
            return f"no answer within {ANSWER_WITHIN:g} s"
        if message.type is aiohttp.WSMsgType.TEXT:
            kind = str(json.loads(message.data).get("type"))
            if kind != "closing":
                return kind
            message = await ws.receive(timeout=1.0)
        if ws.closed or message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING):
            return f"closed {named(ws.close_code)}"
        return message.type.name.lower()


async def reconnect_loops(base: str, session: str, loops: int, stop: float,
                          answers: Counter[str]) -> None:
    """One member's connect, hello and close, in ``loops`` loops at once until
    ``stop``, as fast as the process answers; what each was answered."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:

        async def loop() -> None:
            while time.monotonic() < stop:
                try:
                    answer = await hello_once(http, base, session)
                except (aiohttp.ClientError, OSError, TimeoutError) as error:
                    answer = f"failed after the hello ({type(error).__name__})"
                answers[answer] += 1
                if answer.startswith(NOT_CONNECTED):
                    await asyncio.sleep(0.01)  # a process gone refuses at once: no busy loop

        await asyncio.gather(*(loop() for _ in range(loops)))


async def cpu_share(bot: BotProcess, stop: float) -> float:
    """The share of a core ``bot`` used until ``stop``, or until it exited
    (its last reading before: /proc forgets a process that is gone)."""
    first = last = bot.cpu_seconds()
    started = at = time.monotonic()
    while time.monotonic() < stop and bot.process.returncode is None:
        await asyncio.sleep(0.25)
        reading = bot.cpu_seconds()
        if reading and bot.process.returncode is None:
            last, at = reading, time.monotonic()
    return (last - first) / max(at - started, 0.001)


async def keep_looking(page: Page, stop: float, times: list[float | None]) -> None:
    while time.monotonic() < stop and page.closed_at is None:
        times.append(await page.look())
        await asyncio.sleep(1.0)


def looks_line(times: list[float | None]) -> str:
    answered = sorted(t for t in times if t is not None)
    if not answered:
        return f"no look answered ({len(times)} asked)"
    return (f"{len(answered)} of {len(times)} looks answered, median "
            f"{statistics.median(answered) * 1000:.0f} ms, max {answered[-1] * 1000:.0f} ms")


async def flood(cluster: Cluster, options: Options) -> None:
    print(f"  {options.loops} loops of connect, hello, close at zero for {options.seconds:g} s")
    _guild, channel, players = cluster.tables[0]
    neighbour_player = await deal_and_draw(channel, players)
    session = await sign_in(cluster, "zero", neighbour_player.actor, channel)
    neighbour = Page(cluster.http, cluster.base("zero"), session)
    await neighbour.open()
    await neighbour.settled_within(10)
    zero, one = cluster.bots["zero"], cluster.bots["one"]
    answers: Counter[str] = Counter()
    looks: list[float | None] = []
    started = time.monotonic()
    stop = started + options.seconds
    _, _, *shares = await asyncio.gather(
        reconnect_loops(cluster.base("zero"), cluster.session, options.loops, stop, answers),
        keep_looking(neighbour, stop, looks), cpu_share(zero, stop), cpu_share(one, stop))
    elapsed = time.monotonic() - started
    sent = sum(count for what, count in answers.items() if not what.startswith(NOT_CONNECTED))
    await asyncio.sleep(2.0)  # a step-down under way reaches the log, a close the page
    await settle_exit(cluster, "zero")
    after = await neighbour.look()
    print(f"  {sent} hellos in {options.seconds:g} s: {sent / options.seconds:.0f} a second "
          f"(the last answered {elapsed - options.seconds:.1f} s after)")
    print("  answered: " + ", ".join(f"{what} {count}" for what, count in answers.most_common()))
    for line in process_lines(cluster, "zero"):
        print(f"  {line}")
    print(f"  CPU during the flood: zero {shares[0] * 100:.0f} %, one {shares[1] * 100:.0f} % "
          f"of a core")
    state = "still connected"
    if neighbour.closed_at is not None:
        state = f"closed {named(neighbour.code)} {neighbour.closed_at - started:.1f} s in"
    print(f"  the shard-0 player's page at zero: {state}; during the flood {looks_line(looks)}; "
          f"a look after it: "
          f"{'unanswered' if after is None else f'{after * 1000:.0f} ms'}")
    await neighbour.close()


async def frozen(cluster: Cluster, options: Options) -> None:
    print(f"  one stopped for {options.freeze:g} s")
    one = cluster.bots["one"]
    relayed = Page(cluster.http, cluster.base("zero"), cluster.session)
    await relayed.open()
    if not await relayed.settled_within(10) or not relayed.table_at:
        print(f"  the relayed page never had its table: {relayed.outcome()}")
        return
    one.process.send_signal(signal.SIGSTOP)
    frozen_at = time.monotonic()
    thaw = frozen_at + options.freeze
    try:
        newcomer = Page(cluster.http, cluster.base("zero"), cluster.session)
        await newcomer.open()
        # The whole freeze, whenever the pages are closed: its length decides the holder's leases.
        await asyncio.sleep(max(0.0, thaw - time.monotonic()))
    finally:
        one.process.send_signal(signal.SIGCONT)
    thawed_at = time.monotonic()
    exited = asyncio.create_task(exit_moment(one))
    seconds, tries = await table_again(cluster, thawed_at)
    await settle_exit(cluster, "one")
    for what, page, since, moment in (
            ("the relayed page", relayed, frozen_at, "the SIGSTOP"),
            ("a page opened at zero as the freeze began", newcomer, newcomer.opened_at,
             "it opened")):
        print(f"  {what}: {fate(page, since, moment, thaw, thawed_at)}")
    print("  after the SIGCONT, a fresh page at zero: "
          + (f"had its table {seconds:.1f} s later" if seconds is not None
             else f"no table within {THAW_WITHIN:g} s")
          + " (tries: " + ", ".join(f"{what} x{count}" for what, count in tries.items()) + ")")
    if exited.done():
        # It served a moment after the thaw, then stepped down: what a page finds now.
        later = Page(cluster.http, cluster.base("zero"), cluster.session)
        await later.open()
        await later.settled_within(5)
        await later.close()
        print(f"  one exited {exited.result() - thawed_at:.1f} s after the SIGCONT; a page at "
              f"zero then: {later.outcome()}")
    exited.cancel()
    for line in process_lines(cluster, "one"):
        print(f"  {line}")
    for page in (relayed, newcomer):
        await page.close()


def fate(page: Page, since: float, moment: str, thaw: float, thawed_at: float) -> str:
    """When and how a page was closed: within the freeze, or after the thaw."""
    if page.closed_at is not None and page.closed_at <= thaw:
        return (f"closed {named(page.code)} {page.closed_at - since:.1f} s after {moment}"
                + ("" if page.table_at else ", without the table"))
    said = f"not closed within the freeze ({page.outcome()})"
    if page.closed_at is None:
        return f"{said}, still open {time.monotonic() - thawed_at:.0f} s after the SIGCONT"
    return f"{said}, closed {named(page.code)} {page.closed_at - thawed_at:.1f} s after the SIGCONT"


async def exit_moment(bot: BotProcess) -> float:
    await bot.process.wait()
    return time.monotonic()


async def table_again(cluster: Cluster, thawed_at: float) -> tuple[float | None, Counter[str]]:
    """Seconds from ``thawed_at`` until a fresh page at zero has its table;
    what the tries were answered."""
    tries: Counter[str] = Counter()
    while time.monotonic() - thawed_at < THAW_WITHIN:
        page = Page(cluster.http, cluster.base("zero"), cluster.session)
        await page.open()
        await page.settled_within(5)
        tries[page.outcome()] += 1
        await page.close()
        if page.table_at is not None:
            return page.table_at - thawed_at, tries
        await asyncio.sleep(1.0)  # within the member's allowance of hellos
    return None, tries


async def relay120(cluster: Cluster, options: Options) -> None:
    _guild, channel, _players = cluster.tables[1]
    sessions = [await sign_in(cluster, "one", watcher, channel) for watcher in cluster.watchers]
    pages = [Page(cluster.http, cluster.base("zero"), session)
             for session in sessions for _ in range(PAGES_EACH)]
    end = time.monotonic() + RELAY_WINDOW
    cpu = [asyncio.create_task(cpu_share(bot, end)) for bot in cluster.bots.values()]
    await asyncio.gather(*(page.open() for page in pages))
    shares = await asyncio.gather(*cpu)  # each watches until the end of the window
    tables = sorted(p.table_at - p.opened_at for p in pages
                    if p.table_at is not None and p.table_at <= end)
    closed = Counter(named(p.code) if not p.failed else f"not connected ({p.failed})"
                     for p in pages if p.closed_at is not None and p.closed_at <= end)
    neither = sum(1 for p in pages if p.table_at is None and p.closed_at is None)
    print(f"  {len(pages)} pages ({len(sessions)} members x {PAGES_EACH}) at zero for shard 1's "
          f"server, within {RELAY_WINDOW:g} s:")
    timing = (f" (median {statistics.median(tables):.2f} s, slowest {tables[-1]:.2f} s after "
              "opening)") if tables else ""
    print(f"  {len(tables)} had the table{timing}")
    print(f"  {sum(closed.values())} were closed: "
          + (", ".join(f"{code} x{count}" for code, count in closed.most_common()) or "none")
          + f"; {neither} had neither")
    print(f"  CPU over the {RELAY_WINDOW:g} s: zero {shares[0] * 100:.0f} %, one "
          f"{shares[1] * 100:.0f} % of a core")
    for name in cluster.bots:
        for line in process_lines(cluster, name)[1:]:
            print(f"  {line}")
    await asyncio.gather(*(page.close() for page in pages))


# --- the run ----------------------------------------------------------------------------------
async def run(options: Options) -> None:
    async with cluster_of_two(options) as cluster:
        await seat_member(cluster)
        lease = ("production leases" if options.lease_ttl is None
                 else f"LEASE_TTL {options.lease_ttl:g}")
        cluster.marks = {name: bot.log_path.stat().st_size
                         for name, bot in cluster.bots.items()}
        print(f"{options.mode}, bot from {options.bot_root or 'this checkout'} ({lease}):")
        await {"flood": flood, "frozen": frozen, "relay120": relay120}[options.mode](
            cluster, options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=MODES)
    for name, kind, said in (("loops", int, "flood: the member's reconnect loops at once"),
                             ("seconds", float, "flood: how long the member reconnects"),
                             ("freeze", float, "frozen: seconds process one is stopped"),
                             ("members", int, f"relay120: members opening {PAGES_EACH} pages")):
        parser.add_argument(f"--{name}", type=kind, default=getattr(Options, name), help=said)
    parser.add_argument("--lease-ttl", type=float, help="LEASE_TTL of both (else production's)")
    parser.add_argument("--bot-root", type=Path)
    args = parser.parse_args(argv)
    if min(args.loops, args.members) < 1 or min(args.seconds, args.freeze) <= 0:
        print("error: --loops and --members must be at least 1, --seconds and --freeze "
              "positive", file=sys.stderr)
        return 2
    options = Options(args.mode, args.loops, args.seconds, args.freeze, args.members,
                      args.lease_ttl, args.bot_root)
    asyncio.run(run(options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
