"""Every refused action is answered privately with the reason and changes nothing."""

from __future__ import annotations

import asyncio

from bot import RummyBot
from fakediscord.core.actors import Reply

from .conftest import LaunchBot, Server
from .harness import TablePlayer, table_message
from .test_play import dealt_heads_up, in_turn_order, rigged_heads_up, start_game


def state(bot: RummyBot, server: Server) -> dict:  # type: ignore[type-arg]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    return table.match.to_dict()


async def test_refusals_change_nothing(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    p1, p2 = await dealt_heads_up(
        server, bot, ["7S", "8S", "9S", "2D", "KD"], ["QH", "QD", "6C"], ["4H", "5C", "10S"],
        ["JC"],
    )
    await p1.open_hand()
    await p2.open_hand()
    before = state(bot, server)

    # The message shows no card buttons until the player may pick: a card
    # click now (not your turn, or before drawing) is one no message offers.
    assert p1._picks() == [] and p2._picks() == []
    assert p1.view is not None and p2.view is not None
    early = await p2.actor.forge_click(p2.view, p2.pick_id(p2.hand()[0]))
    undrawn = await p1.actor.forge_click(p1.view, p1.pick_id(p1.hand()[0]))
    for refused in (early, undrawn):
        assert refused.ephemeral and "not one I recognise" in refused.text()
    assert state(bot, server) == before
    shown = [p.others_messages() for p in (p1, p2)]

    # Not seated at all: no hand message to show it in.
    stranger = await server.cat.click(table_message(server.emu, server.channel), label="Show hand")
    assert stranger.ephemeral and "not playing" in stranger.text()
    hand_cmd = await server.cat.slash(server.channel, "rummy hand")
    assert hand_cmd.ephemeral and "not playing" in hand_cmd.text()

    # A selection that is no meld cannot be melded, even by a stale click.
    await p1.take()
    await p1.choose(["7S", "8S", "2D"])
    assert not p1.button_enabled("Meld")
    bad = await p1.press("Meld", force=True)
    assert in_place(bad, p1) and "is neither a set" in bad.text()
    # The card just taken from the pile cannot go straight back.
    await p1.choose(["JC"])
    assert not p1.button_enabled("Discard")
    back = await p1.press("Discard", force=True)
    assert in_place(back, p1) and "You took J♣" in back.text()
    after_take = state(bot, server)
    assert sorted(p1.hand()) == sorted(["7S", "8S", "9S", "2D", "KD", "JC"])
    # Every refusal was shown in the hand message itself: no new message.
    assert [p.others_messages() for p in (p1, p2)] == shown

    # Opening the hand again retires the older message; one click brings it back.
    old_view = p1.view
    assert old_view is not None
    await p1.open_hand()
    await p1.discard("KD")
    await bot.game.tasks.wait_idle()
    back = await p1.actor.click(old_view, label="Show my hand here")
    assert back.type == 7 and f"Waiting for **{p2.actor.name}**" in back.text()
    assert "K♦" not in back.text().split("**Discard**")[0]  # the hand as it is now
    assert state(bot, server) != after_take  # only the real discard applied


def in_place(reply: Reply, player: TablePlayer) -> bool:
    """The answer edited the player's hand message rather than adding one."""
    return (
        reply.answered
        and reply.type == 7
        and reply.message is not None
        and player.view is not None
        and reply.message.id == player.view.id
        and "⚠️" in reply.text()
    )


async def test_double_click_applies_once(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    p1, _ = in_turn_order(bot, server, seated)
    await p1.open_hand()
    assert p1.view is not None
    held_before = len(p1.hand())
    replies = await asyncio.gather(
        p1.actor.click(p1.view, label="Draw from stock"),
        p1.actor.click(p1.view, label="Draw from stock"),
    )
    assert all(r.answered and r.type == 7 for r in replies)  # both in the hand message
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert len(table.match.hand.hand_of(p1.key)) == held_before + 1


async def test_stale_buttons_from_an_earlier_hand(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    p1, p2 = await rigged_heads_up(server, bot, hands=3)
    await p1.open_hand()
    await p2.open_hand()
    hand_one_view = p2.view
    await p2.open_hand()  # the newer view is the one the bot keeps up to date
    await p1.draw()
    await p1.meld(["4H", "5H", "6H"])
    await p1.discard("7H")
    await bot.game.tasks.wait_idle()
    old_table = table_message(server.emu, server.channel)
    # Both click Next hand at once: one deal, the other told it is done.
    first, second = await asyncio.gather(
        p1.actor.click(old_table, label="Next hand"),
        p2.actor.click(old_table, label="Next hand"),
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.hand_number == 2
    # A hand view left over from hand 1 comes back to life in hand 2.
    assert hand_one_view is not None
    stale = await p2.actor.click(hand_one_view, label="Show my hand here")
    assert stale.type == 7 and stale.message is not None
    p2.view = stale.message
    assert table.match is not None
    assert sorted(p2.hand()) == sorted(c.code for c in table.match.hand.hand_of(p2.key))


async def test_end_command_needs_host_or_moderator(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    refused = await server.bob.slash(server.channel, "rummy end")
    assert refused.ephemeral and "Only the host" in refused.text()
    assert bot.game.tables.get(server.channel.id) is not None
    ended = await server.mod.slash(server.channel, "rummy end")
    assert not ended.ephemeral and "ended" in ended.text()
    await bot.game.tasks.wait_idle()
    assert bot.game.tables.get(server.channel.id) is None
    message = table_message_or_none(server)
    assert message is None or "ended this game" in message.text()
    gone = await server.ann.slash(server.channel, "rummy hand")
    assert gone.ephemeral and "no game" in gone.text().lower()


def table_message_or_none(server: Server):  # type: ignore[no-untyped-def]
    for message in reversed(server.emu.messages(server.channel)):
        if "ended this game" in message.text():
            return message
    return None
