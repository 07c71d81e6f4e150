"""One game in one channel: the lobby, the seats, the engine match, the log
and the clocks; the game alone, the same whichever door it is played by.

What a door keeps beside a table (the chat's messages, handles and closed
DMs) is the door's, saved with the table's row but not part of it
(``tables.TableWork``'s ``door_state``). The game serialises to plain JSON
(``to_dict`` / ``from_dict``) so a live table survives a restart; the lock
and the process's caches are not saved.
"""

from __future__ import annotations

import copy
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine import HandView, HouseRules, Match

from .lock import TableLock
from .names import shown_name
from .place import Place

TABLE_FORMAT = 1
# The public table shows the latest few moves; each hand message shows the
# others' moves since its player's last one, so the hand keeps more of them.
LOG_LINES = 6
HAND_LOG_LINES = 80
MIN_SEATS = 2
MAX_SEATS = 6
# A person who misses this many turns in a row is replaced by a computer player.
MISSED_TURNS_BEFORE_AUTOPILOT = 3


GAME_ID = re.compile("[0-9a-f]{1,16}")


# What a change may touch, and so what a snapshot keeps; the clocks of the
# process (the lock, last_seen, changes) and what never changes (channel,
# guild, game id, creation time) are left out. A door's part is the door's
# to put back (``tables.TableWork``'s ``door_undo``).
RESTORED = (
    "rules",
    "seed",
    "seats",
    "stage",
    "match",
    "log",
    "hand_log",
    "fresh_cards",
    "last_human_action",
    "turn_deadline",
    "selections",
    "sort_modes",
    "next_cpu_number",
    "host_id",
    "invited",
    "tapes",
)


def _copy_state(state: dict[str, Any]) -> dict[str, Any]:
    """Copies of a table's parts deep enough that changing the table never
    changes them (rules and the scalars are immutable; the match copies itself)."""
    copied = dict(state)
    copied["seats"] = [copy.copy(seat) for seat in state["seats"]]  # flat: a copy is whole
    copied["match"] = None if state["match"] is None else state["match"].copy()
    copied["log"] = deque(state["log"], maxlen=LOG_LINES)
    copied["hand_log"] = deque(state["hand_log"], maxlen=HAND_LOG_LINES)
    copied["fresh_cards"] = dict(state["fresh_cards"])
    copied["selections"] = {key: list(codes) for key, codes in state["selections"].items()}
    copied["sort_modes"] = dict(state["sort_modes"])
    copied["invited"] = list(state["invited"])
    copied["tapes"] = [dict(tape) for tape in state["tapes"]]
    return copied


@dataclass(frozen=True)
class TableSnapshot:
    """A table's state at one moment, made by ``Table.snapshot``."""

    state: dict[str, Any]


def new_game_id() -> str:
    return secrets.token_hex(4)


class Stage(StrEnum):
    """Where a table is in its life: forming, playing a hand, between hands, over."""

    LOBBY = "lobby"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class LogLine:
    """A line of the table's log, kept as its English message and what fills it
    in, so that each reader sees it in their own language (drawn by
    ``presentation.render.log_text``). ``card``/``cards`` hold card codes."""

    message: str
    params: tuple[tuple[str, str | int], ...] = ()
    # A message that counts (its ``n`` parameter): the English plural too.
    plural: str = ""

    @classmethod
    def of(cls, message: str, plural: str = "", **params: str | int) -> LogLine:
        return cls(message, tuple(sorted(params.items())), plural)

    def to_data(self) -> str | tuple[Any, ...]:
        # Every line is in every save of the table: the pairs go out as they are.
        if not self.params and not self.plural:
            return self.message
        if self.plural:
            return (self.message, self.params, self.plural)
        return (self.message, self.params)

    @classmethod
    def from_data(cls, data: Any) -> LogLine:
        # A table saved before lines were messages holds finished English text.
        if isinstance(data, str):
            return cls(data)
        message, params, *plural = data
        fields = {str(k): v for k, v in (params.items() if isinstance(params, dict) else params)}
        return cls.of(str(message), str(plural[0]) if plural else "", **fields)


