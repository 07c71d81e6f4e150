"""What the stand-in keeps of the past stays bounded however long it runs:
with ``Limits`` (local play's), a channel's newest messages, the newest
interactions and those a kept message answers; and, always, the gateway's
replay buffer holds only what the client has not said it received."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.core.gateway import INVALID_SESSION, REPLAY_BUFFER
from fakediscord.core.history import Limits
from fakediscord.core.world import InteractionType
from fakediscord.local.play import LocalPlay

KEEP = 5
MANY = 200


@pytest.fixture
async def bounded() -> AsyncIterator[FakeDiscord]:
    emu = FakeDiscord(record=False)
    emu.world.limits = Limits(messages_per_channel=KEEP, interactions=KEEP * 4)
    await emu.start()
    try:
        yield emu
    finally:
        await emu.stop()


async def test_a_channel_keeps_its_newest_messages_and_the_api_answers_within_them(
    bounded: FakeDiscord,
) -> None:
    world = bounded.world
    guild = bounded.create_guild("Server")
    games, general = (bounded.create_text_channel(guild, name) for name in ("games", "general"))
    alice = bounded.create_user("alice", guild=guild)
    kept_elsewhere = world.add_message(general, alice.id, {"content": "hello"})
    said = [world.add_message(games, alice.id, {"content": f"message {n}"}) for n in range(MANY)]
    assert world.channel_log[games.id] == [m.id for m in said[-KEEP:]]
    assert len(world.messages) == KEEP + 1 and kept_elsewhere.id in world.messages
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {bounded.token}"}
        async with http.get(f"{bounded.api_base}/channels/{games.id}/messages?limit=100",
                            headers=headers) as answer:
            listed = await answer.json()
        async with http.get(f"{bounded.api_base}/channels/{games.id}/messages/{said[0].id}",
                            headers=headers) as forgotten:
            assert forgotten.status == 404
    assert [m["content"] for m in listed] == [f"message {n}" for n in range(MANY - 1,
                                                                            MANY - KEEP - 1, -1)]


async def test_interactions_are_bounded_but_those_a_kept_message_answers_stay(
    bounded: FakeDiscord,
) -> None:
    world = bounded.world
    guild = bounded.create_guild("Server")
    games = bounded.create_text_channel(guild, "games")
    alice = bounded.create_user("alice", guild=guild)
    # An interaction answered by a message in a quiet channel: its token may
    # still edit that message, however many interactions come after it.
    quiet = bounded.create_text_channel(guild, "quiet")
    answered = world.new_interaction(InteractionType.APPLICATION_COMMAND, alice.user, quiet,
                                     {"name": "rummy"}, "/rummy by alice")
    world.add_message(quiet, world.bot.id, {"content": "answer"}, interaction_id=answered.id)
    made = [world.new_interaction(InteractionType.MESSAGE_COMPONENT, alice.user, games,
                                  {"custom_id": f"b{n}"}, f"click {n}") for n in range(MANY)]
    limit = KEEP * 4
    assert len(world.interactions) <= limit + limit // 4 + 1
    assert answered.id in world.interactions
    assert world.interaction_by_token(answered.token) is answered
    newest = made[-limit:]
    assert all(world.interactions.get(i.id) is i for i in newest)
    assert world.interaction_by_token(made[0].token) is None


def test_without_limits_everything_is_kept(fake_discord: FakeDiscord) -> None:
    world = fake_discord.world
    guild = fake_discord.create_guild("Server")
    games = fake_discord.create_text_channel(guild, "games")
    for n in range(MANY):
        world.add_message(games, world.bot.id, {"content": f"message {n}"})
    assert len(world.channel_log[games.id]) == MANY


async def _identified(emu: FakeDiscord, ws: aiohttp.ClientWebSocketResponse) -> int:
    await ws.receive_json()  # HELLO
    await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": 1 << 9,
                                       "properties": {}}})
    ready = await ws.receive_json()
    assert ready["t"] == "READY"
    return int(ready["s"])


async def _events_until(ws: aiohttp.ClientWebSocketResponse, seq: int) -> list[dict[str, Any]]:
    frames = []
    while not frames or frames[-1].get("s") != seq:
        frames.append(await ws.receive_json(timeout=10))
    return frames


async def test_the_replay_buffer_keeps_only_what_the_client_has_not_acknowledged(
    fake_discord: FakeDiscord,
) -> None:
    gateway = fake_discord.gateway
    async with aiohttp.ClientSession() as http, http.ws_connect(fake_discord.gateway_url) as ws:
        await _identified(fake_discord, ws)
        (session,) = gateway.sessions.values()
        for n in range(MANY):
            gateway.dispatch("TYPING_START", {"n": n})
        await _events_until(ws, session.seq)
        assert len(session.buffer) >= MANY
        # The heartbeat says what the client has: none of it is replayed again.
        await ws.send_json({"op": 1, "d": session.seq - 3})
        assert (await ws.receive_json(timeout=10))["op"] == 11
        assert [seq for seq, _text in session.buffer] == [
            session.seq - 2, session.seq - 1, session.seq]
        # However much goes out between two heartbeats, the buffer is bounded.
        for n in range(REPLAY_BUFFER + MANY):
            gateway.dispatch("TYPING_START", {"n": n})
        assert len(session.buffer) == REPLAY_BUFFER


async def test_a_client_that_missed_more_than_is_kept_must_identify_anew(
    fake_discord: FakeDiscord,
) -> None:
    gateway = fake_discord.gateway
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fake_discord.gateway_url) as ws:
            seen = await _identified(fake_discord, ws)
            (session,) = gateway.sessions.values()
            await gateway.drop()
        for n in range(REPLAY_BUFFER + 1):
            gateway.dispatch("TYPING_START", {"n": n})
        async with http.ws_connect(fake_discord.gateway_url) as ws:
            await ws.receive_json()  # HELLO
            await ws.send_json({"op": 6, "d": {"token": fake_discord.token,
                                               "session_id": session.id, "seq": seen}})
            refused = await ws.receive_json(timeout=10)
            assert (refused["op"], refused["d"]) == (INVALID_SESSION, False)
        # One that missed only what is kept resumes with all of it.
        async with http.ws_connect(fake_discord.gateway_url) as ws:
            await ws.receive_json()
            oldest, _text = session.buffer[0]
            await ws.send_json({"op": 6, "d": {"token": fake_discord.token,
                                               "session_id": session.id, "seq": oldest - 1}})
            frames = []
            while not frames or frames[-1].get("t") != "RESUMED":
                frames.append(await ws.receive_json(timeout=10))
            replayed = [frame["s"] for frame in frames[:-1]]
            assert replayed == list(range(oldest, oldest + REPLAY_BUFFER))


async def test_local_play_keeps_a_bounded_past() -> None:
    local = await LocalPlay(host="127.0.0.1", port=0).start()
    try:
        world = local.emu.world
        assert world.limits == Limits()
        (channel, *_rest) = local.cast.channels
        for n in range(Limits().messages_per_channel * 2):
            world.add_message(channel, world.bot.id, {"content": f"message {n}"})
        assert len(world.channel_messages(channel.id)) == Limits().messages_per_channel
    finally:
        await local.close()
