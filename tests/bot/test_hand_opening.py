"""Show hand answers without holding the table: others play on meanwhile, and a
view that was on its way while the turn came to its player still shows it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from transport import callbacks

from .conftest import LaunchBot, Server
from .test_play import heads_up, start_game


async def test_a_hand_view_sent_while_play_moves_on_catches_up(
    server: Server, launch: LaunchBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot, mover, waiter = await heads_up(server, launch)
    await mover.open_hand()
    send = callbacks.open_message
    played: list[bool] = []

    async def mover_plays_a_turn() -> None:
        mover.settle = None  # the bot is busy with the waiter's click: don't wait for it
        await mover.draw()
        await mover.discard(mover.hand()[0])

    async def slow_send(interaction: Any, *args: Any, **kwargs: Any) -> int | None:
        if interaction.user.id == waiter.actor.id and not played:
            # The answer is on the network while the other player takes a
            # whole turn, handing the turn to the waiter. That needs the table.
            await asyncio.wait_for(mover_plays_a_turn(), timeout=2)
            played.append(True)
        return await send(interaction, *args, **kwargs)

    monkeypatch.setattr(callbacks, "open_message", slow_send)
    waiter.settle = None
    opened = await waiter.open_hand()
    await bot.game.tasks.wait_idle()
    assert played and opened.answered
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.current_seat is not None
    assert table.current_seat.key == waiter.key
    # Built before the turn came, brought up to date after it arrived.
    assert waiter.button_enabled("Draw from stock")


async def test_a_hand_opens_while_a_saved_change_is_still_being_answered(
    server: Server, launch: LaunchBot
) -> None:
    """Show hand waits for a change to be saved, not for the lock over its answer."""
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    await table.lock.acquire()  # another click is changing the table...
    opening = asyncio.create_task(seated[1].open_hand())
    await asyncio.sleep(0.2)
    assert not opening.done()  # ...so nobody may look at it yet
    table.lock.mark_saved()  # the change is on disk; its answer is still on the way
    reply = await asyncio.wait_for(opening, 5)
    assert table.lock.locked()
    assert reply.answered and reply.ephemeral and reply.message.buttons()
    table.lock.release()
