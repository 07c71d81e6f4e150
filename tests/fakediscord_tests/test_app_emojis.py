"""Application emojis through discord.py's own methods, their limits, and custom emoji
on components (checked against them, legacy message or layout)."""

from __future__ import annotations

import time
from typing import Any

import discord
import pytest

from fakediscord import FakeDiscord, point_discord_at, run_client
from fakediscord.core.components import walk
from fakediscord.core.emojis import MAX_APPLICATION_EMOJIS, MAX_IMAGE_BYTES, TINY_PNG
from fakediscord.core.rest.ratelimits import RateLimits

from .conftest import Scene
from .sample_bot import TableLayout

# A 1x1 GIF of two frames: a graphic control block, then an image, twice.
GIF_FRAME = b"\x21\xf9\x04\x00\x00\x00\x00\x00" + b"\x2c" + b"\x00" * 9 + b"\x02\x02\x44\x01\x00"
TWO_FRAME_GIF = b"GIF89a\x01\x00\x01\x00\x00\x00\x00" + GIF_FRAME * 2 + b";"
CREATE = "/applications/{application_id}/emojis"


def last_errors(emu: FakeDiscord) -> dict[str, Any]:
    errors: dict[str, Any] = emu.requests[-1].response["errors"]
    return errors


def png_of_size(size: int) -> bytes:
    return (TINY_PNG + b"\x00" * size)[:size]


async def test_create_list_get_rename_delete_through_discord_py(scene: Scene) -> None:
    bot, emu = scene.bot, scene.emu
    ace = await bot.create_application_emoji(name="ace_of_spades", image=TINY_PNG)
    assert ace.is_application_owned() and ace.name == "ace_of_spades" and not ace.animated
    assert ace.require_colons and not ace.managed and ace.available
    assert ace.user is not None and ace.user.id == emu.bot_user.id
    [stored] = emu.application_emojis()
    assert emu.world.application_emojis == {ace.id: stored}
    assert (stored.id, stored.name, stored.image, stored.content_type, stored.animated) == (
        ace.id, "ace_of_spades", TINY_PNG, "image/png", False)
    assert [r.status for r in emu.requests if r.route == CREATE] == [201]

    joker = await bot.create_application_emoji(name="joker", image=TWO_FRAME_GIF)
    assert joker.animated and emu.world.application_emojis[joker.id].content_type == "image/gif"
    assert [e.id for e in await bot.fetch_application_emojis()] == [ace.id, joker.id]
    assert (await bot.fetch_application_emoji(ace.id)).name == "ace_of_spades"

    renamed = await ace.edit(name="ace")
    assert renamed.name == "ace" and stored.name == "ace" and emu.application_emoji("ace")
    await renamed.delete()
    assert emu.application_emojis() == [emu.world.application_emojis[joker.id]]
    with pytest.raises(discord.NotFound) as gone:
        await bot.fetch_application_emoji(ace.id)
    assert gone.value.code == 10014 and gone.value.text == "Unknown Emoji"


async def test_a_name_is_unique_within_the_application(scene: Scene) -> None:
    await scene.bot.create_application_emoji(name="ace", image=TINY_PNG)
    with pytest.raises(discord.HTTPException) as taken:
        await scene.bot.create_application_emoji(name="ace", image=TINY_PNG)
    assert (taken.value.status, taken.value.code) == (400, 50035)
    [error] = last_errors(scene.emu)["name"]["_errors"]
    assert error["code"] == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"
    king = await scene.bot.create_application_emoji(name="king", image=TINY_PNG)
    with pytest.raises(discord.HTTPException):
        await king.edit(name="ace")
    assert await king.edit(name="king")  # its own name is not taken from it
    assert [e.name for e in scene.emu.application_emojis()] == ["ace", "king"]
    assert len(scene.emu.take_problems()) == 2


async def test_names_and_images_discord_refuses(scene: Scene) -> None:
    http, app = scene.bot.http, scene.emu.application_id
    cases = [("no-dash", TINY_PNG, "name", "STRING_TYPE_REGEX"),
             ("x" * 33, TINY_PNG, "name", "BASE_TYPE_BAD_LENGTH"),
             ("big", png_of_size(MAX_IMAGE_BYTES + 1), "image", "BINARY_TYPE_MAX_SIZE")]
    for name, image, field, code in cases:
        with pytest.raises(discord.HTTPException) as refused:
            await scene.bot.create_application_emoji(name=name, image=image)
        assert refused.value.code == 50035
        assert last_errors(scene.emu)[field]["_errors"][0]["code"] == code
    assert "File cannot be larger than 256.0 kb." in refused.value.text
    with pytest.raises(discord.HTTPException):
        await http.create_application_emoji(app, "fake", "data:image/png;base64,bm90IGFuIGltYWdl")
    assert last_errors(scene.emu)["image"]["_errors"][0]["code"] == "IMAGE_INVALID"
    problems = scene.emu.take_problems()
    assert len([p for p in problems if "answered 400" in p]) == 4
    assert len([p for p in problems if "spec violation" in p]) == 1  # 33 characters
    assert await scene.bot.create_application_emoji(name="big", image=png_of_size(MAX_IMAGE_BYTES))
    assert [e.name for e in scene.emu.application_emojis()] == ["big"]


