"""Local play's page answers its own page only: a web site open in the same
browser, on another origin or on a host name made to resolve to 127.0.0.1,
can neither read a member's hand, nor post or play as them, nor reset local
play, nor reach the Activity's sign-in through the page's proxy."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp import web

from tests.ports import free_port

from .conftest import Browsing, LocalBot

WORDS = "pwned by another site"


async def said_in_the_channel(local_bot: LocalBot) -> list[str]:
    """Every message Ann's own page is shown, as its live feed sends them."""
    origin = local_bot.url.rstrip("/")
    async with aiohttp.ClientSession() as http, http.ws_connect(
        f"{origin.replace('http', 'ws', 1)}/ws?as=ann", headers={"Origin": origin}
    ) as ws:
        shown: list[str] = []
        while True:
            try:
                message = await ws.receive(timeout=1.0)
            except TimeoutError:
                return shown
            if message.type is not aiohttp.WSMsgType.TEXT:
                return shown
            frame = json.loads(message.data)
            if frame.get("type") == "message":
                shown.append(frame["html"])


async def test_requests_from_another_origin_or_host_are_refused(local_bot: LocalBot) -> None:
    origin = local_bot.url.rstrip("/")
    port = origin.rsplit(":", 1)[1]
    hello = await said_in_the_channel(local_bot)
    async with aiohttp.ClientSession() as http:
        # The live feed, as another origin opens it: no hand to read.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"ws://127.0.0.1:{port}/ws?as=ann",
                                  headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        say = {"as": "ann", "channel": "0", "text": WORDS}
        attempts = [
            # Posting as Ann from another origin, JSON or not.
            ("/api/say", {"Origin": "http://evil.example"}, json.dumps(say), "application/json"),
            ("/api/say", {}, json.dumps(say), "text/plain"),
            # Reset from a form, with no Origin at all.
            ("/api/reset", {}, "as=ann", "application/x-www-form-urlencoded"),
            # A rebinding host name: same origin to the browser, not this server's name.
            ("/api/activity/authorize", {"Host": f"rebind.example:{port}",
                                         "Origin": f"http://rebind.example:{port}"},
             json.dumps({"as": "ann", "client_id": "1", "scopes": ["identify"]}),
             "application/json"),
            # The Activity's sign-in behind the page's proxy, from another origin.
            ("/activity-app/api/token", {"Origin": "http://evil.example"},
             json.dumps({"code": "x", "instance_id": "i"}), "application/json"),
        ]
        for path, headers, body, kind in attempts:
            answer = await http.post(f"{origin}{path}", data=body,
                                     headers={**headers, "Content-Type": kind})
            assert answer.status == 403, (path, await answer.text())
            assert await answer.text()  # says why
        # The page's own requests still work.
        answer = await http.post(f"{origin}/api/locale", json={"as": "ann", "locale": "de"},
                                 headers={"Origin": origin})
        assert answer.status == 200
    after = await said_in_the_channel(local_bot)
    assert not any(WORDS in html for html in after)
    assert len(after) >= len(hello)  # nothing was wiped



async def test_json_nested_past_the_parser_is_a_bad_request_and_no_traceback(
    local_bot: LocalBot,
) -> None:
    origin = local_bot.url.rstrip("/")
    nested = "[" * 2000 + "]" * 2000
    async with aiohttp.ClientSession() as http:
        for path in ("/api/say", "/api/locale", "/api/activity/launch"):
            answer = await http.post(f"{origin}{path}", data=nested,
                                     headers={"Origin": origin,
                                              "Content-Type": "application/json"})
            assert answer.status == 400, (path, await answer.text())
            assert "JSON" in await answer.text()
    assert not any("Traceback" in line or "RecursionError" in line
                   for line in local_bot.output), local_bot.output[-20:]

