"""REST semantics checked with a bare HTTP client: codes, shapes, who may do what."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import orjson
import pytest

from fakediscord import Actor, Channel, FakeDiscord, Interaction
from fakediscord.core import payloads
from fakediscord.core.world import InteractionType


class Api:
    def __init__(self, emu: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.emu, self.session = emu, session

    async def __call__(self, method: str, path: str, body: Any = None,
                       auth: bool = True) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.emu.token}"} if auth else {}
        async with self.session.request(method, self.emu.api_base + path, json=body,
                                        headers=headers) as response:
            data = await response.json() if response.status != 204 else None
            return response.status, data


@pytest.fixture
async def api(fake_discord: FakeDiscord) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        yield Api(fake_discord, session)


@pytest.fixture
def room(fake_discord: FakeDiscord) -> tuple[Channel, Actor]:
    guild = fake_discord.create_guild("Server")
    return fake_discord.create_text_channel(guild, "games"), fake_discord.create_user(
        "alice", guild=guild)


def interaction(emu: FakeDiscord, channel: Channel, actor: Actor) -> Interaction:
    """An interaction as if alice had clicked something (no bot needed)."""
    return emu.world.new_interaction(InteractionType.APPLICATION_COMMAND, actor.user, channel,
                                     {"id": "1", "name": "x", "type": 1}, "test")


async def test_callback_answers_204_or_the_response_resource(
        api: Api, fake_discord: FakeDiscord, room: tuple[Channel, Actor]) -> None:
    channel, alice = room
    quiet = interaction(fake_discord, channel, alice)
    status, _ = await api("POST", f"/interactions/{quiet.id}/{quiet.token}/callback",
                          {"type": 4, "data": {"content": "hi"}}, auth=False)
    assert status == 204
    loud = interaction(fake_discord, channel, alice)
    url = f"/interactions/{loud.id}/{loud.token}/callback?with_response=1"
    status, body = await api("POST", url, {"type": 5, "data": {"flags": 64}}, auth=False)
    assert status == 200
    assert body["interaction"]["response_message_loading"] is True
    assert body["interaction"]["response_message_ephemeral"] is True
    assert body["resource"]["message"]["id"] == body["interaction"]["response_message_id"]
    status, body = await api("POST", url, {"type": 4, "data": {"content": "again"}}, auth=False)
    assert (status, body["code"]) == (400, 40060)
    assert "answered 400" in fake_discord.take_problems()[0]


async def test_webhook_routes_need_an_answered_live_token(
        api: Api, fake_discord: FakeDiscord, room: tuple[Channel, Actor]) -> None:
    channel, alice = room
    i = interaction(fake_discord, channel, alice)
    hook = f"/webhooks/{fake_discord.application_id}/{i.token}"
    assert (await api("POST", hook + "?wait=1", {"content": "early"}))[1]["code"] == 10015
    await api("POST", f"/interactions/{i.id}/{i.token}/callback", {"type": 4, "data": {
        "content": "first"}})
    status, original = await api("GET", hook + "/messages/@original")
    assert status == 200 and original["content"] == "first"
    status, followup = await api("POST", hook + "?wait=1", {"content": "second", "flags": 64})
    assert status == 200 and followup["flags"] & 64
    status, edited = await api("PATCH", hook + f"/messages/{followup['id']}", {"content": "2nd"})
    assert edited["content"] == "2nd" and edited["edited_timestamp"]
    other = interaction(fake_discord, channel, alice)
    await api("POST", f"/interactions/{other.id}/{other.token}/callback", {"type": 4, "data": {
        "content": "other"}})
    stranger = f"/webhooks/{fake_discord.application_id}/{other.token}/messages/{followup['id']}"
    assert (await api("GET", stranger))[1]["code"] == 10008
    assert (await api("GET", f"/webhooks/1/{i.token}/messages/@original"))[1]["code"] == 10015
    assert (await api("DELETE", hook + "/messages/@original"))[0] == 204
    assert (await api("GET", hook + "/messages/@original"))[1]["code"] == 10008
    fake_discord.expire_token(i.token)
    assert (await api("GET", hook + f"/messages/{followup['id']}"))[1]["code"] == 10015


async def test_channel_messages(api: Api, fake_discord: FakeDiscord,
                                room: tuple[Channel, Actor]) -> None:
    channel, alice = room
    base = f"/channels/{channel.id}/messages"
    ids = [(await api("POST", base, {"content": f"m{n}"}))[1]["id"] for n in range(3)]
    status, listed = await api("GET", base + "?limit=2")
    assert status == 200 and [m["content"] for m in listed] == ["m2", "m1"]
    assert [m["content"] for m in (await api("GET", f"{base}?before={ids[2]}"))[1]] == ["m1", "m0"]
    assert (await api("POST", base, {"content": ""}))[1]["code"] == 50006
    fake_discord.take_problems()
    theirs = await alice.say(channel, "mine")
    assert (await api("PATCH", f"{base}/{theirs.id}", {"content": "x"}))[1]["code"] == 50005
    assert (await api("DELETE", f"{base}/{theirs.id}"))[0] == 204  # the bot manages messages
    assert fake_discord.message(channel, theirs.id) is None and theirs.deleted
    assert (await api("GET", f"{base}/{theirs.id}"))[1]["code"] == 10008
    assert (await api("GET", "/channels/123/messages"))[1]["code"] == 10003


async def test_channel_overwrites_decide_what_the_bot_may_do(
        api: Api, fake_discord: FakeDiscord, room: tuple[Channel, Actor]) -> None:
    channel, alice = room
    fake_discord.set_permissions(channel, fake_discord.bot_user, send_messages=False)
    status, body = await api("POST", f"/channels/{channel.id}/messages", {"content": "hi"})
    assert (status, body["code"]) == (403, 50013)
    fake_discord.set_permissions(channel, fake_discord.world.guilds[channel.guild_id or 0],
                                 view_channel=False)
    assert (await api("GET", f"/channels/{channel.id}"))[1]["code"] == 50001
    with pytest.raises(AssertionError, match="cannot see"):
        alice.visible_messages(channel)


async def test_dms_need_a_shared_server_and_open_dms(api: Api, fake_discord: FakeDiscord,
                                                     room: tuple[Channel, Actor]) -> None:
    _, alice = room
    loner = fake_discord.create_user("loner")
    for who, code in ((alice, None), (loner, 50007)):
        status, dm = await api("POST", "/users/@me/channels", {"recipient_id": who.id})
        assert status == 200 and dm["type"] == 1 and dm["recipients"][0]["id"] == str(who.id)
        status, body = await api("POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
        assert (body.get("code") if status != 200 else None) == code
    assert [m.content for m in alice.dms()] == ["hi"]


async def test_command_registration(api: Api, fake_discord: FakeDiscord) -> None:
    base = f"/applications/{fake_discord.application_id}/commands"
    command = {"name": "rummy", "description": "Play", "type": 1}
    status, [first] = await api("PUT", base, [command])
    status, [again] = await api("PUT", base, [command])
    assert status == 200 and first["id"] == again["id"]  # ids survive a re-sync
    status, created = await api("POST", base, {"name": "help", "description": "Help"})
    assert status == 201
    status, same = await api("POST", base, {"name": "help", "description": "More help"})
    assert status == 200 and same["id"] == created["id"]
    status, patched = await api("PATCH", f"{base}/{created['id']}", {"description": "Patched"})
    assert patched["description"] == "Patched" and patched["id"] == created["id"]
    assert (await api("DELETE", f"{base}/{created['id']}"))[0] == 204
    assert [c["name"] for c in (await api("GET", base))[1]] == ["rummy"]
    assert (await api("GET", f"{base}/{created['id']}"))[1]["code"] == 10063
    guilds = f"/applications/{fake_discord.application_id}/guilds/42/commands"
    assert (await api("GET", guilds))[1]["code"] == 10004


async def test_a_deleted_channel_is_unknown_from_then_on(
    api: Api, fake_discord: FakeDiscord, room: tuple[Channel, Actor]
) -> None:
    channel, _ = room
    status, _ = await api("POST", f"/channels/{channel.id}/messages", {"content": "hi"})
    assert status == 200
    fake_discord.delete_channel(channel)
    status, body = await api("POST", f"/channels/{channel.id}/messages", {"content": "hi"})
    assert (status, body["code"]) == (404, 10003)


async def test_a_member_can_delete_a_message(
    api: Api, fake_discord: FakeDiscord, room: tuple[Channel, Actor]
) -> None:
    channel, _ = room
    _, posted = await api("POST", f"/channels/{channel.id}/messages", {"content": "hi"})
    message = fake_discord.message(channel, int(posted["id"]))
    assert message is not None
    fake_discord.delete_message(message)
    assert fake_discord.message(channel, message.id) is None
    status, body = await api("GET", f"/channels/{channel.id}/messages/{message.id}")
    assert (status, body["code"]) == (404, 10008)


async def upload(api: Api, path: str, payload: dict[str, Any],
                 files: dict[str, bytes]) -> tuple[int, Any]:
    """A multipart request as discord.py sends one: payload_json, then files[n]."""
    form = aiohttp.FormData()
    form.add_field("payload_json", orjson.dumps(payload).decode(),
                   content_type="application/json")
    for name, data in files.items():
        form.add_field(name, data, filename="chart.png", content_type="image/png")
    async with api.session.post(api.emu.api_base + path, data=form) as response:
        return response.status, await response.json()


async def test_an_interaction_answer_may_carry_files(
        api: Api, fake_discord: FakeDiscord, room: tuple[Channel, Actor]) -> None:
    channel, alice = room
    answered = interaction(fake_discord, channel, alice)
    url = f"/interactions/{answered.id}/{answered.token}/callback?with_response=1"
    payload = {"type": 4, "data": {"flags": 64, "attachments": [{"id": 0, "filename": "c.png"}],
                                   "embeds": [{"image": {"url": "attachment://c.png"}}]}}
    status, body = await upload(api, url, payload, {"files[0]": b"\x89PNG chart"})
    assert status == 200
    [attachment] = body["resource"]["message"]["attachments"]
    assert attachment["size"] == len(b"\x89PNG chart")
    message = fake_discord.world.messages[int(body["resource"]["message"]["id"])]
    assert message.file_data == {"chart.png": b"\x89PNG chart"}


async def test_uploads_past_discords_limits_are_refused(
        api: Api, fake_discord: FakeDiscord, room: tuple[Channel, Actor]) -> None:
    channel, _alice = room
    path = f"/channels/{channel.id}/messages"

    async def send(payload: dict[str, Any], files: dict[str, bytes]) -> tuple[int, Any]:
        form = aiohttp.FormData()
        form.add_field("payload_json", orjson.dumps(payload).decode(),
                       content_type="application/json")
        for name, data in files.items():
            form.add_field(name, data, filename="f.bin")
        async with api.session.post(api.emu.api_base + path, data=form,
                                    headers={"Authorization": f"Bot {api.emu.token}"}) as r:
            return r.status, await r.json()

    before = len(fake_discord.messages(channel))
    status, body = await send({}, {f"files[{n}]": b"x" for n in range(11)})
    assert (status, body["code"]) == (400, 50035)
    status, body = await send({}, {"files[0]": b"x" * (payloads.ATTACHMENT_SIZE_LIMIT + 1)})
    assert (status, body["code"]) == (413, 40005)
    status, body = await send({"attachments": [{"id": 3}]}, {"files[0]": b"x"})
    assert (status, body["code"]) == (400, 50035)
    assert body["errors"]["attachments"]["0"]["id"]["_errors"][0]["code"] == "ATTACHMENT_NOT_FOUND"
    assert len(fake_discord.messages(channel)) == before  # nothing was posted
    fake_discord.take_problems()
    status, body = await send({"attachments": [{"id": 0}]}, {"files[0]": b"ok"})
    assert status == 200 and body["attachments"][0]["size"] == 2
