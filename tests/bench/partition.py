"""How long a process cut off from PostgreSQL goes on serving, and when its
standby takes over::

    python -m tests.bench.partition --lease-ttl 15 --lease-check 2 --trials 3

Each trial starts a real PostgreSQL, the emulator, the bot serving shard 0
through a link that can be cut (``tests.cuttable_link``) and a standby on a
direct link. It cuts the link silently, with the server dropping the serving
process's sessions at once (the worst case), and times, from the cut: the
serving process's gateway closing (how long it went on serving), the standby
taking over, and whether Discord (the emulator) ever saw both ask for the
shard. Figures on stdout; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from fakediscord import FakeDiscord
from tests.bot_process import BotProcess
from tests.cuttable_link import CuttableLink
from tests.postgres_server import PostgresServer


def _serving(emu: FakeDiscord) -> bool:
    return any(s.connection is not None for s in emu.gateway.sessions.values())


async def _until(emu: FakeDiscord, condition: bool, limit: float) -> float:
    """Seconds until the shard's being served is ``condition``."""
    started = time.monotonic()
    await emu._wait_until(lambda: _serving(emu) is condition, limit)
    return time.monotonic() - started


async def trial(server: PostgresServer, ttl: float, check: float) -> tuple[float, float, bool]:
    """(seconds the cut-off process served on, seconds until the standby
    served, whether the shard was ever asked for twice)."""
    folder = Path(tempfile.mkdtemp(prefix="rummy-partition-"))
    url = server.new_database()
    link = await CuttableLink("127.0.0.1", server.port).start()
    emu = await FakeDiscord(record=False).start()
    guild = emu.create_guild("Club")
    emu.create_text_channel(guild, "rummy")

    def env(database: str, **more: str) -> dict[str, str]:
        return {"DATABASE_URL": database, "SHARD_COUNT": "1", "LEASE_TTL": str(ttl),
                "LEASE_CHECK": str(check), **more}

    serving = await BotProcess.start(emu, folder / "unused", folder / "a.log",
                                     extra_env=env(link.url(url), SHARD_IDS="0"))
    standby: BotProcess | None = None
    try:
        await serving.wait_connected(emu)
        standby = await BotProcess.start(emu, folder / "unused", folder / "s.log",
                                         extra_env=env(url, STANDBY="true"))
        await asyncio.sleep(ttl)  # the standby is waiting; renewals are under way
        link.cut()
        link.drop_server_side()
        cut = time.monotonic()
        await _until(emu, False, ttl * 5)
        served_on = time.monotonic() - cut
        await _until(emu, True, ttl * 5 + 30)
        taken_over = time.monotonic() - cut
        return served_on, taken_over, bool(emu.gateway.refused_shards)
    finally:
        link.heal()
        for bot in (serving, standby):
            if bot is not None:
                await bot.stop()
        await link.close()
        await emu.stop()


async def run(ttl: float, check: float, trials: int) -> int:
    server = PostgresServer()
    server.start()
    try:
        found = [await trial(server, ttl, check) for _ in range(trials)]
    finally:
        server.remove()
    served = [f[0] for f in found]
    taken = [f[1] for f in found]
    print(f"LEASE_TTL {ttl:g} s, LEASE_CHECK {check:g} s, {trials} trials")
    print(f"  served on after the cut: median {statistics.median(served):.2f} s, "
          f"max {max(served):.2f} s (stops at {0.8 * ttl:.1f} s after its last renewal)")
    print(f"  standby serving after the cut: median {statistics.median(taken):.2f} s, "
          f"max {max(taken):.2f} s")
    print(f"  shard asked for twice: {sum(f[2] for f in found)} of {trials}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.partition",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--lease-ttl", type=float, default=15.0)
    parser.add_argument("--lease-check", type=float, default=2.0)
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args(argv)
    if args.trials < 1 or args.lease_ttl < 4 * args.lease_check:
        print("error: --trials must be at least 1 and --lease-ttl at least 4 times "
              "--lease-check", file=sys.stderr)
        return 2
    return asyncio.run(run(args.lease_ttl, args.lease_check, args.trials))


if __name__ == "__main__":
    sys.exit(main())
