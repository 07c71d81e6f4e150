"""Attack benchmark: ``python -m tests.bench.attack MODE [--others N] [--bot-root DIR]``.

What one member can do to everybody else's game, measured from the others'
side. The real bot runs as ``python bot.py`` in its own process with its
Activity on; ``--others N`` tables of four simulated people in other servers
play over the chat's buttons (thinking ``--think`` seconds), and their clicks'
answer times (INTERACTION_CREATE written to the bot's socket, to its callback
received) are counted first with nobody attacking, then during the attack.

MODE:

- ``hints``: one member on turn in a heads-up game opens ``--pages`` Activity
  pages with one session, each asking for a hint ``--hint-rate`` times a
  second, for ``--turns`` of their turns (each turn changes the position);
- ``idle``: ``--connections`` TCP connections to the Activity's port that
  send nothing; also prints the bot's memory per held connection and how many
  the bot had closed by the end;
- ``slowloris``: ``--connections`` connections that send a request's headers
  a few bytes at a time and never finish;
- ``pings``: ``--connections`` WebSockets that never say hello but ping every
  4 s, and one more that pings as fast as it can;
- ``relay-flood``, ``relay-frozen``, ``relay120``: the bot sharded over two
  processes on one PostgreSQL, a page relayed from one to the other: a
  member's reconnect loops at the process that relays, the process that plays
  the server frozen, 120 pages relayed at once (``tests.bench.attack_relay``:
  its modes ``flood``, ``frozen`` and ``relay120``, with its options);
- ``signin``, ``together``, ``rotate``, ``idleflood``: the way in, signing in
  and connecting (``tests.bench.attack_signin``, with its options);
- ``local-memory``: local play's memory over many matches at machine speed
  (``tests.bench.attack_local``, with its options).

``--nofile N`` starts the bot with that limit on open files, soft and hard
(as systemd's LimitNOFILE=1024 sets them). ``--bot-root DIR`` runs the bot
of another checkout (a ``git worktree`` of an older commit), for a
before-and-after in one sitting.

Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import random
import shutil
import socket
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from fakediscord.core.server import FakeDiscord
from fakediscord.core.world import Interaction
from tests.bot_process import BotProcess
from tests.ports import free_port

from . import attack_relay, attack_signin
from .activity import Page, start_heads_up
from .load import LoadOptions, LoadTable, Scene, _run_table, make_emulator, probe
from .load_players import LoadPlayer

MODES = ("hints", "idle", "slowloris", "pings")
# Modes another module measures: this one's name for it, and that module's.
RELAY_MODES = {"relay-flood": "flood", "relay-frozen": "frozen", "relay120": "relay120"}
SIGNIN_MODES = {mode: mode for mode in attack_signin.MODES}
LOCAL_MODE = "local-memory"  # tests.bench.attack_local measures one thing: no mode of its own
CALM = 15.0
REFUSALS: dict[str, int] = {}  # seconds the others play with nobody attacking, for the comparison


@dataclass
class Options:
    mode: str
    others: int = 20
    think: float = 1.0
    pages: int = 40
    hint_rate: float = 7.0
    turns: int = 8
    seconds_per_turn: float = 5.0
    connections: int = 1000
    hold: float = 25.0
    nofile: int | None = None
    bot_root: Path | None = None


@dataclass
class Window:
    """The others' clicks sent between two moments."""

    name: str
    started: float
    ended: float = 0.0
    clicks: list[Interaction] = field(default_factory=list)


def latency_line(window: Window) -> str:
    answered = [i.responded_at - i.sent_at for i in window.clicks
                if i.responded_at is not None and i.sent_at is not None]
    late = sum(1 for i in window.clicks if i.responded_at is None
               or (i.sent_at is not None and i.responded_at - i.sent_at > 3.0))
    if not answered:
        return f"{window.name}: no clicks answered ({len(window.clicks)} sent)"
    ordered = sorted(answered)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    return (f"{window.name}: {len(window.clicks)} clicks, median "
            f"{statistics.median(ordered) * 1000:.0f} ms, p99 {at(0.99):.0f} ms, max "
            f"{ordered[-1] * 1000:.0f} ms, {late} unanswered within 3 s")


def clicks_between(emu: FakeDiscord, channels: set[int], window: Window) -> None:
    window.clicks = [i for i in emu.world.interactions.values()
                     if i.channel_id in channels and i.sent_at is not None
                     and window.started <= i.sent_at < window.ended]


