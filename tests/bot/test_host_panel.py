"""The lobby shows everyone only what everyone may press; the host's controls
are in a message only the host sees, which follows the lobby."""

from __future__ import annotations

import asyncio

from bot import RummyBot
from chat.table_side import chat_side
from fakediscord import Actor
from fakediscord.core.world import Message

from .conftest import LaunchBot, Server, StopBot
from .harness import TablePlayer
from .test_match import play_match
from .test_play import button_id, host_panel, start_game

PUBLIC = ["Join", "Leave", "Rules"]
HOST = [
    "Start", "Cancel", "Add computer (easy)", "Add computer (hard)", "Add computer (expert)",
    "Remove computer",
]
HOST_ACTIONS = (":start:", ":cancel:", ":addcpu:", ":dropcpu:")


def labels(message: Message | None) -> list[str]:
    assert message is not None
    return [b["label"] for b in message.buttons()]


def host_controls_seen_by(actor: Actor, server: Server) -> list[str]:
    """Every host control among the messages ``actor`` can see in the channel."""
    return [
        b["custom_id"]
        for message in actor.visible_messages(server.channel)
        for b in message.buttons()
        if any(action in (b["custom_id"] or "") for action in HOST_ACTIONS)
    ]


def seats_line(message: Message) -> str:
    return next(t for t in message.text_displays() if t.startswith("**Seats**"))


