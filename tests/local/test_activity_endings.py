"""A game that stops under an open Activity, in a real browser: the page drops
the old table, says what happened and offers a new game, with no reload; a
hint goes once the turn it spoke of has moved on."""

from __future__ import annotations

import os

from playwright.async_api import FrameLocator

from .conftest import Browsing, LocalBot
from .test_activity_game import VOICE, in_channel, launch_here, started_alone
from .test_local_play import ACTION_TIMEOUT, slash

# Where a run may leave what the page looked like, for a person to look at.
PICTURES = os.environ.get("ACTIVITY_PICTURES")


async def picture(frame: FrameLocator, name: str) -> None:
    if PICTURES:
        await frame.locator("body").screenshot(path=os.path.join(PICTURES, f"{name}.png"))


async def offered_after(frame: FrameLocator, said: str) -> None:
    """The page says ``said`` over a new game's form, and the table is gone."""
    notice = frame.locator("#lobby:not([hidden]) .closed")
    await notice.wait_for(timeout=ACTION_TIMEOUT)
    assert (await notice.text_content() or "").strip() == said
    await frame.locator('#lobby [data-move="open"]').wait_for(timeout=ACTION_TIMEOUT)
    assert await frame.locator("#felt").is_hidden()
    assert await frame.locator("#hand .card").count() == 0 or await frame.locator(
        "#own").is_hidden()
    assert await frame.locator("#sheet").is_hidden()


async def test_rummy_end_mid_hand_leaves_the_page_with_the_way_on(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page, frame = await started_alone(local_bot, browsing, width=1280, height=800)
    # A hint speaks of its position only: once its move is made it is gone,
    # as soon as the table is drawn anew (it used to stay into the next turn).
    await frame.locator("#stock").click()
    await frame.locator("#hand .card.fresh").wait_for(timeout=ACTION_TIMEOUT)
    await frame.locator("#hint:not([hidden])").click()
    await frame.locator("#note.hint").wait_for(timeout=ACTION_TIMEOUT)
    await frame.locator(", ".join(f'#moves [data-move="{move}"]:not([disabled])'
                                  for move in ("meld", "lay_off", "discard"))).first.click()
    await frame.locator("#hand .card").nth(10).wait_for(state="detached", timeout=ACTION_TIMEOUT)
    assert await frame.locator("#note.hint").count() == 0
    # Ann ends the game from the chat, on another page of hers.
    chat = await browsing.open(local_bot.url + "?as=ann")
    await in_channel(chat, VOICE)
    await slash(chat, "rummy end")
    await offered_after(frame, "Ann ended the game.")
    await picture(frame, "ended-desktop")
    # The way on works from there: a new lobby, hosted by Ann.
    await frame.locator('#lobby [data-move="open"]').click()
    await frame.locator('[data-move="add_easy"]').wait_for(timeout=ACTION_TIMEOUT)
    assert page is not chat


async def test_a_cancelled_lobby_says_so_on_a_phone(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann", width=390, height=844, touch=True)
    await in_channel(page, VOICE)
    frame = await launch_here(page)
    await frame.locator('[data-move="open"]').tap()
    await frame.locator('[data-move="cancel"]').tap()
    await offered_after(frame, "Ann cancelled the lobby.")
    await picture(frame, "cancelled-phone")
