"""Whole hands played through clicks: going out, rummy, empty stocks, lay-offs."""

from __future__ import annotations

from bot import RummyBot
from chat.table_side import chat_side
from fakediscord import Actor, FakeDiscord
from fakediscord.core.actors import Reply
from fakediscord.core.world import Channel, Message
from tests.waiting import until

from .conftest import LaunchBot, Server
from .harness import TablePlayer, rig_hand, table_message


async def host_panel(opened: Reply) -> Message:
    """The host's own controls, sent after the lobby ``opened`` answered with
    (a follow-up, so it may land a moment after the answer)."""
    await until(lambda: bool(opened.followups), "the host's controls")
    panel = opened.followups[0]
    assert panel.ephemeral
    return panel


async def press_start(actor: Actor, panel: Message) -> Reply:
    """Start, once the host's controls show it can be pressed: they follow the
    joins a moment after each is answered, and grey it out until two are seated."""
    start = button_id(panel, "start")

    def enabled() -> bool:
        return not next(b for b in panel.buttons() if b["custom_id"] == start)["disabled"]

    await until(enabled, "Start to be enabled")
    return await actor.click(panel, custom_id=start)


def button_id(message: Message, action: str) -> str:
    """A button's custom id by its action: the lobby may be in any language."""
    return next(b["custom_id"] for b in message.buttons() if f":{action}:" in b["custom_id"])


async def dealt_table(emu: FakeDiscord, channel: Channel) -> Message:
    """The public table once it shows the dealt hand: Start answers in the host's
    own controls, and the public message is drawn a moment later."""

    def shown() -> bool:
        public = table_message(emu, channel)
        return any(b["label"] == "Show hand" for b in public.buttons())

    await until(shown, "the dealt table")
    return table_message(emu, channel)


async def start_game(
    server: Server, bot: RummyBot, seated: list[TablePlayer], **options: object
) -> None:
    for player in seated:
        player.settle = bot.game.tasks.wait_idle
    lobby = await seated[0].actor.slash(server.channel, "rummy start", **options)
    assert lobby.message is not None
    panel = await host_panel(lobby)
    join = button_id(lobby.message, "join")
    for player in seated[1:]:
        await player.actor.click(lobby.message, custom_id=join)
    await press_start(seated[0].actor, panel)
    await bot.game.tasks.wait_idle()


async def heads_up(
    server: Server, launch: LaunchBot
) -> tuple[RummyBot, TablePlayer, TablePlayer]:
    """The bot with Ann and Bob dealt in: (bot, whoever moves first, the other)."""
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    first, second = in_turn_order(bot, server, seated)
    return bot, first, second


def in_turn_order(bot: RummyBot, server: Server, seated: list[TablePlayer]) -> list[TablePlayer]:
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    first = table.match.hand.turn
    by_key = {p.key: p for p in seated}
    order = list(table.match.players)
    start = order.index(first)  # type: ignore[arg-type]
    return [by_key[k] for k in order[start:] + order[:start]]


async def test_going_out_by_discard_after_melding(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, hands=1)
    p1, p2 = in_turn_order(bot, server, seated)
    await rig_hand(
        bot,
        server.channel.id,
        {p1.key: ["7S", "8S", "9S", "2D"], p2.key: ["QH", "QD", "6C", "6D"]},
        stock=["KD", "5C", "10S", "4H", "4S"],
        discard=["JC"],
    )
    await p1.open_hand()
    await p1.draw()
    melded = await p1.meld(["7S", "8S", "9S"])
    assert "7♠ 8♠ 9♠" in melded.text()
    await p1.discard("KD")
    await p2.open_hand()
    await p2.draw()
    await p2.discard("5C")
    await p1.draw()
    laid = await p1.lay_off(["10S"])
    assert "7♠ 8♠ 9♠ 10♠" in laid.text()
    final = await p1.discard("2D")
    await bot.game.tasks.wait_idle()
    result = table_message(server.emu, server.channel).text()
    assert "went out" in result and "rummy" not in result.lower().split("went out")[1][:20]
    assert "scores **32**" in result
    assert "wins the match" in result
    assert final.ephemeral
    assert bot.game.tables.get(server.channel.id) is None
    assert bot.db is not None
    board = await bot.db.leaderboard(server.guild.id)
    assert next((row.user_id, row.points, row.matches_won) for row in board.rows) == (
        p1.actor.id,
        32,
        1,
    )


