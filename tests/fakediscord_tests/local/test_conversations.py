"""Local play's DMs and group DMs between people: the cast makes them (and an
older snapshot gets them, its data kept), each member's page lists the ones
they are in as Discord's app names them, offers there only the commands and
the launcher their app would, and refuses a member who is not in one before
anything changes."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fakediscord.core.installs import GUILD_INSTALL, USER_INSTALL
from fakediscord.core.world import ChannelType
from fakediscord.local.cast import Cast
from fakediscord.local.play import LocalPlay
from fakediscord.local.snapshot import load_world, save_world
from tests.ports import free_port

# The global commands as the bot syncs them: /rummy in servers, the bot's DM
# and conversations between people, for both installs; the Entry Point in
# servers and conversations; and a command left with Discord's defaults
# (servers and the bot's DM, a server's install).
SYNCED: list[dict[str, Any]] = [
    {"name": "rummy", "description": "Play basic Rummy", "contexts": [0, 1, 2],
     "integration_types": [GUILD_INSTALL, USER_INSTALL],
     "options": [{"type": 1, "name": "start", "description": "Open a lobby"}]},
    {"name": "launch", "description": "", "type": 4, "contexts": [0, 2],
     "integration_types": [GUILD_INSTALL, USER_INSTALL]},
    {"name": "ping", "description": "Server things", "integration_types": [GUILD_INSTALL]},
]


@pytest.fixture
async def local() -> AsyncIterator[LocalPlay]:
    play = await LocalPlay(host="127.0.0.1", port=free_port()).start()
    for body in SYNCED:
        play.emu.world.upsert_command(None, body)
    try:
        yield play
    finally:
        await play.close()


def cast_of(local: LocalPlay) -> Cast:
    assert local.cast is not None
    return local.cast


def listed(local: LocalPlay, who: str) -> dict[str, dict[str, Any]]:
    """The page's side bar for ``who``: every place by the name it is listed as."""
    assert local.page is not None
    member = cast_of(local).member(who)
    assert member is not None
    return {place["name"]: place for place in local.page.hello(member)["channels"]}


def command_names(local: LocalPlay, place: dict[str, Any]) -> set[str]:
    """The slash commands a place of the side bar offers, by name (the Entry
    Point is the launcher's)."""
    by_id = {c["id"]: c["name"] for c in local.emu.commands(None) if c["type"] == 1}
    return {by_id[command_id] for command_id in place["commands"] if command_id in by_id}


async def test_the_cast_has_a_group_dm_and_a_dm_that_everyone_in_them_can_use_the_app_in(
    local: LocalPlay,
) -> None:
    cast = cast_of(local)
    world = local.emu.world
    group, dm = cast.conversations
    names = {member.id: member.name for member in cast.members}
    assert group.type == ChannelType.GROUP_DM and dm.type == ChannelType.DM
    assert [names[i] for i in group.recipient_ids] == ["Ann", "Bob", "Cat"]
    assert [names[i] for i in dm.recipient_ids] == ["Ann", "Dan"]
    # The bot is in neither; every member installed the app to themselves.
    assert world.bot.id not in group.recipient_ids + dm.recipient_ids
    assert USER_INSTALL in world.installation_contexts
    assert world.user_installs == set(names)


async def test_each_member_sees_the_conversations_they_are_in_named_by_the_others(
    local: LocalPlay,
) -> None:
    def conversations(who: str) -> dict[str, str]:
        return {name: place["kind"] for name, place in listed(local, who).items()
                if place["kind"] in ("dm", "group") and not place["bot"]}

    assert conversations("ann") == {"Bob, Cat": "group", "Dan": "dm"}
    assert conversations("bob") == {"Ann, Cat": "group"}
    assert conversations("cat") == {"Ann, Bob": "group"}
    assert conversations("dan") == {"Ann": "dm"}
    # Each still has the server's channels and their DM with the bot.
    assert {"rummy", "general", "Game Night", "Rummy"} <= set(listed(local, "cat"))


async def test_a_group_dm_given_a_name_is_listed_by_it(local: LocalPlay) -> None:
    ann, bob, _cat, dan = cast_of(local).members
    local.emu.create_private_channel([bob, ann, dan], name="Friday cards")
    assert listed(local, "ann")["Friday cards"]["kind"] == "group"
    assert "Friday cards" in listed(local, "dan") and "Friday cards" not in listed(local, "cat")


