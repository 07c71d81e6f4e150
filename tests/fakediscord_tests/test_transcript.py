"""The transcript page: what it draws for each kind of message, and that no text
a bot or a person sends can turn into markup. No browser needed."""

from __future__ import annotations

import base64
import io
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import aiohttp
import pytest
from PIL import Image

from fakediscord import Actor, Channel, FakeDiscord, Message
from fakediscord.core.world import InteractionType
from fakediscord.transcript import photograph as photo
from fakediscord.transcript.messages import message_html, render, stylesheet

NOW = 1_900_000_000  # a fixed "now" for relative timestamps: 2030-03-17 17:46:40 UTC
V2 = 1 << 15
# A 1x1 PNG: the bytes only have to come back out of the page unchanged.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


# -- reading the page -----------------------------------------------------------------------


@dataclass
class Node:
    """An element of the page, with its text already unescaped by the parser."""

    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        """Every descendant with the tag and/or class, in document order."""
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if (tag is None or child.tag == tag) and (cls is None or cls in child.classes):
                    found.append(child)
                found += child.all(tag, cls)
        return found

    def one(self, tag: str | None = None, cls: str | None = None) -> Node:
        found = self.all(tag, cls)
        assert len(found) == 1, f"{len(found)} <{tag or '*'} class={cls}> elements"
        return found[0]


