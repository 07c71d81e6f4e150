"""Components V2 messages through the real client: stored and answered as Discord does,
clickable wherever a control sits, and refused when they break Discord's rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord.http import Route

from fakediscord import Message
from fakediscord.core.components import walk

from .conftest import Scene
from .sample_bot import CARDS, TableLayout
from .test_rest import interaction

V2 = 1 << 15
TABLE_TEXTS = ["# Table 1", "alice: 12 cards", "bob: 9 cards", "bob is thinking", "Draws: 0"]


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(label: str, custom_id: str, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def container(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(items)}


def select(custom_id: str, count: int) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id,
            "options": [{"label": f"option {n}", "value": str(n)} for n in range(count)]}


def layout(*components: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **fields}


def py_walk(components: list[Any]) -> Iterator[Any]:
    """discord.py's parsed components, depth first."""
    for c in components:
        yield c
        yield from py_walk(getattr(c, "children", []))
        accessory = getattr(c, "accessory", None)
        if accessory is not None:
            yield accessory


async def post(scene: Scene, body: dict[str, Any]) -> dict[str, Any]:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=scene.channel.id)
    data: dict[str, Any] = await scene.bot.http.request(route, json=body)
    return data


async def refused(scene: Scene, body: dict[str, Any], *, edit: Message | None = None,
                  spec: bool = False) -> dict[str, Any]:
    """Send ``body`` as the bot (a new message, or an edit of ``edit``); it must answer
    400 Invalid Form Body. Returns the error tree; claims the problems it recorded."""
    if edit is None:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=scene.channel.id)
    else:
        route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                      channel_id=scene.channel.id, message_id=edit.id)
    with pytest.raises(discord.HTTPException) as caught:
        await scene.bot.http.request(route, json=body)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    problems = scene.emu.take_problems()
    assert any("answered 400" in p for p in problems)
    assert any("spec violation" in p for p in problems) == spec, problems
    errors: dict[str, Any] = scene.emu.requests[-1].response["errors"]
    return errors


def codes(errors: dict[str, Any], path: str) -> list[str]:
    node = errors
    for part in path.split("."):
        node = node[part]
    return [e["code"] for e in node["_errors"]]


async def test_a_layout_is_stored_and_answered_as_discord_does(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "table")
    message = reply.message
    assert reply.type == 4 and message is not None and not message.ephemeral
    assert message.is_v2 and message.flags == V2 and message.content == ""
    assert message.text_displays() == TABLE_TEXTS
    assert message.text() == "\n".join(TABLE_TEXTS)
    assert message.accent_colors() == [0x2ECC71]
    assert message.media_urls() == ["https://example.com/alice.png"]
    assert [b["label"] for b in message.buttons()] == ["Kick bob", "Draw", "Knock"]
    assert [s["custom_id"] for s in message.selects()] == ["table:cards"]
    # Discord numbers every component, nested ones included, in reading order.
    numbers = [c["id"] for c in walk(message.components)]
    assert numbers == list(range(1, 17))  # 16 components in all
    [thumbnail] = [c for c in walk(message.components) if c["type"] == 11]
    assert thumbnail["media"]["proxy_url"] and thumbnail["spoiler"] is False
    [created] = scene.emu.dispatched("MESSAGE_CREATE")
    assert created["flags"] == V2 and created["components"] == message.components


async def test_discord_py_reads_a_layout_back(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "table")
    assert reply.message is not None
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(reply.message.id)
    assert fetched.flags.components_v2 and fetched.content == ""
    box, footer = fetched.components
    assert isinstance(box, discord.Container) and box.accent_colour == discord.Colour(0x2ECC71)
    assert isinstance(footer, discord.TextDisplay) and footer.content == "Draws: 0"
    parsed = list(py_walk(fetched.components))
    assert [c.content for c in parsed if isinstance(c, discord.TextDisplay)] == TABLE_TEXTS
    [thumbnail] = [c for c in parsed if isinstance(c, discord.ThumbnailComponent)]
    assert thumbnail.media.url == "https://example.com/alice.png"
    assert [c.custom_id for c in parsed if isinstance(c, discord.Button)] == [
        "table:kick", "table:draw", "table:knock"]
    [menu] = [c for c in parsed if isinstance(c, discord.SelectMenu)]
    assert [o.value for o in menu.options] == CARDS


