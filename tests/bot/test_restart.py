"""A restart or a crash in the middle of a game loses nothing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot import RummyBot
from chat.table_side import chat_side
from db import Database

from .conftest import FAST, LaunchBot, Server, StopBot
from .harness import TablePlayer, play_simple_turn, table_message
from .test_hand_follows import check_every_message
from .test_match import play_match
from .test_play import start_game

SEEDED = dataclasses.replace(FAST, table_seed=20261121)


async def play_turns(bot: RummyBot, server: Server, seated: list[TablePlayer], turns: int) -> None:
    for _ in range(turns):
        table = bot.game.tables.get(server.channel.id)
        assert table is not None and table.match is not None and table.match.hand.turn
        player = next(p for p in seated if p.key == table.match.hand.turn)
        await play_simple_turn(player, bot)
        await bot.game.tasks.wait_idle()


async def final_figures(path: Path, guild_id: int) -> list[tuple[int, int, int, int]]:
    db = await Database.open(path)
    try:
        board = await db.leaderboard(guild_id, "points")
        return [(r.user_id, r.points, r.hands_won, r.matches_won) for r in board.rows]
    finally:
        await db.close()


@pytest.mark.parametrize("crash", [False, True], ids=["clean stop", "killed"])
async def test_game_continues_after_restart_with_same_result(
    server: Server, launch: LaunchBot, stop_bot: StopBot, tmp_path: Path, crash: bool
) -> None:
    seated = [server.player(server.ann), server.player(server.bob), server.player(server.cat)]

    # The reference: the same seed and strategy, never interrupted.
    reference_db = tmp_path / "reference.sqlite3"
    bot = await launch(SEEDED, reference_db)
    await start_game(server, bot, seated, hands=2)
    await play_match(bot, server, seated)
    await stop_bot(bot)
    expected = await final_figures(reference_db, server.guild.id)
    assert expected

    # The same game, with the bot going down after a few turns.
    bot = await launch(SEEDED)
    await start_game(server, bot, seated, hands=2)
    await play_turns(bot, server, seated, 5)
    before = bot.game.tables.get(server.channel.id)
    assert before is not None
    saved_state = before.to_dict()
    old_table = table_message(server.emu, server.channel)
    await stop_bot(bot, crash=crash)

    bot = await launch(SEEDED)
    restored = bot.game.tables.get(server.channel.id)
    assert restored is not None and bot.restored_tables == 1
    now_state = restored.to_dict()
    clocks = ("created_at", "last_human_action", "turn_deadline")
    # Same hands, same turn, same scores; the clocks moved on by the downtime.
    assert {k: v for k, v in now_state.items() if k not in clocks} == {
        k: v for k, v in saved_state.items() if k not in clocks
    }
    shifts = {
        round(now_state[k] - saved_state[k], 6) for k in clocks if saved_state[k] is not None
    }
    assert len(shifts) == 1 and shifts.pop() >= 0
    # The old message's buttons still work: its player opens a fresh hand view.
    current = next(p for p in seated if p.key == restored.match.hand.turn)  # type: ignore[union-attr]
    reply = await current.actor.click(old_table, label="Show hand")
    assert reply.ephemeral and "Your hand" in reply.text()
    for player in seated:
        player.settle = bot.game.tasks.wait_idle
    await play_match(bot, server, seated)
    await stop_bot(bot)
    db_path = tmp_path / "rummy.sqlite3"
    assert await final_figures(db_path, server.guild.id) == expected


async def test_unreadable_saved_table_is_set_aside(
    server: Server, launch: LaunchBot, stop_bot: StopBot, db_path: Path
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    lobby = await server.cat.slash(server.other_channel, "rummy start")
    assert not lobby.ephemeral
    await stop_bot(bot)

    # Damage one saved game the way a bad deploy or a disk fault might.
    db = await Database.open(db_path)
    loaded = await db.load_live_tables()
    broken = next(t for t in loaded.tables if t.channel_id == server.channel.id)
    state = dict(broken.state)
    state["match"] = {"version": 1, "nonsense": True}
    state["selections"] = []  # the wrong shape entirely
    await db.save_live_table(dataclasses.replace(broken, state=state))
    await db.close()

    bot = await launch(allow_errors=True)
    await bot.game.tasks.wait_idle()
    assert bot.restored_tables == 1 and bot.broken_tables == 1
    assert bot.game.tables.get(server.channel.id) is None
    assert bot.game.tables.get(server.other_channel.id) is not None  # the others still load
    notices = [m.text() for m in server.emu.messages(server.channel)]
    assert any("could not be restored" in text for text in notices)
    assert bot.db is not None
    kept = await bot.db.set_aside_tables()
    assert [t.channel_id for t in kept] == [server.channel.id]
    # The channel is usable again.
    fresh = await server.ann.slash(server.channel, "rummy start")
    assert not fresh.ephemeral


async def test_failed_save_refuses_the_action_and_keeps_the_state(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch(FAST, allow_errors=True)
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    first = next(p for p in seated if p.key == table.match.hand.turn)
    await first.open_hand()
    before = table.to_dict()
    assert bot.db is not None
    bot.db.abandon()  # every write now fails, as on a dead disk
    reply = await first.draw()
    assert reply.type == 7 and "could not be saved" in reply.text()  # in the hand message
    assert "⚠️ That could not be saved" in reply.text() and "⚠️ ⚠️" not in reply.text()
    assert table.to_dict() == before
    assert bot.game.tables.get(server.channel.id) is table


async def test_a_table_saved_before_games_had_ids_comes_back_playable(
    server: Server, launch: LaunchBot, stop_bot: StopBot, db_path: Path
) -> None:
    seated = [server.player(server.ann), server.player(server.bob)]
    bot = await launch()
    await start_game(server, bot, seated)
    await stop_bot(bot)
    # Rewrite the saved table as the previous version of the bot saved it.
    db = await Database.open(db_path)
    try:
        [saved] = (await db.load_live_tables()).tables
        del saved.state["game_id"]
        await db.save_live_table(dataclasses.replace(saved, state=saved.state))
    finally:
        await db.close()

    bot = await launch()
    await bot.game.tasks.wait_idle()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and bot.restored_tables == 1
    message = table_message(server.emu, server.channel)
    assert f"-{table.game_id}" in message.button("Show hand")["custom_id"]
    opened = await seated[0].open_hand()
    assert opened.ephemeral and "Your hand" in opened.text()


async def test_a_table_shown_as_an_embed_before_the_upgrade_takes_the_layout(
    server: Server, launch: LaunchBot, stop_bot: StopBot
) -> None:
    seated = [server.player(server.ann), server.player(server.bob)]
    bot = await launch()
    await start_game(server, bot, seated)
    message = table_message(server.emu, server.channel)
    await stop_bot(bot)
    # The message as the previous version of the bot left it: an embed and a row
    # of buttons, without the layout flag.
    message.flags, message.embeds = 0, [{"type": "rich", "title": "Rummy — hand 1"}]
    show = {"type": 2, "style": 1, "label": "Show hand",
            "custom_id": message.button("Show hand")["custom_id"]}
    message.components = [{"type": 1, "components": [show]}]
    assert not message.is_v2

    bot = await launch()
    await play_turns(bot, server, seated, 1)
    await bot.game.tasks.wait_idle()
    assert table_message(server.emu, server.channel).id == message.id  # edited, not replaced
    assert message.is_v2 and message.embeds == []
    assert any("▶️" in block for block in message.text_displays())


@pytest.mark.parametrize("crash", [False, True], ids=["clean stop", "killed"])
async def test_hand_messages_open_at_a_restart_go_on_following_the_game(
    server: Server, launch: LaunchBot, stop_bot: StopBot, crash: bool
) -> None:
    seated = [server.player(server.ann), server.player(server.bob), server.player(server.cat)]
    bot = await launch(SEEDED)
    await start_game(server, bot, seated, hands=1)
    for player in seated:
        await player.open_hand()
    await play_turns(bot, server, seated, 2)
    await bot.game.tasks.wait_idle()
    await stop_bot(bot, crash=crash)

    bot = await launch(SEEDED)
    for player in seated:
        player.settle = bot.game.tasks.wait_idle
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert set(chat_side(table).hand_messages) == {p.key for p in seated}  # handles came back
    # Nobody but the mover clicks after the restart: every message still follows.
    await play_turns(bot, server, seated, 2)
    await bot.game.tasks.wait_idle()
    assert check_every_message(bot, server, seated) == len(seated)
