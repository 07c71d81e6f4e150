"""User installs, interaction contexts, DMs and group DMs without the bot, and
Activities in private channels, as Discord's developer docs describe them
("Application Commands", "Interactions > Receiving and Responding",
"Application", "Channel", "Permissions")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import discord
import pytest

from fakediscord import Actor, Channel, FakeDiscord, Guild
from fakediscord.core import payloads
from fakediscord.core.installs import UnavailableCommand
from fakediscord.core.spec import validate_response
from fakediscord.core.world import ChannelType, World
from tests.conftest import StartBot

from .sample_bot import InstallsBot

COMMANDS = "/applications/{application_id}/commands"
INSTANCE = "/applications/{application_id}/activity-instances/{instance_id}"
ATTACH, EMBED = 1 << 15, 1 << 14
MENTION_EVERYONE, EXTERNAL_EMOJIS = 1 << 17, 1 << 18


@dataclass
class Places:
    emu: FakeDiscord
    home: Guild  # installed the app: its bot is a member
    games: Channel
    outside: Guild  # never installed it
    lounge: Channel
    alice: Actor  # installed the app to her account
    bob: Actor
    cat: Actor
    dm: Channel  # alice and bob
    group: Channel  # alice, bob and cat
    bot: InstallsBot


@pytest.fixture
async def places(fake_discord: FakeDiscord, start_bot: StartBot) -> Places:
    emu = fake_discord
    emu.world.enable_user_install()
    home = emu.create_guild("Home")
    games = emu.create_text_channel(home, "games")
    outside = emu.create_guild("Outside", installed=False)
    lounge = emu.create_text_channel(outside, "lounge")
    alice, bob, cat = (emu.create_user(name, guild=home) for name in ("alice", "bob", "cat"))
    for actor in (alice, bob, cat):
        emu.add_member(actor, outside)
    emu.world.install_for_user(alice.user)
    dm = emu.create_private_channel([alice, bob])
    group = emu.create_private_channel([alice, bob, cat], name="trio")
    bot = InstallsBot()
    await start_bot(bot)
    return Places(emu, home, games, outside, lounge, alice, bob, cat, dm, group, bot)


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(
            headers={"Authorization": f"Bot {fake_discord.token}"}) as session:
        yield session


def command(emu: FakeDiscord, name: str) -> dict[str, object]:
    return next(c for c in emu.commands() if c["name"] == name)


# -- commands keep where they are offered -------------------------------------------------


async def test_synced_commands_keep_their_installs_and_contexts(places: Places) -> None:
    emu = places.emu
    assert (command(emu, "where")["integration_types"], command(emu, "where")["contexts"]) == (
        [0, 1], [0, 1, 2])
    assert command(emu, "mine")["integration_types"] == [1]
    # Unset: the app's configured installs, and contexts null as Discord answers them.
    assert (command(emu, "hand")["integration_types"], command(emu, "hand")["contexts"]) == (
        [0, 1], None)
    (sync,) = [r for r in emu.requests if r.method == "PUT" and r.route == COMMANDS]
    assert validate_response("PUT", COMMANDS, sync.response) is None
    # An app installable to servers alone gives an unset command that install only.
    world = World()
    unset = world.upsert_command(None, {"name": "solo", "description": "Alone"})
    assert (unset["integration_types"], unset["contexts"]) == ([0], None)
    assert validate_response("POST", COMMANDS, unset, 201) is None


async def test_the_application_lists_both_installation_contexts(
        places: Places, http: aiohttp.ClientSession) -> None:
    async with http.get(places.emu.api_base + "/applications/@me") as answer:
        body = await answer.json()
    assert body["integration_types_config"] == {"0": {}, "1": {}}
    assert body["approximate_user_install_count"] == 1
    # (The application's other fields are the stand-in's few: only these are checked.)
    violation = validate_response("GET", "/applications/@me", body)
    assert violation is None or "integration_types_config" not in violation.where
    world = World()
    with pytest.raises(ValueError, match="enable_user_install"):
        world.install_for_user(world.owner)


# -- who may use a command where ---------------------------------------------------------


async def test_a_command_is_offered_where_its_contexts_and_an_install_allow(
        places: Places) -> None:
    p = places
    # A server that installed the app: its install, and alice's own, both apply.
    reply = await p.alice.slash(p.games, "where")
    seen = p.bot.seen[-1]
    assert reply.text().startswith("context <AppCommandContext guild=True")
    assert seen.is_guild_integration() and seen.is_user_integration()
    assert seen.context.guild and not seen.context.private_channel
    assert reply.interaction.owners == {"0": str(p.home.id), "1": str(p.alice.id)}
    bob_reply = await p.bob.slash(p.games, "where")
    assert bob_reply.interaction.owners == {"0": str(p.home.id)}
    # A command for the user install alone: alice's, never bob's.
    mine = await p.alice.slash(p.games, "mine")
    assert mine.interaction.owners == {"1": str(p.alice.id)} and mine.text() == "Yours"
    with pytest.raises(UnavailableCommand, match="not installed for bob"):
        await p.bob.slash(p.games, "mine")
    # A server that never installed it: only alice's own install works there.
    with pytest.raises(UnavailableCommand, match="neither the server nor bob"):
        await p.bob.slash(p.lounge, "where")
    # A command with unset contexts is not offered in DMs between people.
    with pytest.raises(UnavailableCommand, match="not offered in this context"):
        await p.alice.slash(p.dm, "hand")
    # Nor can anyone type in a DM they are not in.
    with pytest.raises(AssertionError, match="cat is not in"):
        await p.cat.slash(p.dm, "where")


async def test_a_user_install_in_a_server_without_the_bot(places: Places) -> None:
    p = places
    reply = await p.alice.slash(p.lounge, "where")
    assert not reply.ephemeral and reply.message is not None
    assert reply.message in p.bob.visible_messages(p.lounge)
    seen = p.bot.seen[-1]
    assert seen.is_user_integration() and not seen.is_guild_integration()
    assert reply.interaction.owners == {"1": str(p.alice.id)} and reply.interaction.context == 0
    # Of what the channel grants alice, the permissions an answer can use.
    assert seen.app_permissions.value == ATTACH | EMBED | EXTERNAL_EMOJIS
    assert seen.guild_id == p.outside.id and seen.user.id == p.alice.id
    # The bot hears nothing else of that server: not its creation, not its messages.
    created = {g["id"] for g in p.emu.dispatched("GUILD_CREATE")}
    assert str(p.home.id) in created and str(p.outside.id) not in created
    assert all(m["channel_id"] != str(p.lounge.id) for m in p.emu.dispatched("MESSAGE_CREATE"))


# -- DMs and group DMs between people -----------------------------------------------------


async def test_an_interaction_from_a_dm_or_group_dm_carries_the_channel(
        places: Places) -> None:
    p = places
    reply = await p.alice.slash(p.dm, "where")
    seen = p.bot.seen[-1]
    assert reply.interaction.context == 2 and seen.context.private_channel
    assert reply.interaction.owners == {"1": str(p.alice.id)}
    assert seen.app_permissions.value == ATTACH | EMBED | MENTION_EVERYONE
    assert isinstance(seen.channel, discord.DMChannel) and seen.guild_id is None
    assert [u.id for u in seen.channel.recipients] == [p.bob.id]
    # Both people see the answer; the bot is told nothing of it.
    assert reply.message is not None and reply.message in p.bob.visible_messages(p.dm)
    assert all(m["channel_id"] != str(p.dm.id) for m in p.emu.dispatched("MESSAGE_CREATE"))

    await p.alice.slash(p.group, "where")
    group = p.bot.seen[-1].channel
    assert isinstance(group, discord.GroupChannel) and group.name == "trio"
    assert {u.id for u in group.recipients} == {p.bob.id, p.cat.id}
    assert group.owner_id == p.alice.id
    shown = payloads.channel(p.emu.world, p.group.id)
    assert shown["type"] == ChannelType.GROUP_DM and len(shown["recipients"]) == 3
    assert validate_response("GET", "/channels/{channel_id}", shown) is None
    assert validate_response("GET", "/channels/{channel_id}",
                             payloads.channel(p.emu.world, p.dm.id)) is None


async def test_the_bot_token_is_refused_where_the_bot_is_no_member(places: Places) -> None:
    p = places
    for channel in (p.group, p.lounge):
        reply = await p.alice.slash(channel, "intrude")
        # The interaction's token still answers: the followup fills the "thinking".
        assert reply.message is not None and reply.message.text() == "Tried"
        assert p.bot.refusals[-2:] == [("send", 403, 50001), ("read", 403, 50001)]
        assert not [m for m in p.emu.messages(channel) if m.text() == "The bot was here"]
        problems = p.emu.take_problems()
        assert len(problems) == 2 and all("answered 403" in x and "50001" in x for x in problems)


async def test_answers_through_the_token_work_in_a_dm(places: Places) -> None:
    p = places
    reply = await p.alice.slash(p.dm, "chatty", count=2)
    await p.emu.wait_for(lambda: reply.message is not None and reply.message.text() == "All sent")
    assert [m.text() for m in reply.followups] == ["Follow-up 1", "Follow-up 2"]
    assert all(m in p.bob.visible_messages(p.dm) for m in reply.followups)


# -- the limits of a user install ---------------------------------------------------------


async def test_a_user_install_alone_sends_five_followups_at_most(places: Places) -> None:
    p = places
    reply = await p.alice.slash(p.dm, "chatty", count=6)
    await p.emu.wait_for(lambda: p.bot.refusals)
    assert p.bot.refusals == [("followup", 400, 40094)]
    assert len(reply.followups) == 5
    (problem,) = p.emu.take_problems()
    assert "answered 400" in problem and "40094" in problem
    # Where the server installed the app too, its install lifts the limit.
    many = await p.alice.slash(p.games, "chatty", count=6)
    await p.emu.wait_for(lambda: many.message is not None and many.message.text() == "All sent")
    assert len(many.followups) == 6 and p.bot.refusals == [("followup", 400, 40094)]


async def test_without_use_external_apps_every_answer_is_the_invokers_alone(
        places: Places) -> None:
    p = places
    p.emu.set_permissions(p.lounge, p.outside, use_external_apps=False)
    reply = await p.alice.slash(p.lounge, "chatty", count=1)
    await p.emu.wait_for(lambda: reply.message is not None and reply.message.text() == "All sent")
    assert reply.ephemeral and reply.message is not None
    assert reply.message.visible_to == p.alice.id
    (followup,) = reply.followups
    assert followup.ephemeral and followup not in p.bob.visible_messages(p.lounge)
    assert not p.emu.messages(p.lounge)
    # In the server that installed the app, the permission changes nothing.
    p.emu.set_permissions(p.games, p.home, use_external_apps=False)
    public = await p.alice.slash(p.games, "where")
    assert not public.ephemeral


# -- Activities in private channels --------------------------------------------------------


async def test_an_activity_in_a_group_dm_is_a_private_channel_instance(
        places: Places, http: aiohttp.ClientSession) -> None:
    p = places
    world = p.emu.world
    world.enable_activities()
    reply = await p.alice.slash(p.group, "play")
    instance = reply.activity_instance
    assert reply.type == 12 and instance is not None
    assert instance.instance_id.endswith(f"-pc-{p.group.id}") and instance.guild_id is None
    assert world.launch_activity(p.bob.id, p.group.id) is instance
    dave = p.emu.create_user("dave", guild=p.home)
    with pytest.raises(ValueError, match="not a recipient"):
        world.launch_activity(dave.id, p.group.id)
    path = INSTANCE.format(application_id=world.application_id,
                           instance_id=instance.instance_id)
    async with http.get(p.emu.api_base + path) as answer:
        body = await answer.json()
    assert answer.status == 200 and validate_response("GET", INSTANCE, body) is None
    assert body["location"] == {"id": f"pc-{p.group.id}", "kind": "pc",
                                "channel_id": str(p.group.id)}
    assert body["users"] == [str(p.alice.id), str(p.bob.id)]
    # The Entry Point, unset contexts, is not offered in a group DM by the launcher.
    assert world.launcher_refusal(p.alice.id, p.group.id) is not None
    assert world.launcher_refusal(dave.id, p.group.id) == "No such channel."
