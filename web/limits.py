"""How much any one page, member or client may ask of the Activity's server.

Every limit is a token bucket: a burst, then a steady rate. Limits come in
layers, the narrowest first, so that one member's pages or one client's
requests use up their own allowance before they can touch what everybody
shares (``KeyedBuckets`` in front of a plain ``Bucket``).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


class Bucket:
    """A token bucket: ``take`` is False once its owner asks faster than allowed."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.at = time.monotonic()

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self._fill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def ready(self) -> bool:
        """Whether ``take`` would succeed, without taking."""
        self._fill()
        return self.tokens >= 1

    def charge(self) -> None:
        """Take a token for something already done, into debt if none is left:
        whoever had many requests in flight at once pays for each of them, and
        waits until the debt is paid off."""
        self._fill()
        self.tokens -= 1

    def full(self) -> bool:
        """Whether it has refilled completely: its owner asked nothing for a while."""
        self._fill()
        return self.tokens >= self.burst

    def retry_after(self) -> float:
        """Seconds until ``take`` would succeed."""
        self._fill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


class KeyedBuckets(Generic[Key]):
    """One bucket a key (a member, a client address), kept only while it is in
    use: a full bucket is forgotten, since a fresh one would be the same."""

    def __init__(self, burst: float, rate: float, *, keep: int = 10_000) -> None:
        self.burst = burst
        self.rate = rate
        self.keep = keep
        self._buckets: dict[Key, Bucket] = {}

    def of(self, key: Key) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.keep:
                self._forget_full()
            bucket = self._buckets[key] = Bucket(self.burst, self.rate)
        return bucket

    def take(self, key: Key) -> bool:
        return self.of(key).take()

    def ready(self, key: Key) -> bool:
        """Whether ``key`` may ask now; a key never charged keeps no bucket."""
        bucket = self._buckets.get(key)
        return bucket is None or bucket.ready()

    def charge(self, key: Key) -> None:
        self.of(key).charge()

    def retry_after(self, key: Key) -> float:
        bucket = self._buckets.get(key)
        return 0.0 if bucket is None else bucket.retry_after()

    def __len__(self) -> int:
        return len(self._buckets)

    def _forget_full(self) -> None:
        for key in [key for key, bucket in self._buckets.items() if bucket.full()]:
            del self._buckets[key]
        if len(self._buckets) >= self.keep:
            # Every key is busy (a flood from many addresses): the oldest half goes.
            for key in list(self._buckets)[: self.keep // 2]:
                del self._buckets[key]