class _Builder(HTMLParser):
    """A strict tree builder: an end tag that does not close the open element fails,
    so a page whose markup a message broke does not parse."""

    VOID: ClassVar[set[str]] = {"img", "br", "meta", "path", "input", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    builder = _Builder()
    builder.feed(page)
    builder.close()
    assert builder.stack == [builder.root], "unclosed elements"
    return builder.root


def message_node(page: Node, message: Message) -> Node:
    found = [n for n in page.all(cls="msg") if n.attrs.get("data-message-id") == str(message.id)]
    assert len(found) == 1, f"message {message.id} drawn {len(found)} times"
    return found[0]


# -- the scene ------------------------------------------------------------------------------


@dataclass
class Room:
    emu: FakeDiscord
    channel: Channel
    alice: Actor
    bob: Actor

    def bot_says(self, body: dict[str, Any], **kwargs: Any) -> Message:
        """A message by the bot stored as the REST routes store one."""
        return self.emu.world.add_message(self.channel, self.emu.bot_user.id, body, **kwargs)

    def page(self, messages: list[Message], **kwargs: Any) -> Node:
        return parse(render(self.emu, messages, **kwargs))


@pytest.fixture
def room(fake_discord: FakeDiscord) -> Room:
    guild = fake_discord.create_guild("Test Server")
    channel = fake_discord.create_text_channel(guild, "games")
    alice = fake_discord.create_user("alice", guild=guild)
    bob = fake_discord.create_user("bob", guild=guild)
    return Room(fake_discord, channel, alice, bob)


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client:
        yield client


@dataclass
class StandInEmoji:
    """Shaped like the emulator's stored application emoji."""

    id: int
    name: str
    image: bytes
    content_type: str = "image/png"


def add_emoji(emu: FakeDiscord, name: str) -> StandInEmoji:
    """An application emoji in the emulator's store (made here if the world has none)."""
    store = getattr(emu.world, "application_emojis", None)
    if store is None:
        store = {}
        emu.world.application_emojis = store  # type: ignore[attr-defined]
    emoji = StandInEmoji(emu.world.ids.next(), name, PIXEL)
    store[emoji.id] = emoji
    return emoji


# -- content ----------------------------------------------------------------------------------


async def test_markdown_becomes_the_right_tags(room: Room) -> None:
    text = ("**bold** *it* __under__ ~~gone~~ `x < y` ||secret|| [docs](https://example.com/a)\n"
            "> quoted\n# Title\n## Part\n### Small\n-# footnote\n- one\n- two\n"
            "```py\nif a < b:\n    pass\n```\nafter")
    message = room.emu.post_user_message(room.bob.user, room.channel, text)
    md = message_node(room.page([message]), message).one(cls="md")
    assert md.one("strong").text() == "bold" and md.one("em").text() == "it"
    assert md.one("u").text() == "under" and md.one("s").text() == "gone"
    assert md.one("code", "inline").text() == "x < y"
    assert md.one(cls="spoiler").text() == "secret"
    assert md.one("a").attrs["href"] == "https://example.com/a" and md.one("a").text() == "docs"
    assert md.one("blockquote").text() == "quoted"
    assert (md.one("h1").text(), md.one("h2").text(), md.one("h3").text()) == (
        "Title", "Part", "Small")
    assert md.one(cls="subtext").text() == "footnote"
    assert [li.text() for li in md.one("ul").all("li")] == ["one", "two"]
    assert md.one("pre", "codeblock").text() == "if a < b:\n    pass"
    assert md.all(cls="line")[-1].text() == "after"


async def test_literal_asterisks_and_snake_case_stay_text(room: Room) -> None:
    message = room.emu.post_user_message(room.bob.user, room.channel,
                                         "5 * 3 * 2 = 30, my_var_name, \\*not italic\\*")
    md = message_node(room.page([message]), message).one(cls="md")
    assert md.all("em") == [] and md.text() == "5 * 3 * 2 = 30, my_var_name, *not italic*"


async def test_mentions_channels_and_timestamps_are_resolved(room: Room) -> None:
    guild = room.emu.world.guilds[room.channel.guild_id or 0]
    guild.members[room.bob.id].nick = "Bobby"
    text = (f"{room.alice.mention} and <@!{room.bob.id}> in <#{room.channel.id}>, "
            f"ends <t:{NOW + 300}:R>, began <t:{NOW - 7200}:R>, on <t:{NOW}:f> or <t:{NOW}:d>; "
            f"who is <@123>?")
    message = room.emu.post_user_message(room.alice.user, room.channel, text)
    md = message_node(room.page([message], now=NOW), message).one(cls="md")
    assert [m.text() for m in md.all(cls="mention")] == [
        "@alice", "@Bobby", "#games", "@unknown-user"]
    assert [t.text() for t in md.all(cls="timestamp")] == [
        "in 5 minutes", "2 hours ago", "17 March 2030 17:46", "17/03/2030"]


async def test_timestamps_carry_their_moment_and_style_for_a_live_page(room: Room) -> None:
    message = room.emu.post_user_message(
        room.alice.user, room.channel, f"in <t:{NOW + 120}:R>, at <t:{NOW}>, <t:9999999999999:d>")
    md = message_node(room.page([message], now=NOW), message).one(cls="md")
    stamps = md.all("time", "ts")
    assert [(t.attrs["data-unix"], t.attrs["data-style"], t.text()) for t in stamps] == [
        (str(NOW + 120), "R", "in 2 minutes"), (str(NOW), "f", "17 March 2030 17:46"),
        ("9999999999999", "d", "Invalid Date")]
    assert stamps[1].attrs["datetime"] == "2030-03-17T17:46:40Z"
    assert "datetime" not in stamps[2].attrs


async def test_links_to_known_channels_and_messages_are_chips(room: Room) -> None:
    guild_id = room.channel.guild_id
    base = "https://discord.com/channels"
    message = room.emu.post_user_message(
        room.alice.user, room.channel,
        f"{base}/{guild_id}/{room.channel.id}/123 {base}/{guild_id}/{room.channel.id} "
        f"{base}/{guild_id}/999/1")
    md = message_node(room.page([message]), message).one(cls="md")
    chips = md.all(cls="mention")
    assert [(c.text(), "message-link" in c.classes) for c in chips] == [
        ("#games›", True), ("#games", False)]
    assert md.one("a").attrs["href"] == f"{base}/{guild_id}/999/1"  # unknown: a plain link


async def test_an_empty_conversation_is_still_a_page(room: Room) -> None:
    gone = room.bot_says({"content": "soon deleted"})
    room.emu.delete_message(gone)
    page = room.page([gone], title="Nothing yet")
    assert page.one("title").text() == "Nothing yet" and page.all(cls="msg") == []


async def test_a_message_pinging_the_viewer_is_highlighted_for_them_only(room: Room) -> None:
    ping = room.emu.post_user_message(room.bob.user, room.channel, f"{room.alice.mention} hi")
    plain = room.emu.post_user_message(room.bob.user, room.channel, "no ping")
    for_alice = room.page([ping, plain], viewer=room.alice)
    assert "mentioned" in message_node(for_alice, ping).classes
    assert "mentioned" not in message_node(for_alice, plain).classes
    assert "mentioned" not in message_node(room.page([ping], viewer=room.bob), ping).classes


async def test_authors_times_and_grouping(room: Room) -> None:
    first = room.emu.post_user_message(room.alice.user, room.channel, "one")
    second = room.emu.post_user_message(room.alice.user, room.channel, "two")
    by_bot = room.bot_says({"content": "three"})
    page = room.page([first, second, by_bot], width=400)
    head = message_node(page, first).one(cls="head")
    assert head.one(cls="name").text() == "alice" and head.one(cls="time").text().startswith(
        "Today at ")
    assert head.all(cls="tag") == []
    assert "grouped" in message_node(page, second).classes
    assert message_node(page, second).all(cls="head") == []
    bot_head = message_node(page, by_bot).one(cls="head")
    assert bot_head.one(cls="name").text() == "TestBot" and "APP" in bot_head.one(
        cls="tag").text()
    assert message_node(page, by_bot).one(cls="avatar").text() == "T"
    assert "max-width:400px" in page.one("style").text()


# -- embeds and legacy components -------------------------------------------------------------


async def test_embed_with_colour_fields_and_footer(room: Room) -> None:
    message = room.bot_says({"embeds": [{
        "color": 0x5865F2, "author": {"name": "Rummy"}, "title": "A new game",
        "description": "Host: **alice**",
        "fields": [{"name": "Seats", "value": "1. alice", "inline": True},
                   {"name": "Target", "value": "100", "inline": True},
                   {"name": "Timer", "value": "2 min", "inline": True},
                   {"name": "Rules", "value": "Aces low", "inline": False}],
        "footer": {"text": "Hand 1"}}]})
    embed = message_node(room.page([message]), message).one(cls="embed")
    assert "border-left-color:#5865f2" in embed.attrs["style"]
    assert embed.one(cls="embed-author").text() == "Rummy"
    assert embed.one(cls="embed-title").text() == "A new game"
    assert embed.one(cls="embed-description").one("strong").text() == "alice"
    fields = embed.all(cls="embed-field")
    assert [(f.one(cls="embed-field-name").text(), f.attrs["style"]) for f in fields] == [
        ("Seats", "grid-column:1 / 5"), ("Target", "grid-column:5 / 9"),
        ("Timer", "grid-column:9 / 13"), ("Rules", "grid-column:1 / 13")]
    assert embed.one(cls="embed-footer").text() == "Hand 1"


async def test_buttons_show_their_style_and_disabled_state(room: Room) -> None:
    row = [{"type": 2, "style": s, "label": label, "custom_id": label}
           for s, label in ((1, "Join"), (2, "Leave"), (3, "Start"), (4, "Cancel"))]
    row[3]["disabled"] = True
    row.append({"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"})
    message = room.bot_says({"content": "Lobby", "components": [{"type": 1, "components": row}]})
    buttons = message_node(room.page([message]), message).one(cls="row").all(cls="btn")
    assert [(b.text(), sorted(b.classes - {"btn"})) for b in buttons] == [
        ("Join", ["primary"]), ("Leave", ["secondary"]), ("Start", ["success"]),
        ("Cancel", ["danger", "disabled"]), ("Rules", ["link"])]
    assert buttons[4].all("svg") and not buttons[0].all("svg")  # the external-link arrow
    assert [b.attrs["data-custom-id"] for b in buttons[:4]] == ["Join", "Leave", "Start", "Cancel"]
    assert (buttons[4].attrs["data-url"], buttons[4].attrs["data-custom-id"]) == (
        "https://example.com", "")
    assert ["data-url" in b.attrs for b in buttons[:4]] == [False] * 4


async def test_selects_show_placeholder_or_chosen_options(room: Room) -> None:
    options = [{"label": "Q♣", "value": "QC", "default": True},
               {"label": "Q♦", "value": "QD", "default": True}, {"label": "6♠", "value": "6S"}]
    message = room.bot_says({"components": [
        {"type": 1, "components": [{"type": 3, "custom_id": "cards", "options": options,
                                    "max_values": 3}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "sort", "placeholder": "Sort by",
                                    "disabled": True, "options": [{"label": "r", "value": "r"}]}]},
    ]})
    chosen, empty = message_node(room.page([message]), message).all(cls="select")
    assert chosen.one(cls="select-value").text() == "Q♣, Q♦" and "disabled" not in chosen.classes
    assert empty.one(cls="select-placeholder").text() == "Sort by" and "disabled" in empty.classes


