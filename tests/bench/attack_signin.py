"""Sign-in and connection attack benchmark:
``python -m tests.bench.attack_signin MODE [--bot-root DIR]``.

What one client can do to everybody else's way in to the Activity, measured
from the others' side. The real bot runs as ``python bot.py`` in its own
process with its Activity on, on the emulator in this one, as in
``tests.bench.attack``; the requests are real HTTP on 127.0.0.1. "Through the
proxy" means from 127.0.0.1 (a reverse proxy on the bot's machine) with
``X-Forwarded-For: 203.0.113.7``, as the host's proxy passes on everything
Discord's own proxy sends it.

MODE:

- ``signin``: ``--sign-ins`` real sign-ins spread over ``--seconds``, through
  the proxy, while an attacker sends ``--rate`` empty POSTs a second to
  ``/api/token`` through the same proxy;
- ``together``: ``--players`` real players signing in at the same moment
  through the proxy;
- ``rotate``: an attacker on another address of the network (127.0.0.2) sends
  ``--rate`` bad codes a second, each with an ``X-Forwarded-For`` of its own
  invention, while a player on an address of their own (127.0.0.3) signs in
  once a second for ``--seconds``;
- ``idleflood``: an attacker opens ``--rate`` connections a second that send
  nothing, each kept until the bot closes it, against a bot limited to
  ``--nofile`` open files (1,024: 768 connections for visitors), while
  another client makes ``--requests`` requests for the page, each on a
  connection of its own.

``--bot-root DIR`` runs the bot of another checkout (a ``git worktree`` of an
older commit), for a before-and-after in one sitting.

Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import shutil
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from fakediscord.core.actors import Actor
from fakediscord.core.server import FakeDiscord
from fakediscord.core.world import Channel
from tests.bot_process import BotProcess
from tests.ports import free_port

from .load import LoadOptions, Scene, make_emulator, probe

MODES = ("signin", "together", "rotate", "idleflood")
PROXIED = {"X-Forwarded-For": "203.0.113.7"}


@dataclass
class Options:
    mode: str
    seconds: float = 30.0
    sign_ins: int = 60
    rate: float = 10.0
    players: int = 10
    requests: int = 100
    nofile: int | None = None
    bot_root: Path | None = None


@dataclass
class Target:
    """The bot's Activity and the people who may sign in to it."""

    emu: FakeDiscord
    base: str
    port: int
    channel: Channel
    people: list[Actor]


def counted(statuses: list[int | str]) -> str:
    return ", ".join(f"{count} × {status}" for status, count in Counter(statuses).most_common())


async def sign_in(http: aiohttp.ClientSession, target: Target, actor: Actor,
                  headers: dict[str, str] | None = None) -> int | str:
    """A real player's sign-in: a code Discord issued them, for their instance."""
    instance = target.emu.world.launch_activity(actor.id, target.channel.id)
    code = target.emu.world.issue_oauth_code(actor.id, ["identify"])
    try:
        async with http.post(f"{target.base}/api/token", headers=headers,
                             json={"code": code, "instance_id": instance.instance_id}) as answer:
            return answer.status
    except aiohttp.ClientError as error:
        return type(error).__name__


async def at_rate(rate: float, seconds: float, send: Callable[[int], Awaitable[object]]) -> None:
    """Call ``send`` ``rate`` times a second for ``seconds``, never waiting for
    an answer before the next (a flood does not wait)."""
    started = time.perf_counter()
    running: set[asyncio.Task[object]] = set()
    number = 0
    while (due := started + number / rate) < started + seconds:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        task: asyncio.Task[object] = asyncio.ensure_future(send(number))
        running.add(task)
        task.add_done_callback(running.discard)
        number += 1
    await asyncio.gather(*running, return_exceptions=True)


