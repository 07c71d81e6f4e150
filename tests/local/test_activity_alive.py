"""The Activity's table as a player lives it, in Chromium: a whole turn by
keyboard with the focus kept on the hand after the discard, L saying why it
lays nothing off, the turn coming back marked by a word over the felt, the
computer's draw flying from the stock to its seat (and none of it with reduced
motion), sounds on from the start, and a watcher's reactions shown on the
player's table, past their allowance refused with a note."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Frame, FrameLocator, Page

from .axe_check import serious_violations
from .conftest import Browsing, LocalBot
from .test_activity import my_activity_turn
from .test_activity_game import VOICE, in_channel, launch_here, started_alone
from .test_local_play import ACTION_TIMEOUT

# Records every card that flies across the table, and every word over the felt.
WATCH_MOTION = """() => {
  window.flights = 0;
  window.turnWords = 0;
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.classList && node.classList.contains("flyer")) window.flights += 1;
      }
      if (change.target.id === "your-turn" && !change.target.hidden) window.turnWords += 1;
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true,
                              attributeFilter: ["hidden"] });
}"""


def activity_of(page: Page) -> Frame:
    return next(f for f in page.frames if "/activity-app/" in f.url)


async def focused_code(frame: FrameLocator) -> str | None:
    code: str | None = await frame.locator("body").evaluate(
        "() => { const at = document.activeElement;"
        " return at.closest('#hand') ? at.dataset.code : null; }")
    return code


async def test_a_turn_by_keyboard_keeps_the_focus_on_the_hand_and_l_says_why(
    local_bot: LocalBot, browsing: Browsing, tmp_path: Path
) -> None:
    page, frame = await started_alone(local_bot, browsing, width=1280, height=800)
    activity = activity_of(page)
    await activity.evaluate(WATCH_MOTION)
    # Sounds are on from the start: the browser starts them at the first key.
    assert await frame.locator("#sound").get_attribute("aria-pressed") == "true"
    assert await my_activity_turn(frame) == "turn"
    keys = 0

    async def key(name: str) -> None:
        nonlocal keys
        await page.keyboard.press(name)
        keys += 1

    await key("d")
    await frame.locator("#hand .card.fresh").wait_for(timeout=ACTION_TIMEOUT)
    await key("Home")
    await key("Space")
    await frame.locator("#hand .card.picked").wait_for(timeout=ACTION_TIMEOUT)
    # L, with a card that fits no meld (none is down yet, unless the computer
    # melded first): it says so.
    if not await frame.locator("#melds .meld").count():
        await page.keyboard.press("l")
        note = frame.locator("#note")
        await note.filter(has_text="meld").wait_for(timeout=ACTION_TIMEOUT)
    if not await frame.locator('[data-move="discard"]').is_enabled():
        await key("Space")  # that card may not go back: the next one
        await key("ArrowRight")
        await key("Space")
    thrown_at = await frame.locator("#hand .card.picked").evaluate(
        "c => [...c.parentNode.children].indexOf(c)")
    await key("d")
    await frame.locator("#hand .card").nth(10).wait_for(state="detached", timeout=ACTION_TIMEOUT)
    print(f"\nkeys for a turn (draw, pick, discard): {keys}")
    # The focus stays on the hand, on the card that took the thrown one's place,
    # and the arrows and Home go on working out of turn.
    cards = await frame.locator("#hand .card").evaluate_all("els => els.map((e) => e.dataset.code)")
    assert await focused_code(frame) == cards[min(thrown_at, len(cards) - 1)]
    await page.keyboard.press("End")
    assert await focused_code(frame) == cards[-1]
    await page.keyboard.press("Home")
    assert await focused_code(frame) == cards[0]
    # The computer's turn: its draw flies from the stock to its seat; then the
    # turn comes back, said over the felt.
    assert await my_activity_turn(frame) == "turn"
    await frame.locator("#your-turn").wait_for(timeout=ACTION_TIMEOUT)
    assert await activity.evaluate("() => window.flights") >= 1
    await page.screenshot(path=tmp_path / "desktop-turn.png")
    print(f"screenshot: {tmp_path / 'desktop-turn.png'}")


async def test_reduced_motion_keeps_the_table_still(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page, frame = await started_alone(local_bot, browsing, width=1280, height=800)
    await page.emulate_media(reduced_motion="reduce")
    activity = activity_of(page)
    await activity.evaluate(WATCH_MOTION)
    assert await my_activity_turn(frame) == "turn"
    await frame.locator("#stock").click()
    await frame.locator("#hand .card.fresh").wait_for(timeout=ACTION_TIMEOUT)
    await frame.locator("#hand .card:not([disabled])").last.click()
    await frame.locator('[data-move="discard"]:not([disabled])').click()
    assert await my_activity_turn(frame) == "turn"
    # The turn is still said, without moving; no card flew.
    assert await activity.evaluate("() => window.turnWords") >= 1
    assert await activity.evaluate("() => window.flights") == 0
    assert await frame.locator("#your-turn").evaluate("e => e.getAnimations().length") == 0


async def test_a_watchers_reactions_show_on_the_players_table_and_a_flood_is_refused(
    local_bot: LocalBot, browsing: Browsing, tmp_path: Path
) -> None:
    ann_page, ann = await started_alone(local_bot, browsing, width=390, height=844, touch=True)
    bob_page = await browsing.open(local_bot.url + "?as=bob", width=1280, height=800,
                                   bypass_csp=True)
    await in_channel(bob_page, VOICE)
    bob = await launch_here(bob_page)
    # Ann's page hears of Bob from Discord, on its own time: his chip first.
    await ann.locator("#seats .watcher").wait_for(timeout=ACTION_TIMEOUT)
    await bob.locator("#react:not([hidden])").click()
    assert await serious_violations(activity_of(bob_page)) == []  # the emotes open
    await bob.locator("#emotes .emote", has_text="🎉").click()
    bubble = ann.locator("#bubbles .bubble", has_text="🎉")
    await bubble.wait_for(timeout=ACTION_TIMEOUT)
    # Over Bob's own chip, a watcher's, on Ann's table.
    chip = await ann.locator("#seats .watcher").bounding_box()
    shown = await bubble.bounding_box()
    assert chip is not None and shown is not None
    assert chip["x"] <= shown["x"] + shown["width"] / 2 <= chip["x"] + chip["width"] + 20
    await ann_page.screenshot(path=tmp_path / "phone-reaction.png")
    # As fast as he can: past the allowance he is told to slow down.
    for _ in range(6):
        await bob.locator("#emotes .emote", has_text="🔥").click()
    await bob.locator("#emotes-note:not(:empty)").wait_for(timeout=ACTION_TIMEOUT)
    fires = await ann.locator("#bubbles .bubble", has_text="🔥").count()
    assert 1 <= fires <= 2  # the burst of 3, less the 🎉
    # Ann's table goes on: her turn is answered.
    assert await my_activity_turn(ann) == "turn"
    await ann.locator("#stock").tap()
    await ann.locator("#hand .card.fresh").wait_for(timeout=ACTION_TIMEOUT)
    print(f"\nscreenshot: {tmp_path / 'phone-reaction.png'}")
