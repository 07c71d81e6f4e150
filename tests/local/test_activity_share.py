"""A game in a group DM, where the bot is no member and Discord offers no
invite dialog, in a real browser with the real SDK: Ann's Invite shares a
link to the game (Discord's shareLink, with a custom_id naming it), Bob opens
the link and lands in its lobby, a made-up link is refused in words and
changes nothing, and Ann's Discord status shows the hand and the seats taken."""

from __future__ import annotations

import itertools
import re
from typing import Any

import aiohttp
from playwright.async_api import FrameLocator, Page, ViewportSize

from tables import MAX_SEATS

from .conftest import Browsing, LocalBot
from .test_activity_endings import picture
from .test_local_play import ACTION_TIMEOUT

GROUP = "Friday cards"


async def ask(bot: LocalBot, action: str, **body: Any) -> dict[str, Any]:
    """One of the stand-in's routes of Discord's app, as its own page asks."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{bot.url}api/activity/{action}", json=body) as answer:
        said: dict[str, Any] = await answer.json()
        assert answer.status == 200, said
        return said


async def opened(browsing: Browsing, bot: LocalBot, who: str, instance: str, *,
                 phone: bool = False) -> tuple[Page, FrameLocator]:
    """``who``'s Discord app showing the Activity of ``instance``, the table drawn."""
    size: ViewportSize = ({"width": 390, "height": 844} if phone
                          else {"width": 1280, "height": 800})
    context = await browsing.browser.new_context(viewport=size, has_touch=phone,
                                                 is_mobile=phone)
    page = await context.new_page()
    page.on("console", browsing._console)
    page.on("pageerror", lambda error: browsing.console_errors.append(str(error)))
    platform = "&platform=mobile" if phone else ""
    await page.goto(f"{bot.url}activity?as={who}&instance={instance}{platform}")
    browsing.pages.append(page)
    frame = page.frame_locator("#activity")
    await frame.locator("#app[aria-busy=false]").wait_for(timeout=ACTION_TIMEOUT)
    return page, frame


async def seated(frame: FrameLocator) -> list[str]:
    return await frame.locator(".lobby .seat .name").all_text_contents()


async def test_a_group_dms_game_is_shared_by_link_and_joined_from_it(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    group = (await ask(local_bot, "group", **{"as": "ann", "with": ["bob", "cat"],
                                               "name": GROUP}))["channel"]
    # Ann launches Rummy from the App Launcher in the group DM, and opens a game.
    instance = (await ask(local_bot, "launch", **{"as": "ann", "channel": group}))["instance"]
    ann, ann_frame = await opened(browsing, local_bot, "ann", instance)
    await ann_frame.locator("summary").click()
    await ann_frame.locator('select[name="length"]').select_option("hands:3")
    await ann_frame.locator('[data-move="open"]').click()
    await ann_frame.locator('[data-move="start"]').wait_for(timeout=ACTION_TIMEOUT)

    # Invite: no invite dialog in a group DM, a link to share instead.
    await ann_frame.locator("#invite").click()
    await ann.wait_for_function("() => window.shares.length === 1", timeout=ACTION_TIMEOUT)
    [shared] = await ann.evaluate("() => window.shares")
    assert shared["message"] == "Join my game of Rummy"
    found = re.fullmatch(r"g\.(\d+)\.([0-9a-f]+)", shared["custom_id"])
    assert found is not None and found.group(1) == group, shared
    asked = [m["message"][1]["cmd"] for m in await ann.evaluate("() => window.rpcFrames")
             if m["to"] == "discord" and m["message"][0] == 1]
    assert "SHARE_LINK" in asked and "OPEN_INVITE_DIALOG" not in asked
    # Discord's app refuses its invite dialog there, as the SDK warns it does.
    await ann_frame.locator("body").evaluate(
        """() => window.parent.postMessage([1, {cmd: "OPEN_INVITE_DIALOG", args: {},
                                               nonce: "asked-by-the-test"}], "*")""")
    await ann.wait_for_function(
        """() => window.rpcFrames.some((m) => m.to === "activity"
             && m.message[1].nonce === "asked-by-the-test")""", timeout=ACTION_TIMEOUT)
    refusal = next(m["message"][1] for m in await ann.evaluate("() => window.rpcFrames")
                   if m["to"] == "activity" and m["message"][1].get("nonce") == "asked-by-the-test")
    assert refusal["evt"] == "ERROR" and refusal["data"]["code"] == 4005

    # Bob opens the link: the Activity launches in the group with its custom_id,
    # which the page sends at sign-in, and he lands in Ann's lobby.
    launched = await ask(local_bot, "launch", **{"as": "bob", "channel": group,
                                                  "custom_id": shared["custom_id"]})
    assert launched["instance"] == instance
    bob, bob_frame = await opened(browsing, local_bot, "bob", instance)
    src = await bob.locator("#activity").get_attribute("src") or ""
    assert f"custom_id={shared['custom_id']}" in src
    await bob_frame.locator('.lobby [data-move="join"]').click()
    await ann_frame.locator(".lobby .seat", has_text="Bob").wait_for(timeout=ACTION_TIMEOUT)
    assert await bob_frame.locator("#banner").is_hidden()

    # Ann's status: the lobby, two of its seats taken.
    await ann.wait_for_function(
        "() => window.presence?.party?.size?.[0] === 2", timeout=ACTION_TIMEOUT)
    presence = await ann.evaluate("() => window.presence")
    assert presence["state"] == "Waiting for players"
    assert presence["party"] == {"id": shared["custom_id"], "size": [2, MAX_SEATS]}

    # Cat opens a made-up link, to a game of another conversation: refused, in
    # words, over this group's own lobby, and nothing changes.
    await ask(local_bot, "launch", **{"as": "cat", "channel": group,
                                      "custom_id": "g.1234567890.cafe"})
    _cat, cat_frame = await opened(browsing, local_bot, "cat", instance, phone=True)
    banner = cat_frame.locator("#banner:not([hidden])")
    await banner.wait_for(timeout=ACTION_TIMEOUT)
    assert "That link is for a game in another conversation." in (
        await banner.text_content() or "")
    assert await seated(cat_frame) == ["Ann", "Bob"]
    assert await seated(ann_frame) == ["Ann", "Bob"]
    await cat_frame.locator('.lobby [data-move="join"]').wait_for(timeout=ACTION_TIMEOUT)
    await picture(cat_frame, "share-refused-phone")
    await banner.locator("button").tap()
    await cat_frame.locator("#banner").wait_for(state="hidden", timeout=ACTION_TIMEOUT)

    # Ann starts: her status shows the hand, and the party's size.
    await ann_frame.locator('[data-move="start"]:not([disabled])').click()
    await ann_frame.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    await ann.wait_for_function(
        "() => (window.presence?.details || '').includes('hand 1 of 3')", timeout=ACTION_TIMEOUT)
    presence = await ann.evaluate("() => window.presence")
    assert presence["details"] == "Rummy — hand 1 of 3"
    assert presence["state"] == "Playing" and presence["party"]["size"] == [2, MAX_SEATS]
    # Once per change: the lobby's and the game's, not one for every state.
    sets = [m for m in await ann.evaluate("() => window.rpcFrames")
            if m["to"] == "discord" and m["message"][0] == 1
            and m["message"][1]["cmd"] == "SET_ACTIVITY"]
    said = [m["message"][1]["args"]["activity"] for m in sets]
    assert all(a != b for a, b in itertools.pairwise(said)), said
    # Cat watches the game that started.
    await cat_frame.locator("#felt:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    await picture(ann_frame, "share-playing-desktop")
