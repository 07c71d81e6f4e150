"""A game opened from the Activity, in the real bot on the emulator: with no game
in the channel the page offers one with the server's house rules; whoever
starts it hosts it, adds computers, starts and cancels from the page; the
lobby is posted in the channel too, and a member joins it from either door. A
rematch against the computers alone is dealt at once and played on."""

from __future__ import annotations

import dataclasses
from typing import Any

from tables.tapes import public_record

from .activity_pages import ACTIVITY, Participant, launch_with_activity, open_page
from .conftest import LaunchBot, Server
from .harness import table_message
from .test_match import COMPUTER_FIRST, first_to_move, play_match


async def lobby_of(page: Participant) -> dict[str, Any]:
    await page.until(lambda: page.state()["stage"] == "lobby", "the lobby")
    lobby: dict[str, Any] = page.state()["lobby"]
    return lobby


async def test_with_no_game_the_page_offers_one_with_the_servers_rules(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = await open_page(bot, server, server.ann, pages)
    state = page.state()
    assert state["stage"] == "none"
    form = state["new_game"]
    names = [option["name"] for option in form["options"]]
    assert names[:2] == ["length", "turn_timeout"] and "ace" in names
    length = next(option for option in form["options"] if option["name"] == "length")
    assert length["value"] == "target:100"  # the default rules: first to 100 points
    assert {"value": "hands:3", "label": "3 hands"} in length["choices"]


async def test_a_game_opened_in_the_activity_is_hosted_there_and_posted_in_the_channel(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    ann = await open_page(bot, server, server.ann, pages)
    bob = await open_page(bot, server, server.bob, pages)
    answer = await ann.send("open", rules={"hands": 2, "hints": "off"})
    assert answer["type"] == "done", answer
    lobby = await lobby_of(ann)
    assert lobby["host"] and lobby["can_add"] and not lobby["can_start"]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.host_id == server.ann.id
    assert table.rules.hands == 2 and table.rules.target is None
    # The lobby is in the channel too: the chat's door is open.
    await bot.game.tasks.wait_idle()
    posted = table_message(server.emu, server.channel)
    assert "a new game is forming" in posted.text()
    # Bob watches it fill in, and may join; he is no host.
    other = await lobby_of(bob)
    assert other["can_join"] and not other["host"]
    # Everyone reads the rules chosen, all of them: the page has no Rules button.
    assert "2 hands" in other["rules"] and "No hints" in other["rules"]
    assert not any("points" in line and "First to" in line for line in other["rules"])
    refused = await bob.send("add_computer", level="hard")
    assert refused["type"] == "refused" and "Only the host" in refused["text"]
    assert (await bob.send("join"))["type"] == "done"
    assert (await ann.send("add_computer", level="hard"))["type"] == "done"
    await ann.until(lambda: len(ann.state()["seats"]) == 3, "the computer's seat")
    assert (await ann.send("remove_computer"))["type"] == "done"
    lobby = await lobby_of(ann)
    assert lobby["can_start"]
    assert (await ann.send("start"))["type"] == "done"
    await ann.until(lambda: ann.state()["stage"] == "playing", "the deal")
    await bob.until(lambda: bob.state()["stage"] == "playing", "the deal")
    await bot.game.tasks.wait_idle()
    # Each player is sent their cards, as with Start in the chat.
    for actor in (server.ann, server.bob):
        assert any("is dealt" in m.text() for m in actor.dms())


async def test_a_member_joins_an_activity_lobby_from_the_chat(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    ann = await open_page(bot, server, server.ann, pages)
    assert (await ann.send("open"))["type"] == "done"
    await bot.game.tasks.wait_idle()
    lobby_message = table_message(server.emu, server.channel)
    joined = await server.cat.click(lobby_message, label="Join")
    assert joined.answered and "Cat" in lobby_message.text()
    await ann.until(lambda: any(seat["name"] == "Cat" for seat in ann.state()["seats"]),
                    "Cat's seat, seen in the page")


async def test_a_second_game_cannot_open_and_the_host_cancels(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    ann = await open_page(bot, server, server.ann, pages)
    bob = await open_page(bot, server, server.bob, pages)
    assert (await ann.send("open"))["type"] == "done"
    again = await bob.send("open")
    assert again["type"] == "refused" and "already open" in again["text"]
    bad = await ann.send("open", rules={"hands": 3, "target": 50})
    assert bad["type"] == "refused"
    assert (await ann.send("cancel"))["type"] == "done"
    await ann.until(lambda: ann.state()["stage"] in ("none", "finished"), "the lobby closed")
    assert bot.game.tables.get(server.channel.id) is None
    await bot.game.tasks.wait_idle()
    assert "cancelled" in table_message(server.emu, server.channel).text()


async def test_house_rules_of_the_wrong_shape_are_refused_and_change_nothing(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    ann = await open_page(bot, server, server.ann, pages)
    for rules in ({"jokers": "yes"}, {"hands": True}, {"ace": "x" * 40}, ["hands"]):
        answer = await ann.send("open", rules=rules)
        assert answer["type"] in ("error", "refused"), answer
    assert bot.game.tables.get(server.channel.id) is None



async def test_a_member_sits_under_their_server_nickname_by_either_door(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    # Set before the bot starts, as a member's nickname usually is: the bot
    # learns it with the server. Bob's is set after, and asked of Discord.
    server.guild.members[server.ann.id].nick = "Annie"
    bot = await launch_with_activity(server, launch)
    server.guild.members[server.bob.id].nick = "Bobby"
    guild = bot.get_guild(server.guild.id)
    assert guild is not None
    cached = guild.get_member(server.bob.id)
    if cached is not None:
        guild._remove_member(cached)  # the bot has not heard of the new nickname
    ann = await open_page(bot, server, server.ann, pages)
    bob = await open_page(bot, server, server.bob, pages)
    assert (await ann.send("open"))["type"] == "done"
    assert (await bob.send("join"))["type"] == "done"
    await ann.until(lambda: len(ann.state()["seats"]) == 2, "Bobby's seat")
    names = [seat["name"] for seat in ann.state()["seats"]]
    assert names == ["Annie", "Bobby"]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and [seat.name for seat in table.seats] == ["Annie", "Bobby"]


def my_turn(page: Participant) -> bool:
    state = page.state()
    return state["stage"] == "playing" and state["turn"] == state["you"]


async def test_a_rematch_against_a_computer_who_moves_first_is_played_from_the_activity(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(
        server, launch, dataclasses.replace(ACTIVITY, table_seed=COMPUTER_FIRST))
    ann = await open_page(bot, server, server.ann, pages)
    assert (await ann.send("open", rules={"hands": 1}))["type"] == "done"
    await lobby_of(ann)
    assert (await ann.send("add_computer", level="easy"))["type"] == "done"
    await ann.until(lambda: len(ann.state()["seats"]) == 2, "Ada's seat")
    assert (await ann.send("start"))["type"] == "done"
    await bot.game.tasks.wait_idle()
    # The first match, played out in the chat: the Rematch is pressed on the page.
    player = server.player(server.ann)
    player.settle = bot.game.tasks.wait_idle
    await play_match(bot, server, [player])
    await ann.until(lambda: ann.state()["stage"] == "finished", "the match's end")
    # Nobody to wait for: the rematch is dealt at once, and Ada moves first again,
    # while its table is still being posted in the channel (Discord is slow).
    posting = server.emu.slow_down("POST /channels/*/messages", 0.5)
    assert (await ann.send("rematch"))["type"] == "done"
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert first_to_move(table) == "cpu1"
    await bot.game.tasks.wait_idle()
    await ann.until(lambda: my_turn(ann), "Ann's turn in the rematch, once Ada played hers")
    assert any(e.player == "cpu1" and e.kind == "discard" for e in public_record(table).events)
    assert bot.game.automation.timers(), "Ann's turn has no clock"
    # The channel's table, posted after Ada's move was made, shows it all the same.
    await bot.game.tasks.wait_idle()
    assert posting.hits == 1
    shown = table_message(server.emu, server.channel).text().splitlines()
    turn_line = next(i for i, line in enumerate(shown) if line.startswith("▶️"))
    assert "**Ann**" in shown[turn_line - 1] and "Ada discarded" in shown[-1], shown