ATTACK = """<!doctype html><title>a game site</title><script>
window.outcome = {};
const target = "TARGET";
const ws = new WebSocket(target.replace("http", "ws") + "/ws?as=ann");
ws.onmessage = (event) => { window.outcome.read = (window.outcome.read || 0) + 1; };
ws.onclose = () => { window.outcome.closed = true; };
fetch(target + "/api/say", {method: "POST", mode: "no-cors",
  headers: {"Content-Type": "text/plain"},
  body: JSON.stringify({as: "ann", channel: "CHANNEL", text: "WORDS"})})
  .then(() => { window.outcome.posted = "sent"; }, () => { window.outcome.posted = "failed"; });
fetch(target + "/api/reset", {method: "POST", mode: "no-cors", body: "{}"})
  .then(() => { window.outcome.reset = "sent"; }, () => { window.outcome.reset = "failed"; });
</script>"""


async def test_a_page_of_another_site_in_the_same_browser_gets_nothing(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    channel = await ann.evaluate("document.querySelector('#log').dataset.channel")
    before = await said_in_the_channel(local_bot)
    attack = (ATTACK.replace("TARGET", local_bot.url.rstrip("/"))
              .replace("CHANNEL", str(channel or "")).replace("WORDS", WORDS))

    async def serve(_request: web.Request) -> web.Response:
        return web.Response(text=attack, content_type="text/html")

    # Someone else's site, served on this machine: another port is another origin.
    app = web.Application()
    app.router.add_get("/", serve)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    context = await browsing.browser.new_context()
    site = await context.new_page()
    await site.goto(f"http://127.0.0.1:{port}/")
    await site.wait_for_function("window.outcome.closed && window.outcome.posted "
                                 "&& window.outcome.reset", timeout=10_000)
    outcome = await site.evaluate("window.outcome")
    assert not outcome.get("read"), "the other site read Ann's live feed"
    await asyncio.sleep(0.5)
    after = await said_in_the_channel(local_bot)
    assert not any(WORDS in html for html in after)
    assert len(after) >= len(before)  # Reset did not wipe local play
    await context.close()
    await runner.cleanup()


async def test_an_opaque_origin_is_answered_only_under_an_opaque_launchs_own_path(
    local_bot: LocalBot,
) -> None:
    origin = local_bot.url.rstrip("/")
    mine = {"Origin": origin}
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"{origin.replace('http', 'ws', 1)}/ws?as=ann",
                                   headers=mine) as ws:
            hello = json.loads((await ws.receive()).data)
        text = next(c for c in hello["channels"] if c["kind"] == "text")
        launched = await http.post(f"{origin}/api/activity/launch", headers=mine,
                                   json={"as": "ann", "channel": text["id"]})
        instance = (await launched.json())["instance"]
        paths = {}
        for opaque in (True, False):
            joined = await http.post(f"{origin}/api/activity/join", headers=mine,
                                     json={"as": "ann", "instance": instance, "opaque": opaque})
            paths[opaque] = (await joined.json())["path"]
        token = {"code": "x", "instance_id": instance}
        null = {"Origin": "null"}
        # The bot serves the Activity once it is connected, a moment after the page.
        for _ in range(300):
            async with http.get(f"{origin}/activity-app/{paths[False]}/") as served:
                if served.status == 200:
                    break
            await asyncio.sleep(0.1)
        assert served.status == 200
        # Any sandboxed page on any site says Origin: null: the page's own
        # routes, a launch framed as usual and a made-up launch refuse it ...
        forged = paths[True].rsplit(".", 1)[0] + ".0123456789abcdef0123456789abcdef"
        for path in ("/api/say", f"/activity-app/{paths[False]}/api/token",
                     f"/activity-app/{forged}/api/token"):
            answer = await http.post(f"{origin}{path}", headers=null, json=token)
            assert answer.status == 403, (path, await answer.text())
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{origin.replace('http', 'ws', 1)}/ws?as=ann", headers=null)
        assert refused.value.status == 403
        # ... and the opaque launch's own path reaches the bot (which refuses the code).
        opaque = f"{origin}/activity-app/{paths[True]}/api/token"
        preflight = await http.options(opaque, headers={
            **null, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        assert preflight.status == 204
        assert preflight.headers["Access-Control-Allow-Origin"] == "*"
        answer = await http.post(opaque, headers=null, json=token)
        assert answer.status != 403 and "error" in await answer.json()
        assert answer.headers["Access-Control-Allow-Origin"] == "*"