async def test_a_click_inside_a_layout_reaches_the_bot(scene: Scene) -> None:
    table = (await scene.alice.slash(scene.channel, "table")).message
    assert table is not None
    drawn = await scene.bob.click(table, label="Draw")
    assert drawn.type == 7 and drawn.message is table
    assert table.is_v2 and table.text_displays()[-1] == "Draws: 1" and table.edits == 1
    assert scene.bot.log == [("draw", (True, ["Container", "TextDisplay"]))]
    [click] = scene.emu.dispatched("INTERACTION_CREATE")[-1:]
    assert click["data"] == {"custom_id": "table:draw", "component_type": 2}
    assert click["message"]["flags"] == V2
    [update] = scene.emu.dispatched("MESSAGE_UPDATE")
    assert update["components"][-1]["content"] == "Draws: 1"
    with pytest.raises(AssertionError, match="disabled"):
        await scene.bob.click(table, label="Knock")


async def test_a_section_accessory_answers_with_an_ephemeral_layout(scene: Scene) -> None:
    table = (await scene.alice.slash(scene.channel, "table")).message
    assert table is not None
    kicked = await scene.alice.click(table, custom_id="table:kick")
    assert kicked.type == 4 and kicked.ephemeral and kicked.message is not None
    assert kicked.message.is_v2 and kicked.message.flags == V2 | 64
    assert kicked.text_displays() == ["bob was kicked"]
    assert kicked.message not in scene.bob.visible_messages(scene.channel)


async def test_a_select_inside_a_layout_is_answered_by_layout_followups(scene: Scene) -> None:
    table = (await scene.alice.slash(scene.channel, "table")).message
    assert table is not None
    picked = await scene.bob.select(table, "cards", ["10H", "10S"])
    assert picked.type == 5 and picked.ephemeral
    assert picked.message is not None and picked.message.is_v2 and not picked.message.loading
    assert picked.text_displays() == ["You picked 10H 10S"]
    await scene.emu.wait_for(lambda: len(picked.followups) == 2)
    second = picked.followups[1]
    assert second.is_v2 and second.ephemeral and second.text_displays() == ["Only you see this"]
    click = scene.emu.dispatched("INTERACTION_CREATE")[-1]
    assert click["data"] == {"custom_id": "table:cards", "component_type": 3,
                             "values": ["10H", "10S"]}


async def test_a_thinking_answer_is_filled_in_by_a_layout(scene: Scene) -> None:
    reply = await scene.alice.slash(scene.channel, "table_later")
    assert reply.type == 5 and reply.message is not None
    assert reply.message.is_v2 and not reply.message.loading
    assert reply.text_displays() == TABLE_TEXTS and reply.accent_colors() == [0x2ECC71]


async def test_channel_layouts_are_created_and_edited_but_stay_layouts(scene: Scene) -> None:
    channel = scene.bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(view=TableLayout())
    assert sent.flags.components_v2
    stored = scene.emu.message(scene.channel, sent.id)
    assert stored is not None and stored.is_v2
    edited = await sent.edit(view=TableLayout(3))
    assert edited.flags.components_v2 and stored.text_displays()[-1] == "Draws: 3"
    # An edit without flags keeps the flag (and the text displays it replaces).
    await post_edit(scene, stored, {"components": [text("kept")]})
    assert stored.is_v2 and stored.text() == "kept"
    errors = await refused(scene, {"content": "plain again"}, edit=stored)
    assert codes(errors, "content") == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    errors = await refused(scene, {"flags": 0, "components": [row(button("B", "b"))]},
                           edit=stored)
    assert codes(errors, "flags") == ["MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"]
    assert stored.is_v2 and stored.text() == "kept" and stored.edits == 2


async def post_edit(scene: Scene, message: Message, body: dict[str, Any]) -> None:
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                  channel_id=scene.channel.id, message_id=message.id)
    await scene.bot.http.request(route, json=body)


