"""The lobby: opening, seats, computer players, who may start or cancel."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from bot import RummyBot
from db import LiveTable
from fakediscord import FakeDiscord
from fakediscord.core.actors import Reply
from fakediscord.core.rest.faults import Fault
from tests.waiting import until

from .conftest import LaunchBot, Server
from .harness import table_message
from .test_play import button_id, host_panel


def seat_lines(emu: FakeDiscord, server: Server) -> str:
    return table_message(emu, server.channel).text()


async def test_lobby_join_leave_and_start(server: Server, launch: LaunchBot) -> None:
    emu = server.emu
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start", target=50)
    assert opened.answered and not opened.ephemeral
    assert "Ann" in opened.text() and "first to 50" in opened.text().lower()

    joined = await server.bob.click(opened.message, label="Join")
    assert joined.type == 7 and "Bob" in joined.text()
    again = await server.bob.click(opened.message, label="Join")
    assert again.ephemeral and "already have a seat" in again.text()

    left = await server.bob.click(opened.message, label="Leave")
    assert "Bob" not in left.message.text().split("Seats", 1)[1].split("House rules")[0]
    not_seated = await server.cat.click(opened.message, label="Leave")
    assert not_seated.ephemeral and "don't have a seat" in not_seated.text()

    panel = await host_panel(opened)
    assert panel.button("Start")["disabled"]
    alone = await server.ann.click(panel, label="Start", allow_disabled=True)  # an older panel
    assert alone.ephemeral and "At least 2 players" in alone.text()

    await server.bob.click(opened.message, label="Join")
    not_host = await server.bob.forge_click(opened.message, button_id(panel, "start"))
    assert not_host.ephemeral and "Only the host" in not_host.text()

    await bot.game.tasks.wait_idle()  # the host's controls follow the Join
    started = await server.ann.click(panel, label="Start")
    assert started.type == 7 and started.ephemeral and "already started" in started.text()
    assert started.message is not None and started.message.buttons() == []
    await bot.game.tasks.wait_idle()
    assert panel.deleted  # the host's controls do not linger once the game is on
    public = opened.message
    assert public is not None and "hand 1" in public.text().lower()
    assert {b["label"] for b in public.buttons()} == {"Show hand", "Rules"}

    late = await server.cat.click(opened.message, label="Show hand")
    assert late.ephemeral and "not playing" in late.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Bob"]
    await bot.game.tasks.wait_idle()
    # Both players were dealt their hands by DM.
    assert any("Your cards" in m.text() for m in server.ann.dms())
    assert any("Your cards" in m.text() for m in server.bob.dms())
    assert emu.messages(server.channel)  # the table is public


async def test_second_start_points_at_the_running_game(server: Server, launch: LaunchBot) -> None:
    await launch()
    await server.ann.slash(server.channel, "rummy start")
    second = await server.bob.slash(server.channel, "rummy start")
    assert second.ephemeral and "already open in this channel" in second.text()
    # Another channel is free for its own game.
    other = await server.bob.slash(server.other_channel, "rummy start")
    assert not other.ephemeral and "Bob" in other.text()


async def test_contradictory_options_are_refused(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    reply = await server.ann.slash(server.channel, "rummy start", target=50, hands=3)
    assert reply.ephemeral and "not both" in reply.text()
    assert bot.game.tables.get(server.channel.id) is None


async def test_computers_join_and_only_the_host_adds_them(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    lobby = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(lobby)
    await server.bob.click(lobby.message, label="Join")
    hard = panel.button("Add computer (hard)")["custom_id"]
    refused = await server.bob.forge_click(lobby.message, hard)
    assert refused.ephemeral and "Only the host" in refused.text()
    for _ in range(4):
        await server.ann.click(panel, label="Add computer (easy)")
    assert panel.button("Add computer (easy)").get("disabled") and "6/6" in panel.text()
    await bot.game.tasks.wait_idle()
    full = lobby.message
    assert full is not None and full.button("Join").get("disabled")
    assert "🤖" in full.text() and "6/6" in full.text()
    removed = await server.ann.click(panel, label="Remove computer")
    assert removed.type == 7 and "5/6" in removed.text()
    await bot.game.tasks.wait_idle()
    assert "5/6" in full.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and sum(s.is_computer for s in table.seats) == 3


async def test_cancel_frees_the_channel(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    lobby = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(lobby)
    await server.bob.click(lobby.message, label="Join")
    refused = await server.bob.forge_click(lobby.message, button_id(panel, "cancel"))
    assert refused.ephemeral and "Only the host" in refused.text()
    cancelled = await server.ann.click(panel, label="Cancel")
    assert cancelled.type == 7 and cancelled.message is not None
    assert not cancelled.message.buttons() and "no game running" in cancelled.text()
    await bot.game.tasks.wait_idle()
    assert panel.deleted
    assert lobby.message is not None and "cancelled" in lobby.message.text()
    assert not lobby.message.buttons()
    assert bot.game.tables.get(server.channel.id) is None
    assert bot.db is not None and (await bot.db.load_live_tables()).tables == []
    fresh = await server.bob.slash(server.channel, "rummy start")
    assert not fresh.ephemeral


async def test_simultaneous_joins_take_distinct_seats(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    lobby = await server.ann.slash(server.channel, "rummy start")
    actors = [server.bob, server.cat, server.dan, server.eve, server.fay, server.outsider]
    replies = await asyncio.gather(*(a.click(lobby.message, label="Join") for a in actors))
    accepted = [r for r in replies if not r.ephemeral]
    refused = [r for r in replies if r.ephemeral]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and len(table.seats) == 6
    assert len(accepted) == 5 and len(refused) == 1 and "full" in refused[0].text()
    assert all(r.answered for r in replies)


async def test_lobby_left_alone_closes_itself(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    lobby = await server.ann.slash(server.channel, "rummy start")
    panel = await host_panel(lobby)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    await bot.game.automation.sweep(now=table.created_at + 14 * 60)
    assert bot.game.tables.get(server.channel.id) is table
    await bot.game.automation.sweep(now=table.created_at + 15 * 60 + 1)
    await bot.game.tasks.wait_idle()
    assert bot.game.tables.get(server.channel.id) is None
    assert lobby.message is not None and "lobby closed" in lobby.message.text()
    assert not lobby.message.buttons()
    # The host's controls go with it.
    assert panel.deleted


async def test_start_is_refused_where_the_bot_cannot_post(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    server.emu.set_permissions(server.channel, server.emu.bot_user, deny=2048)  # Send Messages
    reply = await server.ann.slash(server.channel, "rummy start")
    assert reply.ephemeral and "Send Messages" in reply.text()
    assert bot.game.tables.get(server.channel.id) is None
    other = await server.ann.slash(server.other_channel, "rummy start")
    assert not other.ephemeral


async def test_failed_database_read_still_answers(server: Server, launch: LaunchBot) -> None:
    bot = await launch(allow_errors=True)
    assert bot.db is not None
    bot.db.abandon()  # every read now fails
    reply = await server.ann.slash(server.channel, "rummy leaderboard")
    assert reply.answered and reply.ephemeral and "went wrong" in reply.text()


async def test_the_lobby_is_saved_with_its_message_before_anyone_joins(
    server: Server, launch: LaunchBot
) -> None:
    """A restart before the first Join still knows which message is the lobby."""
    bot = await launch()
    opened = await server.ann.slash(server.channel, "rummy start")
    await bot.game.tasks.wait_idle()
    assert bot.db is not None
    saved = (await bot.db.load_live_tables()).tables
    assert [(t.channel_id, t.message_id) for t in saved] == [
        (server.channel.id, opened.message.id)
    ]


@dataclass
class Held:
    click: asyncio.Task[Reply]
    fault: Fault

    async def answered(self) -> Reply:
        reply = await self.click
        assert self.fault.hits == 1 and reply.answered
        return reply


async def bob_joins_slowly(server: Server, launch: LaunchBot) -> tuple[RummyBot, Reply, Held]:
    """A lobby where Bob's Join is saved but its answer is held up (rate limited,
    retried by discord.py a moment later); returns once his seat is taken."""
    bot = await launch()
    lobby = await server.ann.slash(server.channel, "rummy start")
    limited = server.emu.fail_next("POST /interactions/*/callback", status=429, retry_after=0.3)
    bob = asyncio.create_task(server.bob.click(lobby.message, label="Join"))
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    await until(lambda: len(table.seats) == 2)
    return bot, lobby, Held(bob, limited)


async def test_lobby_answers_land_in_the_order_of_the_joins(
    server: Server, launch: LaunchBot
) -> None:
    """A slow lobby answer is not overtaken by a later one showing more seats."""
    _, lobby, bob = await bob_joins_slowly(server, launch)
    cat = await server.cat.click(lobby.message, label="Join")
    await bob.answered()
    assert cat.answered and "Cat" in cat.text()
    shown = seat_lines(server.emu, server)
    assert "Bob" in shown and "Cat" in shown


async def test_the_deal_is_not_overwritten_by_a_join_answered_before_it(
    server: Server, launch: LaunchBot
) -> None:
    bot, lobby, bob = await bob_joins_slowly(server, launch)
    # The host's controls follow Bob's seat only once his answer is out: a
    # Start that comes before (from the Activity, or an older message) deals.
    started = await server.ann.click(await host_panel(lobby), label="Start", allow_disabled=True)
    await bob.answered()
    assert started.answered
    await bot.game.tasks.wait_idle()
    shown = table_message(server.emu, server.channel)
    assert {b["label"] for b in shown.buttons()} == {"Show hand", "Rules"}


async def joins_waiting_on_a_busy_table(
    server: Server, launch: LaunchBot, *, allow_errors: bool = False
) -> tuple[RummyBot, Reply, list[asyncio.Task[Reply]], list[int], Callable[[], None]]:
    """Bob, Cat and Dan press Join while another click holds the table's lock.

    Returns the bot, the lobby, their clicks, a list that counts the bot's
    live-table saves from now on, and the call that lets the lock go."""
    bot = await launch(allow_errors=allow_errors)
    lobby = await server.ann.slash(server.channel, "rummy start")
    await bot.game.tasks.wait_idle()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and bot.db is not None
    saves: list[int] = []
    save = bot.db.save_live_table

    async def counted_save(live: LiveTable) -> None:
        saves.append(live.channel_id)
        await save(live)

    bot.db.save_live_table = counted_save  # type: ignore[method-assign]
    await table.lock.acquire()
    joiners = (server.bob, server.cat, server.dan)
    clicks = [asyncio.create_task(a.click(lobby.message, label="Join")) for a in joiners]
    waiting = bot.game.lobby._joining
    await until(lambda: len(waiting.get(server.channel.id, ())) == len(joiners))
    return bot, lobby, clicks, saves, table.lock.release


async def test_joins_waiting_together_are_saved_once_and_all_answered(
    server: Server, launch: LaunchBot
) -> None:
    bot, _, clicks, saves, let_go = await joins_waiting_on_a_busy_table(server, launch)
    let_go()
    replies = await asyncio.gather(*clicks)
    assert all(r.answered and r.type == 7 for r in replies)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Bob", "Cat", "Dan"]
    assert saves == [server.channel.id]  # one save for the three of them
    shown = seat_lines(server.emu, server)
    assert all(name in shown for name in ("Bob", "Cat", "Dan"))
    assert bot.db is not None
    (saved,) = (await bot.db.load_live_tables()).tables
    assert len(saved.state["seats"]) == 4


async def test_a_group_of_joins_that_cannot_be_saved_seats_nobody(
    server: Server, launch: LaunchBot
) -> None:
    bot, _, clicks, _, let_go = await joins_waiting_on_a_busy_table(
        server, launch, allow_errors=True
    )
    assert bot.db is not None
    bot.db.abandon()  # every write now fails, as on a dead disk
    let_go()
    replies = await asyncio.gather(*clicks)
    assert all(r.ephemeral and "could not be saved" in r.text() for r in replies)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and [s.name for s in table.seats] == ["Ann"]
    assert "Bob" not in seat_lines(server.emu, server)


async def test_a_refused_join_in_a_group_leaves_the_others_seated(
    server: Server, launch: LaunchBot
) -> None:
    bot, lobby, clicks, _, let_go = await joins_waiting_on_a_busy_table(server, launch)
    again = asyncio.create_task(server.bob.click(lobby.message, label="Join"))
    waiting = bot.game.lobby._joining
    await until(lambda: len(waiting.get(server.channel.id, ())) == 4)
    let_go()
    *replies, second = await asyncio.gather(*clicks, again)
    assert all(r.type == 7 for r in replies)
    assert second.ephemeral and "already have a seat" in second.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Bob", "Cat", "Dan"]