# --- the attacks ------------------------------------------------------------------------------
async def signin_under_empty_posts(target: Target, options: Options) -> str:
    attacker: list[int | str] = []
    players: list[int | str] = []
    async with aiohttp.ClientSession() as bad, aiohttp.ClientSession() as good:
        async def empty_post(_number: int) -> None:
            try:
                async with bad.post(f"{target.base}/api/token", headers=PROXIED) as answer:
                    attacker.append(answer.status)
            except aiohttp.ClientError as error:
                attacker.append(type(error).__name__)

        async def player(number: int) -> None:
            actor = target.people[number % len(target.people)]
            players.append(await sign_in(good, target, actor, PROXIED))

        await asyncio.gather(
            at_rate(options.rate, options.seconds, empty_post),
            at_rate(options.sign_ins / options.seconds, options.seconds, player))
    return (f"{players.count(200)} of {len(players)} real sign-ins through the proxy "
            f"succeeded while {len(attacker)} empty POSTs came through it "
            f"({options.rate:g} a second)\n  the players were answered: {counted(players)}"
            f"\n  the attacker was answered: {counted(attacker)}")


async def together(target: Target, options: Options) -> str:
    async with aiohttp.ClientSession() as http:
        statuses = await asyncio.gather(*(
            sign_in(http, target, target.people[n % len(target.people)], PROXIED)
            for n in range(options.players)))
    return (f"{statuses.count(200)} of {options.players} players signing in together "
            f"through one proxy address got in: {counted(list(statuses))}")


async def rotating_forwarded_for(target: Target, options: Options) -> str:
    attacker: list[int | str] = []
    player: list[int | str] = []
    flooder = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0)))
    victim = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.3", 0)))
    async with flooder, victim:
        async def bad_code(number: int) -> None:
            forged = {"X-Forwarded-For": f"198.51.{number // 250 % 250}.{number % 250 + 1}"}
            try:
                async with flooder.post(f"{target.base}/api/token", headers=forged,
                                        json={"code": f"bad-{number}",
                                              "instance_id": "i-1"}) as answer:
                    attacker.append(answer.status)
            except aiohttp.ClientError as error:
                attacker.append(type(error).__name__)

        async def sign_in_once(number: int) -> None:
            player.append(await sign_in(victim, target, target.people[number % 10]))

        await asyncio.gather(at_rate(options.rate, options.seconds, bad_code),
                             at_rate(1.0, options.seconds, sign_in_once))
    return (f"{player.count(200)} of {len(player)} sign-ins of a player at their own address "
            f"succeeded while another address sent {len(attacker)} bad codes "
            f"({options.rate:g} a second, each with an X-Forwarded-For of its own)"
            f"\n  the player was answered: {counted(player)}"
            f"\n  the attacker was answered: {counted(attacker)}")


async def idle_flood(target: Target, options: Options) -> str:
    loop = asyncio.get_running_loop()
    opened = closed_by_bot = 0
    stop = asyncio.Event()

    async def hold_one(_number: int) -> None:
        nonlocal opened, closed_by_bot
        sock = socket.socket()
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, ("127.0.0.1", target.port))
            opened += 1
            reading = asyncio.ensure_future(loop.sock_recv(sock, 1024))
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if reading.done():
                closed_by_bot += 1
            reading.cancel()
            stopping.cancel()
        except OSError:
            pass
        finally:
            sock.close()

    statuses: list[int | str] = []

    async def another_client() -> None:
        await asyncio.sleep(12.0)  # the flood at its height: connections time out after 10 s
        for _ in range(options.requests):
            statuses.append(await page_on_new_connection(target.base))
            await asyncio.sleep(0.1)
        stop.set()

    flooding = asyncio.ensure_future(at_rate(options.rate, 3600.0, hold_one))
    await another_client()
    flooding.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await flooding
    return (f"{statuses.count(200)} of {len(statuses)} requests of another client succeeded "
            f"while idle connections were opened {options.rate:g} a second ({opened} opened, "
            f"{closed_by_bot} closed by the bot)\n  the other client was answered: "
            f"{counted(statuses)}")


