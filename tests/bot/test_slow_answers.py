"""Every click is answered within Discord's 3 seconds, even when Discord answers
slowly or the database is held by someone else."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tables import NOT_SAVED

from .conftest import LaunchBot, Server
from .test_play import heads_up


async def test_a_look_is_not_held_behind_another_players_slow_answer(
    server: Server, launch: LaunchBot
) -> None:
    bot, mover, waiter = await heads_up(server, launch)
    await mover.open_hand()
    await waiter.open_hand()
    await mover.draw()
    await mover.choose([mover.hand()[0]])
    await bot.game.tasks.wait_idle()
    # Every answer now takes Discord 2.5 s to take in.
    server.emu.slow_down("POST /interactions/*/*/callback", 2.5, times=10)
    mover.settle = waiter.settle = None
    discard, sort = await asyncio.gather(mover.press("Discard"), waiter.press("Sort by suit"))
    for reply in (discard, sort):
        assert reply.answered and reply.latency is not None and reply.latency < 3.0
    assert waiter.button_enabled("Sort by rank")


def hold_the_database(path: Path, seconds: float) -> None:
    """Another program takes the database's write lock for ``seconds``."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(seconds, lambda: (other.rollback(), other.close()))


async def test_a_move_waiting_for_the_database_is_deferred_then_shown(
    server: Server, launch: LaunchBot, db_path: Path
) -> None:
    bot, mover, _ = await heads_up(server, launch)
    await mover.open_hand()
    held = len(mover.hand())
    hold_the_database(db_path, 3.5)
    reply = await mover.draw()
    assert reply.answered and reply.type == 6  # deferred
    assert reply.latency is not None and reply.latency < 3.0
    await bot.game.tasks.wait_idle()
    assert len(mover.hand()) == held + 1  # the hand message shows the drawn card


async def test_a_move_the_database_never_takes_is_deferred_then_refused(
    server: Server, launch: LaunchBot, db_path: Path
) -> None:
    bot, mover, _ = await heads_up(server, launch)
    await mover.open_hand()
    before = len(mover.hand())
    hold_the_database(db_path, 8.0)
    reply = await mover.draw()
    assert reply.answered and reply.latency is not None and reply.latency < 3.0
    await bot.game.tasks.wait_idle(limit=10)
    assert reply.followups == []  # told in the hand message itself
    assert NOT_SAVED in mover.view_text()
    assert len(mover.hand()) == before
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert len(table.match.hand.hand_of(mover.key)) == before
