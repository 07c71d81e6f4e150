"""A process cut off from PostgreSQL by a partition it cannot see: it stops
serving its shard before a standby may take it, so the shard is never served
twice, and no saved move is lost."""

from __future__ import annotations

from pathlib import Path

from tests.bot_process import BotProcess
from tests.cuttable_link import CuttableLink
from tests.postgres_server import PostgresServer

from .conftest import Server
from .harness import TablePlayer
from .test_standby import connected_shards, deal_and_draw, until_logged

LEASE_TTL = 2.0


async def test_a_process_cut_off_from_the_database_stops_before_its_shard_is_taken(
    server: Server, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    emu = server.emu
    players = [TablePlayer(emu, person, server.channel) for person in (server.ann, server.bob)]
    url = postgres_server.new_database()
    link = await CuttableLink("127.0.0.1", postgres_server.port).start()

    def settings(database_url: str, **more: str) -> dict[str, str]:
        return {"DATABASE_URL": database_url, "SHARD_COUNT": "1", "LEASE_CHECK": "0.1",
                "LEASE_TTL": str(LEASE_TTL), "LOG_LEVEL": "INFO", **more}

    # The serving process reaches the database through a link the test can cut;
    # the standby reaches it directly.
    first = await BotProcess.start(emu, tmp_path / "unused", tmp_path / "a.log",
                                   extra_env=settings(link.url(url), SHARD_IDS="0"),
                                   log_level="INFO")
    standby: BotProcess | None = None
    try:
        await emu._wait_until(lambda: connected_shards(server) == {0}, 60)
        standby = await BotProcess.start(emu, tmp_path / "unused", tmp_path / "s.log",
                                         extra_env=settings(url, STANDBY="true"),
                                         log_level="INFO")
        await until_logged(standby, "standing by: shards 0 are served by another")
        mover = await deal_and_draw(server.channel, players)

        # The link goes silent, and PostgreSQL drops the serving process's
        # sessions at once: the database frees nothing early.
        link.cut()
        link.drop_server_side()
        await emu._wait_until(lambda: not connected_shards(server), LEASE_TTL * 5)
        await until_logged(standby, "serving shards 0")
        await emu._wait_until(lambda: connected_shards(server) == {0}, 30)
        # Discord (the emulator) never saw a second session ask for shard 0
        # while the first was live.
        assert emu.gateway.refused_shards == []
        assert await first.process.wait() == 1
        assert "could not confirm the leases of shards 0" in first.log_path.read_text()

        # The link heals; the move saved before the partition is there, once,
        # and the game goes on with the standby.
        link.heal()
        reply = await mover.open_hand()
        assert reply.ephemeral, reply.text()
        assert len(mover.hand()) == 11, mover.hand()
        done = await mover.discard(mover.hand()[-1])
        assert "⚠️" not in done.text(), done.text()
        assert len(mover.hand()) == 10
    finally:
        link.heal()
        for bot in (first, standby):
            if bot is not None:
                await bot.stop()
        await link.close()
    assert standby.log_counts()[0] == 0, standby.log_tail()
    # Both processes may upload the card faces at once: the second is told the
    # name is taken, and takes the first one's emoji.
    refused = emu.take_problems()
    assert all("APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in problem for problem in refused), refused