async def page_on_new_connection(base: str) -> int | str:
    connector = aiohttp.TCPConnector(force_close=True)
    try:
        async with aiohttp.ClientSession(connector=connector) as http, \
                http.get(f"{base}/", timeout=aiohttp.ClientTimeout(total=10)) as answer:
            await answer.read()
            return answer.status
    except (aiohttp.ClientError, TimeoutError) as error:
        return type(error).__name__


# --- the run ----------------------------------------------------------------------------------
ATTACKS: dict[str, Callable[[Target, Options], Awaitable[str]]] = {
    "signin": signin_under_empty_posts,
    "together": together,
    "rotate": rotating_forwarded_for,
    "idleflood": idle_flood,
}


async def run(options: Options) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="rummy-attack-signin-"))
    emu: FakeDiscord = make_emulator(LoadOptions())
    await emu.start()
    emu.world.enable_activities()
    port = free_port()
    scene = Scene(emu, 1, max(10, options.players), 1)
    env = {"DISCORD_CLIENT_SECRET": emu.world.client_secret, "WEB_PORT": str(port)}
    bot = await BotProcess.start(emu, workdir / "rummy.sqlite3", workdir / "bot.log",
                                 extra_env=env, root=options.bot_root,
                                 open_files=options.nofile)
    try:
        await bot.wait_connected(emu)
        await probe(emu, scene.people[0][0], scene.channels[0])
        target = Target(emu, f"http://127.0.0.1:{port}", port, scene.channels[0],
                        scene.people[0])
        cpu = bot.cpu_seconds()
        started = time.perf_counter()
        said = await ATTACKS[options.mode](target, options)
        cpu_share = (bot.cpu_seconds() - cpu) / (time.perf_counter() - started)
        print(f"{options.mode}, bot from {options.bot_root or 'this checkout'}"
              f"{f', open files {options.nofile}' if options.nofile else ''}:")
        print(f"  {said}")
        print(f"  the bot's CPU meanwhile: {cpu_share * 100:.0f} % of a core")
        errors, warnings = bot.log_counts()
        print(f"  the bot logged {errors} errors and {warnings} warnings "
              f"({bot.log_path.stat().st_size} bytes of log)")
    finally:
        await bot.stop()
        await emu.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def raise_own_open_files() -> None:
    """The flood holds a thousand sockets or more on this side too."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 16
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--seconds", type=float, default=None,
                        help="how long the attack lasts (signin: 30, rotate: 24)")
    parser.add_argument("--sign-ins", type=int, default=Options.sign_ins)
    parser.add_argument("--rate", type=float, default=None,
                        help="the attacker's requests or connections a second "
                             "(signin: 10, rotate: 25, idleflood: 118)")
    parser.add_argument("--players", type=int, default=Options.players)
    parser.add_argument("--requests", type=int, default=Options.requests)
    parser.add_argument("--nofile", type=int, default=None,
                        help="the bot's limit on open files (idleflood: 1024)")
    parser.add_argument("--bot-root", type=Path)
    args = parser.parse_args(argv)
    defaults = {"signin": (30.0, 10.0, None), "together": (30.0, 10.0, None),
                "rotate": (24.0, 25.0, None), "idleflood": (30.0, 118.0, 1024)}[args.mode]
    options = Options(args.mode, args.seconds or defaults[0], args.sign_ins,
                      args.rate or defaults[1], args.players, args.requests,
                      args.nofile or defaults[2], args.bot_root)
    if options.seconds <= 0 or options.rate <= 0 or min(options.sign_ins, options.players,
                                                          options.requests) < 1:
        print("error: --seconds and --rate must be positive, --sign-ins, --players and "
              "--requests at least 1", file=sys.stderr)
        return 2
    raise_own_open_files()
    asyncio.run(run(options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
