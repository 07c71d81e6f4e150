"""A game that stops under an open Activity, in a real browser: the page drops
the old table, says what happened and offers a new game, with no reload; a
hint goes once the turn it spoke of has moved on."""

from __future__ import annotations

import os

from playwright.async_api import FrameLocator

from .conftest import Browsing, LocalBot
from .test_activity import MOST_TURNS, greedy_turn, my_activity_turn
from .test_activity_game import VOICE, frames_of, in_channel, launch_here, started_alone
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


async def test_a_finished_matchs_result_takes_the_focus_and_can_be_set_aside(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann", width=1280, height=800)
    frames = frames_of(page)
    await in_channel(page, VOICE)
    frame = await launch_here(page)
    await frame.locator("summary").click()
    await frame.locator('select[name="length"]').select_option("hands:1")
    await frame.locator('[data-move="open"]').click()
    await frame.locator('[data-move="add_hard"]:not([disabled])').click()
    # The computer's seat says its level, as the chat does.
    await frame.locator(".lobby .seat .name", has_text="Ada (hard)").wait_for(
        timeout=ACTION_TIMEOUT)
    await frame.locator('[data-move="start"]:not([disabled])').click()
    for _ in range(MOST_TURNS):
        if await my_activity_turn(frame) == "over":
            break
        await greedy_turn(frame, frames)
    sheet = frame.locator("#sheet:not([hidden])")
    await sheet.wait_for(timeout=ACTION_TIMEOUT)
    # The result has the keyboard: its first button, Rematch, which it names.
    await sheet.locator('[data-move="rematch"]').wait_for(timeout=ACTION_TIMEOUT)
    await frame.locator("body").evaluate("""() => new Promise((done, failed) => {
      const began = Date.now();
      const look = () => {
        if (document.activeElement.dataset.move === "rematch") done();
        else if (Date.now() - began > 15000) failed(document.activeElement.outerHTML);
        else setTimeout(look, 50);
      };
      look();
    })""")
    assert "on the table" not in (await sheet.locator(".next").text_content() or "")
    # One hand: each player's points as a bar, not a lone dot.
    assert await sheet.locator("svg.chart rect").count() == 2
    await picture(frame, "match-desktop")
    # Set aside to look at the final table, and brought back.
    await sheet.locator('[data-move="see_table"]').click()
    await frame.locator("#sheet").wait_for(state="hidden", timeout=ACTION_TIMEOUT)
    assert await frame.locator("#felt").is_visible()
    await frame.locator('#moves [data-move="see_result"]').click()
    await sheet.locator('[data-move="rematch"]').wait_for(timeout=ACTION_TIMEOUT)