async def test_a_select_keeps_its_options_hidden_for_a_live_page(room: Room) -> None:
    queen = add_emoji(room.emu, "card_QS")
    options = [
        {"label": "Q♠", "value": "QS", "default": True, "description": "the queen",
         "emoji": {"id": str(queen.id), "name": queen.name}},
        {"label": "Deal", "value": "deal", "emoji": {"name": "🃏"}},
        {"label": "6♠", "value": "6S"}]
    message = room.bot_says({"components": [
        {"type": 1, "components": [{"type": 3, "custom_id": "cards", "options": options,
                                    "min_values": 0, "max_values": 3}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "sort",
                                    "options": [{"label": "r", "value": "r"}]}]},
        {"type": 1, "components": [{"type": 5, "custom_id": "who"}]}]})
    cards, sort, who = message_node(room.page([message]), message).all(cls="select")
    assert cards.one(cls="select-value").text() == "Q♠"  # closed, as photographed
    assert (cards.attrs["data-min-values"], cards.attrs["data-max-values"]) == ("0", "3")
    assert (sort.attrs["data-min-values"], sort.attrs["data-max-values"]) == ("1", "1")
    menu = cards.one(cls="select-options")
    assert "hidden" in menu.attrs and menu.all(cls="select-value") == []
    entries = menu.all(cls="select-option")
    assert [(e.attrs["data-value"], "default" in e.classes) for e in entries] == [
        ("QS", True), ("deal", False), ("6S", False)]
    assert [e.one(cls="select-option-label").text() for e in entries] == ["Q♠", "Deal", "6♠"]
    assert entries[0].one(cls="select-option-description").text() == "the queen"
    assert entries[0].one("img", "emoji").attrs["data-emoji-id"] == str(queen.id)
    assert entries[1].one(cls="uemoji").text() == "🃏"
    assert entries[2].all(cls="select-option-description") == []
    assert (cards.attrs["data-select-type"], who.attrs["data-select-type"]) == ("string", "users")
    assert who.one(cls="select-options").all(cls="select-option") == []


