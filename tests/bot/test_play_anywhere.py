"""A game where the bot is no member: a group DM or a DM between people, and
a server that only a member's own install reaches. `/rummy start` answers
with the way into the Activity, the Activity plays the whole match there, the
results go to the conversation's own board, and the bot never sends its
token where Discord refuses it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.ai import choose_action
from fakediscord import Channel, Guild
from presentation import actions

from .activity_pages import (
    ACTIVITY,
    Participant,
    at_machine_speed,
    installed_by,
    launch_with_activity,
    open_page,
)
from .conftest import LaunchBot, Server, StopBot

ONE_HAND = dataclasses.replace(ACTIVITY, table_seed=20261207)
MOST_MOVES = 400


def server_without_the_bot(server: Server) -> tuple[Guild, Channel]:
    """A server that never added the bot, Ann among its members, and its channel."""
    elsewhere = server.emu.create_guild("Book Club", installed=False)
    lounge = server.emu.create_text_channel(elsewhere, "lounge")
    server.emu.add_member(server.ann, elsewhere)
    return elsewhere, lounge


def bot_token_requests_to(server: Server, channel: Channel) -> list[str]:
    """Requests to the channel's own routes: only the bot's token goes there
    (answers to interactions go to the interaction's and webhook's routes)."""
    return [f"{r.method} {r.path}" for r in server.emu.traffic.requests
            if f"/channels/{channel.id}" in r.path]


async def test_rummy_start_in_a_group_dm_answers_with_the_way_into_the_activity(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    installed_by(server, server.ann)
    group = server.emu.create_private_channel([server.ann, server.bob, server.cat],
                                              name="Friday cards")
    reply = await server.ann.slash(group, "rummy start", hands=1)
    # Said for the group, with one button: no table message could live here.
    assert reply.answered and not reply.ephemeral, reply.text()
    assert "opened a game of Rummy here" in reply.text() and "Ann" in reply.text()
    [play] = reply.message.buttons()
    assert play["label"] == "Play"
    table = bot.game.tables.get(group.id)
    assert table is not None and table.activity_only and table.guild_id == group.id
    assert [seat.name for seat in table.seats] == ["Ann"] and table.rules.hands == 1

    # Bob presses Play: the Activity opens for him in the group DM, at that lobby.
    pressed = await server.bob.click(reply.message, label="Play")
    launched = pressed.activity_instance
    assert pressed.type == 12 and launched is not None and launched.channel_id == group.id
    bob = Participant(bot, server.emu, server.bob)
    pages.append(bob)
    assert (await bob.sign_in(launched.instance_id)).status == 200
    await bob.connect()
    await bob.until(lambda: any(f["type"] == "state" for f in bob.frames), "the lobby")
    assert bob.state()["stage"] == "lobby"

    # Cards are not sent to a DM: the Activity holds them.
    hand = await server.ann.slash(group, "rummy hand")
    assert hand.ephemeral and "played in the Activity" in hand.text()
    assert [b["label"] for b in hand.message.buttons()] == ["Play"]

    # Asked again, the answer leads to the same game rather than a second one.
    second = await server.ann.slash(group, "rummy start")
    assert "already on here" in second.text() and bot.game.tables.get(group.id) is table
    await bot.game.tasks.wait_idle()
    assert bot_token_requests_to(server, group) == []
    assert server.emu.problems == []


async def test_a_whole_match_in_a_group_dm_is_played_in_the_activity_and_kept_on_its_board(
    server: Server, launch: LaunchBot, pages: list[Participant], monkeypatch: pytest.MonkeyPatch
) -> None:
    at_machine_speed(monkeypatch)
    bot = await launch_with_activity(server, launch, ONE_HAND)
    installed_by(server, server.ann, server.bob)
    group = server.emu.create_private_channel([server.ann, server.bob, server.cat],
                                              name="Friday cards")
    # Ann launches from the App Launcher and opens the lobby there; Bob joins
    # from his own launch; an easy computer fills the third seat.
    ann = await open_page(bot, server, server.ann, pages, group.id)
    assert ann.state().get("new_game") is not None
    assert (await ann.send("open", rules={"hands": 1}))["type"] == "done"
    bob = await open_page(bot, server, server.bob, pages, group.id)
    assert (await bob.send("join"))["type"] == "done"
    # Not his to start: told by the host's name, which a page shows as it is.
    refused = await bob.send("start")
    assert refused["type"] == "refused"
    assert refused["text"] == "Only the host (Ann) can start the game.", refused
    await ann.until(lambda: len(ann.state()["seats"]) == 2, "Bob's seat")
    assert (await ann.send("add_computer", level="easy"))["type"] == "done"
    await ann.until(lambda: len(ann.state()["seats"]) == 3, "the computer's seat")
    assert (await ann.send("start"))["type"] == "done"

    by_user = {server.ann.id: ann, server.bob.id: bob}
    for _ in range(MOST_MOVES):
        table = bot.game.tables.get(group.id) or bot.game.tables.ended(group.id)
        assert table is not None and table.match is not None
        if table.match.is_over:
            break
        seat = table.current_seat
        if seat is None or seat.user_id is None:
            await bot.game.tasks.wait_idle()  # the computer's turn, or between hands
            continue
        page = by_user[seat.user_id]
        await page.until(lambda page=page, table=table: page.state()["version"]
                         == table.position, "the latest state")
        action = choose_action(table.view_of(seat.key), "easy", random.Random(len(table.hand_log)))
        answer = await page.play(action)
        assert answer["type"] == "done", answer
    else:
        raise AssertionError("the match did not end")
    await bot.game.tasks.wait_idle()

    # The result is the group's: on its board, and on no server's.
    assert bot.db is not None
    board = await bot.db.leaderboard(group.id)
    assert {row.name for row in board.rows} >= {"Ann", "Bob"}
    assert (await bot.db.leaderboard(server.guild.id)).rows == []
    stats = await server.ann.slash(group, "rummy stats")
    assert "Ann" in stats.text() and stats.ephemeral
    history = await server.bob.slash(group, "rummy history")
    assert history.text().startswith("Rummy history — Friday cards"), history.text()
    assert "**#1**" in history.text() and "1 hand" in history.text()
    leaderboard = await server.bob.slash(group, "rummy leaderboard")
    assert "Friday cards" in leaderboard.text() and "**1.** Ann" in leaderboard.text()

    # In the bot's own DM, which keeps no board: Ann's figures over every board.
    everywhere = await server.ann.slash(server.ann.dm_channel, "rummy stats")
    assert everywhere.ephemeral and "Rummy stats — Ann, everywhere" in everywhere.text()
    assert "Over the 1 server, DM or group DM" in everywhere.text()
    theirs = await server.ann.slash(server.ann.dm_channel, "rummy stats", member=server.bob)
    assert theirs.ephemeral and "your own figures" in theirs.text()

    # Rematch from the result: the same group's game again.
    assert (await ann.send("rematch"))["type"] == "done"
    rematch = bot.game.tables.get(group.id)
    assert rematch is not None and rematch.activity_only and rematch.guild_id == group.id

    # Over the whole match, not one request with the bot's token went to the
    # group DM (Discord would refuse each: the bot is no member there).
    assert bot_token_requests_to(server, group) == []
    assert server.emu.problems == []


async def test_what_belongs_to_a_server_or_a_board_says_so_elsewhere(
    server: Server, launch: LaunchBot
) -> None:
    await launch_with_activity(server, launch)
    installed_by(server, server.ann)
    dm = server.emu.create_private_channel([server.ann, server.dan])
    settings = await server.ann.slash(dm, "rummy settings", hands=3)
    assert settings.ephemeral and "belongs to a server" in settings.text()
    season = await server.ann.slash(dm, "rummy season end")
    assert season.ephemeral and "belongs to a server" in season.text()
    # The bot's own DM has no board, and nobody to play with.
    own = server.ann.dm_channel
    board = await server.ann.slash(own, "rummy leaderboard")
    assert board.ephemeral and "keeps its own Rummy board" in board.text()
    start = await server.ann.slash(own, "rummy start")
    assert start.ephemeral and "friends to sit with" in start.text()
    assert server.emu.problems == []


async def test_without_use_external_apps_the_answer_says_only_its_sender_sees_it(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch_with_activity(server, launch)
    installed_by(server, server.ann)
    elsewhere, lounge = server_without_the_bot(server)
    server.emu.set_permissions(lounge, elsewhere, use_external_apps=False)
    reply = await server.ann.slash(lounge, "rummy start")
    await server.emu.wait_for(lambda: reply.message is not None
                              and "Only you can see this" in reply.message.text())
    assert reply.ephemeral and reply.message is not None
    assert reply.message.visible_to == server.ann.id
    assert "Use External Apps" in reply.message.text()
    assert [b["label"] for b in reply.message.buttons()] == ["Play"]
    table = bot.game.tables.get(lounge.id)
    assert table is not None and table.activity_only and table.guild_id == elsewhere.id
    assert bot_token_requests_to(server, lounge) == []
    assert [r.path for r in server.emu.traffic.requests
            if f"/guilds/{elsewhere.id}" in r.path] == []
    assert server.emu.problems == []


async def test_a_group_dms_game_survives_a_restart_still_unposted(
    server: Server, launch: LaunchBot, stop_bot: StopBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    installed_by(server, server.ann)
    group = server.emu.create_private_channel([server.ann, server.bob], name="pair")
    await server.ann.slash(group, "rummy start", hands=2)
    await stop_bot(bot)
    bot = await launch_with_activity(server, launch)
    table = bot.game.tables.get(group.id)
    assert table is not None and table.activity_only and table.guild_id == group.id
    bob = await open_page(bot, server, server.bob, pages, group.id)
    assert bob.state()["stage"] == "lobby"
    assert (await bob.send("join"))["type"] == "done"
    await bot.game.tasks.wait_idle()
    assert [seat.name for seat in table.seats] == ["Ann", "Bob"]
    assert bot_token_requests_to(server, group) == []
    assert server.emu.problems == []


async def test_one_groups_board_cannot_be_paged_from_another(
    server: Server, launch: LaunchBot
) -> None:
    await launch_with_activity(server, launch)
    installed_by(server, server.ann)
    ours = server.emu.create_private_channel([server.ann, server.bob], name="ours")
    theirs = server.emu.create_private_channel([server.cat, server.dan], name="theirs")
    board = await server.ann.slash(ours, "rummy leaderboard")
    assert board.answered and "ours" in board.text()
    for forged in (actions.LEADERBOARD_PAGE.id(theirs.id, "wins.1"),
                   actions.LEADERBOARD_PAGE.id(server.guild.id, "wins.1")):
        # Refused before any board is read: the control is not on that message.
        refused = await server.ann.forge_click(board, forged)
        assert refused.ephemeral and "not one I recognise" in refused.text()
    assert "ours" in server.emu.world.messages[board.message.id].text()


async def test_the_activity_in_a_server_without_the_bot_plays_there_unposted(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    installed_by(server, server.ann)
    elsewhere, lounge = server_without_the_bot(server)
    # Launched from Ann's own install: signed in without asking Discord for a
    # member of a server the bot is not in, and the lobby is the Activity's alone.
    ann = await open_page(bot, server, server.ann, pages, lounge.id)
    assert (await ann.send("open", rules={}))["type"] == "done"
    table = bot.game.tables.get(lounge.id)
    assert table is not None and table.activity_only and table.guild_id == elsewhere.id
    assert [seat.name for seat in table.seats] == ["Ann"]
    await bot.game.tasks.wait_idle()
    assert bot_token_requests_to(server, lounge) == []
    assert [r.path for r in server.emu.traffic.requests
            if f"/guilds/{elsewhere.id}" in r.path] == []
    assert server.emu.problems == []
