"""Upgrading local play keeps the game in progress: ``python bot.py`` started
on the world file the release before wrote (a pickle, readable by anyone)
shows Ann the same server, the same hand message and the same cards, and the
old file is replaced by the JSON one only its owner may read. A world no
version can read is set aside for its owner alone, with the bot's database of
its games: no live table is left in a channel that no longer exists."""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path

from playwright.async_api import Locator

from fakediscord.local.snapshot import FORMAT, load_world
from tests.fakediscord_tests.local.old_release import old_release_world

from .conftest import Browsing, LocalBot
from .test_local_play import (
    ACTION_TIMEOUT,
    my_turn_or_over,
    open_hand,
    shown,
    start_against_a_computer,
)


async def cards(hand: Locator) -> str:
    """What a hand message shows, a card's face (an emoji's picture) by its name."""
    shown: str = await hand.locator(".container").first.evaluate("""(container) => {
        const copy = container.cloneNode(true);
        copy.querySelectorAll("img.emoji").forEach((face) => face.replaceWith(face.alt));
        return copy.textContent;
    }""")
    return shown


async def test_a_world_the_previous_release_saved_goes_on_with_its_game(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    await start_against_a_computer(page)
    hand = await open_hand(page)
    assert await my_turn_or_over(page) == "turn"
    held, message_id = await cards(hand), await hand.get_attribute("data-message-id")
    assert "Your hand · 10 cards" in held
    await page.context.close()
    await local_bot.stop()
    # The stand-in's world, as the release before would have written it.
    path = local_bot.home / "rummy-local.world"
    world = load_world(path)
    assert world is not None
    path.write_bytes(old_release_world(world))
    path.chmod(0o644)

    await local_bot.start()
    page = await browsing.open(local_bot.url + "?as=ann")
    again = shown(page).filter(has_text="Your hand").last
    await again.wait_for(timeout=ACTION_TIMEOUT)
    assert await again.get_attribute("data-message-id") == message_id
    assert await cards(again) == held
    # The game goes on: it is still Ann's turn to draw.
    assert await my_turn_or_over(page) == "turn"
    assert json.loads(path.read_text())["format"] == FORMAT
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not list(local_bot.home.glob("*.unreadable"))
    assert not list(local_bot.home.glob("*.orphaned"))


def live_tables(database: Path) -> int:
    with sqlite3.connect(database) as db:
        (count,) = db.execute("select count(*) from live_tables").fetchone()
    return int(count)


async def test_a_world_that_cannot_be_read_leaves_no_live_table_behind(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    await start_against_a_computer(page)
    await open_hand(page)
    await page.context.close()
    await local_bot.stop()
    database = local_bot.home / "rummy-local.sqlite3"
    assert live_tables(database) == 1
    # A world file no version can read: damaged, or from a version to come.
    path = local_bot.home / "rummy-local.world"
    path.write_bytes(b"\x80\x05 damaged")
    path.chmod(0o644)

    await local_bot.start()
    page = await browsing.open(local_bot.url + "?as=ann")
    # A fresh server, whose channel takes a new game; the bot's database holds
    # no game of the world that is gone.
    await start_against_a_computer(page)
    await open_hand(page)
    assert live_tables(database) == 1
    orphaned = local_bot.home / "rummy-local.sqlite3.orphaned"
    assert live_tables(orphaned) == 1
    aside = local_bot.home / "rummy-local.world.unreadable"
    assert aside.read_bytes() == b"\x80\x05 damaged"
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
