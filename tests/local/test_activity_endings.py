"""A game that stops under an open Activity, in a real browser: the page drops
the old table (or the hand's result), says what happened and offers a new
game, with no reload, whether the game was ended from the chat, cancelled or
abandoned; a hint goes once the turn it spoke of has moved on; and a bot that
restarts mid-game gives the page back the same game, by itself."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from playwright.async_api import FrameLocator

from tests.ports import free_port

from .conftest import Browsing, LocalBot
from .test_activity import MOST_TURNS, greedy_turn, my_activity_turn
from .test_activity_game import VOICE, frames_of, in_channel, launch_here, started_alone
from .test_local_play import ACTION_TIMEOUT, slash

# Where a run may leave what the page looked like, for a person to look at.
PICTURES = os.environ.get("ACTIVITY_PICTURES")


async def picture(frame: FrameLocator, name: str) -> None:
    if PICTURES:
        await frame.locator("body").screenshot(path=os.path.join(PICTURES, f"{name}.png"))


async def what_is_offered(frame: FrameLocator) -> dict[str, Any]:
    """What the page shows once a notice is up over a new game's form: the
    notice, the form's button, and whether anything of the table is left."""
    notice = frame.locator("#lobby:not([hidden]) .closed")
    await notice.wait_for(timeout=ACTION_TIMEOUT)
    start = frame.locator('#lobby [data-move="open"]')
    await start.wait_for(timeout=ACTION_TIMEOUT)
    return {
        "notice": (await notice.text_content() or "").strip(),
        "start": (await start.text_content() or "").strip(),
        "table": not await frame.locator("#felt").is_hidden(),
        "hand": await frame.locator("#own").is_visible()
        and await frame.locator("#hand .card").count() > 0,
        "result": not await frame.locator("#sheet").is_hidden(),
    }


def offered(said: str) -> dict[str, Any]:
    """The page after a game stopped: why, Start a game, and no table left."""
    return {"notice": said, "start": "Start a game", "table": False, "hand": False,
            "result": False}


async def opened_from_the_offer(frame: FrameLocator) -> bool:
    """Start a game pressed: whether a lobby opened, and the old news went."""
    await frame.locator('#lobby [data-move="open"]').click()
    await frame.locator('#lobby [data-move="add_easy"]').wait_for(timeout=ACTION_TIMEOUT)
    return await frame.locator("#lobby .closed").count() == 0


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
    assert await what_is_offered(frame) == offered("Ann ended the game.")
    # Nor does a "Your turn!" that was up when the game stopped stay over it.
    assert await frame.locator("#your-turn").is_hidden()
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
    assert await what_is_offered(frame) == offered("Ann cancelled the lobby.")
    await picture(frame, "cancelled-phone")


async def opened_with_a_computer(local_bot: LocalBot, browsing: Browsing, length: str,
                                 level: str) -> tuple[FrameLocator, Any]:
    """Ann on a desktop opens a game of ``length`` in the Activity and adds a
    computer of ``level``: the Activity, and the frames it sends."""
    page = await browsing.open(local_bot.url + "?as=ann", width=1280, height=800)
    frames = frames_of(page)
    await in_channel(page, VOICE)
    frame = await launch_here(page)
    await frame.locator("summary").click()
    await frame.locator('select[name="length"]').select_option(length)
    await frame.locator('[data-move="open"]').click()
    await frame.locator(f'[data-move="add_{level}"]:not([disabled])').click()
    return frame, frames


