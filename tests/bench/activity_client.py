"""The Activity's client, measured: ``python -m tests.bench.activity_client``.

Local play (``python bot.py`` with no token) in its own process and its page in
Debian's Chromium: a game against a computer is started, Open table pressed,
and then the Activity is loaded again in a fresh browser (nothing cached)
through a simulated slow connection. Printed: the bytes of the first load (as
they crossed the wire, and the files' own sizes), the requests it took, and
the time from asking for the page until the table is drawn and playable (the
first state on screen), for each connection. ``--bot-root DIR`` runs the bot
(and its page) of another checkout, for a before and after in one sitting.

Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import Response, async_playwright

from tests.local.conftest import ROOT, LocalBot, chromium_path
from tests.local.test_activity import open_activity
from tests.local.test_local_play import start_against_a_computer
from tests.ports import free_port

# (name, round trip in ms, download and upload in kbit/s), as browsers' tools offer them.
CONNECTIONS = (
    ("no throttling", 0, 0, 0),
    ("fast 3G", 150, 1600, 750),
    ("slow 3G", 400, 400, 400),
)


async def measure(runs: int, bot_root: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="rummy-client-"))
    bot = await LocalBot(home, free_port(), root=bot_root).start()
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium_path(),
                                                       args=["--no-sandbox"])
            context = await browser.new_context(viewport={"width": 400, "height": 780})
            page = await context.new_page()
            await page.goto(bot.url)
            await page.wait_for_selector("#server-name:not(:empty)", state="attached")
            await start_against_a_computer(page)
            for name, latency, down, up in CONNECTIONS:
                times: list[float] = []
                wire = files = requests = 0
                for _ in range(runs):
                    # Launched anew each time: a closed page leaves its instance,
                    # and the last to leave ends it.
                    await open_activity(page)
                    url = await page.locator("#activity-frame").get_attribute("src")
                    assert url is not None
                    activity = bot.url.rstrip("/") + url
                    fresh = await browser.new_context(viewport={"width": 400, "height": 780})
                    tab = await fresh.new_page()
                    cdp = await fresh.new_cdp_session(tab)
                    await cdp.send("Network.enable")
                    if latency:
                        await cdp.send("Network.emulateNetworkConditions", {
                            "offline": False, "latency": latency,
                            "downloadThroughput": down * 1000 / 8,
                            "uploadThroughput": up * 1000 / 8})
                    sizes: list[int] = []
                    bodies: list[int] = []

                    async def count(response: Response, sizes: list[int] = sizes,
                                    bodies: list[int] = bodies) -> None:
                        if "/activity-app/" not in response.url:
                            return
                        found = await response.request.sizes()
                        sizes.append(found["responseBodySize"] + found["responseHeadersSize"])
                        bodies.append(len(await response.body()))

                    tab.on("response", count)
                    started = time.perf_counter()
                    await tab.goto(activity)
                    frame = tab.frame_locator("#activity")
                    await frame.locator("#hand .card").first.wait_for(timeout=120_000)
                    times.append(time.perf_counter() - started)
                    await asyncio.sleep(0.5)
                    wire, files, requests = sum(sizes), sum(bodies), len(sizes)
                    await fresh.close()
                    await page.click("#activity-close")
                    # Each run signs in twice from this one address, which the
                    # server lets do so once in two seconds after a first few.
                    await asyncio.sleep(4.0)
                print(f"{name}: table drawn {statistics.median(times):.2f} s after the page "
                      f"was asked for (median of {runs}); first load {wire:,} bytes on the wire "
                      f"({files:,} bytes of files) in {requests} requests")
            await browser.close()
    finally:
        await bot.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bot-root", type=Path, default=ROOT,
                        help="the checkout whose bot runs (default: this one)")
    options = parser.parse_args(argv)
    if options.runs < 1:
        print("error: --runs must be at least 1", file=sys.stderr)
        return 2
    if not (options.bot_root / "bot.py").is_file():
        print(f"error: no bot.py in {options.bot_root}", file=sys.stderr)
        return 2
    asyncio.run(measure(options.runs, options.bot_root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
