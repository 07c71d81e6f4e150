"""Start-up benchmark: ``python -m tests.bench.load --startup N``.

Builds a database holding N saved live tables, each a few turns into its
first hand, with the bot's own classes (``Table``, ``Match``, the computer
strategy for the turns played) saved through ``db.Database``, and posts each
table's public message in the emulator as the bot would have drawn it. Then
it spawns ``python bot.py`` and, as soon as the bot is on the gateway, one
player at every table clicks the table's button at once. Measured: the time
from spawning the process until every table is restored and has answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine import HouseRules, Match
from engine.ai import choose_action
from fakediscord.core.layouts import IS_COMPONENTS_V2
from tests.bot_process import ANSI, BotProcess

from .load_stats import Latencies
from .load_store import bench_store

if TYPE_CHECKING:
    from .load import LoadOptions, Scene
    from .server import FakeDiscord
    from .world import Channel

MAX_TURNS_PLAYED = 8  # saved tables are up to this many turns into their hand
CLICK_DEADLINE = 60.0  # seconds a player keeps clicking a table that does not answer
RESTORED = re.compile(r"restored (\d+) live tables \((\d+) set aside\)")


@dataclass
class StartupResult:
    tables: int
    players: int
    store: str
    build_seconds: float
    database_kb: int
    connected: float  # spawn -> gateway session: database open, tables restored, synced
    first_answer: float
    all_answered: float | None  # None: some table never answered
    answered: int
    retried: int
    latencies: Latencies
    restored: int | None
    set_aside: int | None
    rss_kb: int
    peak_kb: int
    bot_errors: int
    problems: list[str] = field(default_factory=list)


async def build_saved_tables(
    emu: FakeDiscord, scene: Scene, database: str | Path, seed: int
) -> None:
    """Save one live table per channel of ``scene``, as a running bot would have."""
    # The bot's own modules: the saved state is exactly what the bot writes.
    from chat.messages.table_layout import public_layout
    from chat.table_side import chat_side, saved_beside
    from db import Database
    from presentation.card_emoji import CardFaces
    from tables import Seat, Stage, Table
    from tables.records import live_table

    rng = random.Random(seed)
    tables = []
    for channel, people in zip(scene.channels, scene.people, strict=True):
        assert channel.guild_id is not None
        table = Table(channel_id=channel.id, guild_id=channel.guild_id, host_id=people[0].id,
                      rules=HouseRules(target=None, hands=3), seed=rng.randrange(2**53))
        table.seats = [Seat(key=str(a.id), name=a.name, user_id=a.id) for a in people]
        table.match = Match.start([s.key for s in table.seats], table.rules, table.seed)
        table.stage = Stage.PLAYING
        _play_turns(table, rng.randrange(MAX_TURNS_PLAYED + 1), rng)
        if table.match.hand.is_over:
            table.stage = Stage.HAND_OVER
        elif table.rules.turn_timeout:
            table.turn_deadline = time.time() + table.rules.turn_timeout
        body = {"components": public_layout(table, CardFaces()).to_components()}
        chat_side(table).message_id = emu.world.add_message(channel, emu.world.bot.id, body,
                                                 flags=IS_COMPONENTS_V2).id
        tables.append(table)
    async with await Database.open(database) as db:
        await asyncio.gather(*(db.save_live_table(live_table(t, saved_beside(t))) for t in tables))


def _play_turns(table: object, turns: int, rng: random.Random) -> None:
    """Play ``turns`` whole turns with the easy computer strategy, logging them."""
    from presentation import render
    from tables import Table

    assert isinstance(table, Table) and table.match is not None
    match = table.match
    names = table.names()
    for _ in range(turns):
        player = match.hand.turn
        while player is not None and match.hand.turn == player and not match.hand.is_over:
            action = choose_action(match.hand.view_for(player), "easy", rng)
            for event in match.apply(player, action):
                line = render.event_line(event, names)
                if line:
                    table.log.append(line)
        if match.hand.is_over:
            return


async def _click_until_answered(emu: FakeDiscord, scene: Scene, index: int,
                                started: float) -> tuple[float | None, int, float | None]:
    """One player at the table clicks its button until the bot answers it for real:
    (seconds since spawn, clicks, latency of the answering click)."""
    from .load_players import public_table

    channel: Channel = scene.channels[index]
    actor = scene.people[index][0]
    deadline = time.monotonic() + CLICK_DEADLINE
    clicks = 0
    while time.monotonic() < deadline:
        sight = public_table(emu, channel)
        assert sight is not None
        label = "Show hand" if sight.stage == "playing" else "Rules"
        clicks += 1
        reply = await actor.click(sight.message, label=label)
        if reply.answered and "no game running" not in reply.text():
            return time.perf_counter() - started, clicks, reply.latency
        await asyncio.sleep(0.1)
    return None, clicks, None


async def run_startup(options: LoadOptions) -> StartupResult:
    from .load import Scene, make_emulator

    tables = options.startup or 0
    workdir = Path(tempfile.mkdtemp(prefix="rummy-startup-"))
    emu = make_emulator(options)
    await emu.start()
    bot: BotProcess | None = None
    stack = contextlib.ExitStack()
    try:
        store = stack.enter_context(bench_store(options.store, workdir))
        database = store.target
        scene = Scene(emu, tables, options.players, options.tables_per_guild)
        built = time.perf_counter()
        await build_saved_tables(emu, scene, database, options.seed)
        build_seconds = time.perf_counter() - built
        database_kb = await store.size_kb() if store.kind != "sqlite" else _folder_kb(workdir)
        problems_before = len(emu.problems)
        # INFO: the bot logs how many tables it restored.
        bot = await BotProcess.start(emu, workdir / "rummy.sqlite3", workdir / "bot.log",
                                     log_level="INFO", profile=options.profile,
                                     extra_env=store.env)
        connected = await bot.wait_connected(emu)
        before = set(emu.world.interactions)
        outcomes = await asyncio.gather(*(_click_until_answered(emu, scene, i, bot.started)
                                          for i in range(tables)))
        rss_kb, peak_kb = bot.memory_kb()
        times = [t for t, _, _ in outcomes if t is not None]
        answering = [i for key, i in emu.world.interactions.items() if key not in before]
        log = ANSI.sub("", bot.log_path.read_text(errors="replace"))
        found = RESTORED.search(log)
        return StartupResult(
            tables=tables, players=options.players, store=options.store,
            build_seconds=build_seconds,
            database_kb=database_kb, connected=connected,
            first_answer=min(times) if times else float("nan"),
            all_answered=max(times) if len(times) == tables else None,
            answered=len(times), retried=sum(1 for _, clicks, _ in outcomes if clicks > 1),
            latencies=Latencies.of(answering),
            restored=int(found.group(1)) if found else None,
            set_aside=int(found.group(2)) if found else None,
            rss_kb=rss_kb, peak_kb=peak_kb, bot_errors=bot.log_counts()[0],
            problems=[p for p in emu.problems[problems_before:]
                      if not p.startswith("interaction ")],
        )
    finally:
        if bot is not None:
            await bot.stop()
        await emu.stop()
        stack.close()
        if options.keep:
            print(f"(kept {workdir}: database and bot.log)")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def _folder_kb(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.iterdir()) // 1024


def format_startup(result: StartupResult) -> str:
    lat = result.latencies
    everything = (f"{result.all_answered:.2f} s" if result.all_answered is not None
                  else f"never ({result.tables - result.answered} tables did not answer)")
    restored = ("?" if result.restored is None
                else f"{result.restored} ({result.set_aside} set aside)")
    return "\n".join([
        f"Rummy start-up: {result.tables} saved live tables x {result.players} players "
        f"({result.store})",
        f"  database built in {result.build_seconds:.1f} s ({result.database_kb} KiB)",
        f"process start -> on the gateway (tables restored, commands synced)  "
        f"{result.connected:.2f} s",
        f"process start -> first table answering   {result.first_answer:.2f} s",
        f"process start -> every table answering   {everything}",
        f"tables restored (bot log)               {restored}",
        f"clicks: {lat.sent} sent, {result.answered} tables answered, "
        f"{result.retried} needed a second click; latency median "
        f"{lat.median * 1000:.0f} ms, p99 {lat.percentile(99) * 1000:.0f} ms",
        f"bot memory after: RSS {result.rss_kb / 1024:.1f} MiB, peak {result.peak_kb / 1024:.1f} "
        f"MiB ({result.peak_kb / max(1, result.tables):.0f} KiB per table)",
        f"  bot log: {result.bot_errors} errors; emulator problems: {len(result.problems)}",
        *(f"    {p[:300]}" for p in result.problems[:5]),
    ])
