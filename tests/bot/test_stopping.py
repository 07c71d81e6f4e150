"""Stopping the bot: SIGTERM (``docker stop``, systemd) and Ctrl-C finish what
is in flight, lose nothing and exit 0; a click on the way down is told why."""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

from fakediscord import FakeDiscord
from tests.bot_process import BotProcess

from .conftest import LaunchBot, Server, populate
from .harness import TablePlayer, table_message
from .test_play import dealt_table, heads_up, host_panel, press_start

# discord.py's log line of each reconnect's backoff, in seconds.
RECONNECT = re.compile(r"Attempting a reconnect for shard ID \d+ in ([0-9.]+)s")


async def opened(players: list[TablePlayer]) -> TablePlayer:
    """Everyone opens their hand; the one whose turn it is."""
    for player in players:
        await player.open_hand()
    (first,) = [p for p in players if "**Your turn**" in p.view_text()]
    return first


async def test_sigterm_during_play_loses_nothing_and_exits_0(
    server: Server, db_path: Path, tmp_path: Path
) -> None:
    emu = server.emu
    bot = await BotProcess.start(emu, db_path, tmp_path / "first.log")
    try:
        await bot.wait_connected(emu)
        lobby = await server.ann.slash(server.channel, "rummy start")
        panel = await host_panel(lobby)
        await server.bob.click(lobby.message, label="Join")
        await press_start(server.ann, panel)
        await dealt_table(emu, server.channel)
        players = [server.player(server.ann), server.player(server.bob)]
        first = await opened(players)
        # The draw's answer is on its way (Discord slow to take it) when the
        # signal comes: the bot finishes it before it goes.
        slow = emu.slow_down("POST /interactions/*/callback", 1.0)
        drawing = asyncio.create_task(first.draw())
        await emu._wait_until(lambda: slow.hits > 0, 5)
        bot.process.send_signal(signal.SIGTERM)
        drawn = await drawing
        code = await asyncio.wait_for(bot.process.wait(), 10)
        assert "You drew" in drawn.text()
    finally:
        await bot.stop()
    assert code == 0, bot.log_tail()
    assert bot.log_counts()[0] == 0, bot.log_tail()

    # The next process picks the game up where the draw left it.
    again = await BotProcess.start(emu, db_path, tmp_path / "second.log")
    try:
        await again.wait_connected(emu)
        reply = await first.open_hand()
        assert reply.ephemeral and first.button_enabled("Discard") is False
        assert "Pick cards to meld or lay off" in first.view_text()
        assert len(first.hand()) == 11
    finally:
        assert await again.stop() == 0


async def test_a_click_while_stopping_changes_nothing_and_says_why(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    await first.open_hand()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    before = table.to_dict()
    bot.game.tasks.stopping = True
    try:
        table_now = table_message(server.emu, server.channel)
        reply = await first.actor.click(table_now, label="Show hand")
        assert reply.ephemeral and "restarting" in reply.text()
        command = await server.ann.slash(server.channel, "rummy rules")
        assert command.ephemeral and "restarting" in command.text()
    finally:
        bot.game.tasks.stopping = False
    assert table.to_dict() == before


async def test_a_stop_while_discord_is_unreachable_does_not_wait_out_the_reconnect(
    tmp_path: Path
) -> None:
    emu = FakeDiscord()
    await emu.start()
    populate(emu)
    bot = await BotProcess.start(emu, tmp_path / "rummy.sqlite3", tmp_path / "bot.log",
                                 extra_env={"LOG_LEVEL": "INFO"})
    try:
        await bot.wait_connected(emu)
        await emu.stop()  # Discord goes away, and stays away
        # discord.py retries after a random backoff that doubles each time:
        # wait until one of at least 20 s is under way.
        backoff = 0.0
        for _ in range(1200):
            waits = RECONNECT.findall((tmp_path / "bot.log").read_text())
            backoff = float(waits[-1]) if waits else 0.0
            if backoff >= 20:
                break
            await asyncio.sleep(0.1)
        assert backoff >= 20, "discord.py never waited long before reconnecting"
        bot.process.send_signal(signal.SIGTERM)
        # Well before that backoff is out, the bot has stopped.
        code = await asyncio.wait_for(bot.process.wait(), backoff / 2)
    finally:
        await bot.stop()
    assert code == 0, bot.log_tail()
    assert "stopping: finishing the clicks in flight" in (tmp_path / "bot.log").read_text()
