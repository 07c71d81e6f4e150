"""The Activity on a phone's touch screen: a hand of eleven cards, every one
with a thumb's width of it in sight (44 px, as the docs promise), nothing
running off sideways, and the language menu sharing a row; the card just
drawn tagged in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import FrameLocator

from .conftest import Browsing, LocalBot
from .test_activity import my_activity_turn
from .test_activity_game import started_alone
from .test_local_play import ACTION_TIMEOUT

# Each card's widest run of points, along a few lines across it, where a finger
# there would land on that card and nothing else (the page's own hit test).
STRIPS = """(cards) => cards.map((card) => {
  const box = card.getBoundingClientRect();
  let widest = 0;
  for (const down of [0.12, 0.25, 0.4, 0.6, 0.8]) {
    const y = box.top + box.height * down;
    let run = 0;
    for (let x = Math.floor(box.left); x <= Math.ceil(box.right); x += 1) {
      const hit = document.elementFromPoint(x, y);
      run = hit && hit.closest(".card") === card ? run + 1 : 0;
      widest = Math.max(widest, run);
    }
  }
  return widest;
})"""

SETTLED = "() => Promise.allSettled(document.getAnimations().map((a) => a.finished))"


async def eleven_in_hand(frame: FrameLocator) -> None:
    assert await my_activity_turn(frame) == "turn"
    await frame.locator("#stock").tap()
    await frame.locator("#hand .card.fresh").wait_for(timeout=ACTION_TIMEOUT)
    assert await frame.locator("#hand .card").count() == 11


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
async def test_eleven_cards_on_a_phone_each_leave_a_thumbs_width_in_sight(
    local_bot: LocalBot, browsing: Browsing, tmp_path: Path, width: int, height: int
) -> None:
    page, frame = await started_alone(local_bot, browsing, width=width, height=height,
                                      touch=True)
    await eleven_in_hand(frame)
    hand = frame.locator("#hand")
    await hand.evaluate(SETTLED)
    strips = await frame.locator("#hand .card").evaluate_all(STRIPS)
    assert len(strips) == 11 and min(strips) >= 44, strips
    # Nothing runs off sideways: not the page, not the hand.
    assert await hand.evaluate(
        "h => document.scrollingElement.scrollWidth <= innerWidth"
        " && h.scrollWidth <= h.clientWidth")
    # The language menu shares its row with the other tools.
    rows = await frame.locator("#tools > :not([hidden])").evaluate_all(
        "els => els.map((e) => Math.round(e.getBoundingClientRect().top))")
    language = await frame.locator("#language").evaluate(
        "e => Math.round(e.getBoundingClientRect().top)")
    assert sum(1 for top in rows if abs(top - language) < 12) >= 2, rows
    # The card drawn says so in words, to the eye and to a screen reader.
    fresh = frame.locator("#hand .card.fresh")
    assert (await fresh.locator(".tag").text_content() or "").strip()
    assert (await fresh.get_attribute("aria-label") or "").endswith(
        await fresh.locator(".tag").text_content() or "?")
    # Each card is still a thumb's tap: the last one picks.
    await frame.locator("#hand .card").last.tap()
    await frame.locator("#hand .card.picked").wait_for(timeout=ACTION_TIMEOUT)
    shot = tmp_path / f"phone-{width}.png"
    await page.screenshot(path=shot)
    print(f"\nstrips at {width} px: {strips}; screenshot: {shot}")
