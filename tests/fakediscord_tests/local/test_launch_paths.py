"""A launch's signed path, asked for over real HTTP with signatures that are
not this server's: each is refused as no launch at all (404 from the proxy,
403 from the guard for a frame with an opaque origin), never a server error."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from fakediscord.local.play import LocalPlay
from tests.ports import free_port

BAD_SIGNATURES = ["é" * 32, "ü", "0" * 31 + "\u2603", "%ff", "00000000000000000000000000000000"]


@pytest.fixture
async def local() -> AsyncIterator[LocalPlay]:
    play = await LocalPlay(host="127.0.0.1", port=free_port()).start()
    try:
        yield play
    finally:
        await play.close()


@pytest.mark.parametrize("signature", BAD_SIGNATURES)
@pytest.mark.parametrize("origin", [None, "null"])
async def test_a_launch_path_signed_with_anything_else_is_no_launch(
    local: LocalPlay, signature: str, origin: str | None, caplog: pytest.LogCaptureFixture,
) -> None:
    base = local.url.rstrip("/")
    headers = {} if origin is None else {"Origin": origin}
    with caplog.at_level(logging.DEBUG):
        async with aiohttp.ClientSession() as http:
            for launch in (f"1234.opaque.{signature}", f"1234.framed.{signature}",
                           f"{signature}.opaque.{'0' * 32}"):
                url = f"{base}/activity-app/{launch}/index.html"
                async with http.get(url, headers=headers) as answer:
                    # The proxy knows no such launch; with Origin null the guard
                    # refuses first, as for any frame it did not launch.
                    assert answer.status == (404 if origin is None else 403), await answer.text()
    assert not [r for r in caplog.records if r.exc_info is not None or r.levelno >= logging.ERROR]


async def test_its_own_signature_still_opens_the_launch(local: LocalPlay) -> None:
    assert local.page is not None and local.page.activity is not None
    path = local.page.activity.launch_path("1234", opaque=True)
    async with aiohttp.ClientSession() as http, http.get(
            f"{local.url.rstrip('/')}/activity-app/{path}/index.html",
            headers={"Origin": "null"}) as answer:
        # Past the guard and the proxy's signature check: the bot's server is
        # not running here, so the proxy says it does not answer.
        assert answer.status == 502
