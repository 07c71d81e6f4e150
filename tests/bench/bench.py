"""Benchmark: ``python -m tests.bench.bench [rounds]``.

Prints how long a discord.py bot takes from ``start()`` to ``on_ready`` on the
emulator, and the round trip of interactions (actor call to reply, and the
bot's own latency: INTERACTION_CREATE sent to callback received). Measures,
never asserts.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from typing import Any

import discord
from discord import app_commands

from fakediscord.core.server import FakeDiscord
from fakediscord.harness import point_discord_at, run_client


def make_bot() -> discord.Client:
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    class Counter(discord.ui.View):
        def __init__(self) -> None:
            super().__init__(timeout=None)
            self.count = 0

        @discord.ui.button(label="+1", custom_id="bench:plus")
        async def plus(self, interaction: discord.Interaction,
                       button: discord.ui.Button[Any]) -> None:
            self.count += 1
            await interaction.response.edit_message(content=f"{self.count}", view=self)

    @tree.command(description="Ping")
    async def ping(interaction: discord.Interaction, n: int) -> None:
        await interaction.response.send_message(f"pong {n}", view=Counter())

    async def setup_hook() -> None:
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


def _summary(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"median {statistics.median(ms):7.2f} ms   p95 {p95:7.2f} ms   max {ms[-1]:7.2f} ms"


async def main(rounds: int) -> None:
    async with FakeDiscord() as emu:
        guild = emu.create_guild("Bench")
        channel = emu.create_text_channel(guild, "bench")
        alice = emu.create_user("alice", guild=guild)
        with point_discord_at(emu):
            runner = await run_client(emu, make_bot())
            first_started = time.perf_counter()
            first = await alice.slash(channel, "ping", n=0)
            first_total = time.perf_counter() - first_started
            slash_total, slash_bot, click_total, click_bot = [], [], [], []
            for n in range(rounds):
                started = time.perf_counter()
                reply = await alice.slash(channel, "ping", n=n)
                slash_total.append(time.perf_counter() - started)
                slash_bot.append(reply.latency or 0.0)
                started = time.perf_counter()
                clicked = await alice.click(reply, label="+1")
                click_total.append(time.perf_counter() - started)
                click_bot.append(clicked.latency or 0.0)
            problems = await runner.stop()
    print(f"login to ready (start() -> on_ready): {(runner.login_to_ready or 0) * 1000:7.2f} ms")
    print(f"first interaction round trip:         {first_total * 1000:7.2f} ms "
          f"(bot latency {(first.latency or 0) * 1000:.2f} ms)")
    print(f"slash round trip x{rounds}:  {_summary(slash_total)}")
    print(f"  bot latency:           {_summary(slash_bot)}")
    print(f"click round trip x{rounds}:  {_summary(click_total)}")
    print(f"  bot latency:           {_summary(click_bot)}")
    print(f"REST requests: {len(emu.requests)}, gateway frames: {len(emu.events)}, "
          f"problems: {len(problems) + len(emu.problems)}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