# --- the attacks ------------------------------------------------------------------------------
async def hint_flood(emu: FakeDiscord, scene: Scene, port: int, options: Options) -> str:
    """A member on turn floods hints from many pages; the turns go on meanwhile."""
    ann, bob = scene.people[0][:2]
    channel = scene.channels[0]
    await start_heads_up(emu, ann, bob, channel)
    base = f"http://127.0.0.1:{port}"
    pages = [Page(base, emu, actor, channel) for actor in (ann, bob)]
    for page in pages:
        await page.open()
        await page.until(lambda state: bool(state.get("turn")))
    # The attacker's session, taken from their first page; every page says hello with it.
    flooders: list[aiohttp.ClientWebSocketResponse] = []
    http = aiohttp.ClientSession()
    answers = {"hint": 0, "refused": 0, "other": 0, "closed": 0, "ending": 0}
    seq = [10_000]
    try:
        await wait_for_turn(pages)
        attacker = next(p for p in pages if p.state.get("you") == p.state.get("turn"))
        other = next(p for p in pages if p is not attacker)
        flooders = await open_flooders(http, base, attacker, options.pages, answers)
        for _turn in range(options.turns):
            await wait_for_turn(pages)
            while other.state.get("turn") == other.state.get("you"):
                await play_turn(other)
                await wait_for_turn(pages)
            stop = time.perf_counter() + options.seconds_per_turn
            await asyncio.gather(*(
                ask_hints(ws, attacker, seq, options.hint_rate, stop) for ws in flooders))
            if attacker.ws is None or attacker.ws.closed:
                # The bot closed the attacker's first page for the newer ones: the
                # turn is played from a page opened now, as a person would.
                attacker = await reopened(attacker)
                pages[0 if pages[0].actor is attacker.actor else 1] = attacker
            await play_turn(attacker)
    finally:
        answers["ending"] = 1
        for ws in flooders:
            await ws.close()
        await http.close()
        for page in pages:
            await page.close()
    said = (f"hint frames answered: {answers['hint']} hints, {answers['refused']} refused, "
            f"{answers['other']} other; {answers['closed']} of {options.pages} pages closed "
            f"by the bot")
    for text, count in sorted(REFUSALS.items(), key=lambda item: -item[1])[:3]:
        said += f"\n  refused {count} times: {text}"
    return said


async def wait_for_turn(pages: list[Page]) -> None:
    for _ in range(3000):
        states = [p.state for p in pages]
        if (all(s.get("version") == states[0].get("version") for s in states)
                and states[0].get("stage") == "playing"):
            return
        if states[0].get("stage") == "hand_over":
            now = states[0]["version"]
            await pages[0].send("next_hand")
            await pages[0].until(lambda state, now=now: state.get("version") != now)
        await asyncio.sleep(0.01)
    raise TimeoutError("the table never came back to a turn")


async def reopened(page: Page) -> Page:
    await page.close()
    again = Page(page.base, page.emu, page.actor, page.channel)
    await again.open()
    await again.until(lambda state: bool(state.get("turn")))
    return again


async def play_turn(page: Page) -> None:
    before = page.state["version"]
    await page.send("draw")
    await page.until(lambda state: state.get("version") != before and state["phase"] == "play")
    before = page.state["version"]
    await page.send("discard", cards=[page.state["legal"]["discards"][-1]])
    await page.until(lambda state: state.get("version") != before)


async def open_flooders(http: aiohttp.ClientSession, base: str, like: Page, count: int,
                        answers: dict[str, int]) -> list[aiohttp.ClientWebSocketResponse]:
    instance = like.emu.world.launch_activity(like.actor.id, like.channel.id)
    code = like.emu.world.issue_oauth_code(like.actor.id, ["identify"])
    answer = await http.post(f"{base}/api/token",
                             json={"code": code, "instance_id": instance.instance_id})
    session = (await answer.json())["session"]
    sockets = []
    for _ in range(count):
        try:
            ws = await http.ws_connect(f"{base}/ws", max_msg_size=0)
        except aiohttp.ClientError:
            answers["closed"] += 1
            continue
        await ws.send_str(json.dumps({"type": "hello", "session": session}))
        sockets.append(ws)
        asyncio.get_running_loop().create_task(drain(ws, answers))
    return sockets


async def drain(ws: aiohttp.ClientWebSocketResponse, answers: dict[str, int]) -> None:
    with contextlib.suppress(Exception):
        async for message in ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            kind = frame.get("type")
            if kind in ("hint", "refused"):
                answers[kind] += 1
                if kind == "refused":
                    text = str(frame.get("text", ""))
                    REFUSALS[text] = REFUSALS.get(text, 0) + 1
            elif kind != "state":
                answers["other"] += 1
    if not answers["ending"]:
        answers["closed"] += 1


