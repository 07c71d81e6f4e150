"""What the game tells the doors: each door subscribes and shows it its own way.

The game never calls a door. A saved change, a deal, a table that left play,
a seat a computer took over: each is said once, here, as a plain value, and
every subscriber hears it in the order it subscribed. A listener must not
block: it schedules its own work (a message edit, a page's frame). A door
that is not there (the chat, where the bot is no member) simply does not
subscribe, and the game does not notice.

``asked_by`` names the door an ask came from, as that door named itself
(``Ask.door``): the game passes it on without reading it, so that a door can
tell a change it already drew for its asker from one it must draw itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine import HandOutcome
from tables import FollowUp, LogLine, Table


@dataclass(frozen=True)
class Saved:
    """A change to the table was saved (``TableWork``'s follow-up): opened,
    moved, dealt, closed."""

    follow_up: FollowUp


@dataclass(frozen=True)
class Moved:
    """A seat's own move, that the door it came by did not draw for its mover:
    their own view comes up to date at once, not with the others'."""

    seat: str


@dataclass(frozen=True)
class Opened:
    """A table was put in play by a door that does not show it in the
    channel itself (the Activity's lobby, its rematch)."""


@dataclass(frozen=True)
class Dealt:
    """A hand was dealt: each player gets their cards. ``finished`` is the
    hand just played (``finished_hand`` its number) when this is the match's
    next hand; None for the first."""

    asked_by: str
    finished: HandOutcome | None = None
    finished_hand: int = 0


@dataclass(frozen=True)
class Closed:
    """A table left play before its match was over, for ``notice``: the
    public table says so (unless the asking door already showed it, and then
    nothing is said)."""

    notice: LogLine


@dataclass(frozen=True)
class SeatTaken:
    """A computer plays a seat now, its player having missed their turns."""

    seat: str


TableEvent = Saved | Moved | Opened | Dealt | Closed | SeatTaken
Listener = Callable[[Table, TableEvent], None]
# Once a sweep, for each live table the sweeper keeps: a door keeps its views
# of it alive (the chat's hand messages, whose tokens run out).
Keeper = Callable[[Table, float], Awaitable[None]]


class TableEvents:
    """The game's one way out: every listener hears every event of every table."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._keepers: list[Keeper] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def keep_alive(self, keeper: Keeper) -> None:
        self._keepers.append(keeper)

    def emit(self, table: Table, event: TableEvent) -> None:
        for listener in self._listeners:
            listener(table, event)

    def after_save(self, table: Table, follow_up: FollowUp) -> None:
        """``TableWork``'s follow-up, said to every door."""
        self.emit(table, Saved(follow_up))

    async def swept(self, table: Table, now: float) -> None:
        for keeper in self._keepers:
            await keeper(table, now)