async def test_a_conversation_offers_the_commands_and_launcher_its_contexts_allow(
    local: LocalPlay,
) -> None:
    places = listed(local, "ann")
    # Between people: /rummy (offered there) and the App Launcher, not a
    # command left to Discord's defaults.
    for name in ("Bob, Cat", "Dan"):
        assert command_names(local, places[name]) == {"rummy"}, name
        assert places[name]["launcher"], name
    assert command_names(local, places["rummy"]) == {"rummy", "ping"}
    assert places["Game Night"]["launcher"]
    # The bot's DM: no Entry Point there (nobody to play with).
    assert places["Rummy"]["bot"] and not places["Rummy"]["launcher"]
    assert command_names(local, places["Rummy"]) == {"rummy", "ping"}


async def post(local: LocalPlay, action: str, body: dict[str, Any]) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.post(
            f"{local.url.rstrip('/')}/api/{action}", json=body) as answer:
        return answer.status, await answer.text()


async def test_a_member_not_in_a_conversation_is_refused_there_and_nothing_changes(
    local: LocalPlay,
) -> None:
    world = local.emu.world
    group, dm = cast_of(local).conversations
    note = world.add_message(dm, cast_of(local).members[0].id, {"content": "just us two"})
    before = (len(world.messages), len(world.interactions), len(world.activity_instances))
    for action, body in (
            ("command", {"as": "cat", "channel": str(dm.id), "command": "rummy start"}),
            ("say", {"as": "cat", "channel": str(dm.id), "text": "hello?"}),
            ("click", {"as": "cat", "message": str(note.id), "custom_id": "x"}),
            ("activity/launch", {"as": "cat", "channel": str(dm.id)})):
        status, text = await post(local, action, body)
        assert status == 403, (action, status, text)
        assert "Cat is not in that conversation" in text, (action, text)
    assert (len(world.messages), len(world.interactions), len(world.activity_instances)) == before
    # Nor can she join the Activity running there by its instance's id.
    instance = world.launch_activity(cast_of(local).members[3].id, dm.id)
    for action in ("activity/join", "activity/participants"):
        status, text = await post(local, action, {"as": "cat", "instance": instance.instance_id})
        assert status == 403 and "Cat is not in that conversation" in text, (action, text)
    assert instance.users == [cast_of(local).members[3].id]
    # Her own group DM she may launch in: the Activity opens there for her.
    status, text = await post(local, "activity/launch", {"as": "cat", "channel": str(group.id)})
    assert status == 200, text
    assert world.activity_instances[json.loads(text)["instance"]].channel_id == group.id


async def test_a_snapshot_from_before_the_conversations_gets_them_and_keeps_its_own(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rummy-local.world"
    old = await LocalPlay(host="127.0.0.1", port=0, snapshot=path).start()
    try:
        cast = cast_of(old)
        rummy = cast.channels[0]
        said = old.emu.world.add_message(rummy, cast.members[1].id, {"content": "from before"})
        # The world as an older version kept it: no conversations, no installs.
        for channel in cast.conversations:
            del old.emu.world.channels[channel.id]
            del old.emu.world.channel_log[channel.id]
        old.emu.world.installation_contexts = [GUILD_INSTALL]
        old.emu.world.user_installs = set()
    finally:
        await old.close()
    save_world(old.emu.world, path)
    saved = json.loads(path.read_text())
    for field in ("installation_contexts", "user_installs"):
        del saved["world"][field]
    path.write_text(json.dumps(saved))

    again = await LocalPlay(host="127.0.0.1", port=0, snapshot=path).start()
    try:
        world = again.emu.world
        assert world.messages[said.id].content == "from before"
        assert cast_of(again).guild.id == cast.guild.id
        group, dm = cast_of(again).conversations
        ann, dan = cast.members[0], cast.members[3]
        assert sorted(dm.recipient_ids) == sorted([ann.id, dan.id])
        assert world.user_installs == {m.id for m in cast.members}
    finally:
        await again.close()
    # Saved again with them: the next start finds the same two, makes none.
    kept = load_world(path)
    assert kept is not None
    assert sorted(c.id for c in kept.channels.values() if c.is_private) == sorted(
        [group.id, dm.id])
    assert kept.user_installs == {m.id for m in cast.members}

