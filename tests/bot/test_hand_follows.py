"""Every open hand message tells the truth: after each move, every player's
message shows the table as it is (its discard, its melds, whose turn), a
turn the timer played no longer looks like the absent player's, and a game
that was stopped leaves no live control behind."""

from __future__ import annotations

import dataclasses

import pytest

from bot import RummyBot

from .conftest import FAST, LaunchBot, Server
from .harness import TablePlayer, play_simple_turn, table_message
from .test_match import current, shows
from .test_play import rigged_three, start_game

FOLLOWED_DEAL = 20261207
# Buttons that act on the game; what a finished or stopped game may not offer.
PLAYING_LABELS = ("Draw from stock", "Take", "Meld", "Lay off", "Discard")


def check_every_message(bot: RummyBot, server: Server, seated: list[TablePlayer]) -> int:
    """Each player's hand message against the game as it stands; the checks made."""
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    public = table.match.hand.view_for(None)
    if public.outcome is not None:
        return 0
    checks = 0
    for player in seated:
        text = player.view_text()
        top = public.discard_top
        assert top is None or shows(text, top), (player.actor.name, top, text)
        assert text.count("\n`") == len(public.melds), (player.actor.name, text)
        if public.turn == player.key:
            assert "**Your turn**" in text, (player.actor.name, text)
        else:
            turn = table.seat(public.turn or "").name
            assert f"Waiting for **{turn}** to play." in text, (player.actor.name, text)
            assert not _has(player, "Draw from stock"), player.actor.name
        checks += 1
    return checks


def _has(player: TablePlayer, label: str) -> bool:
    return any((b["label"] or "").startswith(label) for b in player._hand_view().buttons())


@pytest.mark.parametrize("players", [3, 6])
async def test_every_open_hand_message_follows_every_move(
    server: Server, launch: LaunchBot, players: int
) -> None:
    # A deal of its own: a random one may go out within two rounds, too soon to
    # have followed the moves this test is about.
    bot = await launch(dataclasses.replace(FAST, table_seed=FOLLOWED_DEAL))
    actors = [server.ann, server.bob, server.cat, server.dan, server.eve, server.fay][:players]
    seated = [server.player(actor) for actor in actors]
    await start_game(server, bot, seated, hands=1)
    for player in seated:
        await player.open_hand()
    checks = 0
    for _ in range(400):
        mover = current(bot, server, seated)
        table = bot.game.tables.get(server.channel.id)
        if mover is None or table is None or table.match is None or table.match.hand.is_over:
            break
        await play_simple_turn(mover, bot)
        await bot.game.tasks.wait_idle()
        table = bot.game.tables.get(server.channel.id)
        if table is None or table.match is None or table.match.hand.is_over:
            break
        checks += check_every_message(bot, server, seated)
    assert checks >= players * 5
    # The hand is over: every message shows how it ended, and offers no move.
    await bot.game.tasks.wait_idle()
    for player in seated:
        assert "is over" in player.view_text(), player.view_text()
        assert not any(_has(player, label) for label in PLAYING_LABELS)