async def test_a_finished_matchs_result_takes_the_focus_and_can_be_set_aside(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    frame, frames = await opened_with_a_computer(local_bot, browsing, "hands:1", "hard")
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
    # What each held is listed where it stands, not flown in from the seats
    # across the result's rows.
    assert await sheet.locator(".card").evaluate_all(
        "cards => cards.filter((card) => card.getAnimations().length).length") == 0
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


async def mark_the_page(frame: FrameLocator) -> None:
    """A mark a reload of the Activity would wipe."""
    await frame.locator("body").evaluate("() => { window.notReloaded = true; }")


async def still_marked(frame: FrameLocator) -> bool:
    return bool(await frame.locator("body").evaluate("() => window.notReloaded === true"))


async def test_rummy_end_between_hands_drops_the_result_for_the_way_on(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    frame, frames = await opened_with_a_computer(local_bot, browsing, "hands:3", "easy")
    await frame.locator('[data-move="start"]:not([disabled])').click()
    for _ in range(MOST_TURNS):
        if await my_activity_turn(frame) == "over":
            break
        await greedy_turn(frame, frames)
    else:
        raise AssertionError("the hand never ended")
    # Between hands: the result is up, and the way on is the next hand.
    sheet = frame.locator("#sheet:not([hidden])")
    await sheet.locator('[data-move="next_hand"]').wait_for(timeout=ACTION_TIMEOUT)
    await mark_the_page(frame)
    # Ann ends the game from the chat, on another page of hers (on this one the
    # Activity covers the chat).
    chat = await browsing.open(local_bot.url + "?as=ann")
    await in_channel(chat, VOICE)
    await slash(chat, "rummy end")
    assert await what_is_offered(frame) == offered("Ann ended the game.")
    assert await opened_from_the_offer(frame)
    assert await still_marked(frame)
    await picture(frame, "ended-between-hands")


async def test_an_abandoned_game_says_so_and_offers_a_new_one(
    tmp_path: Path, browsing: Browsing
) -> None:
    # Nobody plays for a while: the sweeper, looking every second, ends the
    # game. The wait is long enough for the deal to be drawn before it, under load.
    bot = LocalBot(tmp_path, free_port(),
                   extra_env={"IDLE_TABLE_TIMEOUT": "20", "SWEEP_INTERVAL": "1"})
    await bot.start()
    try:
        _page, frame = await started_alone(bot, browsing, width=1280, height=800)
        notice = frame.locator("#lobby:not([hidden]) .closed")
        await notice.wait_for(timeout=120_000)
        assert await what_is_offered(frame) == offered(
            "Nobody played for a long while, so the game was ended as abandoned.")
        assert await opened_from_the_offer(frame)
        await picture(frame, "abandoned-desktop")
    finally:
        code = await bot.stop()
        print(f"bot.py ended with {code}; its output:", *bot.output, sep="\n")


async def what_the_table_shows(frame: FrameLocator) -> dict[str, Any]:
    """The game as Ann sees it: her cards, the match's line, whose turn it is,
    whether she may draw, the discard pile's top and count, the stock's count."""
    return {
        "hand": await frame.locator("#hand .card").evaluate_all(
            "cards => cards.map(c => c.dataset.code)"),
        "match": (await frame.locator("#match").text_content() or "").strip(),
        "turn": await frame.locator(".seat.turn .name").all_text_contents(),
        "may_draw": await frame.locator("#stock.lit").count() == 1,
        "discard": (await frame.locator("#discard").get_attribute("aria-label") or ""),
        "stock": (await frame.locator("#stock-count").text_content() or "").strip(),
    }


async def test_a_bot_restarted_mid_game_gives_the_open_page_the_same_game(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    _page, frame = await started_alone(local_bot, browsing, width=1280, height=800)
    assert await my_activity_turn(frame) == "turn"
    before = await what_the_table_shows(frame)
    assert before["may_draw"] and len(before["hand"]) == 10
    await mark_the_page(frame)
    await asyncio.sleep(1)  # the stand-in keeps its side a moment after a change
    # Stopped as a person stops it (Ctrl+C), and started again on the same home.
    assert await local_bot.stop() == 0
    await frame.locator("#banner:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    await local_bot.start()
    # The page reconnects by itself, to the same hand at the same turn.
    await frame.locator("#banner").wait_for(state="hidden", timeout=60_000)
    await frame.locator("#stock.lit").wait_for(timeout=ACTION_TIMEOUT)
    assert await what_the_table_shows(frame) == before
    assert await frame.locator("#lobby").is_hidden()
    assert await still_marked(frame)
    # And it goes on from there: Ann draws.
    await frame.locator("#stock").click()
    await frame.locator("#hand .card").nth(10).wait_for(timeout=ACTION_TIMEOUT)
    # The connection dropped while the bot was down, and the browser said so.
    browsing.console_errors[:] = [e for e in browsing.console_errors if "WebSocket" not in e
                                  and "Failed to load resource" not in e]
