"""The Activity as a small tile: back in the chat with the Activity running,
Discord shows it in picture-in-picture and tells it so; the page then shows
only where the game stands, and the whole table again once focused."""

from __future__ import annotations

from .conftest import Browsing, LocalBot
from .test_activity import open_activity
from .test_local_play import ACTION_TIMEOUT, slash, start_against_a_computer


async def test_picture_in_picture_shows_where_the_game_stands_and_focus_brings_the_table_back(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    await start_against_a_computer(page)
    frame = await open_activity(page)
    root = frame.locator(":root")
    await root.and_(frame.locator("[data-layout=focused]")).wait_for(timeout=ACTION_TIMEOUT)
    assert await frame.locator("#hand").is_visible()
    pip = page.locator("#activity-pip")
    assert await pip.get_attribute("aria-label") == (
        "Back to the chat, the Activity in a small window")
    await pip.click()
    # A small window over the chat, whose messages show again beside it, and
    # whose button now says it brings the Activity back ...
    await root.and_(frame.locator("[data-layout=pip]")).wait_for(timeout=ACTION_TIMEOUT)
    assert await pip.get_attribute("aria-label") == "Back to the Activity, full size"
    tile = await page.locator("#activity").bounding_box()
    assert tile is not None and tile["width"] <= 320 and tile["height"] <= 220
    assert await page.locator("#log").is_visible()
    # ... showing the match line, whose turn and the piles, and no hand to play.
    for shown in ("#match", "#status", "#stock"):
        assert await frame.locator(shown).is_visible(), shown
    for hidden in ("#hand", "#seats", "#tools"):
        assert await frame.locator(hidden).is_hidden(), hidden
    assert (await frame.locator("#status").text_content() or "").strip()
    await pip.click()
    await root.and_(frame.locator("[data-layout=focused]")).wait_for(timeout=ACTION_TIMEOUT)
    assert await frame.locator("#hand").is_visible()
    assert await pip.get_attribute("aria-label") == (
        "Back to the chat, the Activity in a small window")
    # Ended from the chat while the Activity is small, the tile says so rather
    # than going blank, and offers nothing it could not hold.
    await pip.click()
    await root.and_(frame.locator("[data-layout=pip]")).wait_for(timeout=ACTION_TIMEOUT)
    await slash(page, "rummy end")
    ended = frame.locator("#lobby .closed", has_text="ended the game")
    await ended.wait_for(timeout=ACTION_TIMEOUT)
    assert await frame.locator("#lobby h2").is_visible()
    assert await frame.locator("#lobby form").is_hidden()
