"""Every open hand message follows the game: the result when a hand ends, and a
way back when Discord's 15 minutes to update it run out."""

from __future__ import annotations

import time

from chat.table_side import chat_side

from .conftest import LaunchBot, Server
from .test_play import dealt_heads_up, in_turn_order, rigged_three, start_game


async def test_at_a_hands_end_every_open_hand_message_shows_the_result(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = await rigged_three(server, bot)
    p1, p2, p3 = seated
    for player in seated:
        await player.open_hand()
    await p1.draw()
    await p1.meld(["4H", "5H", "6H"])
    await p1.discard("7H")
    await bot.game.tasks.wait_idle()
    for player in (p1, p2, p3):
        text = player.view_text()
        assert "Hand 1 is over" in text and "went out" in text, player.actor.name
        assert not player.has_hand_view()  # no live-looking controls left
    assert "**You** went out" in p1.view_text()


async def test_a_hand_message_about_to_expire_says_so_and_comes_back_in_one_click(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    p1, _ = in_turn_order(bot, server, seated)
    opened = await p1.open_hand()
    await bot.game.tasks.wait_idle()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    # Thirteen minutes pass: the sweep tells the message it stops updating.
    later = time.time() + 13 * 60 + 1
    chat_side(table).hand_messages[p1.key].opened_at -= 13 * 60 + 1
    await bot.game.automation.sweep(now=later)
    assert "stopped updating" in p1.view_text()
    assert p1.key not in chat_side(table).hand_messages
    # Discord's 15 minutes are up: the old token is dead, one click heals it.
    server.emu.expire_token(opened)
    back = await p1.press("Show my hand again")
    assert back.type == 7 and "Your turn" in back.text() and p1.has_hand_view()
    await bot.game.tasks.wait_idle()
    assert p1.key in chat_side(table).hand_messages  # kept up to date again from now on


async def test_a_hint_picks_the_cards_and_plays_nothing(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    p1, _ = await dealt_heads_up(
        server, bot, ["4H", "5H", "6H", "KC"], ["2C"], ["9S", "3D"], ["AC"]
    )
    await p1.open_hand()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    before = table.match.to_dict()
    hinted = await p1.press("💡 Hint")
    assert hinted.type == 7 and "💡 Hint:" in hinted.text()
    assert table.match.to_dict() == before  # advice only
    await p1.draw()
    hinted = await p1.press("💡 Hint")
    assert "meld 4♥ 5♥ 6♥" in hinted.text()
    assert sorted(p1.picked()) == ["4H", "5H", "6H"]
    await p1.press("Meld")  # one click to follow the advice
    assert len(table.match.hand.melds) == 1
    log = await p1.press("Log")
    assert log.ephemeral and "every move so far" in log.text() and "melded 4♥ 5♥ 6♥" in log.text()


async def test_a_table_without_hints_offers_none(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, hints="off")
    p1, _ = in_turn_order(bot, server, seated)
    await p1.open_hand()
    assert "💡" not in str(p1._hand_view().buttons())


async def test_opening_the_hand_again_retires_the_older_message(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    p1, _ = in_turn_order(bot, server, seated)
    await p1.open_hand()
    older = p1.view
    await p1.open_hand()
    await bot.game.tasks.wait_idle()
    assert older is not None and p1.view is not None and older.id != p1.view.id
    retired = server.emu.message(server.channel, older.id)
    assert retired is not None
    assert "another message now: that one follows the game" in retired.text()
    assert not any(":pick:" in (b["custom_id"] or "") for b in retired.buttons())


async def test_bringing_back_an_older_hand_message_retires_the_one_that_followed(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    p1, _ = in_turn_order(bot, server, seated)
    await p1.open_hand()
    first = p1.view
    await p1.open_hand()
    second = p1.view
    assert first is not None and second is not None
    await bot.game.tasks.wait_idle()
    # The retired first message's button brings it back: the second must not
    # stay behind looking live while it no longer follows the game.
    back = next(b["custom_id"] for b in first.buttons() if ":refresh:" in b["custom_id"])
    await p1.actor.click(first, custom_id=back)
    await bot.game.tasks.wait_idle()
    brought_back = server.emu.message(server.channel, first.id)
    left = server.emu.message(server.channel, second.id)
    assert brought_back is not None and left is not None
    assert "Your turn" in brought_back.text()
    assert "another message now: that one follows the game" in left.text()
    # And the one brought back follows the game from then on.
    p1.view = brought_back
    await p1.draw()
    await p1.discard(p1.hand()[0])
    await bot.game.tasks.wait_idle()
    followed = server.emu.message(server.channel, first.id)
    assert followed is not None and "Waiting for" in followed.text()
