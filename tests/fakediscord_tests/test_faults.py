"""Faults on demand, and what discord.py does about each."""

from __future__ import annotations

import asyncio
import contextlib

import discord
from discord.http import Route

from .conftest import Scene


async def test_rate_limit_is_retried_by_discord_py(scene: Scene) -> None:
    fault = scene.emu.fail_next("POST /channels/*/messages", status=429, retry_after=0.05)
    reply = await scene.alice.slash(scene.channel, "announce", text="Game night!")
    assert reply.content == "Announced"
    posts = [r for r in scene.emu.requests if r.route == "/channels/{channel_id}/messages"]
    assert [r.status for r in posts] == [429, 200]
    assert posts[0].response["retry_after"] == 0.05
    assert fault.hits == 1
    assert [m.content for m in scene.emu.messages(scene.channel)] == ["Announced", "Game night!"]


async def test_server_error_on_callback_is_retried(scene: Scene) -> None:
    scene.emu.fail_next("/interactions/*/callback", status=500)
    reply = await scene.alice.slash(scene.channel, "poke", who=scene.bob)
    assert reply.answered and reply.content == "alice pokes bob"
    assert reply.latency is not None and reply.latency >= 1.0  # discord.py waits 1 s first
    callbacks = [r.status for r in scene.emu.requests if r.path.endswith("/callback")]
    assert callbacks == [500, 200]


async def test_a_slow_discord_answers_normally_but_late(scene: Scene) -> None:
    slow = scene.emu.slow_down("/interactions/*/callback", 0.3)
    reply = await scene.alice.slash(scene.channel, "poke", who=scene.bob)
    assert reply.answered and reply.content == "alice pokes bob"
    assert reply.latency is not None and reply.latency >= 0.3
    assert slow.hits == 1
    quick = await scene.alice.slash(scene.channel, "poke", who=scene.bob)
    assert quick.latency is not None and quick.latency < 0.3


async def test_closed_dms_raise_forbidden_in_the_bot(scene: Scene) -> None:
    scene.bob.close_dms()
    reply = await scene.alice.slash(scene.channel, "dm", who=scene.bob)
    assert reply.ephemeral and reply.content == "Cannot DM bob"
    assert scene.bot.log == [("dm_forbidden", 50007)]
    assert scene.bob.dms() == []
    scene.bob.open_dms()
    assert (await scene.alice.slash(scene.channel, "dm", who=scene.bob)).content == "DM sent to bob"


async def test_gateway_drop_is_resumed_and_play_goes_on(scene: Scene) -> None:
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    scene.bot.add_listener(on_resumed)
    await scene.emu.drop_gateway()
    await asyncio.wait_for(resumed.wait(), 2)
    reply = await scene.alice.slash(scene.channel, "game start", target=10)
    assert reply.answered and reply.message is not None
    assert (await scene.bob.click(reply.message, label="Join")).type == 7
    identifies = [e for e in scene.emu.events if e["direction"] == "recv" and e["op"] == 2]
    resumes = [e for e in scene.emu.events if e["direction"] == "recv" and e["op"] == 6]
    assert len(identifies) == 1 and len(resumes) == 1


async def test_events_sent_while_disconnected_are_replayed_on_resume(scene: Scene) -> None:
    await scene.emu.drop_gateway(wait=False)
    # The interaction is queued while the client is away; RESUME replays it.
    reply = await scene.alice.slash(scene.channel, "poke", who=scene.bob)
    assert reply.answered and reply.content == "alice pokes bob"
    replayed = [e for e in scene.emu.events
                if e["direction"] == "send" and e["t"] == "INTERACTION_CREATE"]
    assert len(replayed) == 1  # sent once: on the resumed connection


async def test_expired_token_gives_not_found_in_the_bot(scene: Scene) -> None:
    first = await scene.alice.slash(scene.channel, "remember")
    scene.emu.expire_token(first)
    second = await scene.alice.slash(scene.channel, "recall")
    await scene.emu.wait_for(lambda: len(second.followups) == 1)
    assert second.followups[0].content == "Too late to edit"
    assert scene.bot.log == [("token_expired", 10015)]
    assert first.content == "Remembered"
    failed = [r for r in scene.emu.requests if r.status == 404]
    assert failed[0].response == {"message": "Unknown Webhook", "code": 10015}


async def test_unexpired_token_edits_later(scene: Scene) -> None:
    first = await scene.alice.slash(scene.channel, "remember")
    before = first.content
    await scene.alice.slash(scene.channel, "recall")
    await scene.emu.wait_for(lambda: first.content == "Edited later")
    assert before != "Edited later" and first.message is not None


async def test_unanswered_interaction_is_a_problem(scene: Scene) -> None:
    scene.emu.interaction_timeout = 0.3
    reply = await scene.alice.slash(scene.channel, "ignore")
    assert not reply.answered and reply.type is None and reply.message is None
    assert scene.bot.log[0][0] == "ignored"
    assert scene.emu.take_problems() == [
        "interaction /ignore by alice was not answered within 0.3 s"]


async def test_invalid_body_is_caught_by_the_spec_validator(scene: Scene) -> None:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=scene.channel.id)
    bad = {"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "L" * 81, "custom_id": "too-long-label"}]}]}
    await scene.bot.http.request(route, json=bad)
    [problem] = scene.emu.take_problems()
    assert problem.startswith("spec violation: POST /channels/{channel_id}/messages: ")
    assert "is too long (at $.components[0].components[0].label)" in problem


async def test_discord_limits_answer_400(scene: Scene) -> None:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=scene.channel.id)
    try:
        await scene.bot.http.request(route, json={"content": "x" * 2001})
    except discord.HTTPException as exc:
        assert exc.status == 400 and exc.code == 50035
    else:
        raise AssertionError("a 2001-character message was accepted")
    [problem] = scene.emu.take_problems()
    assert "answered 400" in problem and "2000 or fewer" in problem


async def test_unknown_route_is_a_problem(scene: Scene) -> None:
    with contextlib.suppress(discord.NotFound):
        await scene.bot.http.request(Route("GET", "/channels/{channel_id}/pins",
                                           channel_id=scene.channel.id))
    assert scene.emu.take_problems() == [f"unhandled route: GET /channels/{scene.channel.id}/pins"]
