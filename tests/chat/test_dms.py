"""DMs held back by the request budget: the newest of a kind wins, stale ones never go."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

from chat.dms import Notifier
from chat.table_side import HandMessage, chat_side
from engine import Discard, DrawStock
from presentation.pacing import RequestBudget
from presentation.render import dealt_dm, turn_dm
from tests.tables.helpers import playing_table
from transport.tokens import TOKEN_LIFETIME


class HeldBudget(RequestBudget):
    """A budget that grants nothing until the test opens it."""

    def __init__(self) -> None:
        super().__init__()
        self.open = asyncio.Event()

    async def take(self, priority: int = 0) -> None:
        await self.open.wait()


class FakeChannel:
    def __init__(self, sent: list[tuple[int, str]], user_id: int) -> None:
        self.id = 1000 + user_id
        self.user_id = user_id
        self.sent = sent

    async def send(self, text: str) -> None:
        self.sent.append((self.user_id, text))


class FakeBot:
    """The two calls the notifier makes: open a DM, and send to a channel by id."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str]] = []

    async def create_dm(self, user: Any) -> FakeChannel:
        return FakeChannel(self.sent, user.id)

    def get_partial_messageable(self, channel_id: int, **_: Any) -> FakeChannel:
        return FakeChannel(self.sent, channel_id - 1000)


async def notifier_with_held_budget() -> tuple[Notifier, FakeBot, HeldBudget, list[Any]]:
    bot, budget, tasks = FakeBot(), HeldBudget(), []

    def spawn(coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        tasks.append(task)
        return task

    return Notifier(bot, spawn, budget), bot, budget, tasks  # type: ignore[arg-type]


async def settle(tasks: list[asyncio.Task[Any]]) -> None:
    while not all(t.done() for t in tasks):
        await asyncio.gather(*tasks)


async def test_only_the_newest_turn_dm_goes_out_and_only_while_it_is_that_turn() -> None:
    notifier, bot, budget, tasks = await notifier_with_held_budget()
    table = playing_table()
    assert table.match is not None
    first = table.current_seat
    assert first is not None and first.user_id is not None
    notifier.dealt(table)
    for _ in range(3):  # three turn notices pile up while the budget is shut
        notifier.your_turn(table, first)
    budget.open.set()
    await settle(tasks)
    mine = [text for user, text in bot.sent if user == first.user_id]
    assert len(mine) == 2 and mine[0].startswith("Hand 1 in")
    assert mine[1].startswith("Your turn at Rummy")


async def test_a_turn_dm_held_back_until_the_turn_passed_is_dropped() -> None:
    notifier, bot, budget, tasks = await notifier_with_held_budget()
    table = playing_table()
    assert table.match is not None
    first = table.current_seat
    assert first is not None and first.user_id is not None
    notifier.your_turn(table, first)
    table.match.apply(first.key, DrawStock())
    hand = table.match.hand.hand_of(first.key)
    table.match.apply(first.key, Discard(hand[0]))  # the turn has passed
    budget.open.set()
    await settle(tasks)
    assert bot.sent == []


async def test_someone_at_two_tables_hears_of_both_turns() -> None:
    notifier, bot, budget, tasks = await notifier_with_held_budget()
    here, there = playing_table(), playing_table()
    there.channel_id = 11
    for table in (here, there):
        seat = table.current_seat
        assert seat is not None and seat.user_id == 1
        notifier.your_turn(table, seat)
    budget.open.set()
    await settle(tasks)
    mine = [text for user, text in bot.sent if user == 1]
    assert len(mine) == 2
    assert any("/10/" in text for text in mine) and any("/11/" in text for text in mine)


def test_a_deal_dm_names_the_others_and_a_turn_dm_points_to_the_open_hand_message() -> None:
    table = playing_table()
    assert table.match is not None
    first = table.current_seat
    assert first is not None
    dealt = dealt_dm(table, first.key, "#rummy")
    others = [seat.name for seat in table.seats if seat.key != first.key]
    assert dealt.startswith("Hand 1 in #rummy is dealt, with " + ", ".join(others) + ".")
    closed = turn_dm(table, first.key, "<https://discord.test/x>", hand_open=False)
    assert "Press **Show hand** on the table to play." in closed
    assert "Your hand message there shows it" in turn_dm(table, first.key, "<link>", hand_open=True)


def test_a_hand_message_is_open_for_turn_dms_while_it_shows_the_hand_and_its_token_lives() -> None:
    table = playing_table()
    side = chat_side(table)
    side.hand_messages["1"] = HandMessage(object(), time.time() - 60, 7)
    assert side.hand_open("1") and not side.hand_open("2")
    side.hand_messages["1"].on_hand = False  # showing the settings
    assert not side.hand_open("1")
    side.hand_messages["1"].on_hand = True
    side.hand_messages["1"].opened_at = time.time() - TOKEN_LIFETIME - 1
    assert not side.hand_open("1")  # it stopped following
