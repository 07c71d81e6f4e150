"""The unit of work: the one way a live table changes.

Every change goes the same way, under the table's lock::

    async with work.change(table) as change:
        ...change the table...
        await change.save()       # refused with NOT_SAVED, and undone, if it fails
        ...answer the click...

A block that ends without saving, by a refusal or any other error or by
choice, is undone (the table is put back as it was), so memory never holds a
state the database does not and no action is ever half applied. Once saved,
the move has happened: the follow-ups (the public table, DMs, the next
computer move, the turn timer) run when the block ends even if answering the
click failed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from db import Database, LiveTable, StorageError, unrecorded
from engine.words import N_

from .records import live_table, match_record
from .registry import TableRegistry
from .table import LogLine, Stage, Table, TableSnapshot

log = logging.getLogger(__name__)

# Marked for the catalogues; the flows translate it where they show it.
NOT_SAVED = N_("That could not be saved, so it did not happen. Please try again in a moment.")
# A match result the database refuses this many times in a row is kept aside
# as a file (db.unrecorded) and its table closed: a database that keeps
# failing must never hold a channel's game for ever.
RECORD_ATTEMPTS = 3

TurnMarker = tuple[int, str | None] | None


class Refusal(Exception):
    """An action refused with nothing changed; its text is shown to the player."""


class NotSaved(Refusal):
    """The change could not be saved, so it was undone."""

    def __init__(self, text: str = NOT_SAVED) -> None:
        super().__init__(text)


@dataclass(frozen=True)
class FollowUp:
    """What a saved change asks of the world around the table."""

    # Whose turn it is (or which hand) is not what it was before the change.
    turn_changed: bool
    # The public table message must be redrawn (False when the click's own
    # answer already shows it, or nothing public changed).
    refresh: bool
    # The match's result could not be recorded and was kept aside for the host.
    result_kept: bool = False
    # Whose turn ended with the change (None: the turn did not change hands).
    turn_before: str | None = None


AfterSave = Callable[[Table, FollowUp], None]
# What the door that shows a table keeps beside it, which the game does not
# know: the keys it adds to the table's saved state (its message's id among
# them, for the row's column), and, taken as a change begins, what puts its
# part back if the change is undone.
DoorState = Callable[[Table], dict[str, Any]]
DoorUndo = Callable[[Table], Callable[[], None]]


def _no_door_state(_table: Table) -> dict[str, Any]:
    return {}


def _nothing_to_undo() -> None:
    return None


def _no_door_undo(_table: Table) -> Callable[[], None]:
    return _nothing_to_undo


def _turn_marker(table: Table) -> TurnMarker:
    match = table.match
    return None if match is None else (match.hand_number, match.hand.turn)


class TableChange:
    """One change to one table; made by ``TableWork.change``."""

    def __init__(self, work: TableWork, table: Table, *, refresh: bool) -> None:
        self.work = work
        self.table = table
        self.refresh = refresh
        self.saved = False
        self.result_kept = False
        self._snapshot: TableSnapshot | None = None
        self._door_undo: Callable[[], None] = _nothing_to_undo
        self._turn_before: TurnMarker = None

    async def __aenter__(self) -> TableChange:
        self._snapshot = self.table.snapshot()
        self._door_undo = self.work.door_undo(self.table)
        self._turn_before = _turn_marker(self.table)
        return self

    def roll_back(self) -> None:
        """Put the table back as it was when the change began."""
        assert self._snapshot is not None, "a change rolls back only once entered"
        self.table.restore(self._snapshot)
        self._door_undo()

    async def save(self) -> None:
        """Save the change; raise ``NotSaved`` with the table put back if that fails.

        A finished match is recorded and leaves the live set in one step, so a
        score is never lost and never counted twice.
        """
        table = self.table
        try:
            self.result_kept = await self.work.commit(table)
        except StorageError:
            log.exception("could not save table in channel %s", table.channel_id)
            self.roll_back()
            table.lock.mark_saved()  # as it was when last saved
            raise NotSaved() from None
        table.lock.mark_saved()
        table.changes += 1
        self.saved = True
        if table.stage is Stage.FINISHED:
            self.work.tables.remove(table.channel_id)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self.saved:
            if not isinstance(exc, NotSaved):  # NotSaved has undone it already
                self.roll_back()
                self.table.lock.mark_saved()
            return
        before = self._turn_before
        turn_changed = _turn_marker(self.table) != before
        follow_up = FollowUp(
            turn_changed=turn_changed,
            refresh=self.refresh,
            result_kept=self.result_kept,
            turn_before=before[1] if turn_changed and before is not None else None,
        )
        self.work.after_save(self.table, follow_up)


class TableWork:
    """Saves tables and runs what follows a saved change (see the module's docstring)."""

    def __init__(
        self,
        db: Database,
        tables: TableRegistry,
        after_save: AfterSave,
        *,
        door_state: DoorState = _no_door_state,
        door_undo: DoorUndo = _no_door_undo,
    ) -> None:
        self.db = db
        self.tables = tables
        self.after_save = after_save
        self.door_state = door_state
        self.door_undo = door_undo
        self.kept_results = db.kept_results
        # Channel -> failed attempts in a row to record its match.
        self._record_failures: dict[int, int] = {}

    def row(self, table: Table) -> LiveTable:
        """The table's saved row as it is now, with its door's part."""
        return live_table(table, self.door_state(table))

    def change(self, table: Table, *, refresh: bool = True) -> TableChange:
        """A change to ``table``, which the caller has locked."""
        return TableChange(self, table, refresh=refresh)

    async def commit(self, table: Table) -> bool:
        """Write the table as it is now; raises ``StorageError`` with nothing written.
        True when a finished match's result had to be kept aside (``_record``)."""
        if table.stage is Stage.FINISHED:
            return await self._record(table, abandoned=False)
        await self.db.save_live_table(self.row(table))
        return False

    async def _record(self, table: Table, *, abandoned: bool) -> bool:
        """Record the table's match and take the table out of the live set.

        A refusal raises ``StorageError``, until the database has refused this
        match ``RECORD_ATTEMPTS`` times in a row: then the result is kept as a
        file for the host to record later, the live table is let go, and this
        returns True.
        """
        record = match_record(table, abandoned=abandoned)
        channel = table.channel_id
        try:
            await self.db.record_match(record, remove_live=channel)
        except StorageError:
            failures = self._record_failures.get(channel, 0) + 1
            if failures < RECORD_ATTEMPTS:
                self._record_failures[channel] = failures
                raise
        else:
            self._record_failures.pop(channel, None)
            return False
        path = await asyncio.to_thread(unrecorded.keep, self.kept_results, record)
        self._record_failures.pop(channel, None)
        log.error("the database keeps refusing the match in channel %s; kept in %s", channel, path)
        try:
            await self.db.delete_live_table(channel)
        except StorageError:
            log.exception("could not let go of the live table in channel %s", channel)
        return True

    async def open(self, table: Table) -> None:
        """Put a new table into play in its channel; ``NotSaved`` if it cannot be saved.

        Its follow-ups are a saved change's: a table opened already dealt (a
        rematch with nobody to wait for) must have its first turn begun as a
        Start's deal has, the first computer's move or the turn's clock, or it
        waits for ever. The door that opens it shows it in the channel itself.
        """
        self.tables.add(table)
        try:
            await self.db.save_live_table(self.row(table))
        except StorageError:
            self.tables.remove(table.channel_id)
            raise NotSaved() from None
        dealt = _turn_marker(table) is not None
        self.after_save(table, FollowUp(turn_changed=dealt, refresh=False))

    async def close(self, table: Table, why: LogLine | None = None) -> None:
        """Take a table out of play; a started match is recorded as abandoned (no
        winner), with whatever hands it completed. ``NotSaved`` changes nothing.
        ``why``: what the pages still open on it say happened."""
        kept = False
        try:
            if table.match is not None:
                kept = await self._record(table, abandoned=True)
            else:
                await self.db.delete_live_table(table.channel_id)
        except StorageError:
            raise NotSaved() from None
        table.stage = Stage.FINISHED
        table.closed_why = why
        table.changes += 1  # what every open view shows is not what it was
        self.tables.remove(table.channel_id)
        self.after_save(table, FollowUp(turn_changed=True, refresh=False, result_kept=kept))

    async def record_message(self, table: Table) -> None:
        """Save a table whose message moved; a failure is logged, not raised: the
        id is saved again with the next change, and a lost one heals itself."""
        try:
            await self.db.save_live_table(self.row(table))
        except StorageError:
            log.exception("could not record the table message in channel %s", table.channel_id)
