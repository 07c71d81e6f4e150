"""The Activity framed with an opaque origin, as one developer reports Discord's
iOS app frames it (sandboxed without allow-same-origin): Discord's proxy then
allows only the page's inline script, which it nonces, and blobs ('self'
matches nothing), and every request the page makes is a cross-origin one from
origin "null". The page starts, signs in and plays all the same."""

from __future__ import annotations

from playwright.async_api import Response

from .conftest import Browsing, LocalBot
from .test_activity import my_activity_turn, open_activity
from .test_local_play import start_against_a_computer


async def test_a_phone_framing_the_activity_with_an_opaque_origin_plays_it(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann&sandbox=opaque", width=390, height=844,
                               touch=True)
    policies: list[str] = []

    async def served(response: Response) -> None:
        if response.request.resource_type == "document" and "/activity-app/" in response.url:
            policies.append(await response.header_value("Content-Security-Policy") or "")

    page.on("response", served)
    await start_against_a_computer(page)
    frame = await open_activity(page)
    # Served as Discord's proxy serves a frame with an opaque origin ...
    assert len(policies) == 1 and "'self'" not in policies[0] and "blob:" in policies[0]
    inner = next(f for f in page.frames if "/activity-app/" in f.url)
    assert await inner.evaluate("self.origin") == "null"
    # ... it signed in, shows the table, and a tap on the stock draws.
    assert await my_activity_turn(frame) == "turn"
    held = await frame.locator("#hand .card").count()
    await frame.locator("#stock").tap()
    await frame.locator("#hand .card").nth(held).wait_for()
    assert await frame.locator("#hand .card").count() == held + 1
    # Its modules ran from blobs, each importing the others' blobs.
    assert await inner.evaluate(
        "performance.getEntriesByType('resource').some(e => e.name.startsWith('blob:'))"
        " || [...document.scripts].length === 1")
