"""Local play's DMs and group DMs between people, in a real browser with the
real bot: Ann finds them listed beside the server, opens the group DM and
launches the Activity from its launcher; `/rummy start` in her DM with Dan
answers with its Play button; and Cat, not in that DM, cannot open it."""

from __future__ import annotations

import os

from playwright.async_api import Page

from .conftest import Browsing, LocalBot
from .test_activity_game import launch_here
from .test_local_play import ACTION_TIMEOUT, shown, slash

# Where a run may leave what the page looked like, for a person to look at
# (the Activity's tests' switch).
PICTURES = os.environ.get("ACTIVITY_PICTURES")
PHONE = {"width": 400, "height": 800, "touch": True}


async def picture(page: Page, name: str) -> None:
    if PICTURES:
        await page.screenshot(path=os.path.join(PICTURES, f"{name}.png"))


async def in_conversation(page: Page, name: str) -> None:
    """Open a DM or group DM from the side bar (behind ☰ on a phone)."""
    listed = page.locator("#dms button", has_text=name)
    if not await listed.is_visible():
        await page.locator("#menu").click()
    await listed.click()
    await page.locator("#where", has_text=name).wait_for(timeout=ACTION_TIMEOUT)


async def test_a_group_dm_launches_the_activity_and_a_dm_answers_rummy_start(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    # Beside the server: her DM with the bot, then each conversation by the others in it.
    listed = await page.locator("#dms button").all_text_contents()
    assert listed == ["@ Rummy", "👥 Bob, Cat", "@ Dan"]

    await in_conversation(page, "Bob, Cat")
    await picture(page, "group-dm-desktop")
    frame = await launch_here(page)
    # No game here yet: the Activity's lobby offers one.
    start = frame.locator('#lobby:not([hidden]) [data-move="open"]')
    await start.wait_for(timeout=ACTION_TIMEOUT)
    assert "Start a game" in (await start.text_content() or "")
    await picture(page, "group-dm-activity-desktop")
    await page.locator("#activity-close").click()

    await in_conversation(page, "Dan")
    # Only what is offered between people: /rummy, not a command of the server's.
    await page.fill("#text", "/")
    offered = await page.locator("#suggestions .suggestion b").all_text_contents()
    assert offered and all(name.startswith("/rummy ") for name in offered), offered
    assert "/rummy start" in offered
    await slash(page, "rummy start")
    answer = shown(page).filter(has=page.locator(".btn", has_text="Play")).last
    await answer.wait_for(timeout=ACTION_TIMEOUT)
    assert "opened a game of Rummy here" in (await answer.text_content() or "")
    await picture(page, "dm-answer-desktop")


async def test_a_member_not_in_a_dm_cannot_open_it_and_a_phone_lists_the_conversations(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    dm = await ann.locator("#dms button", has_text="Dan").get_attribute("data-channel")
    assert dm
    cat = await browsing.open(f"{local_bot.url}?as=cat&channel={dm}", **PHONE)
    refusal = cat.locator("#refusal")
    await refusal.wait_for(timeout=ACTION_TIMEOUT)
    assert "Cat is not in that conversation" in (await refusal.text_content() or "")
    assert await cat.locator("#where").text_content() == "#rummy"
    assert await cat.locator(f'#side button[data-channel="{dm}"]').count() == 0
    assert await cat.locator(f'#log .channel-log[data-channel="{dm}"]').count() == 0

    await cat.locator("#menu").click()
    assert await cat.locator("#dms button").all_text_contents() == ["@ Rummy", "👥 Ann, Bob"]
    await picture(cat, "conversations-phone")
    await in_conversation(cat, "Ann, Bob")
    await cat.locator("#launch").wait_for(timeout=ACTION_TIMEOUT)
    # The refusal was about the DM she asked for, not the place she picked since.
    assert await refusal.is_hidden()
    wide = await cat.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert wide[0] <= wide[1] == PHONE["width"], wide
    await picture(cat, "group-dm-phone")
