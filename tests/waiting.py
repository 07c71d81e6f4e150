"""Waiting in tests for work that runs on its own clock (a task, a thread)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(
    condition: Callable[[], bool], what: str = "the condition", limit: float = 5.0
) -> None:
    deadline = asyncio.get_running_loop().time() + limit
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)