async def test_going_rummy_by_melding_everything(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    seated = [server.player(a) for a in (server.ann, server.bob, server.cat)]
    await start_game(server, bot, seated, hands=2)
    p1, p2, p3 = in_turn_order(bot, server, seated)
    await rig_hand(
        bot,
        server.channel.id,
        {p1.key: ["4H", "5H", "6H", "JC", "JD", "JS"], p2.key: ["2C", "3D"], p3.key: ["KS", "KH"]},
        stock=["7H", "9C", "9D"],
        discard=["AC"],
    )
    await p1.open_hand()
    await p1.draw()
    await p1.meld(["4H", "5H", "6H", "7H"])
    done = await p1.meld(["JC", "JD", "JS"])
    await bot.game.tasks.wait_idle()
    result = table_message(server.emu, server.channel).text()
    assert "rummy!" in result and "doubled" in result
    assert "scores **50**" in result  # (2 + 3 + 10 + 10) doubled
    assert "Your hand" not in done.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None and table.match.totals[p1.key] == 50
    # The next hand is dealt on a fresh message by any seated player.
    old = table_message(server.emu, server.channel)
    outsider = await server.dan.click(old, label="Next hand")
    assert outsider.ephemeral and "not playing" in outsider.text()
    dealt = await p3.actor.click(old, label="Next hand")
    assert dealt.message is not None and not dealt.message.buttons()
    await bot.game.tasks.wait_idle()
    fresh = table_message(server.emu, server.channel)
    assert fresh.id != old.id and "hand 2" in fresh.text().lower()


async def dealt_heads_up(
    server: Server,
    bot: RummyBot,
    first: list[str],
    second: list[str],
    stock: list[str],
    discard: list[str],
    **options: object,
) -> tuple[TablePlayer, TablePlayer]:
    """Ann and Bob dealt in with these cards, returned in turn order: ``first``
    is the hand of whoever moves first."""
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, **options)
    p1, p2 = in_turn_order(bot, server, seated)
    await rig_hand(
        bot, server.channel.id, {p1.key: first, p2.key: second}, stock=stock, discard=discard
    )
    return p1, p2


async def rigged_heads_up(
    server: Server, bot: RummyBot, **options: object
) -> tuple[TablePlayer, TablePlayer]:
    """Ann and Bob dealt in, in turn order: the first holds 4-5-6 of hearts
    with the 7 on the stock, the second two loose cards."""
    return await dealt_heads_up(
        server, bot, ["4H", "5H", "6H"], ["KC", "2D"], ["7H", "8C"], ["AC"], **options
    )


async def rigged_three(server: Server, bot: RummyBot, hands: int = 2) -> list[TablePlayer]:
    """Ann, Bob and Cat dealt in, in turn order: the first holds 4-5-6 of hearts
    with the 7 on the stock (goes out in one turn), the others two loose cards."""
    seated = [server.player(server.ann), server.player(server.bob), server.player(server.cat)]
    await start_game(server, bot, seated, hands=hands)
    p1, p2, p3 = in_turn_order(bot, server, seated)
    await rig_hand(bot, server.channel.id,
                   {p1.key: ["4H", "5H", "6H"], p2.key: ["KC", "2D"], p3.key: ["9S", "QD"]},
                   stock=["7H", "8C"], discard=["AC"])
    return [p1, p2, p3]