def test_the_stylesheet_is_the_one_render_embeds_and_hidden_always_wins() -> None:
    css = stylesheet(400)
    assert "max-width:400px" in css and "max-width:240px" in stylesheet(10)
    assert "[hidden]{display:none!important}" in css


# -- interactions and ephemerals --------------------------------------------------------------


async def callback(room: Room, session: aiohttp.ClientSession, user: Actor,
                   body: dict[str, Any]) -> Message:
    """Answer a fresh ``/rummy start`` by ``user`` through the REST route, as a bot does."""
    interaction = room.emu.world.new_interaction(
        InteractionType.APPLICATION_COMMAND, user.user, room.channel,
        {"id": "1", "name": "rummy", "type": 1,
         "options": [{"type": 1, "name": "start", "options": []}]}, "test")
    url = f"{room.emu.api_base}/interactions/{interaction.id}/{interaction.token}/callback"
    async with session.post(url, json=body) as response:
        assert response.status == 204
    message = room.emu.world.messages[interaction.original_message_id or 0]
    return message


async def test_ephemeral_marker_only_under_ephemeral_answers(
        room: Room, session: aiohttp.ClientSession) -> None:
    public = await callback(room, session, room.alice, {"type": 4, "data": {"content": "Lobby"}})
    private = await callback(room, session, room.alice,
                             {"type": 4, "data": {"content": "Your hand", "flags": 64}})
    page = room.page([public, private], viewer=room.alice)
    assert message_node(page, public).all(cls="eph") == []
    note = message_node(page, private).one(cls="eph")
    assert note.text() == "Only you can see this•Dismiss message"
    used = message_node(page, public).one(cls="ref")
    assert used.one(cls="ref-name").text() == "alice"
    assert used.one(cls="ref-command").text() == "/rummy start"
    assert [m.attrs["data-message-id"] for m in room.page(
        [public, private], viewer=room.bob).all(cls="msg")] == [str(public.id)]


async def test_deferred_answer_is_thinking_and_a_click_answer_shows_the_reply(
        room: Room, session: aiohttp.ClientSession) -> None:
    thinking = await callback(room, session, room.alice, {"type": 5})
    lobby = room.bot_says({"content": "The lobby, with a **Join** button"})
    click = room.emu.world.new_interaction(
        InteractionType.MESSAGE_COMPONENT, room.bob.user, room.channel,
        {"custom_id": "join", "component_type": 2}, "click", message=lobby)
    answer = room.bot_says({"content": "You joined."}, interaction_id=click.id)
    page = room.page([thinking, lobby, answer])
    assert message_node(page, thinking).one(cls="thinking").text() == "TestBot is thinking…"
    reply = message_node(page, answer).one(cls="ref")
    assert reply.one(cls="ref-name").text() == "@TestBot"
    assert reply.one(cls="ref-text").text() == "The lobby, with a Join button"
    assert reply.one(cls="ref-text").one("strong").text() == "Join"


