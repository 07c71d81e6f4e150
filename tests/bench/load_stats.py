"""Counting for the load benchmark: the bot's REST requests by kind, latencies.

Requests are counted as the emulator answers them (``TrafficLog.on_http``),
so a long run keeps counters, not a hundred thousand recorded bodies.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field

import orjson

from fakediscord.core.traffic import RecordedRequest
from fakediscord.core.world import Interaction, World

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
KINDS = ("callbacks", "message edits", "DMs", "other")


def request_kind(world: World, record: RecordedRequest) -> tuple[str, str]:
    """(kind, detail): callbacks, message edits (table / hand view), DMs, other."""
    route = record.route or ""
    if route == CALLBACK:
        return "callbacks", "callback"
    if record.method == "PATCH" and route == CHANNEL_MESSAGE:
        return "message edits", "table"
    if record.method == "PATCH" and route.startswith("/webhooks/"):
        return "message edits", "hand view"
    if route == "/users/@me/channels":
        return "DMs", "open DM"
    if record.method == "POST" and route == CHANNEL_MESSAGES:
        channel_id = int(record.path.split("/")[2])
        channel = world.channels.get(channel_id)
        if channel is not None and channel.is_dm:
            return "DMs", "send DM"
        return "other", "new table message"
    if record.method == "POST" and route.startswith("/webhooks/"):
        return "other", "followup"
    return "other", f"{record.method} {route or record.path}"


@dataclass
class RequestCounter:
    """Counts requests while ``active``; 429s by kind and by scope."""

    world: World
    active: bool = False
    by_kind: Counter[str] = field(default_factory=Counter)
    by_detail: Counter[str] = field(default_factory=Counter)
    # JSON bytes of the request bodies, by detail: what a table edit costs on the wire.
    bytes_by_detail: Counter[str] = field(default_factory=Counter)
    limited: Counter[str] = field(default_factory=Counter)  # 429s by kind
    limited_detail: Counter[str] = field(default_factory=Counter)
    limited_global: int = 0

    def observe(self, record: RecordedRequest) -> None:
        if not self.active:
            return
        kind, detail = request_kind(self.world, record)
        self.by_kind[kind] += 1
        self.by_detail[detail] += 1
        if record.body is not None:
            self.bytes_by_detail[detail] += len(orjson.dumps(record.body))
        if record.status == 429:
            self.limited[kind] += 1
            self.limited_detail[detail] += 1
            if isinstance(record.response, dict) and record.response.get("global"):
                self.limited_global += 1

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())


# The clicks that change what every player of a table sees.
PUBLIC_MOVES = frozenset({"draw", "take", "meld", "layoff", "onto", "discard"})


@dataclass
class FollowLag:
    """From a move (its click answered) until each other open hand message of
    the table is edited after it: how long the others' views show an older
    table. A message counts once it was shown in the channel; an edit shows
    every move made before it (the bot draws the table as it is)."""

    world: World
    active: bool = False
    seconds: list[float] = field(default_factory=list)
    # Per channel: (time, mover) of each move; per hand message: its channel,
    # owner and how many of the channel's moves it has shown.
    _moves: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    _views: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    def observe(self, record: RecordedRequest) -> None:
        route = record.route or ""
        parts = record.path.split("/")
        if route == CALLBACK and record.status < 300:
            interaction = self.world.interactions.get(int(parts[2]))
            if interaction is not None:
                self._answered(interaction, record.time)
        elif record.method == "PATCH" and route.startswith("/webhooks/") and record.status < 300:
            interaction = self.world.interaction_by_token(parts[3])
            if interaction is not None:
                self._edited(interaction, record.time)

    def _answered(self, interaction: Interaction, when: float) -> None:
        custom_id = str(interaction.data.get("custom_id", ""))
        action = custom_id.split(":")[1] if custom_id.count(":") >= 2 else ""
        view = interaction.original_message_id or interaction.message_id
        if view is not None and action in {*PUBLIC_MOVES, "pick", "refresh", "sort", "hand"}:
            # The clicked (or opened) message shows every move so far.
            moves = self._moves.setdefault(interaction.channel_id, [])
            self._views[view] = (interaction.channel_id, interaction.user_id, len(moves))
        if action in PUBLIC_MOVES and self.active:
            moves = self._moves.setdefault(interaction.channel_id, [])
            moves.append((when, interaction.user_id))
            if view is not None:
                self._views[view] = (interaction.channel_id, interaction.user_id, len(moves))

    def _edited(self, interaction: Interaction, when: float) -> None:
        view = interaction.original_message_id or interaction.message_id
        known = self._views.get(view or 0)
        if known is None:
            return
        channel, owner, shown = known
        moves = self._moves.get(channel, [])
        for made, mover in moves[shown:]:
            if made <= when and mover != owner:
                self.seconds.append(when - made)
        self._views[view or 0] = (channel, owner, len(moves))


@dataclass
class Latencies:
    """INTERACTION_CREATE written to the bot's socket -> its callback received."""

    sent: int
    answered_in_time: int
    late_or_never: int
    seconds: list[float]

    @classmethod
    def of(cls, interactions: list[Interaction], limit: float = 3.0) -> Latencies:
        seconds: list[float] = []
        late = 0
        for interaction in interactions:
            start = interaction.sent_at or interaction.dispatched_at
            if interaction.responded_at is None or start is None:
                late += 1
                continue
            took = interaction.responded_at - start
            seconds.append(took)
            if took > limit:
                late += 1
        return cls(len(interactions), len(interactions) - late, late, sorted(seconds))

    def percentile(self, p: float) -> float:
        if not self.seconds:
            return float("nan")
        # Nearest rank: the smallest value with at least p% of the samples at or below it.
        index = min(len(self.seconds) - 1, max(0, math.ceil(p / 100 * len(self.seconds)) - 1))
        return self.seconds[index]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds) if self.seconds else float("nan")
