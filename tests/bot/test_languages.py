"""Each member reads the bot in their own language; the public table stays in
the server's."""

from __future__ import annotations

from fakediscord.core.actors import Reply

from .conftest import LaunchBot, Server
from .harness import TablePlayer, table_message
from .test_play import dealt_heads_up


def in_place(reply: Reply, player: TablePlayer) -> bool:
    return (
        reply.type == 7
        and reply.message is not None
        and player.view is not None
        and reply.message.id == player.view.id
    )


async def test_an_engine_refusal_is_worded_for_the_member(
    server: Server, launch: LaunchBot
) -> None:
    # Both play in German (their Discord clients' language) on an English server.
    server.ann.user.locale = "de"
    server.bob.user.locale = "de"
    bot = await launch()
    p1, _p2 = await dealt_heads_up(
        server, bot, ["7S", "8S", "9S", "2D", "KD"], ["QH", "QD", "6C"], ["4H", "5C", "10S"],
        ["JC"],
    )
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.language == "en"
    assert {seat.language for seat in table.seats} == {"de"}
    await p1.open_hand()
    await p1.take()
    await p1.choose(["7S", "8S", "JC"])
    refused = await p1.press("Meld", force=True)
    assert in_place(refused, p1)
    # The engine's refusal, its cards with German ranks: the jack is B (Bube).
    assert (
        "7♠ 8♠ B♣ ist weder ein Satz (Karten desselben Werts) noch eine Folge "
        "(Karten in Reihe, in einer Farbe)" in refused.text()
    )
    assert "J♣" not in refused.text().split("⚠️")[1].splitlines()[0]
    # The public table, the server's, still writes the jack J.
    await bot.game.tasks.wait_idle()
    assert "J♣" in table_message(server.emu, server.channel).text()


async def test_a_member_in_english_reads_the_engine_as_it_speaks(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    p1, _p2 = await dealt_heads_up(
        server, bot, ["7S", "8S", "9S", "2D", "KD"], ["QH", "QD", "6C"], ["4H", "5C", "10S"],
        ["JC"],
    )
    await p1.open_hand()
    await p1.take()
    await p1.choose(["7S", "8S", "JC"])
    refused = await p1.press("Meld", force=True)
    assert in_place(refused, p1)
    assert (
        "7♠ 8♠ J♣ is neither a set (cards of one rank) nor a run (cards in sequence, "
        "of one suit)" in refused.text()
    )
