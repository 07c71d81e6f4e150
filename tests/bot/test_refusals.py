"""Every refused action is answered privately with the reason and changes nothing."""

from __future__ import annotations

import asyncio

from bot import RummyBot

from .conftest import LaunchBot, Server
from .harness import rig_hand, table_message
from .test_play import in_turn_order, rigged_heads_up, start_game


def state(bot: RummyBot, server: Server) -> dict:  # type: ignore[type-arg]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    return table.match.to_dict()


async def test_refusals_change_nothing(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    p1, p2 = in_turn_order(bot, server, seated)
    await rig_hand(
        bot,
        server.channel.id,
        {p1.key: ["7S", "8S", "9S", "2D", "KD"], p2.key: ["QH", "QD", "6C"]},
        stock=["4H", "5C", "10S"],
        discard=["JC"],
    )
    await p1.open_hand()
    await p2.open_hand()
    before = state(bot, server)

    # Not your turn: a stale or forged click on a disabled button.
    early = await p2.actor.click(p2.view, label="Draw from stock", allow_disabled=True)
    assert early.ephemeral and "not your turn" in early.text().lower()
    # Discarding before drawing.
    await p1.choose(["KD"])
    undrawn = await p1.actor.click(p1.view, label="Discard", allow_disabled=True)
    assert undrawn.ephemeral and "draw" in undrawn.text().lower()
    assert state(bot, server) == before

    # Not seated at all.
    stranger = await server.cat.click(table_message(server.emu, server.channel), label="Show hand")
    assert stranger.ephemeral and "not playing" in stranger.text()
    hand_cmd = await server.cat.slash(server.channel, "rummy hand")
    assert hand_cmd.ephemeral and "not playing" in hand_cmd.text()

    # An illegal meld, with the engine's reason.
    await p1.take()
    bad = await p1.meld(["7S", "8S", "2D"])
    assert bad.ephemeral and "not a" in bad.text()
    # The card just taken from the pile cannot go straight back.
    back = await p1.discard("JC")
    assert back.ephemeral and "J♣" in back.text()
    after_take = state(bot, server)
    assert sorted(p1.hand()) == sorted(["7S", "8S", "9S", "2D", "KD", "JC"])

    # A card no longer in hand, picked in an older hand view of the same player.
    old_view = p1.view
    await p1.open_hand()
    await p1.discard("KD")
    stale = await p1.actor.select(old_view, "cards", ["KD"])
    assert stale.ephemeral and "no longer in your hand" in stale.text()
    assert state(bot, server) != after_take  # only the real discard applied


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
    assert all(r.answered for r in replies)
    refused = [r for r in replies if "already drawn" in r.text().lower() or r.type == 4]
    assert len(refused) == 1
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
    # A hand view left over from hand 1 is stale now.
    assert hand_one_view is not None
    stale = await p2.actor.click(hand_one_view, label="Refresh")
    assert stale.ephemeral and "earlier hand" in stale.text()


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