async def ask_hints(ws: aiohttp.ClientWebSocketResponse, like: Page, seq: list[int],
                    rate: float, stop: float) -> None:
    while time.perf_counter() < stop and not ws.closed:
        seq[0] += 1
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(json.dumps({"type": "intent", "seq": seq[0], "op": "hint",
                                          "version": like.state["version"]}))
        await asyncio.sleep(1 / rate)


async def idle_connections(port: int, options: Options, bot: BotProcess) -> str:
    before_kb = bot.memory_kb()[0]
    held: list[socket.socket] = []
    for _ in range(options.connections):
        try:
            held.append(await asyncio.to_thread(socket.create_connection, ("127.0.0.1", port), 5))
        except OSError:
            break
    await asyncio.sleep(2.0)
    per_connection = (bot.memory_kb()[0] - before_kb) * 1024 / max(1, len(held))
    await asyncio.sleep(options.hold)
    still = sum(1 for sock in held if open_still(sock))
    for sock in held:
        sock.close()
    return (f"{len(held)} idle connections held: the bot's memory grew "
            f"{per_connection / 1024:.1f} KiB each; {still} still open after {options.hold:g} s")


async def slowloris(port: int, options: Options) -> str:
    held: list[socket.socket] = []
    for _ in range(options.connections):
        try:
            sock = await asyncio.to_thread(socket.create_connection, ("127.0.0.1", port), 5)
        except OSError:
            break
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        held.append(sock)
    stop = time.perf_counter() + options.hold
    while time.perf_counter() < stop:
        for sock in held:
            with contextlib.suppress(OSError):
                sock.sendall(b"X-a: b\r\n")
        await asyncio.sleep(3.0)
    still = sum(1 for sock in held if open_still(sock))
    for sock in held:
        sock.close()
    return f"{len(held)} slow requests: {still} still open after {options.hold:g} s"


async def ping_flood(port: int, options: Options) -> str:
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    try:
        for _ in range(options.connections):
            try:
                sockets.append(await http.ws_connect(f"http://127.0.0.1:{port}/ws",
                                                     autoping=False, heartbeat=None))
            except aiohttp.ClientError:
                break
        fast = await http.ws_connect(f"http://127.0.0.1:{port}/ws", autoping=False)
        stop = time.perf_counter() + options.hold
        sent = 0

        async def ping_slowly() -> None:
            while time.perf_counter() < stop:
                for ws in sockets:
                    if not ws.closed:
                        with contextlib.suppress(ConnectionError, RuntimeError):
                            await ws.ping()
                await asyncio.sleep(4.0)

        async def ping_fast() -> None:
            nonlocal sent
            while time.perf_counter() < stop and not fast.closed:
                try:
                    await fast.ping()
                except (ConnectionError, RuntimeError):
                    return
                sent += 1
                if sent % 200 == 0:
                    await asyncio.sleep(0)

        await asyncio.gather(ping_slowly(), ping_fast())
        # What the bot sent (a closing frame, its close) is read before counting.
        for ws in [*sockets, fast]:
            await read_to_close(ws)
        still = sum(1 for ws in sockets if not ws.closed)
        return (f"{len(sockets)} silent pinging sockets: {still} still open after "
                f"{options.hold:g} s; the fast pinger sent {sent} pings and was "
                f"{'closed' if fast.closed else 'still open'}")
    finally:
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        await http.close()


async def read_to_close(ws: aiohttp.ClientWebSocketResponse) -> None:
    with contextlib.suppress(asyncio.TimeoutError, ConnectionError, RuntimeError):
        while not ws.closed:
            message = await ws.receive(timeout=0.05)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                aiohttp.WSMsgType.ERROR):
                return


def open_still(sock: socket.socket) -> bool:
    """Whether the bot still holds ``sock`` open (what it sent before closing is read)."""
    sock.setblocking(False)
    try:
        while sock.recv(4096):
            pass
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


