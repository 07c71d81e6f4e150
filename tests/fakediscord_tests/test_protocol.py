"""The wire itself: REST conventions, the gateway handshake, sessions, the traffic log."""

from __future__ import annotations

import asyncio
import json
import statistics
from pathlib import Path

import aiohttp
import discord
import discord.http
import pytest

from fakediscord import FakeDiscord, point_discord_at, run_client
from fakediscord.core.gateway import HEARTBEAT_ROUND_TRIP
from fakediscord.core.traffic import ENV_VAR
from tests.conftest import StartBot

from .conftest import Scene
from .sample_bot import SampleBot

PACKAGE = Path(__file__).resolve().parents[2] / "fakediscord"


async def test_json_content_type_is_exact_and_auth_is_checked(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        url = fake_discord.api_base + "/users/@me"
        async with session.get(url, headers={"Authorization": f"Bot {fake_discord.token}"}) as r:
            assert r.status == 200
            assert r.headers["Content-Type"] == "application/json"
            assert (await r.json())["id"] == str(fake_discord.bot_user.id)
        async with session.get(url, headers={"Authorization": "Bot wrong"}) as r:
            assert r.status == 401 and (await r.json())["message"] == "401: Unauthorized"


async def test_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    with pytest.raises(AssertionError, match="LoginFailure"):
        await run_client(fake_discord, SampleBot(), token="not-the-token")


async def test_gateway_refuses_a_wrong_token_with_4004(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(
            fake_discord.gateway_url + "?v=10&encoding=json") as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json())["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0, "properties": {}}})
        closing = await ws.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004


async def test_each_heartbeat_is_acknowledged_after_a_round_trip(
        fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    # Heartbeats four times a second instead of every 41 s, to see many of them.
    fake_discord.gateway.heartbeat_interval = 0.25
    client = discord.Client(intents=discord.Intents.none())
    await start_bot(client)
    latencies = []
    for _ in range(12):
        await asyncio.sleep(0.25)
        latencies.append(client.latency)
    # Each beat's latency is a round trip, never the time since the beat before
    # (what an acknowledgement faster than discord.py's own bookkeeping shows):
    # at least the round trip, and mostly well under the interval (a busy
    # machine may hold up a beat or two).
    assert min(latencies) >= HEARTBEAT_ROUND_TRIP, latencies
    assert statistics.median(latencies) < 0.125, latencies

async def test_ready_points_resumes_back_at_the_emulator(scene: Scene) -> None:
    [ready] = scene.emu.dispatched("READY")
    assert ready["resume_gateway_url"] == scene.emu.gateway_url
    [guild] = scene.emu.dispatched("GUILD_CREATE")
    assert {c["name"] for c in guild["channels"]} == {"games"}
    assert scene.bot.get_guild(scene.guild.id) is not None
    assert scene.runner.login_to_ready is not None


async def test_members_are_sent_only_with_the_members_intent(fake_discord: FakeDiscord,
                                                             start_bot: StartBot) -> None:
    guild = fake_discord.create_guild("Server")
    fake_discord.create_user("carol", guild=guild)
    bot = SampleBot()  # default intents: no GUILD_MEMBERS
    await start_bot(bot)
    [payload] = fake_discord.dispatched("GUILD_CREATE")
    assert [m["user"]["id"] for m in payload["members"]] == [str(fake_discord.bot_user.id)]
    assert payload["member_count"] == 3  # owner, bot, carol


async def test_member_chunks_answer_op_8(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    guild = fake_discord.create_guild("Server")
    carol = fake_discord.create_user("carol", guild=guild)
    client = discord.Client(intents=discord.Intents.all(), chunk_guilds_at_startup=False)
    await start_bot(client)
    members = await client.get_guild(guild.id).query_members(user_ids=[carol.id])  # type: ignore[union-attr]
    assert [m.name for m in members] == ["carol"]
    await client.get_guild(guild.id).chunk()  # type: ignore[union-attr]
    assert client.get_guild(guild.id).chunked  # type: ignore[union-attr]


async def test_world_changes_after_ready_reach_the_bot(scene: Scene) -> None:
    later = scene.emu.create_text_channel(scene.guild, "later")
    await scene.emu.wait_for(lambda: scene.bot.get_channel(later.id))
    other = scene.emu.create_guild("Another")
    await scene.emu.wait_for(lambda: scene.bot.get_guild(other.id))
    mod = scene.emu.create_user("mod", guild=scene.guild, manage_guild=True)
    bot_guild = scene.bot.get_guild(scene.guild.id)
    assert bot_guild is not None
    await scene.emu.wait_for(lambda: bot_guild.get_role(scene.guild.members[mod.id].role_ids[0]))
    scene.emu.set_permissions(scene.channel, scene.emu.bot_user, send_messages=False)

    def bot_may_not_send() -> bool:
        channel = bot_guild.get_channel(scene.channel.id)
        assert isinstance(channel, discord.TextChannel)
        return not channel.permissions_for(bot_guild.me).send_messages

    await scene.emu.wait_for(bot_may_not_send)


async def test_a_restarted_bot_gets_a_fresh_session(fake_discord: FakeDiscord,
                                                    start_bot: StartBot) -> None:
    guild = fake_discord.create_guild("Server")
    channel = fake_discord.create_text_channel(guild, "games")
    alice = fake_discord.create_user("alice", guild=guild)
    first = await start_bot(SampleBot())
    assert not await first.stop()
    await start_bot(SampleBot())
    reply = await alice.slash(channel, "poke", who=alice)
    assert reply.content == "alice pokes alice"
    assert len(fake_discord.gateway.sessions) == 1


async def test_sharded_bot_asks_gateway_bot(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    guild = fake_discord.create_guild("Server")
    channel = fake_discord.create_text_channel(guild, "games")
    alice = fake_discord.create_user("alice", guild=guild)
    bot = discord.AutoShardedClient(intents=discord.Intents.default())
    tree = discord.app_commands.CommandTree(bot)

    @tree.command(description="hi", guild=discord.Object(guild.id))
    async def hi(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hi from shard {interaction.guild.shard_id}")  # type: ignore[union-attr]

    async def setup_hook() -> None:
        await tree.sync(guild=discord.Object(guild.id))

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    await start_bot(bot)
    assert any(r.route == "/gateway/bot" for r in fake_discord.requests)
    assert fake_discord.commands(guild)[0]["name"] == "hi" and fake_discord.commands() == []
    assert (await alice.slash(channel, "hi")).content == "hi from shard 0"


async def test_traffic_log_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "traffic.jsonl"
    monkeypatch.setenv(ENV_VAR, str(log))
    async with FakeDiscord() as emu:
        guild = emu.create_guild("Server")
        channel = emu.create_text_channel(guild, "games")
        alice = emu.create_user("alice", guild=guild)
        with point_discord_at(emu):
            runner = await run_client(emu, SampleBot())
            await alice.slash(channel, "poke", who=alice)
            assert not await runner.stop()
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    http = [e for e in lines if e["kind"] == "http"]
    gateway = [e for e in lines if e["kind"] == "gateway"]
    assert http[0]["method"] == "GET" and http[0]["path"] == "/users/@me"
    assert {"time", "query", "status", "request", "response"} <= set(http[0])
    callback = next(e for e in http if e["path"].endswith("/callback"))
    assert callback["query"] == {"with_response": "1"} and callback["request"]["type"] == 4
    sent = {e["t"] for e in gateway if e["direction"] == "send"}
    assert {"READY", "GUILD_CREATE", "INTERACTION_CREATE"} <= sent
    identify = next(e for e in gateway if e["direction"] == "recv" and e["op"] == 2)
    assert identify["d"]["token"] == "<redacted>"


async def test_point_discord_at_restores_addresses() -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord() as emu:
        with point_discord_at(emu):
            assert emu.api_base == discord.http.Route.BASE
        after = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        assert before == after


def test_the_spec_is_vendored_and_used_from_the_package() -> None:
    assert (PACKAGE / "core" / "spec" / "openapi.json").is_file()
    assert "MIT License" in (PACKAGE / "core" / "spec" / "LICENSE").read_text()
    for source in PACKAGE.rglob("*.py"):
        assert "shared/" not in source.read_text(), f"{source.name} reaches outside the repo"


async def test_privileged_intents_must_be_granted() -> None:
    async with FakeDiscord(privileged_intents=0) as emu:
        emu.create_guild("Server")
        with point_discord_at(emu), pytest.raises(AssertionError, match="PrivilegedIntents"):
            await run_client(emu, SampleBot())  # asks for MESSAGE_CONTENT


async def test_message_content_needs_its_intent(fake_discord: FakeDiscord,
                                                start_bot: StartBot) -> None:
    guild = fake_discord.create_guild("Server")
    channel = fake_discord.create_text_channel(guild, "games")
    alice = fake_discord.create_user("alice", guild=guild)
    seen: list[str] = []
    client = discord.Client(intents=discord.Intents.default())  # no MESSAGE_CONTENT

    async def on_message(message: discord.Message) -> None:
        seen.append(message.content)

    client.event(on_message)
    await start_bot(client)
    await alice.say(channel, "secret plan")
    await alice.say(channel, f"<@{fake_discord.bot_user.id}> hi")
    await fake_discord.wait_for(lambda: len(seen) == 2)
    assert seen == ["", f"<@{fake_discord.bot_user.id}> hi"]  # a mention shows the content


async def identify(emu: FakeDiscord, shard: list[int]) -> tuple[int | None, str]:
    """IDENTIFY on a raw socket; the close code and the first event's name (READY or none)."""
    async with aiohttp.ClientSession() as session, session.ws_connect(emu.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": emu.token, "intents": 1, "shard": shard,
                                           "properties": {}}})
        message = await ws.receive()
        if message.type == aiohttp.WSMsgType.TEXT:
            return None, json.loads(message.data).get("t") or ""
        return ws.close_code, ""


async def test_a_shard_is_served_by_one_connection_at_a_time(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, \
            session.ws_connect(fake_discord.gateway_url) as first:
        await first.receive_json()
        await first.send_json({"op": 2, "d": {"token": fake_discord.token, "intents": 1,
                                              "shard": [1, 2], "properties": {}}})
        assert (await first.receive_json())["t"] == "READY"
        # While the first holds shard 1, a second IDENTIFY for it is refused
        # (4010, Invalid shard); shard 0 is free, and a shard past the count is invalid.
        assert await identify(fake_discord, [1, 2]) == (4010, "")
        assert await identify(fake_discord, [0, 2]) == (None, "READY")
        assert await identify(fake_discord, [2, 2]) == (4010, "")
    # Once its connection is gone the shard can be identified again (a restart).
    assert await identify(fake_discord, [1, 2]) == (None, "READY")
    assert fake_discord.gateway.refused_shards == [1]
