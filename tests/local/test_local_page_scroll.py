"""Local play's page keeps the newest message in sight, as Discord's app does:
on a phone it opens at the newest message, stays there while messages above
grow (an image drawn once it loads), and leaves a reader who scrolled up
where they are."""

from __future__ import annotations

from playwright.async_api import Page

from .conftest import Browsing, LocalBot
from .test_local_play import ACTION_TIMEOUT, shown

PHONE = {"width": 390, "height": 780, "touch": True}

# Where the newest message's bottom is, against the bottom of the message log's
# window, in pixels: 0 or less is in sight.
NEWEST_BELOW_SIGHT = """() => {
  const log = document.getElementById('log');
  const messages = log.querySelectorAll('.channel-log:not([hidden]) .msg');
  const newest = messages[messages.length - 1];
  return newest.getBoundingClientRect().bottom - log.getBoundingClientRect().bottom;
}"""

# An earlier message grows by 500 px, as an image in it does once it loads.
GROW_AN_EARLIER_MESSAGE = """() => {
  const messages = document.querySelectorAll('#log .channel-log:not([hidden]) .msg');
  const grown = document.createElement('div');
  grown.style.height = '500px';
  messages[Math.floor(messages.length / 2)].append(grown);
}"""


async def say(page: Page, text: str) -> None:
    await page.fill("#text", text)
    await page.press("#text", "Enter")
    await shown(page).filter(has_text=text).last.wait_for(timeout=ACTION_TIMEOUT)


async def settled(page: Page) -> float:
    """The newest message's place once the page has drawn its latest change."""
    await page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                        "requestAnimationFrame(r)))")
    return float(await page.evaluate(NEWEST_BELOW_SIGHT))


async def test_the_page_keeps_the_newest_message_in_sight_unless_the_reader_scrolled_up(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    for number in range(1, 4):
        await say(ann, f"message number {number}")
    # A phone opens on a channel that fits its screen, until what is in it grows
    # (images drawn once they load): the browser's own scroll anchoring does
    # nothing at the top, so the page must keep the newest message in sight.
    bob = await browsing.open(local_bot.url + "?as=bob", **PHONE)  # type: ignore[arg-type]
    await shown(bob).filter(has_text="message number 3").wait_for(timeout=ACTION_TIMEOUT)
    assert await settled(bob) <= 1
    await bob.evaluate(GROW_AN_EARLIER_MESSAGE)
    assert await settled(bob) <= 1
    for number in range(4, 30):
        await say(ann, f"message number {number}")
    await shown(bob).filter(has_text="message number 29").wait_for(timeout=ACTION_TIMEOUT)
    assert await settled(bob) <= 1
    # A phone opened on a long channel shows its newest message.
    cat = await browsing.open(local_bot.url + "?as=cat", **PHONE)  # type: ignore[arg-type]
    await shown(cat).filter(has_text="message number 29").wait_for(timeout=ACTION_TIMEOUT)
    assert await settled(cat) <= 1
    # Bob scrolls up to read: what arrives or grows then leaves him where he is.
    await bob.locator("#log").evaluate("log => log.scrollTo(0, 0)")
    await bob.locator("#log").evaluate(
        "log => new Promise(r => log.scrollTop === 0 ? r() : log.addEventListener('scroll', r))")
    await bob.evaluate("() => new Promise(r => setTimeout(r, 100))")
    await say(ann, "message number 30")
    await shown(bob).filter(has_text="message number 30").wait_for(timeout=ACTION_TIMEOUT)
    await bob.evaluate(GROW_AN_EARLIER_MESSAGE)
    assert await settled(bob) > 500
    assert await bob.locator("#log").evaluate("log => log.scrollTop") == 0