# --- the run ----------------------------------------------------------------------------------
async def run(options: Options) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="rummy-attack-"))
    emu: FakeDiscord = make_emulator(LoadOptions())
    await emu.start()
    emu.world.enable_activities()
    port = free_port()
    # One server a table: the others play in servers of their own.
    scene = Scene(emu, options.others + 1, 4, 1)
    env = {"DISCORD_CLIENT_SECRET": emu.world.client_secret, "WEB_PORT": str(port)}
    bot = await BotProcess.start(emu, workdir / "rummy.sqlite3", workdir / "bot.log",
                                 extra_env=env, root=options.bot_root,
                                 open_files=options.nofile)
    load: list[asyncio.Task[None]] = []
    try:
        await bot.wait_connected(emu)
        await probe(emu, scene.people[0][0], scene.channels[0])
        rng = random.Random(1)
        tables = [LoadTable(channel, [
            LoadPlayer(emu, actor, channel, options.think, random.Random(rng.random()),
                       host=seat == 0) for seat, actor in enumerate(people)])
            for channel, people in zip(scene.channels[1:], scene.people[1:], strict=True)]
        load = [asyncio.create_task(_run_table(emu, table, 50, delay=i * 0.05))
                for i, table in enumerate(tables)]
        others = {table.channel.id for table in tables}
        await asyncio.sleep(8)  # the others open their tables and deal
        calm = Window("the others' clicks, nobody attacking", time.perf_counter())
        await asyncio.sleep(CALM)
        calm.ended = time.perf_counter()
        attack = Window(f"the others' clicks during the {options.mode} attack",
                        time.perf_counter())
        cpu = bot.cpu_seconds()
        if options.mode == "hints":
            said = await hint_flood(emu, scene, port, options)
        elif options.mode == "idle":
            said = await idle_connections(port, options, bot)
        elif options.mode == "slowloris":
            said = await slowloris(port, options)
        else:
            said = await ping_flood(port, options)
        attack.ended = time.perf_counter()
        cpu_share = (bot.cpu_seconds() - cpu) / (attack.ended - attack.started)
        await asyncio.sleep(3.5)  # the last clicks' answers (or their absence) are in
        for window in (calm, attack):
            clicks_between(emu, others, window)
        print(f"{options.mode}, {options.others} tables of four beside it "
              f"(think {options.think:g} s), bot from {options.bot_root or 'this checkout'}:")
        print(f"  {said}")
        print(f"  the bot's CPU during the attack: {cpu_share * 100:.0f} % of a core")
        print(f"  {latency_line(calm)}")
        print(f"  {latency_line(attack)}")
        errors, warnings = bot.log_counts()
        print(f"  the bot logged {errors} errors and {warnings} warnings "
              f"({bot.log_path.stat().st_size} bytes of log)")
        if errors:
            lines = bot.log_tail(100_000).splitlines()
            first = next(n for n, line in enumerate(lines) if "ERROR" in line)
            print("  the first error:\n    " + "\n    ".join(lines[first:first + 12]))
    finally:
        for task in load:
            task.cancel()
        await asyncio.gather(*load, return_exceptions=True)
        await bot.stop()
        await emu.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def elsewhere(argv: list[str]) -> int | None:
    """Run a mode another module measures, with the rest of the command line
    (``--bot-root`` among it) as that module reads it; None for this one's."""
    for at, word in enumerate(argv):
        if word == LOCAL_MODE:
            # Loaded for its mode alone: it brings local play's test fixtures along.
            local = importlib.import_module(".attack_local", __package__)
            return int(local.main([*argv[:at], *argv[at + 1:]]))
        for modes, entry in ((RELAY_MODES, attack_relay.main), (SIGNIN_MODES, attack_signin.main)):
            if word in modes:
                return entry([*argv[:at], modes[word], *argv[at + 1:]])
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if (code := elsewhere(argv)) is not None:
        return code
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=(*MODES, *RELAY_MODES, *SIGNIN_MODES, LOCAL_MODE))
    parser.add_argument("--others", type=int, default=Options.others)
    parser.add_argument("--think", type=float, default=Options.think)
    parser.add_argument("--pages", type=int, default=Options.pages)
    parser.add_argument("--hint-rate", type=float, default=Options.hint_rate)
    parser.add_argument("--turns", type=int, default=Options.turns)
    parser.add_argument("--connections", type=int, default=Options.connections)
    parser.add_argument("--hold", type=float, default=Options.hold)
    parser.add_argument("--nofile", type=int)
    parser.add_argument("--bot-root", type=Path)
    args = parser.parse_args(argv)
    if args.others < 1 or args.pages < 1 or args.turns < 1 or args.connections < 1:
        print("error: --others, --pages, --turns and --connections must be at least 1",
              file=sys.stderr)
        return 2
    if args.hint_rate <= 0 or args.think < 0 or args.hold <= 0:
        print("error: --hint-rate and --hold must be positive, --think not negative",
              file=sys.stderr)
        return 2
    options = Options(args.mode, args.others, args.think, args.pages, args.hint_rate,
                      args.turns, connections=args.connections, hold=args.hold,
                      nofile=args.nofile, bot_root=args.bot_root)
    asyncio.run(run(options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
