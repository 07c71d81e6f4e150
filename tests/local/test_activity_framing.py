"""Another web site cannot drive the Activity's frame. A site that framed local
play's page could, as the frame's top-level ancestor, navigate the Activity's
sandboxed frame to a document of its own, whose origin ("null") is the one
local play's Discord app answers: it was handed the member's OAuth2 code. So
local play's pages refuse to be framed by another origin, the frame around
the Activity lets no other origin's document into the Activity's frame, and
that frame's Discord app answers only the document that handshakes with the
frame_id it launched the Activity with."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiohttp import web
from playwright.async_api import Frame, Page, Route

from tests.ports import free_port

from .conftest import Browsing, LocalBot
from .test_activity import open_activity, parent_frames
from .test_local_play import ACTION_TIMEOUT, start_against_a_computer

# What a foreign document in the Activity's frame tries: the SDK's handshake with
# a frame_id of its own, then the member's OAuth2 code, with and without it.
FOREIGN_DOCUMENT = """<!doctype html><title>not the Activity</title><script>
window.replies = [];
addEventListener("message", (event) => { window.replies.push(event.data); });
const ask = (cmd, args) => parent.postMessage(
  [1, {cmd, args, nonce: `foreign-${cmd}-${window.replies.length}-${Math.random()}`}], "*");
window.attack = (clientId) => {
  parent.postMessage([0, {v: 1, encoding: "json", client_id: clientId,
                          frame_id: "00000000-0000-4000-8000-000000000000"}], "*");
  ask("AUTHORIZE", {client_id: clientId, response_type: "code", scope: ["identify"]});
  ask("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", {});
};
</script>"""


@pytest.fixture
async def other_site() -> AsyncIterator[dict[str, str]]:
    """Another origin on this machine (another port), serving what a test puts
    in the returned pages by path."""
    pages: dict[str, str] = {}

    async def serve(request: web.Request) -> web.Response:
        return web.Response(text=pages.get(request.path, ""), content_type="text/html")

    app = web.Application()
    app.router.add_get("/{tail:.*}", serve)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    pages["origin"] = f"http://127.0.0.1:{port}"
    try:
        yield pages
    finally:
        await runner.cleanup()


async def test_another_site_cannot_frame_local_play(
    local_bot: LocalBot, browsing: Browsing, other_site: dict[str, str]
) -> None:
    local = local_bot.url.rstrip("/")
    other_site["/"] = (f'<!doctype html><iframe src="{local}/?as=ann&sandbox=opaque"></iframe>'
                       f'<iframe src="{local}/activity?as=ann&instance=0"></iframe>')
    context = await browsing.browser.new_context()
    site = await context.new_page()
    refusals: list[str] = []
    site.on("console", lambda message: refusals.append(message.text))
    await site.goto(other_site["origin"] + "/", wait_until="load")
    framed = site.main_frame.child_frames
    assert len(framed) == 2
    # Chromium shows its own error page in place of each refused document ...
    assert [frame.url for frame in framed] == ["chrome-error://chromewebdata/"] * 2
    # ... and says which of the page's policies refused it.
    assert sorted(text.split(" violates")[0] for text in refusals) == [
        f"Framing '{local}/'"] * 2
    assert all("frame-ancestors 'self'" in text for text in refusals)
    await context.close()


def activity_parent(page: Page) -> Frame:
    """The frame around the Activity: local play's Discord app."""
    return next(f for f in page.frames if "/activity?" in f.url)


async def opened_opaque(local_bot: LocalBot, browsing: Browsing) -> Page:
    page = await browsing.open(local_bot.url + "?as=ann&sandbox=opaque")
    await start_against_a_computer(page)
    await open_activity(page)
    return page


