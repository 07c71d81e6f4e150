"""Load benchmark: ``python -m tests.bench.load [--tables N] [--players N] ...``.

The emulator runs in this process; the real bot runs as ``python bot.py`` in
another, pointed at it by ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` with a
fresh database file, so its CPU and memory are its own. Simulated people
(``load_players``) open N tables in N channels and play whole hands at once
over the Discord wire protocol, thinking ``--think`` seconds (±50 %) before
each click; 0 is a stress run.

Printed: interactions sent; answered within 3 s and not; latency from
INTERACTION_CREATE written to the bot's socket to its callback received
(median, p90, p99, max); the bot's REST requests per player action by kind
(callbacks, message edits, DMs, other); 429s received; the bot's peak memory
(VmHWM) per live table (the whole peak divided by the tables, and the part
above the bot's memory right after login); the bot's CPU seconds per 1,000
actions. A "player action" is one interaction a player sent (a click, a
select, a slash command). ``--seed`` fixes the players' pauses; the bot deals
every table from a random seed, so two runs play different hands.

``--startup N`` measures start-up instead: a database holding N saved live
tables (built with the bot's own Table and Match classes, saved through
``db.Database``), then the time from spawning the bot until every table is
restored and has answered a click.

Discord's rate limits are emulated (``ratelimits.py``: 5 message edits or
sends per 5 s per channel, 50 requests a second for the whole bot, interaction
callbacks exempt); ``--no-rate-limits`` turns them off. The emulator and the
players share this process: the printout gives its CPU use and how late its
event loop woke (p99), which is added to every latency measured. A busy
emulator (near 100 %, or a late loop) means it, not the bot, was the limit.
``--profile FILE`` runs the bot under cProfile; ``--latencies FILE`` writes
every interaction's timing, to find when the slow ones happened.

Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import uvloop

from fakediscord.core.actors import Actor
from fakediscord.core.rest.ratelimits import RateLimits
from fakediscord.core.server import FakeDiscord
from fakediscord.core.world import Channel, Guild, Interaction
from tests.bot_process import BotProcess

from .load_players import LoadPlayer, PlayerCounts, public_table
from .load_stats import KINDS, FollowLag, Latencies, RequestCounter
from .load_store import STORES, Commits, bench_store

STALL_REPORT = 20.0  # seconds without a click at a table before its players are shown
MAX_HANDS = 100  # the most /rummy start accepts: a --duration run never runs out


# Seconds after the last table opens before play counts as settled: its lobby,
# joins, deal and first hand views are all in that window.
SETTLING = 5.0


@dataclass
class LoadOptions:
    tables: int = 10
    players: int = 4
    think: float = 0.0
    hands: int = 1
    duration: float | None = None  # seconds of play; overrides hands
    tables_per_guild: int = 10
    rate_limits: bool = True
    global_limit: int | None = 50
    validate: bool = False
    seed: int = 1
    keep: bool = False  # keep the work folder (database, bot log)
    progress: bool = True
    startup: int | None = None  # saved live tables, for the start-up mode
    profile: Path | None = None  # run the bot under cProfile, statistics written here
    latencies: Path | None = None  # write every interaction's timing here (CSV)
    # Open the tables one after another, evenly over this many seconds, as a
    # server's tables fill up on game night; 0: every table in the same instant.
    ramp: float = 0.0
    store: str = "sqlite"  # or postgresql: a real server started for the run
    # Run the bot of another checkout (its bot.py and code) under this harness:
    # before and after a change, measured the same way in one sitting.
    bot_root: Path | None = None
    commits: bool = False  # the bot's metrics on, to read its commit times


@dataclass
class LoadTable:
    channel: Channel
    players: list[LoadPlayer]
    started: bool = False


@dataclass
class LoadResult:
    options: LoadOptions
    latencies: Latencies
    settled: Latencies  # the interactions sent once every table was open and dealt
    requests: RequestCounter
    wall: float
    bot_cpu: float
    load_cpu: float
    load_lag: list[float]  # how late the emulator's event loop woke, sorted
    baseline_kb: int
    peak_kb: int
    live_tables: int
    tables_started: int
    tables_finished: int
    hands_played: int
    players: PlayerCounts
    handoffs: list[float]  # seconds, sorted: see LoadPlayer.handoffs
    follow: list[float]  # seconds, sorted: see load_stats.FollowLag
    bot_errors: int
    bot_warnings: int
    problems: list[str] = field(default_factory=list)
    log_path: Path | None = None
    commits: Commits | None = None  # the bot's commit times, from its metrics

    @property
    def actions(self) -> int:
        return self.latencies.sent

    def per_action(self, count: int) -> float:
        return count / self.actions if self.actions else float("nan")


class Scene:
    """The servers, channels and people of one run."""

    def __init__(self, emu: FakeDiscord, tables: int, players: int, per_guild: int) -> None:
        self.guilds: list[Guild] = []
        self.channels: list[Channel] = []
        self.people: list[list[Actor]] = []
        for number in range(tables):
            if number % per_guild == 0:
                self.guilds.append(emu.create_guild(f"Game night {len(self.guilds) + 1}"))
            guild = self.guilds[-1]
            self.channels.append(emu.create_text_channel(guild, f"rummy-{number + 1}"))
            self.people.append([emu.create_user(f"t{number + 1}p{seat + 1}", guild=guild)
                                for seat in range(players)])


def make_emulator(options: LoadOptions) -> FakeDiscord:
    limits = None
    if options.rate_limits:
        limits = RateLimits(global_limit=options.global_limit)
    # record=False: counted as they pass, not kept (see load_stats); validation of
    # every body against the OpenAPI description is for tests, off unless asked.
    return FakeDiscord(validate=options.validate, record=False, rate_limits=limits)


async def probe(emu: FakeDiscord, actor: Actor, channel: Channel, timeout: float = 30.0) -> None:  # noqa: ASYNC109
    """Wait until the bot answers a slash command (its set-up is done)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        reply = await actor.slash(channel, "rummy rules")
        if reply.answered:
            return
    raise RuntimeError("the bot answers no interaction")


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_load(options: LoadOptions) -> LoadResult:
    """Open the tables, play, and measure; the bot runs in its own process."""
    workdir = Path(tempfile.mkdtemp(prefix="rummy-load-"))
    emu = make_emulator(options)
    await emu.start()
    bot: BotProcess | None = None
    stack = contextlib.ExitStack()
    try:
        world = Scene(emu, options.tables, options.players, options.tables_per_guild)
        counter = RequestCounter(emu.world)
        emu.traffic.on_http.append(counter.observe)
        follow = FollowLag(emu.world)
        emu.traffic.on_http.append(follow.observe)
        store = stack.enter_context(bench_store(options.store, workdir, metrics=options.commits))
        bot = await BotProcess.start(emu, workdir / "rummy.sqlite3", workdir / "bot.log",
                                     profile=options.profile, extra_env=store.env,
                                     root=options.bot_root)
        await bot.wait_connected(emu)
        await probe(emu, world.people[0][0], world.channels[0])
        baseline_kb, _ = bot.memory_kb()
        before = set(emu.world.interactions)
        problems_before = len(emu.problems)
        rng = random.Random(options.seed)
        deadline = None
        if options.duration is not None:
            deadline = time.monotonic() + options.duration
        tables = [
            LoadTable(channel, [
                LoadPlayer(emu, actor, channel, options.think, random.Random(rng.random()),
                           deadline=deadline, host=seat == 0)
                for seat, actor in enumerate(people)])
            for channel, people in zip(world.channels, world.people, strict=True)
        ]
        hands = MAX_HANDS if options.duration is not None else options.hands
        cpu_bot, cpu_self, started = bot.cpu_seconds(), _cpu_self(), time.perf_counter()
        counter.active = True
        follow.active = True
        # No garbage collection in this process while it measures: it times
        # every answer, so its pauses were counted as the bot's. Full passes
        # over the run's stored messages stopped it for a fifth of a second;
        # even young passes took 13-32 ms each at 200 busy tables. Without them
        # it held 2-17 MiB more by the end of a run.
        gc.disable()
        lags: list[float] = []
        rss_seen = [0]
        watchers = [asyncio.create_task(_watch_loop(lags)),
                    asyncio.create_task(_watch_memory(bot, rss_seen))]
        if options.progress:
            watchers.append(asyncio.create_task(
                _report_progress(emu, bot, tables, before, started)))
        try:
            await asyncio.gather(*(
                _run_table(emu, table, hands, delay=options.ramp * i / len(tables))
                for i, table in enumerate(tables)))
        finally:
            for watcher in watchers:
                watcher.cancel()
        # Let the last table edits and DMs land before counting them.
        await asyncio.sleep(1.0)
        counter.active = False
        follow.active = False
        wall = time.perf_counter() - started
        bot_cpu = bot.cpu_seconds() - cpu_bot
        load_cpu = _cpu_self() - cpu_self
        rss_kb, peak_kb = bot.memory_kb()
        commits = None
        if store.metrics_url is not None:
            commits = await asyncio.to_thread(Commits.read, store.metrics_url)
        # The kernel updates VmHWM lazily: never report less than an RSS we saw.
        peak_kb = max(peak_kb, rss_kb, rss_seen[0])
        interactions = [i for key, i in emu.world.interactions.items() if key not in before]
        if options.latencies is not None:
            _write_latencies(options.latencies, interactions, started)
        errors, warnings = bot.log_counts()
        counts = PlayerCounts()
        for table in tables:
            for player in table.players:
                for name in vars(counts):
                    setattr(counts, name, getattr(counts, name) + getattr(player.counts, name))
        finished = 0
        for table in tables:
            sight = public_table(emu, table.channel)
            finished += sight is not None and sight.match_over
        settled = started + options.ramp + SETTLING
        return LoadResult(
            options=options, latencies=Latencies.of(interactions), requests=counter, wall=wall,
            settled=Latencies.of([i for i in interactions
                                  if (i.sent_at or i.dispatched_at or 0.0) >= settled]),
            bot_cpu=bot_cpu, load_cpu=load_cpu, load_lag=sorted(lags),
            baseline_kb=baseline_kb, peak_kb=peak_kb,
            live_tables=sum(t.started for t in tables),
            tables_started=sum(t.started for t in tables), tables_finished=finished,
            hands_played=sum(t.players[0].counts.hands for t in tables), players=counts,
            handoffs=sorted(h for t in tables for player in t.players for h in player.handoffs),
            follow=sorted(follow.seconds),
            bot_errors=errors, bot_warnings=warnings,
            problems=[p for p in emu.problems[problems_before:]
                      if not p.startswith("interaction ")],
            log_path=bot.log_path, commits=commits,
        )
    finally:
        gc.enable()
        if bot is not None:
            await bot.stop()
        await emu.stop()
        stack.close()
        _clean(workdir, options.keep, bot)