def one_message(html: str) -> Node:
    """The single message a ``message_html`` fragment draws."""
    (node,) = [n for n in parse(html).children if isinstance(n, Node)]
    assert "msg" in node.classes
    return node


async def test_message_html_draws_one_message_as_render_does_for_its_viewer(
        room: Room, session: aiohttp.ClientSession) -> None:
    public = await callback(room, session, room.alice, {"type": 4, "data": {"content": "Lobby"}})
    private = room.bot_says({"content": f"Your hand, {room.alice.mention}"},
                            visible_to=room.alice.id)
    html = message_html(room.emu, private, viewer=room.alice, now=NOW)
    node = one_message(html)
    assert node.attrs["data-message-id"] == str(private.id)
    assert node.one(cls="eph").text() == "Only you can see this•Dismiss message"
    assert "grouped" not in node.classes and node.one(cls="name").text() == "TestBot"
    assert "mentioned" in node.classes
    # Exactly what render draws, never folded under the bot's answer just before it.
    assert html in render(room.emu, [private], viewer=room.alice, now=NOW)
    page = room.page([public, private], viewer=room.alice, now=NOW)
    assert "grouped" in message_node(page, private).classes
    assert message_html(room.emu, private, viewer=room.bob) == ""
    assert "eph" not in message_html(room.emu, public, viewer=room.bob)
    room.emu.delete_message(public)
    assert message_html(room.emu, public, viewer=None) == ""


async def test_a_deferred_answer_is_drawn_thinking_until_it_is_filled(
        room: Room, session: aiohttp.ClientSession) -> None:
    thinking = await callback(room, session, room.alice, {"type": 5, "data": {"flags": 64}})
    node = one_message(message_html(room.emu, thinking, viewer=room.alice))
    assert "loading" in node.classes and node.attrs["data-message-id"] == str(thinking.id)
    assert node.one(cls="thinking").text() == "TestBot is thinking…"
    assert node.one(cls="ref-command").text() == "/rummy start"
    assert node.one(cls="eph") and node.all(cls="md") == []
    token = room.emu.world.interactions[thinking.interaction_id or 0].token
    url = (f"{room.emu.api_base}/webhooks/{room.emu.world.application_id}/{token}"
           "/messages/@original")
    async with session.patch(url, json={"content": "Your hand"}) as response:
        assert response.status == 200
    filled = one_message(message_html(room.emu, thinking, viewer=room.alice))
    assert "loading" not in filled.classes and filled.all(cls="thinking") == []
    assert filled.one(cls="md").text().startswith("Your hand")


async def test_a_reply_preview_shows_the_first_line_without_its_block_marks(
        room: Room) -> None:
    hand = room.bot_says({"flags": V2, "components": [{"type": 10, "content":
                         "### Your hand · 10 cards\n-# Hand 1 · only you see this"}]})
    click = room.emu.world.new_interaction(
        InteractionType.MESSAGE_COMPONENT, room.alice.user, room.channel,
        {"custom_id": "draw", "component_type": 2}, "click", message=hand)
    answer = room.bot_says({"content": "You drew."}, interaction_id=click.id)
    reply = message_node(room.page([hand, answer]), answer).one(cls="ref")
    assert reply.one(cls="ref-text").text() == "Your hand · 10 cards"


async def test_dm_conversation_has_the_bot_in_its_header(room: Room) -> None:
    dm = room.emu.world.dm_channel(room.alice.user)
    room.emu.world.add_message(dm, room.emu.bot_user.id, {"content": "Your turn"})
    page = room.page(room.alice.dms(), viewer=room.alice)
    assert page.one(cls="topbar").text() == "@TestBotDirect Message"
    assert [m.one(cls="md").text() for m in page.all(cls="msg")] == ["Your turn"]


# -- Components V2 ----------------------------------------------------------------------------


