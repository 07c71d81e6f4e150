"""The health and metrics port a host can turn on (``HEALTH_PORT``)."""

from __future__ import annotations

import re

import aiohttp

from bot import RummyBot

from .conftest import LaunchBot, Server, StopBot
from .test_play import start_game


def health_url(bot: RummyBot, path: str) -> str:
    assert bot.health is not None and bot.health.port is not None
    return f"http://127.0.0.1:{bot.health.port}{path}"


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition ``text``."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        sample, _, value = line.rpartition(" ")
        found = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})?", sample)
        if found and found.group(1) == name:
            have = ",".join(sorted((found.group(2) or "").split(","))) if found.group(2) else ""
            if have == wanted:
                return float(value)
    raise AssertionError(f"no sample {name}{labels} in the metrics")


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_healthz_says_whether_the_gateway_and_the_database_answer(
    server: Server, launch: LaunchBot, stop_bot: StopBot
) -> None:
    bot = await launch(health_port=0)
    url = health_url(bot, "/healthz")
    status, body = await get(url)
    assert status == 200 and '"gateway": "connected"' in body and '"database": "ok"' in body
    # The database gone (closed under the bot): the port says so.
    assert bot.db is not None
    database = bot.db
    await database.close()
    status, body = await get(url)
    assert status == 503 and '"database": "down"' in body and '"gateway": "connected"' in body
    bot.db = None
    await stop_bot(bot)


async def test_metrics_count_clicks_tables_requests_and_commits(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch(health_port=0)
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    await seated[0].open_hand()
    await server.player(server.cat).open_hand()  # not seated: refused
    await bot.game.tasks.wait_idle()
    status, text = await get(health_url(bot, "/metrics"))
    assert status == 200
    sample = {"kind": "component", "action": "hand"}
    assert metric(text, "rummy_interactions_total", **sample, outcome="ok") == 1
    assert metric(text, "rummy_interactions_total", **sample, outcome="refused") == 1
    assert metric(text, "rummy_interactions_total", kind="component", action="join",
                  outcome="ok") == 1
    assert metric(text, "rummy_interactions_total", kind="command", action="rummy start",
                  outcome="ok") == 1
    assert metric(text, "rummy_answer_seconds_count", kind="component") == 4
    assert metric(text, "rummy_live_tables") == 1
    route = "/api/v10/interactions/{id}/{token}/callback"
    answers = sum(
        metric(text, "rummy_rest_requests_total", method="POST", route=route, status=status)
        for status in ("200", "204")
    )
    assert answers == 5  # the command and four clicks, each answered once
    assert "itoken" not in text  # interaction tokens never become labels
    assert metric(text, "rummy_db_commit_seconds_count") >= 2
