"""Discord Activities, the server side: the OAuth2 handshake of an Activity, its
instances, the LAUNCH_ACTIVITY callback (through discord.py's own
``launch_activity``) and the Entry Point command that enabling Activities makes."""

from __future__ import annotations

import base64
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from fakediscord import Actor, Channel, FakeDiscord, Guild, Interaction
from fakediscord.core import payloads
from fakediscord.core.oauth import CODE_LIFETIME, TOKEN_LIFETIME
from fakediscord.core.rest.ratelimits import RateLimits
from fakediscord.core.spec import validate_body, validate_response
from fakediscord.core.world import InteractionType, World
from tests.conftest import StartBot

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
COMMANDS = "/applications/{application_id}/commands"
INSTANCE = "/applications/{application_id}/activity-instances/{instance_id}"
BAD_CODE = {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
UNAUTHORIZED = {"message": "401: Unauthorized", "code": 0}
REMOVED_ENTRY_POINT = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately.")
BOT = "bot"  # ``Http``'s stand-in for the bot's token


class Http:
    """A bare HTTP client: JSON or a form, the bot's token, another header, or none."""

    def __init__(self, emu: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.emu, self.session = emu, session

    async def __call__(self, method: str, path: str, *, json: Any = None,
                       form: dict[str, str] | None = None,
                       authorization: str | None = BOT) -> tuple[int, Any]:
        headers = {}
        if authorization is not None:
            headers["Authorization"] = (f"Bot {self.emu.token}" if authorization == BOT
                                        else authorization)
        async with self.session.request(method, self.emu.api_base + path, json=json, data=form,
                                        headers=headers) as response:
            return response.status, (await response.json() if response.status != 204 else None)

    async def exchange(self, code: str, **extra: str) -> tuple[int, Any]:
        """The Activity's server trading a code, credentials in the form."""
        world = self.emu.world
        form = {"grant_type": "authorization_code", "code": code,
                "client_id": str(world.application_id), "client_secret": world.client_secret,
                **extra}
        return await self("POST", "/oauth2/token", form=form, authorization=None)

    async def me(self, access_token: str) -> tuple[int, Any]:
        return await self("GET", "/users/@me", authorization=f"Bearer {access_token}")


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[Http]:
    async with aiohttp.ClientSession() as session:
        yield Http(fake_discord, session)


@pytest.fixture
def room(fake_discord: FakeDiscord) -> tuple[Guild, Channel, Actor]:
    guild = fake_discord.create_guild("Server")
    return guild, fake_discord.create_text_channel(guild, "games"), fake_discord.create_user(
        "alice", guild=guild)


def interaction(emu: FakeDiscord, channel: Channel, actor: Actor,
                kind: int = InteractionType.APPLICATION_COMMAND) -> Interaction:
    """An interaction as if alice had used a command (or clicked; no bot needed)."""
    return emu.world.new_interaction(kind, actor.user, channel,
                                     {"id": "1", "name": "play", "type": 1}, "test")


def callback_url(i: Interaction, *, with_response: bool = True) -> str:
    return f"/interactions/{i.id}/{i.token}/callback" + ("?with_response=1" if with_response
                                                          else "")


def error_paths(tree: dict[str, Any], prefix: str = "") -> list[str]:
    """Where Discord's nested ``errors`` point: ``["0.type"]``."""
    paths: list[str] = []
    for key, value in tree.items():
        if key == "_errors":
            paths.append(prefix.rstrip("."))
        else:
            paths += error_paths(value, f"{prefix}{key}.")
    return paths


def basic(client_id: object, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()


# -- OAuth2 ------------------------------------------------------------------------------


async def test_a_code_buys_one_token_that_reads_its_person_without_the_bot_token(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    _, _, alice = room
    alice.user.locale = "de"
    code = fake_discord.world.issue_oauth_code(alice.id, ["identify", "guilds"])
    status, token = await http.exchange(code)
    assert status == 200
    assert set(token) == {"access_token", "token_type", "expires_in", "refresh_token", "scope"}
    assert (token["token_type"], token["expires_in"], token["scope"]) == (
        "Bearer", 604800, "identify guilds")
    assert token["access_token"] and token["refresh_token"] != token["access_token"]

    status, me = await http.me(token["access_token"])
    assert status == 200
    assert (me["id"], me["username"], me["bot"], me["locale"]) == (str(alice.id), "alice",
                                                                    False, "de")
    assert "email" not in me  # no email scope
    assert validate_response("GET", "/users/@me", me) is None
    status, bot = await http("GET", "/users/@me")
    assert status == 200 and bot["id"] == str(fake_discord.bot_user.id)

    assert await http.exchange(code) == (400, BAD_CODE)  # single use
    assert await http.exchange("never-issued") == (400, BAD_CODE)
    assert [r.status for r in fake_discord.requests if r.route == "/oauth2/token"] == [200, 400,
                                                                                        400]
    assert fake_discord.problems == []  # a refused code is an answer, not a problem


async def test_the_email_scope_adds_the_address_fields(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    _, _, alice = room
    _, token = await http.exchange(fake_discord.world.issue_oauth_code(alice.id,
                                                                      ["identify", "email"]))
    _, me = await http.me(token["access_token"])
    assert me["email"] is None and me["verified"] is False
    assert validate_response("GET", "/users/@me", me) is None


async def test_client_credentials_come_in_the_form_or_as_basic_auth(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    _, _, alice = room
    world = fake_discord.world
    code = world.issue_oauth_code(alice.id, ["identify"])
    refused = (401, {"error": "invalid_client"})
    assert await http.exchange(code, client_secret="wrong") == refused
    assert await http.exchange(code, client_id="1234") == refused
    form = {"grant_type": "authorization_code", "code": code}
    assert await http("POST", "/oauth2/token", form=form, authorization=None) == refused
    assert await http("POST", "/oauth2/token", form=form,
                      authorization=basic(world.application_id, "wrong")) == refused
    assert await http("POST", "/oauth2/token", form=form,
                      authorization="Basic not-base64!") == refused
    # A refused client used nothing up: the code still buys a token, once.
    status, token = await http("POST", "/oauth2/token", form=form,
                               authorization=basic(world.application_id, world.client_secret))
    assert status == 200 and (await http.me(token["access_token"]))[1]["id"] == str(alice.id)
    assert await http.exchange(code) == (400, BAD_CODE)
    assert fake_discord.problems == []


async def test_grant_types_other_than_code_and_refresh_are_refused(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    _, _, alice = room
    code = fake_discord.world.issue_oauth_code(alice.id, ["identify"])
    for grant in ("password", ""):
        status, body = await http.exchange(code, grant_type=grant)
        assert (status, body["error"]) == (400, "unsupported_grant_type")
    assert fake_discord.problems == []
    # Discord has these two; the emulator has not, and says so.
    status, body = await http.exchange(code, grant_type="client_credentials")
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    assert fake_discord.take_problems() == [
        "fakediscord does not emulate the client_credentials grant"]
    world = fake_discord.world
    status, body = await http("POST", "/oauth2/token", authorization=None, json={
        "grant_type": "authorization_code", "code": code,
        "client_id": str(world.application_id), "client_secret": world.client_secret})
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    [problem] = fake_discord.take_problems()
    assert "takes a form (application/x-www-form-urlencoded), not application/json" in problem
    assert (await http.exchange(code))[0] == 200  # none of these used the code


async def test_a_code_lives_ten_minutes(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    _, _, alice = room
    world = fake_discord.world
    early, late, never = (world.issue_oauth_code(alice.id, ["identify"]) for _ in range(3))
    world.pass_time(CODE_LIFETIME - 1)
    assert (await http.exchange(early))[0] == 200
    world.pass_time(1)
    assert await http.exchange(late) == (400, BAD_CODE)
    assert never in world.oauth.codes
    fresh = world.issue_oauth_code(alice.id, ["identify"])
    assert never not in world.oauth.codes  # expired codes do not pile up
    assert (await http.exchange(fresh))[0] == 200


async def test_an_access_token_lives_a_week_and_a_refresh_replaces_it(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    _, channel, alice = room
    world = fake_discord.world
    _, first = await http.exchange(world.issue_oauth_code(alice.id, ["identify"]))
    world.pass_time(TOKEN_LIFETIME - 1)
    assert (await http.me(first["access_token"]))[0] == 200
    world.pass_time(1)
    assert await http.me(first["access_token"]) == (401, UNAUTHORIZED)

    form = {"grant_type": "refresh_token", "refresh_token": first["refresh_token"],
            "client_id": str(world.application_id), "client_secret": world.client_secret}
    status, second = await http("POST", "/oauth2/token", form=form, authorization=None)
    assert status == 200 and second["scope"] == "identify" and second["expires_in"] == 604800
    assert (await http.me(second["access_token"]))[1]["id"] == str(alice.id)
    assert await http("POST", "/oauth2/token", form=form, authorization=None) == (400, {
        "error": "invalid_grant", "error_description": 'Invalid "refresh_token" in request.'})
    # A live token refreshed stops working at once; its successor works.
    status, third = await http("POST", "/oauth2/token", authorization=None, form={
        **form, "refresh_token": second["refresh_token"]})
    assert status == 200 and await http.me(second["access_token"]) == (401, UNAUTHORIZED)
    second = third

    assert await http.me("never-issued") == (401, UNAUTHORIZED)
    # A person's token opens only what it may: not the bot's routes, and /users/@me
    # only with the identify scope.
    bearer = f"Bearer {second['access_token']}"
    assert await http("GET", f"/channels/{channel.id}", authorization=bearer) == (
        401, UNAUTHORIZED)
    _, guilds_only = await http.exchange(world.issue_oauth_code(alice.id, ["guilds"]))
    assert await http.me(guilds_only["access_token"]) == (401, UNAUTHORIZED)
    assert fake_discord.problems == []


async def test_a_persons_token_counts_in_none_of_the_bots_rate_limits() -> None:
    limits = RateLimits(routes={("GET", "/users/@me"): (1, 60.0)}, global_limit=2)
    async with FakeDiscord(rate_limits=limits) as emu, aiohttp.ClientSession() as session:
        http = Http(emu, session)
        alice = emu.create_user("alice")
        _, token = await http.exchange(emu.world.issue_oauth_code(alice.id, ["identify"]))
        for _ in range(3):
            assert (await http.me(token["access_token"]))[0] == 200
            assert (await http.exchange("spent"))[0] == 400
        assert (await http("GET", "/users/@me"))[0] == 200
        assert (await http("GET", "/users/@me"))[0] == 429  # the bot's own bucket is full
        assert emu.problems == []


def test_the_client_refuses_to_authorize_what_discord_does_not_know() -> None:
    world = World()
    alice = world.create_user("alice")
    with pytest.raises(ValueError, match="unknown"):
        world.issue_oauth_code(alice.id, ["identify", "identity"])
    with pytest.raises(ValueError, match="no scope"):
        world.issue_oauth_code(alice.id, [])
    with pytest.raises(ValueError, match="no user"):
        world.issue_oauth_code(12345, ["identify"])
    assert World().client_secret != world.client_secret  # each application its own


# -- Activity instances --------------------------------------------------------------------


def test_one_channel_shares_one_instance_and_the_last_to_leave_ends_it() -> None:
    world = World()
    guild = world.create_guild("Server")
    games, other = world.create_channel(guild, "games"), world.create_channel(guild, "other")
    alice, bob, cat = (world.create_user(name) for name in ("alice", "bob", "cat"))
    with pytest.raises(ValueError, match="enable_activities"):
        world.launch_activity(alice.id, games.id)
    world.enable_activities()
    wakes: list[None] = []
    world.listeners.append(lambda: wakes.append(None))

    shared = world.launch_activity(alice.id, games.id)
    assert wakes, "watchers wake at a launch"
    assert world.launch_activity(bob.id, games.id) is shared
    assert world.launch_activity(alice.id, games.id) is shared  # again: no second seat
    assert shared.users == [alice.id, bob.id]
    assert re.fullmatch(rf"i-\d+-gc-{guild.id}-{games.id}", shared.instance_id)
    assert shared.location_id == f"gc-{guild.id}-{games.id}" and shared.launch_id.isdigit()
    elsewhere = world.launch_activity(cat.id, other.id)
    assert elsewhere.instance_id != shared.instance_id and elsewhere.users == [cat.id]
    assert world.activity_launches == [(alice.id, shared.instance_id),
                                       (bob.id, shared.instance_id),
                                       (alice.id, shared.instance_id),
                                       (cat.id, elsewhere.instance_id)]

    # One Activity at a time: alice launching elsewhere leaves the first.
    assert world.launch_activity(alice.id, other.id) is elsewhere
    assert shared.users == [bob.id] and elsewhere.users == [cat.id, alice.id]
    world.leave_activity(shared.instance_id, bob.id)
    assert world.activity_instance(shared.instance_id) is None
    world.leave_activity(shared.instance_id, bob.id)  # gone already: nothing happens
    world.leave_activity(elsewhere.instance_id, cat.id)
    assert world.activity_instance(elsewhere.instance_id) is elsewhere
    assert elsewhere.users == [alice.id]
    # A new launch in the emptied channel starts a new instance.
    assert world.launch_activity(bob.id, games.id).instance_id != shared.instance_id


def test_an_instance_in_a_dm_is_a_private_channel_one_and_ends_with_its_channel() -> None:
    world = World()
    world.enable_activities()
    alice = world.create_user("alice")
    dm = world.dm_channel(alice)
    instance = world.launch_activity(alice.id, dm.id)
    assert instance.location_kind == "pc" and instance.instance_id.endswith(f"-pc-{dm.id}")
    guild = world.create_guild("Server")
    games = world.create_channel(guild, "games")
    doomed = world.launch_activity(world.owner.id, games.id)
    world.delete_channel(games)
    assert world.activity_instance(doomed.instance_id) is None


async def test_the_bot_reads_an_instance(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    guild, channel, alice = room
    world = fake_discord.world
    world.enable_activities()
    instance = world.launch_activity(alice.id, channel.id)
    path = f"/applications/{world.application_id}/activity-instances/{instance.instance_id}"
    status, body = await http("GET", path)
    assert status == 200
    assert body == {
        "application_id": str(world.application_id), "instance_id": instance.instance_id,
        "launch_id": instance.launch_id, "users": [str(alice.id)],
        "location": {"id": f"gc-{guild.id}-{channel.id}", "kind": "gc",
                     "channel_id": str(channel.id), "guild_id": str(guild.id)}}
    assert validate_response("GET", INSTANCE, body) is None
    dm_instance = world.launch_activity(alice.id, alice.dm_channel.id)
    _, in_dm = await http("GET", path.replace(instance.instance_id, dm_instance.instance_id))
    assert "guild_id" not in in_dm["location"] and in_dm["location"]["kind"] == "pc"
    assert validate_response("GET", INSTANCE, in_dm) is None

    # alice left the first for the DM one: nobody is in it, so it is gone.
    assert await http("GET", path) == (404, {"message": "404: Not Found", "code": 0})
    assert (await http("GET", path.replace(str(world.application_id), "1")))[1]["code"] == 10002
    assert await http("GET", path, authorization=None) == (401, UNAUTHORIZED)
    assert fake_discord.problems == []



# -- the App Launcher, and voice channels ------------------------------------------------


def test_the_app_launcher_opens_where_the_entry_point_is_offered(
        fake_discord: FakeDiscord) -> None:
    emu, world = fake_discord, fake_discord.world
    guild = emu.create_guild("Server")
    voice = emu.create_voice_channel(guild, "Game Night")
    alice = emu.create_user("alice", guild=guild)
    outsider = emu.create_user("carol")
    dm = alice.dm_channel.id
    assert world.launcher_refusal(alice.id, voice.id) == "This app has no Activity to launch."
    entry = world.enable_activities()
    # Discord's default Entry Point names no contexts: offered everywhere.
    assert world.launcher_refusal(alice.id, voice.id) is None
    assert world.launcher_refusal(alice.id, dm) is None
    assert world.launcher_refusal(outsider.id, voice.id) == "No such channel."
    assert world.launcher_refusal(alice.id, 12345) == "No such channel."
    world.upsert_command(None, {**entry, "contexts": [0]})
    assert world.launcher_refusal(alice.id, dm) == (
        "This Activity can be launched in a server's channels only.")
    assert world.launcher_refusal(alice.id, voice.id) is None
    # No interaction: the person joins the channel's instance, as the launcher does.
    assert world.launch_activity(alice.id, voice.id).users == [alice.id]


async def test_a_voice_channel_reaches_discord_py_as_one_with_its_text_chat(
        fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    emu = fake_discord
    guild = emu.create_guild("Server")
    voice = emu.create_voice_channel(guild, "Game Night")
    alice = emu.create_user("alice", guild=guild)
    bot = discord.Client(intents=discord.Intents.default())
    await start_bot(bot)
    seen = bot.get_channel(voice.id)
    assert isinstance(seen, discord.VoiceChannel) and seen.name == "Game Night"
    fetched = await bot.fetch_channel(voice.id)
    assert isinstance(fetched, discord.VoiceChannel) and fetched.bitrate == 64000
    shown = payloads.channel(emu.world, voice.id)
    assert validate_response("GET", "/channels/{channel_id}", shown) is None
    # Its chat takes messages from the bot and from members alike.
    await seen.send("A table is open here.")
    await alice.say(voice, "count me in")
    said = [m.content for m in emu.world.channel_messages(voice.id, viewer=alice.id)]
    assert said == ["A table is open here.", "count me in"]
    assert emu.problems == []

# -- LAUNCH_ACTIVITY (callback type 12) ---------------------------------------------------


async def test_a_launch_answers_with_the_instance_once_activities_are_enabled(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    _, channel, alice = room
    world = fake_discord.world
    early = interaction(fake_discord, channel, alice)
    status, body = await http("POST", callback_url(early), json={"type": 12}, authorization=None)
    assert (status, body["code"]) == (400, 50035) and "type" in body["errors"]
    assert "answered 400" in fake_discord.take_problems()[0]
    assert world.activity_instances == {} and not early.answered

    world.enable_activities()
    command = interaction(fake_discord, channel, alice)
    status, body = await http("POST", callback_url(command), json={"type": 12},
                              authorization=None)
    assert status == 200
    [instance] = world.activity_instances.values()
    assert instance.users == [alice.id] and command.activity_instance_id == instance.instance_id
    assert body == {
        "interaction": {"id": str(command.id), "type": 2,
                        "activity_instance_id": instance.instance_id},
        "resource": {"type": 12, "activity_instance": {"id": instance.instance_id}}}
    assert validate_response("POST", CALLBACK, body) is None

    bob = fake_discord.create_user("bob", guild=fake_discord.world.guilds[channel.guild_id or 0])
    click = interaction(fake_discord, channel, bob, InteractionType.MESSAGE_COMPONENT)
    assert await http("POST", callback_url(click, with_response=False), json={"type": 12},
                      authorization=None) == (204, None)
    assert instance.users == [alice.id, bob.id]

    modal = interaction(fake_discord, channel, alice, InteractionType.MODAL_SUBMIT)
    status, body = await http("POST", callback_url(modal), json={"type": 12}, authorization=None)
    assert (status, body["code"]) == (400, 50035)
    assert "answered 400" in fake_discord.take_problems()[0]


class PlayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"activity:play"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Play", custom_id="activity:play"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PlayButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, ActivityBot)
        bot.launched.append(await interaction.response.launch_activity())


class ActivityBot(discord.Client):
    """A bot whose /play and Play button launch the Activity."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.launched: list[discord.InteractionCallbackResponse[Any]] = []

        @self.tree.command(description="Play in the Activity")
        async def play(interaction: discord.Interaction) -> None:
            self.launched.append(await interaction.response.launch_activity())

        @self.tree.command(description="A message with a Play button")
        async def lobby(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(PlayButton())
            await interaction.response.send_message("Lobby", view=view)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PlayButton)
        # tree.sync() sends the tree's commands alone, which Discord refuses (50240)
        # once the app has an Entry Point command: send it along, as it is.
        assert self.application_id is not None
        current = await self.http.get_global_commands(self.application_id)
        kept: list[Any] = [c for c in current if c["type"] == 4]
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        await self.http.bulk_upsert_global_commands(self.application_id, payload=payload + kept)


async def test_discord_py_launches_the_activity_from_a_command_and_a_click(
        fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    emu = fake_discord
    guild = emu.create_guild("Server")
    channel = emu.create_text_channel(guild, "games")
    alice, bob = emu.create_user("alice", guild=guild), emu.create_user("bob", guild=guild)
    entry_point = emu.world.enable_activities()
    bot = ActivityBot()
    await start_bot(bot)
    assert {(c["name"], c["type"]) for c in emu.commands()} == {
        ("launch", 4), ("play", 1), ("lobby", 1)}
    kept = emu.world.entry_point()
    assert kept is not None and (kept["id"], kept["handler"]) == (entry_point["id"], 2)

    reply = await alice.slash(channel, "play")
    assert reply.type == 12 and reply.message is None
    instance = reply.activity_instance
    assert instance is not None and instance.users == [alice.id]
    # The callback is applied before discord.py hands its answer back to the bot.
    [launched] = await emu.wait_for(lambda: bot.launched)
    assert isinstance(launched.resource, discord.InteractionCallbackActivityInstance)
    assert launched.resource.id == instance.instance_id == launched.activity_id
    assert launched.type is discord.InteractionResponseType.launch_activity

    lobby = await alice.slash(channel, "lobby")
    clicked = await bob.click(lobby, label="Play")
    assert clicked.type == 12 and clicked.activity_instance is instance
    assert instance.users == [alice.id, bob.id]
    await emu.wait_for(lambda: len(bot.launched) == 2)
    assert bot.launched[1].resource is not None
    assert bot.launched[1].resource.id == instance.instance_id

    # discord.py's own sync leaves the Entry Point out: Discord refuses it.
    with pytest.raises(discord.HTTPException) as refused:
        await bot.tree.sync()
    assert (refused.value.status, refused.value.code) == (400, 50240)
    assert "answered 400" in emu.take_problems()[0]


# -- the Entry Point command --------------------------------------------------------------


async def test_a_bulk_overwrite_keeps_the_entry_point_or_is_refused(
        http: Http, fake_discord: FakeDiscord, room: tuple[Guild, Channel, Actor]) -> None:
    guild, _, _ = room
    world = fake_discord.world
    base = f"/applications/{world.application_id}/commands"
    chat = {"name": "rummy", "description": "Play rummy"}
    entry_point = world.enable_activities()
    assert (entry_point["name"], entry_point["type"], entry_point["handler"]) == ("launch", 4, 2)
    assert world.enable_activities() is entry_point  # enabled once, one command
    assert (await http("GET", base))[1] == [entry_point]

    assert await http("PUT", base, json=[chat]) == (400, {"message": REMOVED_ENTRY_POINT,
                                                          "code": 50240})
    assert "answered 400" in fake_discord.take_problems()[0]
    assert world.entry_point() is entry_point

    listed = [chat, {"name": "launch", "description": "", "type": 4}]
    assert validate_body("PUT", COMMANDS, [chat, {**listed[1], "handler": 2}]) is None
    status, answer = await http("PUT", base, json=listed)
    assert status == 200 and {c["name"] for c in answer} == {"rummy", "launch"}
    kept = world.entry_point()
    assert kept is not None and kept["id"] == entry_point["id"] and kept["handler"] == 2
    status, answer = await http("PUT", base, json=[chat, {**listed[1], "handler": 1}])
    assert status == 200 and [c.get("handler") for c in answer] == [None, 1]
    assert answer[1]["id"] == entry_point["id"]

    # Only global, only one, and a handler only on it.
    in_guild = f"/applications/{world.application_id}/guilds/{guild.id}/commands"
    assert (await http("PUT", in_guild, json=[chat]))[0] == 200
    refusals = [
        await http("PUT", in_guild, json=[{"name": "launch", "type": 4}]),
        await http("PUT", base, json=[chat, {"name": "launch", "type": 4},
                                      {"name": "start", "type": 4}]),
        await http("POST", base, json={"name": "start", "type": 4}),
        await http("PUT", base, json=[{**chat, "handler": 2}, listed[1]]),
    ]
    assert [(status, body["code"]) for status, body in refusals] == [(400, 50035)] * 4
    assert [error_paths(body["errors"]) for _, body in refusals] == [
        ["0.type"], ["2.type"], ["0.type"], ["0.handler"]]
    assert len(fake_discord.take_problems()) == 4

    # Deleted on its own, it may be left out.
    assert (await http("DELETE", f"{base}/{entry_point['id']}"))[0] == 204
    assert (await http("PUT", base, json=[chat]))[0] == 200
    assert world.entry_point() is None
    assert fake_discord.problems == []


async def test_an_application_without_activities_has_no_entry_point(
        http: Http, fake_discord: FakeDiscord) -> None:
    base = f"/applications/{fake_discord.world.application_id}/commands"
    status, body = await http("PUT", base, json=[{"name": "launch", "type": 4, "handler": 2}])
    assert (status, body["code"]) == (400, 50035) and "type" in body["errors"]["0"]
    assert len(fake_discord.take_problems()) == 1
