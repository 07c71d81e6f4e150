"""Local play by keyboard alone, in a real browser: the slash command typed, the
buttons of the host's panel, the table and the hand message reached with Tab and
pressed with Enter, a whole hand played against a computer; the focus stays on
a message's control when the message is edited; an empty channel says what to
type; axe finds nothing serious."""

from __future__ import annotations

from playwright.async_api import Locator, Page

from .axe_check import serious_violations
from .conftest import Browsing, LocalBot
from .test_local_play import (
    ACTION_TIMEOUT,
    DRAWN_CARD,
    MOST_TURNS,
    drew_or_over,
    host_panel,
    my_turn_or_over,
    shown,
    table,
)

# Which way round is shorter from the focus to ``target``, in the page's tab order:
# a keyboard user presses Shift+Tab to go back up a message.
NEARER_WAY = """target => {
  const tabbable = [...document.querySelectorAll(
    'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]),'
    + ' textarea, [tabindex]:not([tabindex="-1"])')]
    .filter((element) => element.offsetParent !== null && element.tabIndex >= 0);
  const from = tabbable.indexOf(document.activeElement);
  const to = tabbable.indexOf(target);
  if (from < 0 || to < 0) return "Tab";
  const ahead = (to - from + tabbable.length) % tabbable.length;
  return ahead <= tabbable.length - ahead ? "Tab" : "Shift+Tab";
}"""


async def tab_to(page: Page, target: Locator, most: int = 400) -> int:
    """Press Tab (or Shift+Tab, when that way is shorter) until ``target`` has
    the focus; the presses it took."""
    await target.wait_for(timeout=ACTION_TIMEOUT)
    way = await target.evaluate(NEARER_WAY)
    for presses in range(1, most + 1):
        await page.keyboard.press(way)
        if await target.evaluate("element => element === document.activeElement"):
            return presses
    raise AssertionError(f"{most} presses of {way} never reached it")


class Keys:
    """One player's keyboard, counting what it pressed."""

    def __init__(self, page: Page) -> None:
        self.page, self.pressed = page, 0

    async def press(self, target: Locator) -> None:
        """Tab to a control, and press Enter on it."""
        self.pressed += await tab_to(self.page, target) + 1
        await self.page.keyboard.press("Enter")


async def test_a_whole_hand_in_local_play_by_keyboard_alone(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    # An empty channel says what to type.
    hint = page.locator("#empty")
    await hint.filter(has_text="/rummy start").wait_for(timeout=ACTION_TIMEOUT)
    keys = Keys(page)
    keys.pressed += await tab_to(page, page.locator("#text"))
    await page.keyboard.type("/rummy start")
    await page.keyboard.press("Enter")  # picks the command from the list
    await page.keyboard.press("Enter")  # and sends it
    await keys.press((await host_panel(page)).locator(".btn", has_text="Add computer (easy)"))
    assert await hint.is_hidden()
    await (await host_panel(page)).filter(has_text="Ada").wait_for(timeout=ACTION_TIMEOUT)
    start = (await host_panel(page)).locator(".btn", has_text="Start")
    await keys.press(start)
    await keys.press((await table(page)).locator(".btn", has_text="Show hand"))
    turns = 0
    for _ in range(MOST_TURNS):
        if await my_turn_or_over(page) == "over":
            break
        turns += 1
        hand = shown(page).filter(has_text="Your hand").last
        await keys.press(hand.locator(".btn:not(.disabled)", has_text="Draw from stock"))
        if await drew_or_over(page) == "over":
            break  # the stock ran out, which ends the hand
        drawn = hand.locator(DRAWN_CARD).first
        await keys.press(drawn)
        # Picked, the card's message is drawn anew: the focus is still on that card.
        await drawn.wait_for(timeout=ACTION_TIMEOUT)
        discard = hand.locator(".btn:not(.disabled)", has_text="Discard")
        await keys.press(discard)
    else:
        raise AssertionError(f"the hand went on past {MOST_TURNS} turns")
    await shown(page).filter(has_text="is over").last.wait_for(timeout=ACTION_TIMEOUT)
    print(f"\nkeys pressed for a whole hand in the chat (besides typing the command): "
          f"{keys.pressed}, {keys.pressed / max(turns, 1):.1f} a turn over {turns} turns")
    # The messages can be scrolled by keyboard, and nothing serious stands out.
    log = page.locator("#log")
    assert await log.get_attribute("tabindex") == "0"
    assert await serious_violations(page.main_frame) == []
