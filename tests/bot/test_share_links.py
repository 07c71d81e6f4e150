"""A link to a game, shared from the Activity where Discord offers no invite
(a DM or group DM): a page launched from it sends its ``custom_id`` at
sign-in, and the server says whether it names a game of the instance's own
channel. The page is that channel's table whatever the link says: a link to
another conversation's game, or a made-up one, is refused in words and
changes nothing, and nobody outside a group DM gets into its game by a link."""

from __future__ import annotations

from typing import Any

import pytest

from bot import RummyBot
from fakediscord import Actor, Channel
from tables import MAX_SEATS
from web.links import ELSEWHERE, HERE, link_id

from .activity_pages import Participant, installed_by, launch_with_activity
from .conftest import LaunchBot, Server


async def signed_in(
    server: Server, bot: RummyBot, actor: Actor, channel: Channel, pages: list[Participant],
    **extra: object,
) -> tuple[Participant, dict[str, Any]]:
    """``actor``'s launch in ``channel``, signed in with ``extra`` (a link's custom_id),
    connected and shown; the sign-in's answer."""
    instance = server.emu.world.launch_activity(actor.id, channel.id)
    page = Participant(bot, server.emu, actor)
    pages.append(page)
    answer = await page.sign_in(instance.instance_id, **extra)
    assert answer.status == 200, await answer.text()
    body = await answer.json()
    await page.connect()
    await page.until(lambda: any(f["type"] == "state" for f in page.frames), "the first state")
    return page, body




async def test_a_link_lands_in_its_groups_game_and_one_to_another_group_is_refused(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    installed_by(server, server.ann, server.dan)
    group = server.emu.create_private_channel([server.ann, server.bob, server.cat],
                                              name="Friday cards")
    other = server.emu.create_private_channel([server.dan, server.bob], name="Book club")
    # Ann opens a lobby in the group; Dan one in the other group.
    ann, _ = await signed_in(server, bot, server.ann, group, pages)
    assert (await ann.send("open", rules={"hands": 5}))["type"] == "done"
    await ann.until(lambda: ann.state()["stage"] == "lobby", "Ann's lobby")
    table = bot.game.tables.get(group.id)
    assert table is not None and table.activity_only
    # The page names the game and its party: what a link and Discord's status show.
    assert ann.state()["game_id"] == table.game_id and ann.state()["party"] == [1, MAX_SEATS]
    dan, _ = await signed_in(server, bot, server.dan, other, pages)
    assert (await dan.send("open"))["type"] == "done"
    elsewhere = bot.game.tables.get(other.id)
    assert elsewhere is not None and elsewhere.game_id != table.game_id

    # Cat opens Ann's link in the group: the group's lobby, the link good.
    cat, said = await signed_in(server, bot, server.cat, group, pages,
                                custom_id=link_id(group.id, table.game_id))
    assert said["link"] == HERE
    assert cat.state()["stage"] == "lobby" and cat.state()["game_id"] == table.game_id
    assert (await cat.send("join"))["type"] == "done"
    await ann.until(lambda: ann.state()["party"] == [2, MAX_SEATS], "Cat's seat")

    # Bob is in both groups: in this one, a link to the other group's game is
    # refused, and he sees this group's table, as without a link.
    bob, said = await signed_in(server, bot, server.bob, group, pages,
                                custom_id=link_id(other.id, elsewhere.game_id))
    assert said["link"] == ELSEWHERE
    assert bob.state()["game_id"] == table.game_id
    assert [s["name"] for s in bob.state()["seats"]] == ["Ann", "Cat"]
    assert [s.name for s in elsewhere.seats] == ["Dan"]  # nothing changed there
    # Made-up links, whatever their shape, are refused the same way.
    for forged in ("g.1.abc", f"g.{group.id}x", f"{group.id}", "", "g." + "9" * 40,
                   f"g.{group.id}.ZZZ", 12345, ["g", group.id], {"channel": group.id}):
        answer = await Participant(bot, server.emu, server.bob).sign_in(
            server.emu.world.launch_activity(server.bob.id, group.id).instance_id,
            custom_id=forged)
        assert answer.status == 200 and (await answer.json())["link"] == ELSEWHERE, forged
        await answer.release()
    # A link to the group's channel with no game named is this channel's too.
    _, said = await signed_in(server, bot, server.bob, group, pages,
                              custom_id=link_id(group.id, None))
    assert said["link"] == HERE
    assert server.emu.problems == []


async def test_nobody_outside_a_group_gets_into_its_game_by_its_link(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    installed_by(server, server.ann)
    group = server.emu.create_private_channel([server.ann, server.bob, server.cat],
                                              name="Friday cards")
    ann, _ = await signed_in(server, bot, server.ann, group, pages)
    assert (await ann.send("open"))["type"] == "done"
    table = bot.game.tables.get(group.id)
    assert table is not None
    link = link_id(group.id, table.game_id)
    # Discord seats nobody else in a group DM's instance: Dan, outside the
    # group, cannot launch there, and signing in with its instance and its
    # link is refused as any stranger's is.
    with pytest.raises(ValueError):
        server.emu.world.launch_activity(server.dan.id, group.id)
    instance = next(i for i in server.emu.world.activity_instances.values()
                    if i.channel_id == group.id)
    dan = Participant(bot, server.emu, server.dan)
    pages.append(dan)
    answer = await dan.sign_in(instance.instance_id, custom_id=link)
    assert answer.status == 403 and "link" not in await answer.json()
    # From his own DM with Ann, the link names another conversation: his
    # table is theirs, and the group's game is untouched.
    dm = server.emu.create_private_channel([server.dan, server.ann])
    page, said = await signed_in(server, bot, server.dan, dm, pages, custom_id=link)
    assert said["link"] == ELSEWHERE and page.state()["stage"] == "none"
    assert [s.name for s in table.seats] == ["Ann"]
    assert server.emu.problems == []