async def test_no_other_origins_document_gets_into_the_activity_frame(
    local_bot: LocalBot, browsing: Browsing, other_site: dict[str, str]
) -> None:
    page = await opened_opaque(local_bot, browsing)
    other_site["/activity"] = FOREIGN_DOCUMENT + '<script>parent.postMessage("in", "*")</script>'
    around = activity_parent(page)
    # Navigated by an ancestor, as the framing site did: refused, or it got in.
    violation = await around.evaluate("""(url) => new Promise((done) => {
        document.addEventListener("securitypolicyviolation",
            (event) => done({directive: event.effectiveDirective, blocked: event.blockedURI}));
        addEventListener("message", (event) => {
            if (event.data === "in") done({directive: null, blocked: null});
        });
        document.getElementById("activity").contentWindow.location.href = url;
    })""", other_site["origin"] + "/activity")
    assert violation["directive"] == "frame-src"
    assert violation["blocked"].startswith(other_site["origin"])
    # Chromium says so in the console, as it should; nothing else went wrong.
    said = f"Framing '{other_site['origin']}/' violates"
    await _said_once(browsing, lambda error: error.startswith(said) and "frame-src" in error)


async def _said_once(browsing: Browsing, expected: Callable[[str], bool]) -> None:
    """Waits for the one console error a test expects, and takes it out of
    those the browsing fixture fails on."""
    deadline = asyncio.get_running_loop().time() + ACTION_TIMEOUT / 1000
    while not any(expected(error) for error in browsing.console_errors):
        assert asyncio.get_running_loop().time() < deadline, browsing.console_errors
        await asyncio.sleep(0.05)
    (_,) = [error for error in browsing.console_errors if expected(error)]
    browsing.console_errors[:] = [e for e in browsing.console_errors if not expected(e)]


async def test_a_foreign_document_in_the_activity_frame_gets_no_answer(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await opened_opaque(local_bot, browsing)
    rpc = await parent_frames(page)
    client_id = next(m["message"][1]["client_id"] for m in rpc if m["message"][0] == 0)

    # A document of local play's own origin with someone else's content: past
    # the frame's policy, so only the frame_id can tell it from the Activity.
    async def foreign(route: Route) -> None:
        await route.fulfill(body=FOREIGN_DOCUMENT, content_type="text/html")

    await page.context.route("**/foreign-document", foreign)
    around = activity_parent(page)
    answered = len(await parent_frames(page))
    async with page.expect_event(
            "framenavigated", predicate=lambda f: f.url.endswith("/foreign-document")) as moved:
        await around.evaluate("""() => {
            const frame = document.getElementById("activity");
            frame.contentWindow.location.href = location.origin + "/foreign-document";
        }""")
    inner = await moved.value
    await inner.wait_for_function("typeof window.attack === 'function'")
    await inner.evaluate("(id) => window.attack(id)", client_id)
    replies = await _replies_once_decided(around, inner)
    assert not [r for r in replies if "code" in str(r)], "the foreign document got Ann's code"
    answers = [m for m in (await parent_frames(page))[answered:] if m["to"] == "activity"]
    assert not [m for m in answers if "foreign-" in str(m["message"][1].get("nonce"))]
    # Nor is it sent the events the Activity subscribed to: the layout mode
    # as Ann goes back to the chat, say.
    told = len(await parent_frames(page))
    await around.evaluate("window.setLayoutMode(1)")
    assert [m for m in (await parent_frames(page))[told:] if m["to"] == "activity"] == []


async def _replies_once_decided(around: Frame, inner: Frame) -> list[Any]:
    """What the foreign document was sent, once the Activity's frame has either
    refused its three messages or answered its AUTHORIZE."""
    deadline = asyncio.get_running_loop().time() + ACTION_TIMEOUT / 1000
    while True:
        replies: list[Any] = await inner.evaluate("window.replies")
        refused = await around.evaluate("(window.rpcRefused || []).length")
        if refused >= 3 or any("code" in str(reply) for reply in replies):
            return replies
        assert asyncio.get_running_loop().time() < deadline, (replies, refused)
        await asyncio.sleep(0.05)
