"""Several processes on one PostgreSQL: each serves the shards it holds the
leases of, a standby waits and takes over the shards of a process that died,
and no action is lost or done twice."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

import aiohttp

from db import Database
from fakediscord.core.world import Channel
from tests.bench.load_players import LoadPlayer, public_table
from tests.bot_process import BotProcess
from tests.ports import free_port
from tests.postgres_server import PostgresServer

from .conftest import Server
from .harness import TablePlayer
from .test_play import dealt_table, host_panel, press_start
from .test_stopping import opened

SHARDS = 4


def tables_on_shards(server: Server, count: int) -> dict[int, tuple[Channel, list[TablePlayer]]]:
    """A server on each of ``count`` shards, with a channel and two players each."""
    emu = server.emu
    tables: dict[int, tuple[Channel, list[TablePlayer]]] = {}
    guild = server.guild
    while len(tables) < count:
        shard = (guild.id >> 22) % count
        if shard not in tables:
            channel = emu.create_text_channel(guild, "rummy")
            people = [emu.create_user(f"{name}{guild.id % 1000}", guild=guild)
                      for name in ("Ann", "Bob")]
            tables[shard] = (channel, [TablePlayer(emu, p, channel) for p in people])
        guild = emu.create_guild("Club")
    return tables



def connected_shards(server: Server) -> set[int]:
    return {
        s.shard_id for s in server.emu.gateway.sessions.values() if s.connection is not None
    }


async def deal_and_draw(channel: Channel, players: list[TablePlayer]) -> TablePlayer:
    """The first player opens a one-hand match, the second joins, it starts, and
    whoever moves first draws; that player."""
    lobby = await players[0].actor.slash(channel, "rummy start", hands=1)
    assert lobby.message is not None
    panel = await host_panel(lobby)
    await players[1].actor.click(lobby.message, label="Join")
    await press_start(players[0].actor, panel)
    await dealt_table(players[0].emu, channel)
    mover = await opened(players)
    assert "You drew" in (await mover.draw()).text()
    return mover


async def until_logged(bot: BotProcess, text: str, limit: float = 30.0) -> None:
    for _ in range(int(limit / 0.05)):
        if text in bot.log_path.read_text(errors="replace"):
            return
        if bot.process.returncode is not None:
            break
        await asyncio.sleep(0.05)
    raise AssertionError(f"{text!r} never logged:\n{bot.log_tail()}")


async def test_a_standby_takes_over_the_shards_of_a_killed_process(
    server: Server, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    emu = server.emu
    tables = tables_on_shards(server, SHARDS)
    url = postgres_server.new_database()

    def settings(**more: str) -> dict[str, str]:
        return {"DATABASE_URL": url, "SHARD_COUNT": str(SHARDS), "LEASE_CHECK": "0.1",
                "LEASE_TTL": "1", "LOG_LEVEL": "INFO", **more}

    first = await BotProcess.start(emu, tmp_path / "unused", tmp_path / "a.log",
                                   extra_env=settings(SHARD_IDS="0,1"), log_level="INFO")
    second = await BotProcess.start(emu, tmp_path / "unused", tmp_path / "b.log",
                                    extra_env=settings(SHARD_IDS="2,3"), log_level="INFO")
    standby: BotProcess | None = None
    try:
        await emu._wait_until(lambda: connected_shards(server) == {0, 1, 2, 3}, 60)
        port = free_port()
        standby = await BotProcess.start(
            emu, tmp_path / "unused", tmp_path / "s.log", log_level="INFO",
            extra_env=settings(STANDBY="true", HEALTH_PORT=str(port)))
        await until_logged(standby, "standing by: shards 0, 1, 2, 3 are served by another")
        # Healthy while it waits, and saying why it is not on the gateway.
        async with aiohttp.ClientSession() as web, \
                web.get(f"http://127.0.0.1:{port}/healthz") as health:
            assert health.status == 200
            assert await health.json() == {"gateway": "standing by", "database": "ok"}

        # A game on every shard; whoever moves first draws.
        drawn = {shard: await deal_and_draw(channel, players)
                 for shard, (channel, players) in tables.items()}

        # The process of shards 0 and 1 dies mid-hand, with no warning.
        first.process.send_signal(signal.SIGKILL)
        await first.process.wait()
        await until_logged(standby, "serving shards 0, 1")
        await emu._wait_until(lambda: connected_shards(server) == {0, 1, 2, 3}, 30)

        # Every game goes on from exactly where it was: the draw kept, once.
        for shard, mover in drawn.items():
            reply = await mover.open_hand()
            assert reply.ephemeral, reply.text()
            assert len(mover.hand()) == 11, (shard, mover.hand())
            # Drawn, not yet discarded: 11 cards, and the stock one short of the deal's 31.
            assert "then one to discard" in mover.view_text() and "30 cards" in mover.view_text()
            done = await mover.discard(mover.hand()[-1])
            assert "⚠️" not in done.text(), done.text()
            assert len(mover.hand()) == 10

        # Every match is played out, by the processes now serving its shard.
        seats = [LoadPlayer(emu, player.actor, channel, 0.0, random.Random(n), host=n == 0)
                 for channel, players in tables.values() for n, player in enumerate(players)]
        await asyncio.wait_for(asyncio.gather(*(seat.play() for seat in seats)), 120)
        for channel, _ in tables.values():
            sight = public_table(emu, channel)
            assert sight is not None and sight.match_over, channel.id
        # Each result recorded once, and each server's leaderboard, asked of the
        # process serving it, counts its two players' one match.
        store = await Database.open(url)
        try:
            for channel, players in tables.values():
                assert await store.latest_match(channel.id) is not None
                board = await store.leaderboard(channel.guild_id)
                assert sorted(r.user_id for r in board.rows) == sorted(p.actor.id for p in players)
                assert [r.matches_played for r in board.rows] == [1, 1]
                shown = await players[1].actor.slash(channel, "rummy leaderboard")
                for row in board.rows:
                    assert row.name in shown.text(), shown.text()
            history = await store.history(next(iter(tables.values()))[0].guild_id)
            assert len(history.entries) == 1
        finally:
            await store.close()

        # A graceful stop loses nothing and exits 0.
        second.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(second.process.wait(), 20) == 0, second.log_tail()
        assert standby.process.returncode is None
    finally:
        for bot in (first, second, standby):
            if bot is not None:
                await bot.stop()
    assert standby.log_counts()[0] == 0, standby.log_tail()
    # Processes starting together race to upload the card faces; the loser of
    # each race takes the emoji the winner made (Discord refuses the same name
    # twice), so the only refusals are those.
    refused = emu.take_problems()
    assert all("APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in problem for problem in refused), refused
    assert "could not upload the card emoji" not in second.log_path.read_text()