def _write_latencies(path: Path, interactions: list[Interaction], started: float) -> None:
    """One line an interaction: when it was sent (s into the run), its latency, what."""
    with path.open("w", encoding="utf-8") as out:
        out.write("sent_s,latency_ms,what\n")
        for i in interactions:
            sent = i.sent_at or i.dispatched_at
            took = "" if i.responded_at is None or sent is None else (
                f"{(i.responded_at - sent) * 1000:.1f}")
            where = "" if sent is None else f"{sent - started:.3f}"
            out.write(f"{where},{took},{i.description.replace(',', ' ')}\n")


def _clean(workdir: Path, keep: bool, bot: BotProcess | None) -> None:
    errors = bot.log_counts()[0] if bot is not None else 0
    if keep or errors:
        print(f"(kept {workdir}: database and bot.log)", file=sys.stderr)
        return
    shutil.rmtree(workdir, ignore_errors=True)


async def _run_table(emu: FakeDiscord, table: LoadTable, hands: int, delay: float = 0.0) -> None:
    """Open a lobby, everyone joins, the host starts; then all play."""
    await asyncio.sleep(delay)
    host, *guests = table.players
    opened = None
    for _ in range(3):
        reply = await host.act(lambda: host.actor.slash(table.channel, "rummy start", hands=hands))
        if reply is not None and reply.message is not None and not reply.ephemeral:
            opened = reply
            break
    if opened is None or opened.message is None:
        return
    lobby = opened.message
    # The host's controls (Start) come in a message of their own after the lobby.
    panels = await emu._wait_until(lambda: opened.followups, 10.0)
    if not panels:
        return
    panel = panels[0]
    await asyncio.gather(*(_join(guest, lobby.id) for guest in guests))
    started = False
    for _ in range(3):
        reply = await host.act(lambda: host.actor.click(panel.id, label="Start"))
        # The public table is drawn a moment after Start's answer.
        playing = await emu._wait_until(lambda: _is_playing(emu, table.channel), 10.0)
        if reply is not None and playing:
            started = True
            break
    if not started:
        return
    table.started = True
    await asyncio.gather(*(player.play() for player in table.players))


