"""Computer players, turn timers, seats handed over and taken back, abandoned tables."""

from __future__ import annotations

import asyncio
import dataclasses
import time

from tables.tapes import public_record

from .conftest import FAST, LaunchBot, Server, StopBot
from .harness import TablePlayer, play_simple_turn, table_message
from .test_play import dealt_table, host_panel, press_start, start_game

# turn_timeout=3 lasts 1.5 s in these tests: short for the absent player, yet
# ample for the present one, who is on the same clock, even on a busy machine.
QUICK_TURNS = dataclasses.replace(FAST, turn_time_scale=0.5)


async def test_one_human_plays_a_match_against_computers(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    ann = server.player(server.ann)
    ann.settle = bot.game.tasks.wait_idle
    lobby = await server.ann.slash(server.channel, "rummy start", hands=2, turn_timeout=0)
    panel = await host_panel(lobby)
    await server.ann.click(panel, label="Add computer (easy)")
    await server.ann.click(panel, label="Add computer (hard)")
    await server.ann.click(panel, label="Start")
    for _ in range(300):
        await bot.game.tasks.wait_idle()
        table = bot.game.tables.get(server.channel.id)
        if table is None:
            break
        assert table.match is not None
        if table.match.hand.is_over:
            await server.ann.click(table_message(server.emu, server.channel), label="Next hand")
            continue
        assert table.match.hand.turn == ann.key, "a computer's turn was not played"
        await play_simple_turn(ann, bot)
    else:
        raise AssertionError("the match did not end")
    final = table_message(server.emu, server.channel).text()
    assert "Match over" in final and "🤖" in final
    assert bot.db is not None
    board = await bot.db.leaderboard(server.guild.id)
    assert [row.user_id for row in board.rows] == [server.ann.id]  # computers are not ranked


async def test_an_expert_computer_plays_from_the_public_record(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    ann = server.player(server.ann)
    ann.settle = bot.game.tasks.wait_idle
    lobby = await server.ann.slash(server.channel, "rummy start", hands=1, turn_timeout=0)
    panel = await host_panel(lobby)
    await server.ann.click(panel, label="Add computer (expert)")
    await server.ann.click(panel, label="Start")
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert [seat.level for seat in table.seats] == [None, "expert"]
    for _ in range(300):
        await bot.game.tasks.wait_idle()
        if table.match.hand.is_over:
            break
        assert table.match.hand.turn == ann.key, "the expert's turn was not played"
        await play_simple_turn(ann, bot)
    else:
        raise AssertionError("the hand did not end")
    events = public_record(table).events
    assert events[0].kind == "deal" and events[-1].kind == "hand_over"
    assert any(event.player == "cpu1" and event.kind == "discard" for event in events)
    assert all(not event.cards for event in events if event.kind == "draw_stock")


async def test_timeouts_hand_the_seat_to_a_computer_until_taken_back(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch(QUICK_TURNS)
    seated = [server.player(server.ann), server.player(server.bob)]
    lobby = await server.ann.slash(server.channel, "rummy start", turn_timeout=3)
    panel = await host_panel(lobby)
    await server.bob.click(lobby.message, label="Join")
    await press_start(server.ann, panel)
    await bot.game.tasks.wait_idle()  # the public table is drawn after the answer
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert table.turn_deadline is not None
    assert f"<t:{int(table.turn_deadline)}:R>" in table_message(server.emu, server.channel).text()
    absent = next(p for p in seated if p.key == table.match.hand.turn)
    present = next(p for p in seated if p is not absent)
    present.settle = bot.game.tasks.wait_idle
    seat = table.seat(absent.key)

    async def wait_turn_of(player: TablePlayer) -> None:
        await server.emu.wait_for(
            # The timers run on the clock: a generous bound, not a measurement.
            lambda: table.match is not None and table.match.hand.turn == player.key, timeout=15
        )

    for missed in range(1, 4):
        held = len(table.match.hand.hand_of(absent.key))
        await wait_turn_of(present)  # the bot played the absent player's turn
        assert seat.missed_turns == missed
        assert len(table.match.hand.hand_of(absent.key)) == held  # drew one, discarded one
        # a timed-out turn never melds or lays off
        assert all(absent.key not in m.owners for m in table.match.hand.melds)
        if missed < 3:
            assert not seat.autopilot
            await play_simple_turn(present, bot)
    assert seat.autopilot
    await bot.game.tasks.wait_idle()
    assert "a computer plays their seat" in table_message(server.emu, server.channel).text()
    told = [m.text() for m in absent.actor.dms() if "Take my seat back" in m.text()]
    assert len(told) == 1 and "missed 3 turns in a row" in told[0]  # told once, by DM

    # The computer now plays the seat at once; the person comes back and reclaims it.
    await play_simple_turn(present, bot)
    await wait_turn_of(present)
    view = await absent.open_hand()
    assert view.message is not None and view.message.button("Take my seat back")
    back = await absent.press("Take my seat back")
    assert "Take my seat back" not in {b["label"] for b in back.message.buttons()}
    assert "Your seat is yours again." in back.text()  # confirmed where they clicked
    assert not seat.autopilot and seat.missed_turns == 0
    await bot.game.tasks.wait_idle()
    assert "took their seat back" in table_message(server.emu, server.channel).text()


async def test_timer_resumes_after_restart_with_the_time_it_had(
    server: Server, launch: LaunchBot, stop_bot: StopBot
) -> None:
    slow = dataclasses.replace(FAST, turn_time_scale=1.0)
    bot = await launch(slow)
    lobby = await server.ann.slash(server.channel, "rummy start", turn_timeout=2)
    panel = await host_panel(lobby)
    await server.bob.click(lobby.message, label="Join")
    await press_start(server.ann, panel)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    deadline, turn = table.turn_deadline, table.match.hand.turn
    assert deadline is not None and turn is not None
    await stop_bot(bot)
    # The bot stays down longer than the turn had left: that downtime is
    # nobody's fault and must not cost the player the turn.
    await asyncio.sleep(2.2)

    bot = await launch(slow)
    restored = bot.game.tables.get(server.channel.id)
    assert restored is not None and restored.match is not None
    assert restored.turn_deadline is not None and restored.turn_deadline > deadline
    left = restored.turn_deadline - time.time()
    assert 0 < left <= 2  # what remained, not a fresh full timer and not none
    assert restored.match.hand.turn == turn and restored.seat(turn).missed_turns == 0
    await server.emu.wait_for(
        lambda: restored.match is not None and restored.match.hand.turn != turn, timeout=6
    )
    assert restored.seat(turn).missed_turns == 1


async def test_idle_table_is_ended_as_abandoned(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    await bot.game.automation.sweep(now=table.last_human_action + 29 * 60)
    assert bot.game.tables.get(server.channel.id) is table
    await bot.game.automation.sweep(now=table.last_human_action + 30 * 60 + 1)
    await bot.game.tasks.wait_idle()
    assert bot.game.tables.get(server.channel.id) is None
    assert "abandoned" in table_message(server.emu, server.channel).text()
    assert bot.db is not None and (await bot.db.load_live_tables()).tables == []
    board = await bot.db.leaderboard(server.guild.id)
    # Abandoned: not a match lost.
    assert [(r.matches_played, r.matches_won) for r in board.rows] == [(0, 0), (0, 0)]
    fresh = await server.bob.slash(server.channel, "rummy start")
    assert not fresh.ephemeral


async def test_computer_moves_never_block_people(server: Server, launch: LaunchBot) -> None:
    slow_computers = dataclasses.replace(FAST, computer_delay=0.5)
    bot = await launch(slow_computers)
    lobby = await server.ann.slash(server.channel, "rummy start", turn_timeout=0)
    panel = await host_panel(lobby)
    await server.ann.click(panel, label="Add computer (hard)")
    await server.ann.click(panel, label="Start")
    await dealt_table(server.emu, server.channel)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    if table.match.hand.turn == str(server.ann.id):
        ann = server.player(server.ann)
        ann.settle = bot.game.tasks.wait_idle
        await play_simple_turn(ann, bot)
    # While the computer "thinks" (its 0.5 s pause), the table's lock is free
    # and clicks are answered at once.
    await asyncio.sleep(0.05)
    assert table.match.hand.turn == "cpu1" and not table.lock.locked()
    reply = await server.ann.click(table_message(server.emu, server.channel), label="Rules")
    assert reply.answered and table.match.hand.turn == "cpu1"
    await bot.game.tasks.wait_idle()
    assert table.match.hand.turn == str(server.ann.id)  # then the computer did move
