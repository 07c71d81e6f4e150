"""A finished click is freed at once, not left for the cyclic garbage collector.

At hundreds of clicks a second, clicks left in reference cycles made the
collector's passes long enough to stall every table (see
``transport.events.release_interaction``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import discord

from .conftest import LaunchBot, Server
from .test_play import heads_up


@contextmanager
def collector_paused() -> Iterator[list[object]]:
    """Turn automatic collection off; on leaving, collect and report what only a
    cycle kept alive (the list is filled after the ``with`` block)."""
    garbage: list[object] = []
    gc.collect()
    gc.disable()
    try:
        yield garbage
    finally:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            garbage.extend(gc.garbage)
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
            gc.enable()


async def test_clicks_leave_no_interaction_for_the_collector(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    with collector_paused() as garbage:
        await first.open_hand()
        await first.draw()
        await first.discard(first.hand()[0])
        await bot.game.tasks.wait_idle()
    cycled = [item for item in garbage if isinstance(item, discord.Interaction)]
    assert cycled == []
    # The same check sees a cycle when there is one: it is not blind.
    with collector_paused() as garbage:
        trapped: list[object] = []
        trapped.append(trapped)
        del trapped
    assert any(isinstance(item, list) and item and item[0] is item for item in garbage)


async def test_a_click_parses_only_the_id_of_the_message_it_was_on(
    server: Server, launch: LaunchBot
) -> None:
    bot, first, _ = await heads_up(server, launch)
    await first.open_hand()
    seen: list[discord.Message | None] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction.message)

    bot.add_listener(on_interaction)
    clicked = first._hand_view()
    assert clicked.components and "Your hand" in clicked.text()  # what the click carries...
    reply = await first.draw()
    bot.remove_listener(on_interaction)
    assert reply.answered
    (message,) = seen
    assert message is not None and message.id == clicked.id  # ...and what is parsed of it
    assert message.components == [] and message.embeds == []