async def test_components_v2_layout(room: Room) -> None:
    message = room.bot_says({"flags": V2, "components": [
        {"type": 17, "accent_color": 0xF0B232, "components": [
            {"type": 10, "content": "## Rummy — hand 1"},
            {"type": 9, "components": [{"type": 10, "content": "alice: **8 cards**"}],
             "accessory": {"type": 2, "style": 2, "label": "Rules", "custom_id": "rules"}},
            {"type": 14, "divider": True, "spacing": 1},
            {"type": 14, "divider": False, "spacing": 2},
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Show hand",
                                        "custom_id": "hand"}]}]},
        {"type": 1, "components": [{"type": 2, "style": 3, "label": "Outside",
                                    "custom_id": "out"}]},
        {"type": 17, "spoiler": True, "components": [{"type": 10, "content": "hidden"}]}]})
    assert message.flags & V2
    v2 = message_node(room.page([message]), message).one(cls="v2")
    container, spoiler = v2.all(cls="container")
    assert "border-left:4px solid #f0b232" in container.attrs["style"]
    assert container.all(cls="text-display")[0].one("h2").text() == "Rummy — hand 1"
    section = container.one(cls="section")
    assert section.one(cls="section-texts").one("strong").text() == "8 cards"
    assert section.one(cls="accessory").one(cls="btn").text() == "Rules"
    assert [sorted(s.classes) for s in container.all(cls="separator")] == [
        ["divider", "separator", "small"], ["large", "separator"]]
    assert container.all(cls="row")[0].one(cls="btn").text() == "Show hand"
    outside = [c for c in v2.children if isinstance(c, Node) and "row" in c.classes]
    assert [r.one(cls="btn").text() for r in outside] == ["Outside"]
    assert spoiler.one(cls="spoiler-label").text() == "SPOILER"
    assert "style" not in spoiler.attrs  # no accent colour, no bar


async def test_v2_thumbnail_gallery_and_file_show_uploads_and_emojis(room: Room) -> None:
    card = add_emoji(room.emu, "card_8H")
    message = room.bot_says({"flags": V2, "components": [
        {"type": 9, "components": [{"type": 10, "content": "Discard pile"}],
         "accessory": {"type": 11, "media": {
             "url": f"https://cdn.discordapp.com/emojis/{card.id}.png"}}},
        {"type": 12, "items": [{"media": {"url": "attachment://table.png"}},
                               {"media": {"url": "https://example.com/far.png"}}]},
        {"type": 13, "file": {"url": "attachment://log.txt"}}]},
        files=[("table.png", PIXEL, "image/png"), ("log.txt", b"x" * 2048, "text/plain")])
    node = message_node(room.page([message]), message)
    uri = "data:image/png;base64," + base64.b64encode(PIXEL).decode()
    assert node.one(cls="thumbnail").one("img").attrs["src"] == uri
    near, far = node.one(cls="gallery").all(cls="gallery-item")
    assert near.one("img").attrs["src"] == uri
    assert far.all("img") == [] and far.one(cls="missing-media")  # nothing from the network
    file_box = node.one(cls="file")
    assert file_box.one(cls="file-name").text() == "log.txt"
    assert file_box.one(cls="file-size").text() == "2.00 KB"
    assert node.all(cls="attachment-image") == []  # uploads a component shows are not repeated


# -- custom emoji -----------------------------------------------------------------------------


async def test_custom_emoji_are_images_from_the_application_emojis(room: Room) -> None:
    queen = add_emoji(room.emu, "card_QS")
    emoji = {"id": str(queen.id), "name": queen.name}
    message = room.bot_says({
        "content": f"Discard <:card_QS:{queen.id}> or <:ghost:42>",
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "custom_id": "q", "emoji": emoji},
            {"type": 2, "style": 2, "custom_id": "d", "label": "Deal", "emoji": {"name": "🃏"}}]},
            {"type": 1, "components": [{"type": 3, "custom_id": "pick", "options": [
                {"label": "Q♠", "value": "QS", "default": True, "emoji": emoji}]}]}]})
    node = message_node(room.page([message]), message)
    uri = "data:image/png;base64," + base64.b64encode(PIXEL).decode()
    content_emoji = node.one(cls="md").one("img", "emoji")
    assert content_emoji.attrs["src"] == uri and content_emoji.attrs["alt"] == ":card_QS:"
    assert node.one(cls="emoji-missing").text() == ":ghost:"
    button_emoji = node.all(cls="btn")[0].one("img")
    select_emoji = node.one(cls="select-value").one("img")
    assert button_emoji.attrs["src"] == uri == select_emoji.attrs["src"]
    assert "icon-only" in node.all(cls="btn")[0].classes
    assert node.all(cls="btn")[1].text() == "🃏Deal"