async def test_an_application_owns_at_most_its_limit_of_emojis(scene: Scene) -> None:
    assert MAX_APPLICATION_EMOJIS == 2000
    assert scene.emu.world.max_application_emojis == MAX_APPLICATION_EMOJIS
    scene.emu.world.max_application_emojis = 3  # the rule, without 2,000 uploads
    made = [await scene.bot.create_application_emoji(name=f"card_{n}", image=TINY_PNG)
            for n in range(3)]
    with pytest.raises(discord.HTTPException) as full:
        await scene.bot.create_application_emoji(name="card_3", image=TINY_PNG)
    assert (full.value.status, full.value.code) == (400, 30008)
    assert full.value.text == "Maximum number of emojis reached (3)"
    assert "answered 400" in scene.emu.take_problems()[0]
    await made[0].delete()
    assert await scene.bot.create_application_emoji(name="card_3", image=TINY_PNG)


async def test_creation_fails_on_demand(scene: Scene) -> None:
    slow = scene.emu.fail_next("POST /applications/*/emojis", status=429, retry_after=0.05)
    assert await scene.bot.create_application_emoji(name="retried", image=TINY_PNG)
    assert slow.hits == 1
    scene.emu.fail_next("POST /applications/*/emojis", status=403, code=50013,
                        message="Missing Permissions")
    with pytest.raises(discord.Forbidden) as refused:
        await scene.bot.create_application_emoji(name="refused", image=TINY_PNG)
    assert refused.value.code == 50013
    assert [e.name for e in scene.emu.application_emojis()] == ["retried"]
    statuses = [r.status for r in scene.emu.requests if r.route == CREATE and r.method == "POST"]
    assert statuses == [429, 201, 403]


async def test_emoji_routes_count_in_the_rate_limits() -> None:
    limits = RateLimits(routes={("POST", CREATE): (2, 0.3)})
    async with FakeDiscord(rate_limits=limits) as emu:
        with point_discord_at(emu):
            client = discord.Client(intents=discord.Intents.none())
            runner = await run_client(emu, client)
            started = time.monotonic()
            for n in range(3):
                await client.create_application_emoji(name=f"paced_{n}", image=TINY_PNG)
            waited = time.monotonic() - started
            await client.fetch_application_emojis()
            assert await runner.stop() == []
    creates = [r.status for r in emu.requests if (r.method, r.route) == ("POST", CREATE)]
    assert creates == [201] * 3 and limits.refused == {"user": 0, "global": 0}
    assert waited >= 0.25  # discord.py read the bucket's headers and waited for the third


async def test_an_app_emoji_on_a_button_is_accepted_and_clickable(scene: Scene) -> None:
    ace = scene.emu.add_application_emoji("ace")  # uploaded in the portal
    uploader = (await scene.bot.fetch_application_emoji(ace.id)).user
    assert uploader is not None and uploader.id == scene.emu.world.owner.id
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(view=TableLayout(emoji=discord.PartialEmoji(name="ace", id=ace.id)))
    table = scene.emu.message(scene.channel, sent.id)
    assert table is not None
    draw = next(b for b in table.buttons() if b["label"] == "Draw")
    assert (draw["emoji"], draw["emoji_id"]) == ("ace", str(ace.id))
    [emoji] = [c["emoji"] for c in walk(table.components) if c.get("custom_id") == "table:draw"]
    assert emoji == {"id": str(ace.id), "name": "ace", "animated": False}
    drawn = await scene.alice.click(table, emoji=ace.mention)
    assert drawn.type == 7 and table.text_displays()[-1] == "Draws: 1"
    legacy = discord.ui.View()
    legacy.add_item(discord.ui.Button(label="Ace", custom_id="legacy:ace",
                                      emoji=discord.PartialEmoji(name="ace", id=ace.id)))
    old_style = await channel.send("legacy", view=legacy)
    assert scene.emu.message(scene.channel, old_style.id) is not None
    assert ace.mention == f"<:ace:{ace.id}>"


async def test_an_unknown_custom_emoji_is_refused_legacy_or_layout(scene: Scene) -> None:
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    ghost = discord.PartialEmoji(name="ghost", id=4242)
    legacy = discord.ui.View()
    legacy.add_item(discord.ui.Button(label="Boo", emoji=ghost, custom_id="legacy:ghost"))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("legacy", view=legacy)
    assert refused.value.code == 50035 and "Invalid emoji" in refused.value.text
    tree = last_errors(scene.emu)["components"]["0"]["components"]["0"]["emoji"]["id"]
    assert tree["_errors"][0]["code"] == "BUTTON_COMPONENT_INVALID_EMOJI"
    deleted = await scene.bot.create_application_emoji(name="gone", image=TINY_PNG)
    await deleted.delete()
    menu = discord.ui.Select[discord.ui.View](custom_id="legacy:menu", options=[
        discord.SelectOption(label="Gone", emoji=discord.PartialEmoji(name="gone", id=deleted.id))])
    with_select = discord.ui.View()
    with_select.add_item(menu)
    with pytest.raises(discord.HTTPException):
        await channel.send("legacy", view=with_select)
    assert "options" in last_errors(scene.emu)["components"]["0"]["components"]["0"]
    with pytest.raises(discord.HTTPException):
        await channel.send(view=TableLayout(emoji=ghost))
    assert scene.emu.messages(scene.channel) == []
    assert len(scene.emu.take_problems()) == 3
    unicode_ok = await channel.send(view=TableLayout(emoji="🂡"))
    assert unicode_ok.flags.components_v2
