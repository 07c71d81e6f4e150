"""What the bot counts for Prometheus: interactions by action and outcome, how
long they took, live tables, REST requests (and 429s) by route, database
commit time.

Each bot has a registry of its own rather than the library's global one, so
that two bots in one process (tests, a standby) never mix their figures.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Answer times around Discord's 3 s: the bot aims at tens of milliseconds.
ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

_ID = re.compile(r"^\d+$")
# Paths whose segment after an id is a secret token: it never becomes a label.
_TOKEN_AFTER = frozenset({"webhooks", "interactions"})


@functools.lru_cache(maxsize=4096)
def route_of(path: str) -> str:
    """A REST path as a route template: ids become ``{id}``, tokens ``{token}``
    (``/api/v10/interactions/{id}/{token}/callback``)."""
    parts = path.split("/")
    shown = []
    for index, part in enumerate(parts):
        if _ID.match(part):
            shown.append("{id}")
        elif index >= 2 and parts[index - 2] in _TOKEN_AFTER and _ID.match(parts[index - 1]):
            shown.append("{token}")
        else:
            shown.append(part)
    return "/".join(shown)


class Metrics:
    """The bot's instruments, in a registry of its own (see the module)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "rummy_interactions",
            "Clicks and commands answered, by action and outcome (ok, refused, failed, late).",
            ["kind", "action", "outcome"],
            registry=self.registry,
        )
        self.answer_seconds = Histogram(
            "rummy_answer_seconds",
            "From a click or command reaching the bot to its handling done.",
            ["kind"],
            buckets=ANSWER_BUCKETS,
            registry=self.registry,
        )
        self.live_tables = Gauge(
            "rummy_live_tables", "Lobbies and games open now.", registry=self.registry
        )
        self.requests = Counter(
            "rummy_rest_requests",
            "Requests to Discord's REST API, by method, route and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "rummy_rest_rate_limited",
            "Requests Discord answered with 429, by route.",
            ["method", "route"],
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "rummy_db_commit_seconds",
            "Time of each commit of live-table saves (one commit may hold several).",
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self._counted = {}
        self._timed = {}
        self._requests = {}

    def interaction(self, kind: str, action: str, outcome: str, seconds: float) -> None:
        # The library checks and looks up the labels at every call: a child is
        # kept per label set, as every click and request counts.
        counted = self._counted.get((kind, action, outcome))
        if counted is None:
            counted = self._counted[(kind, action, outcome)] = self.interactions.labels(
                kind, action, outcome
            )
        counted.inc()
        timed = self._timed.get(kind)
        if timed is None:
            timed = self._timed[kind] = self.answer_seconds.labels(kind)
        timed.observe(max(0.0, seconds))

    _counted: dict[tuple[str, str, str], Counter]
    _timed: dict[str, Histogram]
    _requests: dict[tuple[str, str, int], Counter]

    def commit(self, seconds: float) -> None:
        self.commit_seconds.observe(seconds)

    def count_tables(self, count: Callable[[], int]) -> None:
        self.live_tables.set_function(count)

    def trace(self) -> aiohttp.TraceConfig:
        """Counts every request discord.py makes (given as its ``http_trace``)."""
        config = aiohttp.TraceConfig()

        async def on_end(_: Any, __: SimpleNamespace, params: Any) -> None:
            route = route_of(params.url.path)
            status = params.response.status
            key = (params.method, route, status)
            counted = self._requests.get(key)
            if counted is None:
                counted = self._requests[key] = self.requests.labels(
                    params.method, route, str(status)
                )
            counted.inc()
            if status == 429:
                self.rate_limited.labels(params.method, route).inc()

        config.on_request_end.append(on_end)
        return config

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
