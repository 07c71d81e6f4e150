"""How many clicks each kind of turn takes, counted from the moment the hand
message shows the turn: a plain turn at most 3, draw + meld of three + discard
at most 7, each single-card lay-off at most 2 more."""

from __future__ import annotations

from fakediscord import Actor, FakeDiscord

from .conftest import LaunchBot, Server
from .test_play import dealt_heads_up


def clicks(emu: FakeDiscord, actor: Actor) -> int:
    return sum(1 for i in emu.world.interactions.values() if i.user_id == actor.id)


async def test_each_kind_of_turn_fits_its_click_budget(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    p1, p2 = await dealt_heads_up(
        server, bot, ["4H", "5H", "6H", "KC", "2D"], ["9S", "QD", "3C", "JD"],
        ["7C", "7H", "10D", "5S"], ["AC"],
    )
    await p1.open_hand()
    await p2.open_hand()
    await bot.game.tasks.wait_idle()

    # p1: draw, meld 4-5-6 of hearts, discard the king: 1 + 3 + 1 + 2 clicks.
    assert "Your turn" in p1.view_text()
    before = clicks(server.emu, p1.actor)
    await p1.draw()
    await p1.meld(["4H", "5H", "6H"])
    await p1.discard("KC")
    assert clicks(server.emu, p1.actor) - before <= 7
    await bot.game.tasks.wait_idle()

    # p2: draws the 7 of hearts and lays it off on p1's run: 2 clicks more.
    assert "Your turn" in p2.view_text()
    await p2.draw()
    before = clicks(server.emu, p2.actor)
    await p2.lay_off(["7H"])
    assert clicks(server.emu, p2.actor) - before <= 2
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert [str(card) for card in table.match.hand.melds[0].cards] == ["4H", "5H", "6H", "7H"]
    await p2.discard("QD")
    await bot.game.tasks.wait_idle()

    # p1: a plain turn: draw, pick a card, discard it.
    assert "Your turn" in p1.view_text()
    before = clicks(server.emu, p1.actor)
    await p1.draw()  # 10 of diamonds
    await p1.discard("10D")
    assert clicks(server.emu, p1.actor) - before <= 3
    assert len(table.match.hand.hand_of(p1.key)) == 2
