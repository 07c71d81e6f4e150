"""A database that keeps refusing a result never holds a channel's game for ever."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.bot import RummyBot
from db.unrecorded import folder_for, kept_files, load, record_kept
from tables import NOT_SAVED
from tests.postgres_server import PostgresServer

from .conftest import LaunchBot, Server
from .harness import TablePlayer
from .test_play import in_turn_order, rigged_heads_up, start_game


async def heads_up_on(server: Server, bot: RummyBot) -> list[TablePlayer]:
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    return in_turn_order(bot, server, seated)


REFUSE_RESULTS = """
CREATE TRIGGER refuse_results BEFORE INSERT ON matches
BEGIN SELECT RAISE(ABORT, 'the results table is damaged'); END;
"""


def damage_results(path: Path, damaged: bool) -> None:
    """Another program makes every insert into the results fail, or stops it."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute(REFUSE_RESULTS if damaged else "DROP TRIGGER refuse_results")
    finally:
        other.close()


async def test_a_result_the_database_keeps_refusing_is_kept_and_the_table_closed(
    server: Server, launch: LaunchBot, db_path: Path
) -> None:
    bot = await launch(allow_errors=True)
    p1, _ = await rigged_heads_up(server, bot, hands=1)
    await p1.open_hand()
    await p1.draw()
    await p1.meld(["4H", "5H", "6H"])
    damage_results(db_path, damaged=True)
    refusals = [await p1.discard("7H") for _ in range(2)]
    assert all(reply.type == 7 and NOT_SAVED in reply.text() for reply in refusals)
    assert bot.game.tables.get(server.channel.id) is not None  # try again: it may pass

    last = await p1.discard("7H")  # the third refusal in a row: the result is kept
    await bot.game.tasks.wait_idle()
    assert NOT_SAVED not in last.text()
    assert bot.game.tables.get(server.channel.id) is None
    assert bot.db is not None and (await bot.db.load_live_tables()).tables == []
    notices = [m.text() for m in server.emu.messages(server.channel) if not m.embeds]
    assert any("could not be saved to the leaderboard" in text for text in notices)
    [kept] = kept_files(folder_for(db_path))
    record = load(kept)
    assert record.channel_id == server.channel.id and record.winners == (p1.key,)
    assert not record.abandoned

    # Once the database is repaired, the host records it: once.
    damage_results(db_path, damaged=False)
    assert await record_kept(bot.db, folder_for(db_path)) == (1, [])
    assert await record_kept(bot.db, folder_for(db_path)) == (0, [])
    board = await bot.db.leaderboard(server.guild.id)
    top = board.rows[0]
    assert (top.user_id, top.matches_won) == (p1.actor.id, 1)
    fresh = await server.bob.slash(server.channel, "rummy start")
    assert not fresh.ephemeral


async def test_postgresql_lost_mid_game_refuses_clicks_and_play_resumes_when_it_returns(
    server: Server, launch: LaunchBot, postgres_server: PostgresServer
) -> None:
    url = postgres_server.new_database()
    bot = await launch(database_url=url, allow_errors=True)
    first, second = await heads_up_on(server, bot)
    await first.open_hand()
    await first.draw()
    postgres_server.stop()
    try:
        refused = await first.discard(first.hand()[-1])
        # In the player's own view: not saved, nothing changed.
        assert refused.ephemeral and NOT_SAVED in refused.text(), refused.text()
        assert len(first.hand()) == 11
    finally:
        postgres_server.start()
    await first.open_hand()
    done = await first.discard(first.hand()[-1])
    assert NOT_SAVED not in done.text() and len(first.hand()) == 10
    await second.open_hand()
    assert "**Your turn**" in second.view_text()
    # What the player saw is what was saved.
    assert bot.db is not None
    [saved] = (await bot.db.load_live_tables()).tables
    assert saved.channel_id == server.channel.id