# Each rule of a layout, broken once: (body, path of the error, Discord's code, spec violation)
BROKEN: dict[str, tuple[dict[str, Any], str, str, bool]] = {
    "content with the flag": (
        layout(text("hi"), content="hello"), "content",
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", False),
    "embeds with the flag": (
        layout(text("hi"), embeds=[{"title": "old"}]), "embeds",
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", False),
    "41 components": (
        layout(container(*(text(f"line {n}") for n in range(40)))), "components",
        "MAX_COMPONENTS_EXCEEDED", False),
    "4,001 characters": (
        layout(text("x" * 2000), container(text("y" * 2001))), "components",
        "MAX_TEXT_LENGTH_EXCEEDED", False),
    "a button label of 81 characters": (
        layout(container(row(button("L" * 81, "long")))),
        "components.0.components.0.components.0.label", "BASE_TYPE_MAX_LENGTH", True),
    "26 select options": (
        layout(row(select("many", 26))), "components.0.components.0.options",
        "BASE_TYPE_BAD_LENGTH", True),
    "an unknown custom emoji": (
        layout(container(row(button("Ace", "ace", emoji={"id": "4242", "name": "ace"})))),
        "components.0.components.0.components.0.emoji.id", "BUTTON_COMPONENT_INVALID_EMOJI",
        False),
    "a container in a container": (
        layout(container(container(text("deep")))), "components.0.components.0.type",
        "UNION_TYPE_CHOICES", True),
    "a section of four texts": (
        layout({"type": 9, "components": [text(str(n)) for n in range(4)],
                "accessory": button("B", "b")}),
        "components.0.components", "BASE_TYPE_BAD_LENGTH", True),
    "a select beside a button": (
        layout(row(select("one", 2), button("B", "b"))), "components.0.components",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED", False),
    "a custom_id used twice": (
        layout(row(button("A", "same")), container(row(button("B", "same")))),
        "components.1.components.0.components.0.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
        False),
    "a button label of 81 characters in a section": (
        layout({"type": 9, "components": [text("t")], "accessory": button("L" * 81, "x")}),
        "components.0.accessory.label", "BASE_TYPE_MAX_LENGTH", True),
}


@pytest.mark.parametrize("case", list(BROKEN))
async def test_each_rule_of_a_layout_is_enforced(scene: Scene, case: str) -> None:
    body, path, code, spec = BROKEN[case]
    errors = await refused(scene, body, spec=spec)
    assert code in codes(errors, path)
    assert scene.emu.messages(scene.channel) == []


async def test_the_limits_themselves_are_accepted(scene: Scene) -> None:
    """40 components and 4,000 characters are allowed: the rules are not off by one."""
    forty = await post(scene, layout(container(*(text(f"line {n}") for n in range(39)))))
    full = await post(scene, layout(text("x" * 2000), container(text("y" * 2000))))
    label = await post(scene, layout(row(button("L" * 80, "long"), button("B", "b")),
                                     row(select("menu", 25))))
    assert [m["flags"] for m in (forty, full, label)] == [V2] * 3
    assert len(scene.emu.messages(scene.channel)) == 3


async def test_legacy_messages_keep_their_own_rules(scene: Scene) -> None:
    """Without the flag: content and five rows, no layout limits, no numbering."""
    rows = [row(*(button(f"{r}{b}", f"b{r}{b}") for b in range(5))) for r in range(5)]
    data = await post(scene, {"content": "legacy", "components": rows})
    assert data["flags"] == 0 and data["components"] == rows
    with pytest.raises(discord.HTTPException):
        await post(scene, {"content": "legacy", "components": [*rows, row(button("6", "six"))]})
    assert "Must be 5 or fewer in length." in scene.emu.take_problems()[0]


async def test_a_thinking_answer_carries_only_the_ephemeral_flag(scene: Scene) -> None:
    pending = interaction(scene.emu, scene.channel, scene.alice)
    route = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                  interaction_id=pending.id, interaction_token=pending.token)
    with pytest.raises(discord.HTTPException) as caught:
        await scene.bot.http.request(route, json={"type": 5, "data": {"flags": 64 | V2}})
    assert caught.value.code == 50035 and not pending.answered
    assert "answered 400" in scene.emu.take_problems()[0]
    await scene.bot.http.request(route, json={"type": 5, "data": {"flags": 64}})
    assert pending.answered
