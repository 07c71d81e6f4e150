"""Discord's rate limits, opt-in (``FakeDiscord(rate_limits=RateLimits())``).

Discord limits a bot in two ways, and a bot that ignores either sees 429s:

- per-route buckets: a route and its major parameter (the channel, the guild,
  the webhook) allow ``limit`` requests per window; editing or sending messages
  in one channel allows 5 per 5 seconds. Every answer carries the bucket's
  ``X-RateLimit-*`` headers, so a client (discord.py does) waits before it runs
  out instead of being refused;
- a global limit of 50 requests a second for the whole bot. Interaction
  callbacks and interaction webhooks (the token routes) are not counted, as on
  Discord.

Windows are fixed, as Discord's are: a bucket's window opens at its first
request and resets ``per`` seconds later. A refused request is not counted.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field
from typing import Any

# Routes whose limits Discord documents or that bots run into; (limit, seconds).
CHANNEL_MESSAGE_LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("POST", "/channels/{channel_id}/messages"): (5, 5.0),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): (5, 5.0),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): (5, 1.0),
}
DEFAULT_LIMIT = (50, 1.0)  # any other bot route, per major parameter
GLOBAL_LIMIT = 50  # requests a second
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id")


def exempt_from_global(route: str) -> bool:
    """Interaction callbacks and interaction-token webhooks do not count globally."""
    return route.startswith(("/interactions/", "/webhooks/"))


@dataclass
class _Window:
    limit: int
    per: float
    used: int = 0
    resets_at: float = 0.0  # time.monotonic()


@dataclass
class Refusal:
    """A 429: the body and headers Discord sends, and which limit it was."""

    scope: str  # "user" (a route bucket) or "global"
    retry_after: float
    headers: dict[str, str]

    def body(self) -> dict[str, Any]:
        return {"message": "You are being rate limited.", "retry_after": self.retry_after,
                "global": self.scope == "global"}


@dataclass
class RateLimits:
    """The limits in force; ``global_limit=None`` turns the global one off."""

    routes: dict[tuple[str, str], tuple[int, float]] = field(
        default_factory=lambda: dict(CHANNEL_MESSAGE_LIMITS))
    default: tuple[int, float] | None = DEFAULT_LIMIT
    global_limit: int | None = GLOBAL_LIMIT
    _buckets: dict[tuple[str, str, str], _Window] = field(default_factory=dict)
    _global: _Window = field(default_factory=lambda: _Window(GLOBAL_LIMIT, 1.0))
    refused: dict[str, int] = field(default_factory=lambda: {"user": 0, "global": 0})

    def check(self, method: str, route: str,
              params: dict[str, str]) -> tuple[Refusal | None, dict[str, str]]:
        """Count one request; returns a refusal (429) or the headers of a success."""
        if exempt_from_global(route):
            return None, {}
        now = time.monotonic()
        if self.global_limit is not None:
            window = self._global
            window.limit = self.global_limit
            _roll(window, now)
            if window.used >= window.limit:
                retry = max(0.001, window.resets_at - now)
                self.refused["global"] += 1
                return Refusal("global", retry, {
                    "Retry-After": str(math.ceil(retry)), "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global", "Via": "1.1 google"}), {}
        limits = self.routes.get((method, route), self.default)
        if limits is None:
            if self.global_limit is not None:
                self._global.used += 1
            return None, {}
        major = next((f"{name}={params[name]}" for name in MAJOR_PARAMETERS if name in params), "")
        key = (method, route, major)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Window(*limits)
        _roll(bucket, now)
        bucket_hash = hashlib.sha1(f"{method} {route}".encode()).hexdigest()[:16]
        reset_after = max(0.0, bucket.resets_at - now)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }
        if bucket.used >= bucket.limit:
            self.refused["user"] += 1
            retry = max(0.001, reset_after)
            return Refusal("user", retry, {
                **headers, "X-RateLimit-Remaining": "0", "Retry-After": str(math.ceil(retry)),
                "X-RateLimit-Scope": "user", "Via": "1.1 google"}), {}
        bucket.used += 1
        if self.global_limit is not None:
            self._global.used += 1
        headers["X-RateLimit-Remaining"] = str(bucket.limit - bucket.used)
        return None, headers


def _roll(window: _Window, now: float) -> None:
    """Open a fresh window if the last one has run out."""
    if now >= window.resets_at:
        window.used = 0
        window.resets_at = now + window.per