def _is_playing(emu: FakeDiscord, channel: Channel) -> bool:
    sight = public_table(emu, channel)
    return sight is not None and sight.stage == "playing"


async def _watch_loop(lags: list[float], every: float = 0.05) -> None:
    """How late this process's event loop wakes up: a busy emulator delays both
    sending INTERACTION_CREATE and reading the callback, which would be blamed
    on the bot."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - asked - every)


async def _watch_memory(bot: BotProcess, highest: list[int]) -> None:
    while True:
        highest[0] = max(highest[0], bot.memory_kb()[0])
        await asyncio.sleep(0.5)


async def _join(player: LoadPlayer, lobby_id: int) -> None:
    for _ in range(3):
        reply = await player.act(lambda: player.actor.click(lobby_id, label="Join"))
        if reply is not None and reply.type == 7:
            return


async def _report_progress(emu: FakeDiscord, bot: BotProcess, tables: list[LoadTable],
                           before: set[int], started: float) -> None:
    """A line on stderr every 5 s, so a long run shows it is alive; for tables
    where nobody has clicked for a while, what their players see."""
    shown: set[int] = set()
    while True:
        await asyncio.sleep(5)
        sent = len(emu.world.interactions) - len(before)
        rss, _ = bot.memory_kb()
        unfinished = [t for t in tables
                      if t.started and not ((s := public_table(emu, t.channel)) is not None
                                            and s.match_over)]
        done = sum(t.started for t in tables) - len(unfinished)
        print(f"  {time.perf_counter() - started:6.1f} s: {sent} interactions, "
              f"{sum(t.started for t in tables)} tables started, {done} finished, "
              f"bot RSS {rss / 1024:.1f} MiB", file=sys.stderr, flush=True)
        now = time.monotonic()
        stalled = [t for t in unfinished if t.channel.id not in shown
                   and now - max(p.last_action for p in t.players) > STALL_REPORT
                   and not t.players[0].time_is_up()]
        for table in stalled[:3]:
            shown.add(table.channel.id)
            sight = public_table(emu, table.channel)
            print(f"    stalled {table.channel}: {sight and (sight.stage, sight.hand)} "
                  f"{sight and sight.turn_text!r}", file=sys.stderr)
            for player in table.players:
                print(f"      {player.describe()}", file=sys.stderr)


# --- the printout -------------------------------------------------------------------------
def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def format_report(result: LoadResult) -> str:
    o = result.options
    lat = result.latencies
    req = result.requests
    length = f"{o.duration:g} s of play" if o.duration is not None else f"{o.hands} hand(s)"
    opening = f"tables opened over {o.ramp:g} s" if o.ramp else "all tables opened at once"
    limits = ("off" if not o.rate_limits else
              f"on (5/5 s per channel, global {o.global_limit or 'off'}/s)")
    lines = [
        f"Rummy load: {o.tables} tables x {o.players} players, think {o.think:g} s, {length}, "
        f"{opening}; rate limits {limits}; store {o.store}",
        f"  wall {result.wall:.1f} s; tables started {result.tables_started}, "
        f"matches finished {result.tables_finished}, hands played {result.hands_played}",
        f"interactions sent              {lat.sent}",
        f"answered within 3 s            {lat.answered_in_time}",
        f"not answered within 3 s        {lat.late_or_never}",
        "latency (INTERACTION_CREATE sent -> callback received)",
        f"  median {_ms(lat.median)}   p90 {_ms(lat.percentile(90))}   "
        f"p99 {_ms(lat.percentile(99))}   max {_ms(lat.seconds[-1] if lat.seconds else 0.0)}",
        f"  after the opening ({o.ramp + SETTLING:g} s on, {result.settled.sent} sent): "
        f"median {_ms(result.settled.median)}   p99 {_ms(result.settled.percentile(99))}",
        "REST requests per player action (count)",
    ]
    for kind in KINDS:
        detail = ""
        if kind == "message edits":
            detail = (f"   [table {req.by_detail['table']}, "
                      f"hand views {req.by_detail['hand view']}]")
        if kind == "other":
            others = {k: v for k, v in req.by_detail.items()
                      if k not in ("callback", "table", "hand view", "open DM", "send DM")}
            detail = "   [" + ", ".join(f"{k} {v}" for k, v in sorted(others.items())) + "]"
        lines.append(f"  {kind:<14} {result.per_action(req.by_kind[kind]):5.2f}  "
                     f"({req.by_kind[kind]}){detail if req.by_kind[kind] else ''}")
    not_dms = req.total - req.by_kind["DMs"]
    lines.append(f"  {'all but DMs':<14} {result.per_action(not_dms):5.2f}  ({not_dms})")
    sizes = [
        f"{detail} {req.bytes_by_detail[detail] / req.by_detail[detail]:,.0f}"
        for detail in ("table", "hand view", "callback")
        if req.by_detail[detail]
    ]
    lines.append("  bytes per request body: " + ", ".join(sizes))
    limited = sum(req.limited.values())
    split = ", ".join(f"{k} {v}" for k, v in sorted(req.limited_detail.items())) or "none"
    lines.append(f"429 responses received         {limited}   [{split}; "
                 f"global {req.limited_global}]")
    per_table = result.peak_kb / result.live_tables if result.live_tables else float("nan")
    added = ((result.peak_kb - result.baseline_kb) / result.live_tables
             if result.live_tables else float("nan"))
    lines.append(f"bot peak memory (VmHWM)        {result.peak_kb / 1024:.1f} MiB; "
                 f"{per_table:.0f} KiB per live table ({result.live_tables} live); "
                 f"{added:.0f} KiB per table above the "
                 f"{result.baseline_kb / 1024:.1f} MiB after login")
    per_1000 = result.bot_cpu / result.actions * 1000 if result.actions else float("nan")
    lines.append(f"CPU seconds per 1,000 actions  {per_1000:.2f}   "
                 f"(bot CPU {result.bot_cpu:.1f} s, {result.bot_cpu / result.wall * 100:.0f}% "
                 "of a core)")
    if result.commits is not None:
        lines.append(f"database: {result.commits.describe()}")
    follow = result.follow
    if follow:
        lines.append(f"others' hand messages (a move answered -> each other open hand message "
                     f"edited after it) median {_ms(follow[len(follow) // 2])}, "
                     f"p99 {_ms(follow[min(len(follow) - 1, int(len(follow) * 0.99))])} "
                     f"({len(follow)} shown)")
    handoffs = result.handoffs
    if handoffs:
        lines.append(f"turn hand-off (discard answered -> next player's view shows the turn) "
                     f"median {_ms(handoffs[len(handoffs) // 2])}, "
                     f"p99 {_ms(handoffs[min(len(handoffs) - 1, int(len(handoffs) * 0.99))])} "
                     f"({len(handoffs)} turns)")
    p = result.players
    lag = result.load_lag
    lag_p99 = lag[min(len(lag) - 1, int(len(lag) * 0.99))] if lag else 0.0
    lines.append(f"  emulator + players: {result.load_cpu / result.wall * 100:.0f}% of a core, "
                 f"event loop late by {_ms(lag_p99)} at p99; players: refusals {p.refusals}, "
                 f"refreshes {p.refreshes}, confused {p.confused}")
    lines.append(f"  bot log: {result.bot_errors} errors, {result.bot_warnings} warnings; "
                 f"emulator problems: {len(result.problems)}")
    lines += [f"    {problem[:300]}" for problem in result.problems[:5]]
    return "\n".join(lines)


# --- command line ---------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> LoadOptions:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.load",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--players", type=int, default=4, help="players per table (2-6)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player thinks before each click (0: stress)")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--hands", type=int, default=1, help="hands per match")
    length.add_argument("--duration", type=float, help="seconds of play instead of --hands")
    parser.add_argument("--tables-per-guild", type=int, default=10)
    parser.add_argument("--no-rate-limits", action="store_true",
                        help="do not emulate Discord's rate limits")
    parser.add_argument("--global-limit", type=int, default=50,
                        help="global requests a second (0: no global limit)")
    parser.add_argument("--validate", action="store_true",
                        help="validate every request body against Discord's OpenAPI spec")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ramp", type=float, default=0.0, metavar="SECONDS",
                        help="open the tables evenly over this many seconds (default: all at once)")
    parser.add_argument("--keep", action="store_true", help="keep the database and bot log")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="run the bot under cProfile and write its statistics to FILE")
    parser.add_argument("--latencies", type=Path, metavar="FILE",
                        help="write each interaction's send time and latency to FILE (CSV)")
    parser.add_argument("--store", choices=STORES, default="sqlite",
                        help="the bot's database: an SQLite file (default), or a PostgreSQL "
                        "server started for the run")
    parser.add_argument("--commits", action="store_true",
                        help="turn the bot's metrics on and report its commit times "
                        "(costs the bot some CPU)")
    parser.add_argument("--startup", type=int, metavar="N",
                        help="measure start-up with N saved live tables instead")
    parser.add_argument("--bot-root", type=Path, metavar="DIR",
                        help="run the bot of another checkout (DIR/bot.py), to compare "
                        "before and after a change under the same harness")
    args = parser.parse_args(argv)
    if args.ramp < 0:
        parser.error("--ramp must be 0 or more seconds")
    if not 2 <= args.players <= 6:
        parser.error("--players must be 2 to 6")
    return LoadOptions(
        tables=args.tables, players=args.players, think=args.think, hands=args.hands,
        duration=args.duration, tables_per_guild=max(1, args.tables_per_guild),
        rate_limits=not args.no_rate_limits, global_limit=args.global_limit or None,
        validate=args.validate, seed=args.seed, keep=args.keep, progress=not args.quiet,
        startup=args.startup, profile=args.profile, latencies=args.latencies, ramp=args.ramp,
        store=args.store, commits=args.commits, bot_root=args.bot_root,
    )


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    if options.startup is not None:
        from .load_startup import format_startup, run_startup

        print(format_startup(uvloop.run(run_startup(options))))
        return 0
    # The emulator and hundreds of players share this process: on uvloop, as
    # the bot is, so that the load generator is not the first thing to run out.
    print(format_report(uvloop.run(run_load(options))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
