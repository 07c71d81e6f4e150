"""Controls act only in their own game and on their own message: stale and
forged clicks are refused, change nothing, and never show a hand in public."""

from __future__ import annotations

from bot import RummyBot
from presentation.actions import LEADERBOARD_PAGE, REFRESH, SHOW_HAND

from .conftest import LaunchBot, Server
from .harness import TablePlayer, table_message
from .test_play import heads_up, in_turn_order, start_game


def match_state(bot: RummyBot, server: Server) -> dict[str, object]:
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    return table.match.to_dict()


async def test_an_ended_games_hand_controls_never_act_in_the_next_game(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    await first.open_hand()
    old_view = first.view
    assert old_view is not None
    draw = old_view.button("Draw from stock")["custom_id"]
    ended = await server.ann.slash(server.channel, "rummy end")
    assert "ended" in ended.text()
    await bot.game.tasks.wait_idle()
    # The old message says the game ended and offers nothing more to press...
    assert "This game has ended" in old_view.text() and old_view.buttons() == []
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    before = match_state(bot, server)
    # ...and a client that still shows its Draw button (or forges it) acts in no game.
    stale = await first.actor.forge_click(old_view, draw)
    assert stale.ephemeral and "not one I recognise" in stale.text()
    await bot.game.tasks.wait_idle()
    assert match_state(bot, server) == before


async def test_a_leaderboard_id_forged_onto_the_table_is_refused(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    table = table_message(server.emu, server.channel)
    shown = table.text()
    forged = await first.actor.forge_click(table, LEADERBOARD_PAGE.id(server.guild.id, "wins.1"))
    assert forged.ephemeral and "not one I recognise" in forged.text()
    await bot.game.tasks.wait_idle()
    assert table_message(server.emu, server.channel).text() == shown


async def test_a_hand_control_forged_onto_the_table_never_shows_a_hand(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    await first.open_hand()
    assert first.view is not None
    sort_id = first.view.button("Sort by suit")["custom_id"]
    table = table_message(server.emu, server.channel)
    forged = await first.actor.forge_click(table, sort_id)
    assert forged.ephemeral and "not one I recognise" in forged.text()
    # The player's next move must not redraw their hand onto the public message.
    await first.draw()
    await first.discard(first.hand()[0])
    await bot.game.tasks.wait_idle()
    public = table_message(server.emu, server.channel)
    assert public.id == table.id and "Your hand" not in public.text()
    assert public.buttons()[0]["label"] == "Show hand"


async def test_a_table_control_forged_onto_a_hand_message_is_refused(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    await first.open_hand()
    assert first.view is not None
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    scope = f"{table.channel_id}-{table.game_id}"
    forged = await first.actor.forge_click(first.view, SHOW_HAND.id(scope))
    assert forged.ephemeral and "not one I recognise" in forged.text()
    # A real id of a hand control that this message does not show is refused too.
    other = await first.actor.forge_click(first.view, REFRESH.id(scope, 99))
    assert other.ephemeral and "not one I recognise" in other.text()


async def test_a_move_whose_answer_failed_is_not_called_undone(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    mover: TablePlayer = in_turn_order(bot, server, seated)[0]
    await mover.open_hand()
    held = len(mover.hand())
    server.emu.fail_next("POST /interactions/*/*/callback", status=403, code=50001)
    reply = await mover.draw()
    await bot.game.tasks.wait_idle()
    assert "nothing was changed" not in reply.text()
    assert "That was done" in reply.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert len(table.match.hand.hand_of(mover.key)) == held + 1


async def test_a_forged_option_out_of_its_range_is_refused_as_discord_would(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()  # fails the test if the bot logs an error
    zero = await server.ann.forge_slash(server.channel, "rummy history", {"page": 0}, page=1)
    assert zero.ephemeral and "`page` must be from 1 to 100,000" in zero.text(), zero.text()
    huge = await server.ann.forge_slash(server.channel, "rummy start", {"target": 10**9},
                                        target=100)
    assert huge.ephemeral and "`target` must be from" in huge.text(), huge.text()
    assert bot.game.tables.get(server.channel.id) is None
