"""Timing helpers shared by the storage benchmarks (``python -m db.bench``)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable


async def timed(call: Callable[[], Awaitable[object]], runs: int) -> list[float]:
    """Wall time of each of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):7.3f} ms   p99 {p99:7.3f} ms   (n={len(ordered)})"
