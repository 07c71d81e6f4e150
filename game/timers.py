"""Play that happens without a click: computer turns, turn timers, and the
sweeper that closes forgotten lobbies and abandoned tables.

Waiting never holds a table's lock: a task sleeps first, then takes the lock
and checks that the turn it was made for is still the current one.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

from engine import Action, Card, Discard, HandView, LayOff, MeldCards, RummyError
from engine.ai import choose_action, timeout_action
from presentation.i18n import N_, NP_
from tables import (
    MISSED_TURNS_BEFORE_AUTOPILOT,
    NOT_SAVED,
    LogLine,
    NotSaved,
    Stage,
    Table,
    TableRegistry,
    TableWork,
)
from tables.tapes import public_record

from .config import GameConfig
from .engine_moves import Moves
from .events import Closed, Saved, SeatTaken, TableEvent, TableEvents
from .tasks import Supervisor

log = logging.getLogger(__name__)
# A computer turn is a draw, some melds/lay-offs and a discard; this bound only
# guards against a faulty strategy that never ends its turn.
MAX_ACTIONS_PER_TURN = 40
# Levels whose decisions take long enough to be made off the event loop.
THINKING_LEVELS = frozenset({"expert"})
# After a computer or timeout move could not be saved, try again this much later.
RETRY_AFTER_NOT_SAVED = 5.0

TurnMarker = tuple[int, str, float | None]


def think(table: Table, view: HandView, level: str, rng: random.Random) -> Action:
    """A computer's move with the hand's public record (on a worker thread)."""
    return choose_action(view, level, rng, public_record(table))


def cards_of(action: Action) -> tuple[Card, ...]:
    """The cards a move puts down (none for a draw)."""
    if isinstance(action, MeldCards | LayOff):
        return action.cards
    if isinstance(action, Discard):
        return (action.card,)
    return ()


class Automation:
    """The one timer each table may have (a computer's move or a person's turn
    clock), and the sweeper."""

    def __init__(
        self,
        config: GameConfig,
        tables: TableRegistry,
        work: TableWork,
        moves: Moves,
        tasks: Supervisor,
        events: TableEvents,
    ) -> None:
        self.events = events
        self.config = config
        self.tables = tables
        self.work = work
        self.moves = moves
        self.tasks = tasks
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # --- scheduling -------------------------------------------------------------
    def heard(self, table: Table, event: TableEvent) -> None:
        """After every saved change, the table's one timer is made anew: the
        turn may have passed, or the game ended."""
        if not isinstance(event, Saved):
            return
        if table.stage is Stage.FINISHED:
            self.cancel(table)
        else:
            self.schedule(table)

    def schedule(self, table: Table) -> None:
        """(Re)arm the one timer a table may have: a computer move or a turn clock."""
        self.cancel(table)
        seat = table.current_seat
        if seat is None or table.match is None:
            return
        marker: TurnMarker = (table.hand_number, seat.key, table.turn_deadline)
        task: asyncio.Task[None] | None
        if seat.played_by_computer:
            # Spawned as pending work: waiting for the bot to settle includes
            # the computers' moves, but not a person's turn clock.
            task = self.tasks.spawn(
                self._computer_turn(table, marker), f"computer-{table.channel_id}"
            )
        elif table.turn_deadline is not None:
            task = asyncio.create_task(
                self._turn_timeout(table, marker), name=f"timer-{table.channel_id}"
            )
        else:
            return
        if task is not None:
            self._timers[table.channel_id] = task

    def cancel(self, table: Table) -> None:
        """Stop the table's timer, unless it is the task asking."""
        old = self._timers.pop(table.channel_id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()

    def timers(self) -> list[asyncio.Task[None]]:
        """The tables' timers now armed."""
        return list(self._timers.values())

    def start_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="table-sweeper")

    async def stop(self) -> None:
        """Stop the sweeper; turn timers are stopped by ``close``."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)

    async def close(self) -> None:
        timers = list(self._timers.values())
        self._timers.clear()
        for timer in timers:
            timer.cancel()
        await asyncio.gather(*timers, return_exceptions=True)

    def _still_current(self, table: Table, marker: TurnMarker) -> bool:
        seat = table.current_seat
        return (
            self.tables.get(table.channel_id) is table
            and seat is not None
            and (table.hand_number, seat.key, table.turn_deadline) == marker
        )

    # --- a computer's turn ---------------------------------------------------------
    async def _computer_turn(self, table: Table, marker: TurnMarker) -> None:
        try:
            await asyncio.sleep(self.config.computer_delay)
            async with table.lock:
                if not self._still_current(table, marker):
                    return
                seat = table.current_seat
                assert seat is not None
                level = seat.level if seat.user_id is None else "easy"
                async with self.work.change(table) as change:
                    try:
                        await self._play_turn(table, seat.key, level or "easy")
                    except RummyError:
                        log.exception("computer strategy made an illegal move; playing it safe")
                        change.roll_back()
                        await self._play_turn(table, seat.key, "timeout")
                    await change.save()
        except NotSaved:
            log.error("computer move not saved in channel %s; retrying soon", table.channel_id)
            self.tasks.spawn(self._retry_later(table), "computer-retry")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer turn failed in channel %s", table.channel_id)

    async def _play_turn(self, table: Table, key: str, level: str) -> None:
        """Play one whole turn for ``key``, one engine action at a time."""
        match = table.match
        assert match is not None
        hand_number = match.hand_number
        rng = random.Random(f"{table.seed}:{hand_number}:{len(table.log)}:{key}")
        for _attempt in range(MAX_ACTIONS_PER_TURN):
            view = match.hand.view_for(key)
            if match.hand_number != hand_number or view.turn != key:
                return
            action: Action
            if level == "timeout":
                action = timeout_action(view)
            elif level in THINKING_LEVELS:
                # Its look-ahead takes milliseconds: think in a worker thread so the
                # other tables' clicks are answered meanwhile. The view and the
                # record are snapshots, and the table stays locked.
                action = await asyncio.to_thread(think, table, view, level, rng)
            else:
                action = choose_action(view, level, rng)
            self.moves.apply(table, key, [action], by_human=False)
        raise RummyError("the computer player did not finish its turn")

    async def _retry_later(self, table: Table) -> None:
        await asyncio.sleep(RETRY_AFTER_NOT_SAVED)
        # The channel may hold another game by now; its timer is not ours to replace.
        if self.tables.get(table.channel_id) is table:
            self.schedule(table)

    # --- turn timer ----------------------------------------------------------------------
    async def _turn_timeout(self, table: Table, marker: TurnMarker) -> None:
        deadline = marker[2]
        assert deadline is not None
        try:
            await asyncio.sleep(max(0.0, deadline - time.time()))
            async with table.lock:
                if not self._still_current(table, marker):
                    return
                seat = table.current_seat
                assert seat is not None
                async with self.work.change(table) as change:
                    seat.missed_turns += 1
                    await self._play_turn(table, seat.key, "timeout")
                    taken = seat.missed_turns >= MISSED_TURNS_BEFORE_AUTOPILOT
                    table.note(
                        N_("{name} ran out of time: the bot played that turn"),
                        seat.key,
                        name=seat.shown_name,
                    )
                    if taken:
                        missed, missed_plural = NP_(
                            "{name} missed {n} turn in a row: a computer "
                            "plays their seat until they take it back",
                            "{name} missed {n} turns in a row: a computer "
                            "plays their seat until they take it back",
                        )
                        table.note(
                            missed,
                            seat.key,
                            plural=missed_plural,
                            name=seat.shown_name,
                            n=seat.missed_turns,
                        )
                    if taken:
                        seat.autopilot = True
                    await change.save()
                    if taken:
                        self.events.emit(table, SeatTaken(seat.key))  # once: taken now
        except NotSaved:
            log.error("timeout move not saved in channel %s", table.channel_id)
            self.tasks.spawn(self._retry_later(table), "timeout-retry")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn timer failed in channel %s", table.channel_id)

    # --- the sweeper ----------------------------------------------------------------------
    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("table sweep failed")

    async def sweep(self, now: float | None = None) -> None:
        """Close lobbies nobody started and tables nobody plays any more."""
        when = time.time() if now is None else now
        for table in self.tables:
            if self._expired(table, when):
                await self._close(table, when)
            else:
                await self.events.swept(table, when)

    def _expired(self, table: Table, now: float) -> bool:
        if table.stage is Stage.LOBBY:
            return now - table.created_at > self.config.lobby_timeout
        if table.stage in (Stage.PLAYING, Stage.HAND_OVER):
            idle_since = max(table.last_human_action, table.last_seen)
            return now - idle_since > self.config.idle_timeout
        return False

    async def _close(self, table: Table, now: float) -> None:
        async with table.lock:
            # Decided again under the lock: a Start or a move may have landed
            # while this waited for it.
            if self.tables.get(table.channel_id) is not table or not self._expired(table, now):
                return
            why = LogLine.of(
                N_("Nobody started this game, so the lobby closed.")
                if table.stage is Stage.LOBBY
                else N_("Nobody played for a long while, so the game was ended as abandoned.")
            )
            try:
                await self.work.close(table, why)
            except NotSaved:
                log.error("%s (in channel %s)", NOT_SAVED, table.channel_id)
                return
            self.events.emit(table, Closed(why))
