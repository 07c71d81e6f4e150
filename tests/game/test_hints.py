"""The hint book: a position's hint is worked out once, the same for whoever
asks; a new position has its own; the oldest are forgotten past the limit; a
hint whose thinking failed is worked out again."""

from __future__ import annotations

import asyncio

import pytest

import game.hints
from engine import DrawStock, HandView
from game.hints import HintBook
from tables.tapes import RecordSource
from tests.tables.helpers import playing_table


async def test_one_position_one_thought_whoever_asks() -> None:
    table = playing_table()
    book = HintBook()
    turn = table.match.hand.turn  # type: ignore[union-attr]
    assert turn is not None
    first, second = book.ask(table, turn), book.ask(table, turn)
    assert first is second
    advice = await asyncio.shield(first)
    assert advice in table.view_of(turn).legal
    assert book.worked_out == 1
    table.match.apply(turn, DrawStock())  # type: ignore[union-attr]
    table.note("{who} drew from the stock", turn, who="Ann")
    await asyncio.shield(book.ask(table, turn))
    assert book.worked_out == 2
    book.close()


async def test_the_oldest_positions_are_forgotten_past_the_limit() -> None:
    tables = [playing_table() for _ in range(3)]
    book = HintBook(kept=2)
    for table in tables:
        await asyncio.shield(book.ask(table, table.match.hand.turn))  # type: ignore[union-attr, arg-type]
    first = tables[0]
    await asyncio.shield(book.ask(first, first.match.hand.turn))  # type: ignore[union-attr, arg-type]
    assert book.worked_out == 4  # the first table's was forgotten, and thought again
    book.close()


async def test_a_hint_that_failed_is_thought_again(monkeypatch: pytest.MonkeyPatch) -> None:
    failures = [RuntimeError("the thinker broke")]
    real = game.hints._think

    def sometimes(view: HandView, source: RecordSource, seed: str) -> object:
        if failures:
            raise failures.pop()
        return real(view, source, seed)

    monkeypatch.setattr(game.hints, "_think", sometimes)
    table = playing_table()
    turn = table.match.hand.turn  # type: ignore[union-attr]
    assert turn is not None
    book = HintBook()
    with pytest.raises(RuntimeError):
        await asyncio.shield(book.ask(table, turn))
    assert await asyncio.shield(book.ask(table, turn)) in table.view_of(turn).legal
    book.close()