async def test_everyone_sees_join_leave_and_rules_and_only_the_host_their_controls(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    assert opened.type == 4 and not opened.ephemeral
    assert labels(opened.message) == PUBLIC
    # The lobby names the host and says where their controls are.
    assert f"{server.ann.mention}: your controls" in opened.text()
    panel = await host_panel(opened)
    assert panel.visible_to == server.ann.id and labels(panel) == HOST
    assert "Only you see this" in panel.text() and "(1/6)" in seats_line(panel)
    await server.bob.click(opened.message, label="Join")
    await bot.game.tasks.wait_idle()
    for other in (server.bob, server.cat):
        assert host_controls_seen_by(other, server) == []
    assert len(host_controls_seen_by(server.ann, server)) == len(HOST)


async def test_the_hosts_controls_follow_joins_leaves_and_their_own_clicks(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    public = opened.message
    assert public is not None
    await server.bob.click(public, label="Join")
    await server.cat.click(public, label="Join")
    await bot.game.tasks.wait_idle()
    assert "(3/6)" in seats_line(panel) and "Bob" in panel.text() and "Cat" in panel.text()
    await server.bob.click(public, label="Leave")
    await bot.game.tasks.wait_idle()
    assert "(2/6)" in seats_line(panel) and "Bob" not in seats_line(panel)
    # The host's click answers in their message; the public lobby follows it,
    # and neither is overtaken by a Join answered meanwhile.
    added, joined = await asyncio.gather(
        server.ann.click(panel, label="Add computer (hard)"), server.dan.click(public, label="Join")
    )
    assert added.type == 7 and added.message is not None and added.message.id == panel.id
    assert joined.type == 7
    await bot.game.tasks.wait_idle()
    for shown in (panel, public):
        assert "(4/6)" in seats_line(shown) and "🤖" in shown.text() and "Dan" in shown.text()
    # Full: the host's Add computer and everyone's Join are greyed out.
    await server.ann.click(panel, label="Add computer (easy)")
    await server.eve.click(public, label="Join")
    await bot.game.tasks.wait_idle()
    assert public.button("Join").get("disabled") and panel.button("Add computer (easy)").get(
        "disabled"
    )


async def test_rules_gives_the_host_their_controls_back_and_the_others_the_rules(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    await host_panel(opened)
    public = opened.message
    rules = await server.bob.click(public, label="Rules")
    assert rules.ephemeral and "Basic Rummy" in rules.text() and rules.buttons() == []
    again = await server.ann.click(public, label="Rules")
    assert again.type == 4 and again.ephemeral and again.message is not None
    assert labels(again.message) == HOST and "Basic Rummy" in again.text()
    # That message is the one that follows the lobby now, rules and all.
    await server.bob.click(public, label="Join")
    await bot.game.tasks.wait_idle()
    assert "Bob" in seats_line(again.message) and "Basic Rummy" in again.text()
    started = await server.ann.click(again.message, label="Start")
    assert started.type == 7 and "already started" in started.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.stage.value == "playing"


async def test_rummy_start_again_gives_the_host_their_controls_and_the_others_the_game(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    await host_panel(opened)
    again = await server.ann.slash(server.channel, "rummy start")
    assert again.ephemeral and labels(again.message) == HOST
    assert "keeps the house rules" not in again.text()
    other = await server.bob.slash(server.channel, "rummy start")
    assert other.ephemeral and "already open in this channel" in other.text()
    assert other.buttons() == []
    # Options that differ from the lobby's are not applied, and the host is told.
    changed = await server.ann.slash(server.channel, "rummy start", target=50)
    assert labels(changed.message) == HOST and "keeps the house rules" in changed.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.rules.target == 100
    # Once the game has started, the host is told the game is open, as anyone is.
    await server.bob.click(opened.message, label="Join")
    await bot.game.tasks.wait_idle()  # the latest controls follow the Join
    await server.ann.click(changed.message, label="Start")
    late = await server.ann.slash(server.channel, "rummy start")
    assert late.ephemeral and "already open in this channel" in late.text()


async def test_host_controls_sent_by_anyone_else_are_refused_and_change_nothing(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    public = opened.message
    assert public is not None
    await server.bob.click(public, label="Join")
    await bot.game.tasks.wait_idle()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    before, shown, held = table.to_dict(), public.text(), panel.text()
    for action in ("start", "cancel", "addcpu", "dropcpu"):
        forged = await server.bob.forge_click(public, button_id(panel, action))
        assert forged.ephemeral and "Only the host (Ann)" in forged.text()
    await bot.game.tasks.wait_idle()
    assert bot.game.tables.get(server.channel.id) is table and table.to_dict() == before
    assert public.text() == shown and panel.text() == held


async def test_a_lobby_drawn_before_the_hosts_controls_still_works(
    server: Server, launch: LaunchBot
) -> None:
    """A lobby restored from an earlier version shows the host's buttons to all:
    anyone else is refused, and the host's click still acts (and redraws it)."""
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    public = opened.message
    assert public is not None
    await server.bob.click(public, label="Join")
    start = {"type": 2, "style": 3, "label": "Start", "custom_id": button_id(panel, "start")}
    public.components = [*public.components, {"type": 1, "components": [start]}]
    stale = await server.bob.click(public, label="Start")
    assert stale.ephemeral and "Only the host" in stale.text()
    started = await server.ann.click(public, label="Start")
    assert started.type == 7 and not started.ephemeral and "hand 1" in started.text().lower()
    await bot.game.tasks.wait_idle()
    assert panel.deleted


async def test_a_click_on_controls_past_their_token_still_answers(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    server.emu.expire_token(opened)  # 15 minutes later: it can no longer be edited
    await server.bob.click(opened.message, label="Join")
    await bot.game.tasks.wait_idle()
    assert "Bob" not in panel.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and chat_side(table).host_panel is None
    added = await server.ann.click(panel, label="Add computer (easy)")
    assert added.type == 7 and "Bob" in panel.text() and "🤖" in panel.text()
    # With the click's fresh token, it follows the lobby again.
    await server.cat.click(opened.message, label="Join")
    await bot.game.tasks.wait_idle()
    assert "Cat" in panel.text()


async def test_the_hosts_controls_follow_the_lobby_after_a_restart(
    server: Server, launch: LaunchBot, stop_bot: StopBot
) -> None:
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    await bot.game.tasks.wait_idle()
    await stop_bot(bot)
    bot = await launch()
    await server.bob.click(opened.message, label="Join")
    await bot.game.tasks.wait_idle()
    assert "Bob" in seats_line(panel)
    started = await server.ann.click(panel, label="Start")
    assert started.type == 7 and "already started" in started.text()


async def played_match(server: Server, bot: RummyBot) -> tuple[list[TablePlayer], Message]:
    seated = [server.player(server.ann), server.player(server.bob), server.player(server.cat)]
    await start_game(server, bot, seated, hands=1)
    await play_match(bot, server, seated)
    await bot.game.tasks.wait_idle()
    table = next(m for m in reversed(server.emu.messages(server.channel)) if "Rematch" in labels(m))
    return seated, table


async def test_the_rematch_lobby_splits_the_controls_the_same_way(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    _, final = await played_match(server, bot)
    again = await server.bob.click(final, label="Rematch")
    assert not again.ephemeral and labels(again.message) == PUBLIC
    assert f"{server.bob.mention}: your controls" in again.text()
    panel = await host_panel(again)
    assert panel.visible_to == server.bob.id and labels(panel) == HOST
    for other in (server.ann, server.cat):
        assert host_controls_seen_by(other, server) == []
    await server.ann.click(again.message, label="Join")
    await bot.game.tasks.wait_idle()
    assert "Ann" in seats_line(panel) and "waiting for" in panel.text()
    # Bob may start without Cat, from his own controls.
    started = await server.bob.click(panel, label="Start")
    assert started.type == 7 and "already started" in started.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and [s.name for s in table.seats] == ["Bob", "Ann"]


async def test_start_and_remove_computer_are_greyed_out_while_they_would_be_refused(
    server: Server, launch: LaunchBot
) -> None:
    """As on the Activity's lobby: alone, the host can neither start nor remove
    a computer; a click that comes anyway (from an older message) is refused."""
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    assert panel.button("Start")["disabled"] and panel.button("Remove computer")["disabled"]
    assert not panel.button("Cancel")["disabled"]
    started = await server.ann.click(panel, label="Start", allow_disabled=True)
    assert started.ephemeral and "At least 2 players are needed" in started.text()
    removed = await server.ann.click(panel, label="Remove computer", allow_disabled=True)
    assert removed.ephemeral and "no computer player to remove" in removed.text()
    await server.ann.click(panel, label="Add computer (easy)")
    assert not panel.button("Start")["disabled"]
    assert not panel.button("Remove computer")["disabled"]
    await server.ann.click(panel, label="Remove computer")
    assert panel.button("Start")["disabled"] and panel.button("Remove computer")["disabled"]
    # A human seat is enough to start, but leaves no computer to remove.
    await server.bob.click(opened.message, label="Join")
    await bot.game.tasks.wait_idle()
    assert panel.button("Remove computer")["disabled"]
    started = await server.ann.click(panel, label="Start")
    assert started.type == 7 and "already started" in started.text()


async def test_the_hosts_controls_are_edited_where_they_cannot_be_deleted(
    server: Server, launch: LaunchBot
) -> None:
    """The game started from elsewhere (a lobby drawn before the host's
    controls): Discord refuses the delete, so the controls say it instead."""
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    public = opened.message
    assert public is not None
    await server.bob.click(public, label="Join")
    await bot.game.tasks.wait_idle()
    start = {"type": 2, "style": 3, "label": "Start", "custom_id": button_id(panel, "start")}
    public.components = [*public.components, {"type": 1, "components": [start]}]
    refused = server.emu.fail_next("DELETE /webhooks/*", status=403, code=50013)
    await server.ann.click(public, label="Start")
    await bot.game.tasks.wait_idle()
    assert refused.hits == 1 and not panel.deleted
    assert "already started" in panel.text() and panel.buttons() == []


async def test_controls_past_their_token_go_at_their_next_click(
    server: Server, launch: LaunchBot
) -> None:
    """15 minutes on, the controls can be neither deleted nor edited: they are
    left as they were, and a click on them says the game started, then they go."""
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(opened)
    await server.ann.click(panel, label="Add computer (easy)")
    public = opened.message
    assert public is not None
    server.emu.expire_token()  # every token so far: the panel's and its click's
    # Started from a lobby drawn before the host's controls.
    start = {"type": 2, "style": 3, "label": "Start", "custom_id": button_id(panel, "start")}
    public.components = [*public.components, {"type": 1, "components": [start]}]
    started = await server.ann.click(public, label="Start")
    assert started.type == 7 and "hand 1" in started.text().lower()
    await bot.game.tasks.wait_idle()
    assert not panel.deleted and "Start" in labels(panel)
    late = await server.ann.click(panel, label="Add computer (easy)")
    assert late.type == 7 and "already started" in late.text()
    await bot.game.tasks.wait_idle()
    assert panel.deleted
