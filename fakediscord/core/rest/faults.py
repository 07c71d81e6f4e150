"""HTTP failures injected on demand: rate limits, server errors, slow answers.

A pattern is a shell-style glob (``*`` also crosses ``/``) matched against
the request's path and its route template, with an optional method in front:
``"POST /channels/*/messages"``, ``"/interactions/*"``,
``"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"``.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Any

HTTP_METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE"}


@dataclass
class Fault:
    pattern: str
    status: int
    retry_after: float
    remaining: int
    code: int | None = None
    message: str | None = None
    hits: int = 0
    # With ``status`` 0: not a failure but a slow Discord, answering normally
    # after this many seconds.
    delay: float = 0.0

    def matches(self, method: str, path: str, route: str | None) -> bool:
        want_method, _, want_path = self.pattern.partition(" ")
        if want_method.upper() in HTTP_METHODS and want_path:
            if want_method.upper() != method:
                return False
        else:
            want_path = self.pattern
        return any(fnmatch.fnmatchcase(candidate, want_path) for candidate in (path, route or ""))

    def response(self) -> tuple[dict[str, Any], dict[str, str]]:
        """Body and headers of the failure, as Discord (behind its proxy) sends them."""
        if self.status == 429:
            body: dict[str, Any] = {"message": self.message or "You are being rate limited.",
                                    "retry_after": self.retry_after, "global": False}
            if self.code is not None:
                body["code"] = self.code
            # discord.py treats a 429 without a Via header as a Cloudflare ban and gives up.
            headers = {"Retry-After": str(self.retry_after), "Via": "1.1 google",
                       "X-RateLimit-Scope": "user"}
            return body, headers
        body = {"message": self.message or f"{self.status}: Internal Server Error",
                "code": self.code or 0}
        return body, {}


class FaultInjector:
    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def add(self, pattern: str, *, status: int, retry_after: float, times: int,
            code: int | None, message: str | None, delay: float = 0.0) -> Fault:
        fault = Fault(pattern, status, retry_after, times, code, message, delay=delay)
        self.faults.append(fault)
        return fault

    def take(self, method: str, path: str, route: str | None) -> Fault | None:
        """The first armed fault for this request, used up by one hit."""
        for fault in self.faults:
            if fault.remaining > 0 and fault.matches(method, path, route):
                fault.remaining -= 1
                fault.hits += 1
                return fault
        return None
