"""Cards as the bot's own emojis: uploaded once, found again at every start,
and text wherever they are missing."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from engine import Card
from presentation.card_faces import BACK_NAME, all_images, emoji_name

from .conftest import FAST, LaunchBot, Server, StopBot
from .harness import table_message
from .test_play import in_turn_order, start_game

WITH_EMOJI = dataclasses.replace(FAST, card_emoji=True)


def emoji_uploads(server: Server) -> int:
    return sum(
        1
        for r in server.emu.requests
        if r.method == "POST" and (r.route or "").endswith("/emojis") and r.status < 300
    )


async def test_every_card_shows_as_the_bots_emoji_once_uploaded(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch(WITH_EMOJI)
    await bot.game.tasks.wait_idle()
    uploaded = {emoji.name: emoji.id for emoji in server.emu.application_emojis()}
    assert set(uploaded) == set(all_images())
    assert bot.db is not None and set(await bot.db.card_emoji()) == set(uploaded)
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    first, _ = in_turn_order(bot, server, seated)
    await first.open_hand()
    # Every card of the hand message is a picture: in its text before drawing...
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    text = first.view_text()
    for card in table.match.hand.hand_of(first.key):
        assert f"<:{emoji_name(card)}:{uploaded[emoji_name(card)]}>" in text
        assert card.display not in text.split("**Discard**")[0]
    # ...and on its card buttons, which are the hand while the player picks.
    await first.draw()
    await bot.game.tasks.wait_idle()
    assert [b["emoji_id"] for b in first._picks()] == [
        str(uploaded[emoji_name(Card.parse(code))]) for code in first.hand()
    ]
    # The public table shows the discard top as a picture too.
    top = table.match.hand.discard_top
    assert top is not None
    public = table_message(server.emu, server.channel).text()
    assert f"<:{emoji_name(top)}:{uploaded[emoji_name(top)]}>" in public
    # The stock is face down: the card back, there and in the hand message.
    back = f"<:{BACK_NAME}:{uploaded[BACK_NAME]}>"
    assert back in public and back in first.view_text()


async def test_a_restart_uploads_nothing_again(
    server: Server, launch: LaunchBot, stop_bot: StopBot, db_path: Path
) -> None:
    bot = await launch(WITH_EMOJI)
    await bot.game.tasks.wait_idle()
    first_start = emoji_uploads(server)
    assert first_start == len(all_images())
    await stop_bot(bot)
    bot = await launch(WITH_EMOJI)
    await bot.game.tasks.wait_idle()
    assert emoji_uploads(server) == first_start
    assert len(bot.game.faces.ids) == len(all_images())


def emoji_attempts(server: Server) -> int:
    return sum(
        1
        for r in server.emu.requests
        if r.method == "POST" and (r.route or "").endswith("/emojis")
    )


def emoji_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "chat.emoji_sync"
            and r.levelno >= logging.WARNING]


async def test_cards_are_text_when_discord_refuses_the_emojis(
    server: Server, launch: LaunchBot, caplog: pytest.LogCaptureFixture
) -> None:
    server.emu.fail_next("POST /applications/*/emojis", status=403, code=50013, times=1000)
    bot = await launch(WITH_EMOJI)
    await bot.game.tasks.wait_idle()
    # The first refusal is the answer for every card: one try, one line.
    assert emoji_attempts(server) == 1
    [said] = emoji_warnings(caplog)
    assert said.exc_info is None and "until the next start" in said.getMessage()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    first, _ = in_turn_order(bot, server, seated)
    assert bot.game.faces.ids == {}
    await first.open_hand()
    assert "<:" not in first.view_text()
    assert all(b["label"] and not b.get("emoji_id") for b in first._picks())


async def test_uploads_stop_where_the_emojis_reach_their_maximum(
    server: Server, launch: LaunchBot, caplog: pytest.LogCaptureFixture
) -> None:
    server.emu.world.max_application_emojis = 3
    bot = await launch(WITH_EMOJI)
    await bot.game.tasks.wait_idle()
    assert emoji_uploads(server) == 3 and emoji_attempts(server) == 4
    assert len(bot.game.faces.ids) == 3
    [said] = emoji_warnings(caplog)
    assert "Maximum number of emojis" in said.getMessage() and said.exc_info is None
    [refused] = server.emu.take_problems()  # the one upload past the maximum
    assert "answered 400" in refused and "30008" in refused
