"""The request budget: a burst goes at once, then table edits before DMs."""

from __future__ import annotations

import asyncio

from presentation.pacing import LATER, URGENT, RequestBudget


async def test_a_burst_goes_at_once_and_the_next_request_waits() -> None:
    budget = RequestBudget(per_second=0.001, burst=3)  # practically no refill
    for _ in range(3):
        await budget.take()
    waiting = asyncio.create_task(budget.take())
    for _ in range(5):
        await asyncio.sleep(0)
    assert not waiting.done()
    waiting.cancel()


async def test_urgent_requests_overtake_waiting_dms() -> None:
    # 50 ms a token: the waiters below are all queued long before the first one.
    budget = RequestBudget(per_second=20, burst=1)
    await budget.take()  # the bucket is empty now
    served: list[str] = []

    async def take(name: str, priority: int) -> None:
        await budget.take(priority)
        served.append(name)

    dms = [asyncio.create_task(take(f"dm{i}", LATER)) for i in range(3)]
    await asyncio.sleep(0)  # the DMs queue first
    edits = [asyncio.create_task(take(f"edit{i}", URGENT)) for i in range(2)]
    await asyncio.gather(*dms, *edits)
    assert served == ["edit0", "edit1", "dm0", "dm1", "dm2"]


async def test_a_cancelled_waiter_does_not_use_up_a_token() -> None:
    budget = RequestBudget(per_second=200, burst=1)
    await budget.take()
    gone = asyncio.create_task(budget.take())
    await asyncio.sleep(0)
    gone.cancel()
    await budget.take()  # served although the cancelled waiter was first
    assert gone.cancelled()
