"""What went over the wire, in memory for tests and as JSON lines for tools.

When the environment variable ``FAKEDISCORD_TRAFFIC`` names a file, every
REST exchange and every gateway frame is appended to it as one JSON object a
line (``kind`` is ``"http"`` or ``"gateway"``; ``time`` is Unix seconds).

It records both sides of the wire, so it sits below the gateway and ``rest/``
alike: each of them writes to it and neither reaches into the other for it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ENV_VAR = "FAKEDISCORD_TRAFFIC"
REDACTED = "<redacted>"


@dataclass
class RecordedRequest:
    """One REST request the client made and what the emulator answered."""

    method: str
    path: str  # as sent, without the /api/v10 prefix
    route: str | None  # the template, e.g. "/channels/{channel_id}/messages"; None if unknown
    query: dict[str, str]
    body: Any
    files: list[str] = field(default_factory=list)  # names of multipart file parts
    status: int = 0
    response: Any = None
    time: float = field(default_factory=time.time)
    duration: float = 0.0

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


class TrafficLog:
    """Keeps requests and gateway frames; mirrors them to ``$FAKEDISCORD_TRAFFIC``."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, keep: bool = True) -> None:
        self.requests: list[RecordedRequest] = []
        self.events: list[dict[str, Any]] = []
        # keep=False: a long load run keeps nothing in memory (bodies of a hundred
        # thousand requests add up) and counts through ``on_http`` instead.
        self.keep = keep
        self.on_http: list[Callable[[RecordedRequest], None]] = []
        target = path if path is not None else os.environ.get(ENV_VAR)
        self._file: IO[str] | None = None
        if target:
            # Line-buffered so that a tool tailing the file sees each exchange at once.
            self._file = Path(target).open("a", encoding="utf-8", buffering=1)  # noqa: SIM115

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def http(self, record: RecordedRequest) -> None:
        if self.keep:
            self.requests.append(record)
        for observer in self.on_http:
            observer(record)
        if self._file is None:
            return
        self._write({
            "kind": "http", "time": record.time, "method": record.method, "path": record.path,
            "route": record.route, "query": record.query, "status": record.status,
            "duration": round(record.duration, 6), "request": record.body, "files": record.files,
            "response": record.response,
        })

    def gateway(self, direction: str, frame: dict[str, Any]) -> None:
        """``direction`` is "send" (emulator -> client) or "recv" (client -> emulator)."""
        if not self.keep and self._file is None:
            return
        entry = {"kind": "gateway", "time": time.time(), "direction": direction,
                 "op": frame.get("op"), "t": frame.get("t"), "s": frame.get("s"),
                 "d": _redact(frame)}
        if self.keep:
            self.events.append(entry)
        self._write(entry)

    def _write(self, entry: dict[str, Any]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(entry, default=str) + "\n")


def _redact(frame: dict[str, Any]) -> Any:
    """The bot token of IDENTIFY/RESUME never reaches the file: a real one may be in use."""
    data = frame.get("d")
    if frame.get("op") in (2, 6) and isinstance(data, dict) and "token" in data:
        return {**data, "token": REDACTED}
    return data