async def finish_first_hand(server: Server, bot: RummyBot) -> list[TablePlayer]:
    """Ann and Bob dealt in for two hands, the first one already over (in turn order)."""
    p1, p2 = await rigged_heads_up(server, bot, hands=2)
    await p1.open_hand()
    await p1.draw()
    await p1.meld(["4H", "5H", "6H"])
    await p1.discard("7H")
    await bot.game.tasks.wait_idle()
    return [p1, p2]


async def test_next_hand_is_answered_before_its_table_message_is_out(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    _, dealer = await finish_first_hand(server, bot)
    old = table_message(server.emu, server.channel)
    # The new table message is held up (rate limited), the answer is not.
    held = server.emu.fail_next("POST /channels/*/messages", status=429, retry_after=0.5)
    dealt = await dealer.actor.click(old, label="Next hand")
    assert not dealt.ephemeral and dealt.message is not None and not dealt.message.buttons()
    assert table_message(server.emu, server.channel).id == old.id
    await bot.game.tasks.wait_idle()
    assert held.hits == 1
    fresh = table_message(server.emu, server.channel)
    assert fresh.id != old.id and "hand 2" in fresh.text().lower()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and chat_side(table).message_id == fresh.id
    # The finished hand's message keeps its result.
    kept = server.emu.message(server.channel, old.id)
    assert kept is not None and "scores" in kept.text() and not kept.buttons()
    saved = (await bot.db.load_live_tables()).tables
    assert [row.message_id for row in saved] == [fresh.id]


async def test_next_hand_stays_on_the_old_message_if_the_channel_refuses_a_new_one(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = await finish_first_hand(server, bot)
    old = table_message(server.emu, server.channel)
    server.emu.fail_next(
        "POST /channels/*/messages", status=403, code=50013, message="Missing Permissions"
    )
    dealt = await seated[1].actor.click(old, label="Next hand")
    assert not dealt.ephemeral
    await bot.game.tasks.wait_idle()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.hand_number == 2 and chat_side(table).message_id == old.id
    # The old message now shows the new hand, and play goes on from it.
    shown = table_message(server.emu, server.channel)
    assert shown.id == old.id and "hand 2" in shown.text().lower()
    first = in_turn_order(bot, server, seated)[0]
    opened = await first.open_hand()
    assert opened.ephemeral and "Your hand" in opened.text()


async def test_a_deleted_table_message_is_replaced_by_a_fresh_one(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    old = table_message(server.emu, server.channel)
    server.emu.fail_next(
        "PATCH /channels/*/messages/*", status=404, code=10008, message="Unknown Message"
    )
    await first.open_hand()
    await first.draw()
    await bot.game.tasks.wait_idle()
    fresh = table_message(server.emu, server.channel)
    assert fresh.id != old.id and "Show hand" in [b.get("label") for b in fresh.buttons()]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and chat_side(table).message_id == fresh.id
    saved = (await bot.db.load_live_tables()).tables
    assert [row.message_id for row in saved] == [fresh.id]


async def test_discard_only_rule_keeps_a_card_to_throw(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    p1, _ = await rigged_heads_up(server, bot, go_out="discard_only", hands=1)
    await p1.open_hand()
    await p1.draw()
    await p1.choose(["4H", "5H", "6H", "7H"])
    assert not p1.button_enabled("Meld")  # it would leave no card to discard
    refused = await p1.press("Meld", force=True)
    assert refused.type == 7 and "⚠️" in refused.text() and "discard" in refused.text().lower()
    assert sorted(p1.hand()) == sorted(["4H", "5H", "6H", "7H"])
    await p1.meld(["4H", "5H", "6H"])
    await p1.discard("7H")
    await bot.game.tasks.wait_idle()
    assert "scores **24**" in table_message(server.emu, server.channel).text()  # rummy: doubled


async def test_turn_over_rule_ends_the_second_time_the_stock_runs_out(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, empty_stock="turn_over", hands=1)
    p1, p2 = in_turn_order(bot, server, seated)
    await rig_hand(
        bot,
        server.channel.id,
        {p1.key: ["KH", "QH"], p2.key: ["2S", "3D"]},
        stock=["9C"],
        discard=["2C", "5D", "JD"],
    )
    await p1.open_hand()
    await p2.open_hand()
    await p1.draw()
    await p1.discard("KH")
    turned = await p2.draw()  # declines the discard: the pile turns over, 2C on top
    assert "2C" in p2.hand()
    await bot.game.tasks.wait_idle()
    assert "turned over" in table_message(server.emu, server.channel).text()
    assert "2C" in p2.hand() and turned.ephemeral
    await p2.discard("3D")
    await p1.draw()
    await p1.discard("QH")
    await p2.draw()
    await p2.discard("JD")
    await p1.draw()
    await p1.discard("KH")
    await p2.draw()  # the stock is empty a second time: nobody is out
    await bot.game.tasks.wait_idle()
    result = table_message(server.emu, server.channel).text()
    assert "Nobody went out" in result
    assert "scores **10**" in result  # 14 - 4


async def test_reshuffle_rule_rebuilds_the_stock_under_the_top_card(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, hands=1)
    p1, p2 = in_turn_order(bot, server, seated)
    await rig_hand(
        bot,
        server.channel.id,
        {p1.key: ["KH", "QH"], p2.key: ["2S", "3D"]},
        stock=["9C"],
        discard=["2C", "5D", "JD"],
    )
    await p1.open_hand()
    await p1.draw()
    await p1.discard("KH")
    await p2.open_hand()
    await p2.draw()
    await bot.game.tasks.wait_idle()
    table_text = table_message(server.emu, server.channel).text()
    assert "shuffled" in table_text and "K♥" in table_text
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert table.match.hand.stock_size == 2 and str(table.match.hand.discard_top) == "KH"


async def test_lay_off_that_fits_two_melds_asks_which(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    p1, _ = await dealt_heads_up(
        server, bot, ["5H", "6H", "7H", "8S", "8D", "8C", "8H", "2C"], ["KC", "KD"],
        ["QD", "3S"], ["AC"],
    )
    await p1.open_hand()
    await p1.draw()
    await p1.meld(["5H", "6H", "7H"])
    await p1.meld(["8S", "8D", "8C"])
    await p1.choose(["8H"])
    assert p1.meld_choice() == ["0", "1"]  # one Lay off button for each meld it fits
    chosen = await p1.press("Lay off on 2")
    assert chosen.type == 7 and "8♥" in chosen.text().split("`2`")[1]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert len(table.match.hand.melds[1].cards) == 4
    assert len(table.match.hand.melds[0].cards) == 3
    await bot.game.tasks.wait_idle()
    assert "laid off 8♥ on meld 2" in table_message(server.emu, server.channel).text()


async def test_the_hand_message_lists_draws_from_the_stock_without_the_card(
    server: Server, launch: LaunchBot
) -> None:
    """As the table does: the others see who drew blind, never what they drew."""
    bot = await launch()
    p1, p2 = await rigged_heads_up(server, bot)
    for player in (p1, p2):
        await player.open_hand()
    await p1.draw()  # the 7♥
    await p1.discard("4H")
    await bot.game.tasks.wait_idle()
    seen = p2.view_text()
    first = p1.actor.name
    assert "**So far this hand**" in seen
    assert f"-# {first} drew from the stock\n-# {first} discarded 4♥" in seen, seen
    assert "7♥" not in seen
    await p2.draw()  # the 8♣
    await p2.discard("KC")
    await bot.game.tasks.wait_idle()
    seen = p1.view_text()
    second = p2.actor.name
    assert (
        f"**Since your last turn**\n-# {second} drew from the stock\n-# {second} discarded K♣"
        in seen
    ), seen
    assert "8♣" not in seen