async def test_emoji_only_message_is_drawn_large(room: Room) -> None:
    queen = add_emoji(room.emu, "card_QS")
    big = room.emu.post_user_message(room.alice.user, room.channel, f"<:card_QS:{queen.id}>")
    small = room.emu.post_user_message(room.alice.user, room.channel, f"hi <:card_QS:{queen.id}>")
    page = room.page([big, small])
    assert "jumbo" in message_node(page, big).one(cls="md").classes
    assert "jumbo" not in message_node(page, small).one(cls="md").classes


# -- safety -----------------------------------------------------------------------------------


async def test_hostile_text_is_escaped_everywhere(room: Room) -> None:
    evil = "<script>alert(\"x\")</script>' onmouseover='alert(1)"
    room.alice.user.name = evil
    message = room.emu.post_user_message(
        room.alice.user, room.channel,
        f"{evil} **{evil}** [{evil}](javascript:alert(1)) `{evil}` <@{room.alice.id}>")
    answer = room.bot_says({
        "embeds": [{"title": evil, "description": evil, "author": {"name": evil},
                    "fields": [{"name": evil, "value": evil}], "footer": {"text": evil},
                    "color": "red;background:url(x)"}],
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": evil, "custom_id": evil, "emoji": {"name": evil}},
            {"type": 2, "style": 5, "label": "go", "url": "javascript:alert(1)"}]}]})
    v2 = room.bot_says({"flags": V2, "components": [
        {"type": 17, "accent_color": "1;x:expression(alert(1))",
         "components": [{"type": 10, "content": evil}]}]})
    page = render(room.emu, [message, answer, v2], title=evil)
    tree = parse(page)
    elements = tree.all()
    assert [e for e in elements if e.tag == "script"] == []
    assert [(e.tag, a) for e in elements for a in e.attrs if a.startswith("on")] == []
    assert [e for e in elements if e.attrs.get("href", "https:").split(":")[0] != "https"] == []
    # A script opens only web links: this one has no address to open at all.
    assert [e for e in elements if "javascript" in e.attrs.get("data-url", "")
            + e.attrs.get("data-custom-id", "")] == []
    assert "expression" not in page and "url(x)" not in page
    assert tree.one("title").text() == evil
    assert evil in message_node(tree, message).one(cls="md").text()
    assert message_node(tree, message).one(cls="name").text() == evil
    assert message_node(tree, answer).all(cls="btn")[0].text() == evil + evil


# -- photographs ------------------------------------------------------------------------------


def test_photograph_without_chromium_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.html"
    page.write_text("<!DOCTYPE html><p>hi</p>")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert photo.main([str(page), str(tmp_path / "out.png")]) == 2
    error = capsys.readouterr().err.strip()
    assert "chromium" in error and "\n" not in error
    assert not (tmp_path / "out.png").exists()


def test_trim_cuts_the_empty_bottom(tmp_path: Path) -> None:
    shot = Image.new("RGB", (100, 1000), photo.BACKGROUND)
    shot.paste((255, 255, 255), (10, 10, 90, 300))
    out = tmp_path / "shot.png"
    shot.save(out)
    assert photo.trim(out, 1.0) is False
    with Image.open(out) as trimmed:
        assert trimmed.size == (100, 300 + photo.MARGIN)
    full = Image.new("RGB", (100, 200), (255, 255, 255))
    buffer = io.BytesIO()
    full.save(buffer, "PNG")
    out.write_bytes(buffer.getvalue())
    assert photo.trim(out, 1.0) is True  # reached the bottom: a taller window is needed


async def test_relative_times_round_like_the_client(room: Room) -> None:
    now = time.time()
    texts = [f"<t:{int(now) + delta}:R>" for delta in (30, 89, 9000, -86400 * 3, 86400 * 400)]
    message = room.emu.post_user_message(room.alice.user, room.channel, " ".join(texts))
    md = message_node(room.page([message], now=int(now)), message).one(cls="md")
    assert [t.text() for t in md.all(cls="timestamp")] == [
        "in 30 seconds", "in 1 minute", "in 3 hours", "3 days ago", "in 1 year"]