@dataclass
class Seat:
    """A place at the table: a person (``user_id``) or a computer (``level``)."""

    key: str
    name: str
    user_id: int | None = None
    level: str | None = None
    missed_turns: int = 0
    autopilot: bool = False
    # The language this person reads the bot in (their hand, refusals, DMs):
    # their own choice, else their Discord client's, as of their latest click.
    language: str = "en"

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def shown_name(self) -> str:
        """The name as literal text in a message (``tables.names``)."""
        return shown_name(self.name)

    @property
    def played_by_computer(self) -> bool:
        return self.user_id is None or self.autopilot

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "user_id": self.user_id,
            "level": self.level,
            "missed_turns": self.missed_turns,
            "autopilot": self.autopilot,
            "language": self.language,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            key=str(data["key"]),
            name=str(data["name"]),
            user_id=None if data.get("user_id") is None else int(data["user_id"]),
            level=data.get("level"),
            missed_turns=int(data.get("missed_turns", 0)),
            autopilot=bool(data.get("autopilot", False)),
            language=str(data.get("language") or "en"),
        )


# Compared and hashed by identity: one object is one game in play, and a
# door keeps its part of a table by the table object (``chat.table_side``).
@dataclass(eq=False)
class Table:
    """One channel's game, and nothing of either door: its seats, stage, match,
    log and clocks. Changed only under ``lock``, through ``tables.work``.

    ``guild_id`` names the board its results go to: the server's, or, for a DM
    or group DM, the conversation's own (its channel id; Discord never gives a
    private channel the id of a server).
    """

    channel_id: int
    guild_id: int
    host_id: int
    rules: HouseRules
    seed: int
    seats: list[Seat] = field(default_factory=list)
    stage: Stage = Stage.LOBBY
    match: Match | None = None
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    # This hand's moves, each with the seat that made it (None: nobody's).
    hand_log: deque[tuple[str | None, LogLine]] = field(
        default_factory=lambda: deque(maxlen=HAND_LOG_LINES)
    )
    created_at: float = field(default_factory=time.time)
    last_human_action: float = field(default_factory=time.time)
    turn_deadline: float | None = None
    selections: dict[str, list[str]] = field(default_factory=dict)
    sort_modes: dict[str, str] = field(default_factory=dict)
    next_cpu_number: int = 1
    # A rematch's lobby: the players of the last match still to press Join; it
    # starts by itself once they all have.
    invited: list[int] = field(default_factory=list)
    # Each hand of the match as dealt and the moves made in it (tables.tapes),
    # kept so a finished hand can be replayed from the history.
    tapes: list[dict[str, Any]] = field(default_factory=list)
    # Tells this game's controls from those of earlier games in the channel.
    game_id: str = field(default_factory=new_game_id)
    # The language of the public table: the server's when the game opened.
    language: str = "en"
    # The bot is no member where the game is (a DM, a group DM, a server that
    # did not install it): nothing may be posted there, and the Activity is
    # the game's only door.
    activity_only: bool = False
    # Not saved: process-local coordination.
    lock: TableLock = field(default_factory=TableLock, repr=False)
    # A seated person's latest click of any kind; kept apart from the saved
    # state so that a refused click still changes nothing.
    last_seen: float = field(default=0.0, repr=False)
    # Each seat's view of the hand, with the number of saved changes it was
    # made at: picking, sorting and refreshing redraw a hand message without
    # changing the game, and need not work the view (its legal moves) out again.
    view_cache: dict[str, tuple[int, HandView]] = field(default_factory=dict, repr=False)
    # When each seat last clicked anything at this table (for turn DMs).
    seen_at: dict[str, float] = field(default_factory=dict, repr=False)
    # The card each player just drew, until their next move: shown as new.
    fresh_cards: dict[str, str] = field(default_factory=dict, repr=False)
    # Saved changes so far: tells a hand message sent after the lock was let go
    # whether the game moved on while it was on its way.
    changes: int = field(default=0, repr=False)
    # Why the table left play before its match was over (who ended it, a
    # cancelled or forgotten lobby...): the Activity's pages say it in each
    # reader's language. Not saved: a restart forgets ended tables anyway.
    closed_why: LogLine | None = field(default=None, repr=False)

    # --- views -----------------------------------------------------------------
    def view_of(self, key: str) -> HandView:
        """What seat ``key`` may see of the hand now (only once dealt)."""
        assert self.match is not None
        cached = self.view_cache.get(key)
        if cached is not None and cached[0] == self.changes:
            return cached[1]
        view = self.match.hand.view_for(key)
        if self.lock.is_settled():
            # Only a view of a saved state may be kept: an unsaved change can
            # still be undone, and the count of changes would not show it.
            self.view_cache[key] = (self.changes, view)
        return view

    # --- the log -------------------------------------------------------------
    def note(
        self, message: str, by: str | None = None, *, plural: str = "", **params: str | int
    ) -> None:
        """Log a move (``by`` the seat that made it) for the table and the hand
        messages: ``message`` is English (with its ``plural`` if it counts ``n``),
        marked for the catalogues where it is written, and each reader sees it in
        their language."""
        self.log_line(LogLine.of(message, plural, **params), by)

    def log_line(self, line: LogLine, by: str | None = None) -> None:
        self.log.append(line)
        self.hand_log.append((by, line))

    def new_hand_log(self, message: str, **params: str | int) -> None:
        """Start the logs of a new hand with its first line."""
        self.log.clear()
        self.hand_log.clear()
        self.fresh_cards.clear()
        self.log_line(LogLine.of(message, "", **params))

    # --- seats -----------------------------------------------------------
    def seat_of_user(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def seat(self, key: str) -> Seat:
        for seat in self.seats:
            if seat.key == key:
                return seat
        raise KeyError(f"no seat {key!r} at the table in channel {self.channel_id}")

    def name_of(self, key: str | None) -> str:
        """The seat's name as literal text in a message."""
        if key is None:
            return "nobody"
        found = next((seat for seat in self.seats if seat.key == key), None)
        return found.shown_name if found is not None else key

    def names(self) -> dict[str, str]:
        """Every seat's name as literal text in a message, by seat."""
        return {seat.key: seat.shown_name for seat in self.seats}

    @property
    def humans(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.is_computer]

    @property
    def current_seat(self) -> Seat | None:
        if self.match is None or self.stage is not Stage.PLAYING:
            return None
        turn = self.match.hand.turn
        return None if turn is None else self.seat(turn)

    @property
    def position(self) -> str:
        """Where the game stands, from saved state only: it changes with every
        move and never comes back, and a restart keeps it. A move made from a
        picture of the table names it (the Activity), so a move sent twice,
        or from an older picture, is not played."""
        match = self.match
        if match is None:
            return f"{self.stage.value}"
        hand = match.hand
        held = len(hand.hand_of(hand.turn)) if hand.turn is not None else 0
        return (f"{self.stage.value}.{match.hand_number}.{hand.turns_played}."
                f"{hand.phase.value}.{held}")

    @property
    def place(self) -> Place:
        return Place(self.channel_id, self.guild_id, self.activity_only)

    @property
    def hand_number(self) -> int:
        return 0 if self.match is None else self.match.hand_number

    # --- persistence -----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": TABLE_FORMAT,
            "channel_id": self.channel_id,
            "guild_id": self.guild_id,
            "host_id": self.host_id,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "seats": [seat.to_dict() for seat in self.seats],
            "stage": self.stage.value,
            "match": None if self.match is None else self.match.to_dict(),
            "log": [line.to_data() for line in self.log],
            "hand_log": [[by, line.to_data()] for by, line in self.hand_log],
            "created_at": self.created_at,
            "last_human_action": self.last_human_action,
            "turn_deadline": self.turn_deadline,
            "selections": {key: list(codes) for key, codes in self.selections.items()},
            "sort_modes": dict(self.sort_modes),
            "next_cpu_number": self.next_cpu_number,
            "game_id": self.game_id,
            "invited": list(self.invited),
            "tapes": [dict(tape) for tape in self.tapes],
            "language": self.language,
            "activity_only": self.activity_only,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        """Rebuild a saved table; raises ``ValueError``/``KeyError``/``TypeError``
        on a state this code cannot read (the caller sets such a table aside)."""
        if data.get("format") != TABLE_FORMAT:
            raise ValueError(f"unknown table format {data.get('format')!r}")
        match_data = data.get("match")
        table = cls(
            channel_id=int(data["channel_id"]),
            guild_id=int(data["guild_id"]),
            host_id=int(data["host_id"]),
            rules=HouseRules.from_dict(data["rules"]),
            seed=int(data["seed"]),
            seats=[Seat.from_dict(seat) for seat in data["seats"]],
            stage=Stage(data["stage"]),
            match=None if match_data is None else Match.from_dict(match_data),
            log=deque((LogLine.from_data(line) for line in data.get("log", [])), maxlen=LOG_LINES),
            hand_log=deque(
                (
                    (None if by is None else str(by), LogLine.from_data(line))
                    for by, line in data.get("hand_log", [])
                ),
                maxlen=HAND_LOG_LINES,
            ),
            # Tables saved before the record was kept start it empty: the computers
            # then know only what they see.
            created_at=float(data["created_at"]),
            last_human_action=float(data["last_human_action"]),
            turn_deadline=(
                None if data.get("turn_deadline") is None else float(data["turn_deadline"])
            ),
            selections={str(k): [str(c) for c in v] for k, v in data["selections"].items()},
            sort_modes={str(k): str(v) for k, v in data["sort_modes"].items()},
            next_cpu_number=int(data.get("next_cpu_number", 1)),
            # Tables saved before games had ids get one; their messages are
            # redrawn with it at start-up (chat.restore).
            game_id=str(data.get("game_id") or new_game_id()),
            invited=[int(user) for user in data.get("invited", [])],
            # Tables saved before hands were taped have none: their hands are
            # recorded without moves, and cannot be replayed.
            tapes=[dict(tape) for tape in data.get("tapes", [])],
            language=str(data.get("language") or "en"),
            activity_only=bool(data.get("activity_only", False)),
        )
        if not GAME_ID.fullmatch(table.game_id):
            raise ValueError(f"game id {table.game_id!r} is not one this code makes")
        seat_keys = tuple(seat.key for seat in table.seats)
        if table.match is not None and table.match.players != seat_keys:
            raise ValueError(f"seats {seat_keys} do not match the players of the saved match")
        return table

    def resume_after(self, downtime: float) -> None:
        """The bot was away for ``downtime`` seconds: nobody could act, so every
        clock (the turn timer, idle and lobby limits) moves on by that much.
        A turn keeps the time it had left, neither a fresh timer nor none."""
        self.created_at += downtime
        self.last_human_action += downtime
        if self.turn_deadline is not None:
            self.turn_deadline += downtime

    def snapshot(self) -> TableSnapshot:
        """What ``restore`` needs to put this table back as it is now."""
        return TableSnapshot(_copy_state({name: getattr(self, name) for name in RESTORED}))

    def restore(self, snapshot: TableSnapshot) -> None:
        """Put this table back as it was at ``snapshot``, in place, keeping its lock:
        used when a change could not be saved or was refused half-way. A snapshot
        can be restored more than once."""
        for name, value in _copy_state(snapshot.state).items():
            setattr(self, name, value)