async def test_a_turn_the_timer_played_and_a_stopped_game_leave_no_live_controls(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch(dataclasses.replace(FAST, turn_time_scale=0.5))
    seated = [server.player(server.ann), server.player(server.bob), server.player(server.cat)]
    await start_game(server, bot, seated, turn_timeout=3)
    for player in seated:
        await player.open_hand()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    absent = current(bot, server, seated)
    assert absent is not None and "**Your turn**" in absent.view_text()
    # Nobody moves: the timer plays the absent player's turn.
    await server.emu.wait_for(
        lambda: table.match is not None and table.match.hand.turn != absent.key, timeout=15
    )
    # The timer changes the turn before its save and its news to the doors:
    # holding the table's lock once after it means the whole move is told.
    async with table.lock:
        pass
    await bot.game.tasks.wait_idle()
    after = absent.view_text()
    assert "**Your turn**" not in after and "Time runs out" not in after, after
    assert not _has(absent, "Draw from stock") and not _has(absent, "Take")
    check_every_message(bot, server, seated)

    # The host stops the game: every message says so, with nothing left to press.
    ended = await server.ann.slash(server.channel, "rummy end")
    assert "ended" in ended.text()
    await bot.game.tasks.wait_idle()
    for player in seated:
        text = player.view_text()
        assert "This game has ended" in text, text
        assert player._hand_view().buttons() == [], player.actor.name
    assert "ended" in table_message(server.emu, server.channel).text()


async def test_a_draw_from_the_stock_rides_along_with_the_movers_next_move(
    server: Server, launch: LaunchBot
) -> None:
    # A draw can wait (long enough here for the whole turn); the discard cannot.
    bot = await launch(dataclasses.replace(FAST, quiet_follow_after=3.0))
    seated = [server.player(server.ann), server.player(server.bob), server.player(server.cat)]
    await start_game(server, bot, seated, hands=1)
    for player in seated:
        await player.open_hand()
        player.settle = None  # look without waiting for the quiet edit
    mover = current(bot, server, seated)
    assert mover is not None
    waiting = [p for p in seated if p is not mover and p is not next_after(bot, server, seated)]
    [watcher] = waiting
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    stock_before = table.match.hand.view_for(None).stock_size
    shown_before = watcher._hand_view().edits
    await mover.draw()
    follows = bot.game.hand_messages
    await server.emu.wait_for(lambda: follows.following(table, watcher.key, quiet=True))
    assert not follows.following(table, watcher.key)
    assert watcher._hand_view().edits == shown_before  # not an edit of its own
    await mover.discard(mover.hand()[0])
    # The discard shows at once, and the draw with it.
    await server.emu.wait_for(lambda: watcher._hand_view().edits > shown_before)
    check_every_message(bot, server, seated)
    assert f"{stock_before - 1} cards" in watcher.view_text()
    shown = watcher._hand_view().edits
    await bot.game.tasks.wait_idle()  # the draw's own edit comes due: nothing left to show
    assert watcher._hand_view().edits == shown


def next_after(bot: RummyBot, server: Server, seated: list[TablePlayer]) -> TablePlayer:
    """The player whose turn comes after the current one's."""
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    order = list(table.match.players)
    turn = table.match.hand.turn
    assert turn is not None
    following = order[(order.index(turn) + 1) % len(order)]
    return next(p for p in seated if p.key == following)


async def test_a_new_hand_brings_each_open_hand_message_down_below_its_table(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = await rigged_three(server, bot)
    p1, p2, p3 = seated
    opened = [p1, p2]  # the third never opened a hand message
    for player in opened:
        await player.open_hand()
    old_views = {player.key: player.view for player in opened}
    await p1.draw()
    await p1.meld(["4H", "5H", "6H"])
    await p1.discard("7H")
    await bot.game.tasks.wait_idle()
    finished = table_message(server.emu, server.channel)
    await p3.actor.click(finished, label="Next hand")
    await bot.game.tasks.wait_idle()
    fresh = table_message(server.emu, server.channel)
    assert "hand 2" in fresh.text().lower()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    for player in opened:
        newest = player.actor.visible_messages(server.channel)[-1]
        # The newest message each of them sees is their own hand, dealt anew,
        # below the new table; the old one points to it and offers no move.
        assert newest.ephemeral and newest.id > fresh.id, player.actor.name
        assert "Your hand" in newest.text()
        dealt = sorted(card.code for card in table.match.hand.hand_of(player.key))
        assert sorted(player.hand()) == dealt and player.view is not None
        assert player.view.id == newest.id
        old = old_views[player.key]
        assert old is not None
        retired = server.emu.message(server.channel, old.id)
        assert retired is not None and "shown in another message" in retired.text()
        assert not [b for b in retired.buttons() if b["label"] in PLAYING_LABELS]
    # The third had no hand message open: nothing new for them but the table.
    assert not [m for m in p3.actor.visible_messages(server.channel)
                if m.ephemeral and m.id > fresh.id]
    # Play goes on from the new messages: a move there, and the others' follow it.
    mover = current(bot, server, seated)
    assert mover is not None
    if mover is p3:
        await mover.open_hand()
    before = mover.view
    drawn = await mover.draw()
    assert drawn.type == 7 and mover.view is before
    await bot.game.tasks.wait_idle()
    assert check_every_message(bot, server, [p for p in seated if p.view is not None]) > 0
