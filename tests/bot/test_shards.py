"""Sharding: each process runs its own shards and serves, restores and keeps
only the servers on them; the emulator sends each server's events to the shard
Discord's formula names."""

from __future__ import annotations

from pathlib import Path

from db import Database
from fakediscord.core.world import Guild

from .conftest import FAST, LaunchBot, Server, StopBot
from .test_play import start_game


def shard_of(guild: Guild, count: int) -> int:
    return (guild.id >> 22) % count


async def test_two_processes_each_serve_the_servers_of_their_shard(
    server: Server, launch: LaunchBot, stop_bot: StopBot, tmp_path: Path
) -> None:
    emu = server.emu
    # A second server, on the other of two shards (ids count up with time).
    other = emu.create_guild("Other Club")
    while shard_of(other, 2) == shard_of(server.guild, 2):
        other = emu.create_guild("Other Club")
    channel = emu.create_text_channel(other, "rummy")
    gus = emu.create_user("Gus", guild=other)
    hal = emu.create_user("Hal", guild=other)
    here, there = shard_of(server.guild, 2), shard_of(other, 2)
    paths = {here: tmp_path / "here.sqlite3", there: tmp_path / "there.sqlite3"}
    bots = {
        shard: await launch(FAST, paths[shard], shard_count=2, shard_ids=(shard,))
        for shard in (here, there)
    }
    assert {bot.shard_ids[0] for bot in bots.values()} == {0, 1}  # type: ignore[index]

    # A game in each server, each answered by the process of its shard.
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bots[here], seated)
    lobby = await gus.slash(channel, "rummy start")
    join = next(b for b in lobby.message.buttons() if ":join:" in b["custom_id"])  # type: ignore[union-attr]
    await hal.click(lobby.message, custom_id=join["custom_id"])  # type: ignore[arg-type]
    assert bots[here].game.tables.get(server.channel.id) is not None
    assert bots[here].game.tables.get(channel.id) is None
    assert bots[there].game.tables.get(channel.id) is not None
    assert bots[there].game.tables.get(server.channel.id) is None
    for bot in bots.values():
        await bot.game.tasks.wait_idle()
        await stop_bot(bot)

    # Each keeps its own servers' tables, and a process restores only its shards':
    # handed the other's file, it leaves that server's table alone.
    for shard, path in paths.items():
        db = await Database.open(path)
        try:
            saved = {t.channel_id for t in (await db.load_live_tables()).tables}
        finally:
            await db.close()
        assert saved == {server.channel.id if shard == here else channel.id}
    swapped = await launch(FAST, paths[there], shard_count=2, shard_ids=(here,))
    assert swapped.restored_tables == 0 and len(swapped.game.tables) == 0
