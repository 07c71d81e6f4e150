"""Discord's rate limits, emulated on request: buckets with headers, a global limit."""

from __future__ import annotations

import asyncio

import discord

from fakediscord import FakeDiscord, point_discord_at, run_client
from fakediscord.core.rest.ratelimits import RateLimits

EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
PARAMS = {"channel_id": "1", "message_id": "2"}


def test_a_bucket_allows_its_limit_then_refuses_with_the_time_to_wait() -> None:
    limits = RateLimits(routes={EDIT: (2, 60.0)}, global_limit=None)
    first, headers = limits.check(*EDIT, PARAMS)
    assert first is None and headers["X-RateLimit-Remaining"] == "1"
    assert limits.check(*EDIT, PARAMS)[0] is None
    refused, _ = limits.check(*EDIT, PARAMS)
    assert refused is not None and refused.scope == "user"
    assert 0 < refused.retry_after <= 60 and refused.headers["Via"]
    # Another channel has a bucket of its own.
    assert limits.check(*EDIT, {**PARAMS, "channel_id": "3"})[0] is None


def test_the_global_limit_counts_bot_routes_but_not_interaction_callbacks() -> None:
    limits = RateLimits(routes={}, default=None, global_limit=3)
    callback = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
    for _ in range(10):
        assert limits.check(*callback, {"interaction_id": "1", "interaction_token": "t"})[0] is None
    for _ in range(3):
        assert limits.check(*EDIT, PARAMS)[0] is None
    refused, _ = limits.check("GET", "/users/@me", {})
    assert refused is not None and refused.scope == "global" and refused.body()["global"]
    assert limits.refused == {"user": 0, "global": 1}


async def test_discord_py_waits_out_a_bucket_instead_of_being_refused() -> None:
    """With the headers, discord.py sleeps before the bucket runs dry: no 429."""
    limits = RateLimits(routes={("POST", "/channels/{channel_id}/messages"): (2, 0.3)})
    async with FakeDiscord(rate_limits=limits) as emu:
        guild = emu.create_guild("g")
        channel = emu.create_text_channel(guild, "c")
        with point_discord_at(emu):
            client = discord.Client(intents=discord.Intents.none())
            runner = await run_client(emu, client)
            sender = client.get_partial_messageable(channel.id)
            for n in range(5):
                await sender.send(f"message {n}")
            await asyncio.sleep(0)
            assert await runner.stop() == []
    posts = [r.status for r in emu.requests if r.route == "/channels/{channel_id}/messages"]
    assert posts == [200] * 5
    assert [m.content for m in emu.messages(channel)] == [f"message {n}" for n in range(5)]
