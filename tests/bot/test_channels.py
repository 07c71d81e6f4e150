"""A table stays visible while its channel lives, and its game ends cleanly
when the channel goes."""

from __future__ import annotations

import logging

import pytest

from bot import RummyBot
from chat.table_side import chat_side
from tests.waiting import until

from .conftest import LaunchBot, Server
from .harness import table_message
from .test_play import heads_up


async def played_counts(bot: RummyBot, server: Server) -> list[tuple[int, int]]:
    assert bot.db is not None
    board = await bot.db.leaderboard(server.guild.id)
    return [(row.matches_played, row.matches_won) for row in board.rows]


async def test_a_deleted_table_message_is_posted_again_at_once(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    old = table_message(server.emu, server.channel)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    server.emu.delete_message(old)
    # Nobody moves: the deletion alone brings the table back.
    await until(lambda: chat_side(table).message_id != old.id, "the table posted again")
    await bot.game.tasks.wait_idle()
    fresh = table_message(server.emu, server.channel)
    assert fresh.id != old.id and "Show hand" in [b.get("label") for b in fresh.buttons()]
    assert chat_side(table).message_id == fresh.id
    assert bot.db is not None
    assert [t.message_id for t in (await bot.db.load_live_tables()).tables] == [fresh.id]
    # A second /rummy start links to the live message, not the deleted one.
    busy = await server.cat.slash(server.channel, "rummy start")
    assert busy.ephemeral and str(fresh.id) in busy.text() and str(old.id) not in busy.text()
    opened = await first.open_hand()
    assert opened.ephemeral and "Your hand" in opened.text()


async def test_a_deleted_lobby_message_is_posted_again(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    lobby = await server.ann.slash(server.channel, "rummy start")
    old = lobby.message
    assert old is not None
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    # The bot learns its lobby's id from the answer that made it: only a
    # message it knows as its table can be posted again.
    await until(lambda: chat_side(table).message_id == old.id, "the lobby's id recorded")
    server.emu.delete_message(old)
    await until(lambda: chat_side(table).message_id != old.id, "the lobby posted again")
    await bot.game.tasks.wait_idle()
    fresh = table_message(server.emu, server.channel)
    joined = await server.bob.click(fresh, label="Join")
    assert not joined.ephemeral and "Bob" in joined.text()


async def test_a_deleted_channel_ends_its_game_as_abandoned_once(
    server: Server, launch: LaunchBot, caplog: pytest.LogCaptureFixture
) -> None:
    bot, _, _ = await heads_up(server, launch)
    caplog.set_level(logging.WARNING)
    server.emu.delete_channel(server.channel)
    await until(lambda: bot.game.tables.get(server.channel.id) is None, "the game ended")
    await bot.game.tasks.wait_idle()
    assert bot.game.tables.get(server.channel.id) is None
    assert bot.db is not None and (await bot.db.load_live_tables()).tables == []
    assert await played_counts(bot, server) == [(0, 0), (0, 0)]  # abandoned: not lost
    warnings = [r for r in caplog.records if "channel is lost" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING


async def test_losing_sight_of_the_channel_ends_the_game_without_errors(
    server: Server, launch: LaunchBot, caplog: pytest.LogCaptureFixture
) -> None:
    bot, first, _ = await heads_up(server, launch)
    await first.open_hand()
    caplog.set_level(logging.WARNING)
    server.emu.set_permissions(server.channel, server.emu.bot_user, view_channel=False)
    await first.draw()  # the table cannot be redrawn any more
    await bot.game.tasks.wait_idle()
    assert bot.game.tables.get(server.channel.id) is None
    assert await played_counts(bot, server) == [(0, 0), (0, 0)]
    lost = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in lost] == [
        f"ended the game in channel {server.channel.id}: the channel is lost"
    ]
