"""Signing in to the Activity when it goes wrong, in a real browser with the real
SDK: a player who closes Discord's consent screen is told why and signs in with
Try again; a page refused for signing in too often waits as long as it is told
and signs in by itself. And the page's console reaches Discord's debug logs, the
one place a player's phone shows what went wrong."""

from __future__ import annotations

import asyncio

import aiohttp

from .conftest import Browsing, LocalBot
from .test_activity_game import VOICE, in_channel, launch_here
from .test_local_play import ACTION_TIMEOUT


async def test_a_closed_consent_screen_says_why_and_try_again_signs_in(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    # The next Activity's Discord app: its person closes the consent screen once.
    await page.context.add_init_script("window.consentRefusals = 1;")
    await in_channel(page, VOICE)
    await page.locator("#launch").click()
    frame = page.frame_locator("#activity-frame").frame_locator("#activity")
    banner = frame.locator("#banner")
    await banner.filter(has_text="Authorize").wait_for(timeout=ACTION_TIMEOUT)
    assert "5000" not in (await banner.text_content() or "")  # no raw error code
    retry = banner.locator('[data-move="retry"]')
    assert await retry.evaluate("button => button === document.activeElement")
    await retry.click()
    # Signed in: the channel has no game, and the page offers one.
    await frame.locator('[data-move="open"]').wait_for(timeout=ACTION_TIMEOUT)
    assert await banner.is_hidden()


async def test_a_page_told_to_wait_signs_in_by_itself_when_the_wait_is_over(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    await in_channel(page, VOICE)
    # Codes Discord refuses, sent from this machine, as a broken or hostile
    # client might: six in a burst, then one in two seconds, so this address's
    # next sign-in is told to wait, and Ann's launch comes from it too.
    async with aiohttp.ClientSession() as http:
        for _ in range(7):
            async with http.post(f"http://127.0.0.1:{local_bot.activity_port}/api/token",
                                 json={"code": "forged", "instance_id": "none"}) as refused:
                assert refused.status in (401, 429)
    frame = page.frame_locator("#activity-frame").frame_locator("#activity")
    told = frame.locator("#banner", has_text="Trying again in")
    signed_in = frame.locator('[data-move="open"]')
    await page.locator("#launch").click()
    await told.wait_for(timeout=ACTION_TIMEOUT)
    await signed_in.wait_for(timeout=ACTION_TIMEOUT)
    assert await frame.locator("#banner").is_hidden()
    # The browser logs the refused request itself; nothing else went wrong.
    assert browsing.console_errors == [
        "Failed to load resource: the server responded with a status of 429 (Too Many Requests)"]
    browsing.console_errors.clear()


async def test_the_activitys_console_reaches_discords_logs(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    await in_channel(page, VOICE)
    await launch_here(page)
    activity = next(f for f in page.frames if "/activity-app/" in f.url)
    await activity.evaluate("() => console.warn('the felt looks odd')")
    logs = page.frame_locator("#activity-frame").locator("body")
    wanted = {"level": "warn", "message": "the felt looks odd"}
    captured: list[dict[str, str]] = []
    for _ in range(100):  # the SDK sends it over postMessage, a moment later
        captured = await logs.evaluate("() => window.capturedLogs")
        if wanted in captured:
            break
        await asyncio.sleep(0.05)
    assert wanted in captured, captured
    # Each line once, at its own level: nothing the page did not say.
    assert captured.count(wanted) == 1
    assert all(line["level"] in {"log", "warn", "debug", "info", "error"} for line in captured)
