"""A look at a table waits for unsaved changes, never for an answer on its way."""

from __future__ import annotations

import asyncio

from tables import TableLock


async def looked(lock: TableLock) -> asyncio.Task[None]:
    look = asyncio.create_task(lock.settled())
    for _ in range(3):
        await asyncio.sleep(0)
    return look


async def test_a_free_table_can_be_looked_at_at_once() -> None:
    assert (await looked(TableLock())).done()


async def test_a_look_waits_while_a_change_is_unsaved() -> None:
    lock = TableLock()
    await lock.acquire()
    look = await looked(lock)
    assert not look.done()
    lock.mark_saved()
    await asyncio.wait_for(look, 1)
    assert lock.locked()  # the holder still answers under the lock


async def test_a_look_goes_ahead_when_the_holder_lets_go_without_saving() -> None:
    lock = TableLock()
    async with lock:
        look = await looked(lock)
        assert not look.done()
    await asyncio.wait_for(look, 1)


async def test_a_new_holder_makes_looks_wait_again() -> None:
    lock = TableLock()
    async with lock:
        lock.mark_saved()
        assert (await looked(lock)).done()
    async with lock:
        assert not (await looked(lock)).done()
        lock.mark_saved()
