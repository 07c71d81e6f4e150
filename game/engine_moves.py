"""Playing engine actions at a table: the moves, the log lines they leave, and
the clock of the turn that follows."""

from __future__ import annotations

import time
from collections.abc import Iterable

from engine import Action, DrawStock, Event, TakeDiscard
from engine.words import N_
from presentation import render
from tables import Seat, Stage, Table
from tables.tapes import add_move, current_tape


class Moves:
    """Applies players' actions to a table's match; ``turn_time_scale`` shrinks
    every turn timer (tests)."""

    def __init__(self, turn_time_scale: float = 1.0) -> None:
        self.turn_time_scale = turn_time_scale

    def apply(
        self, table: Table, player: str, actions: Iterable[Action], *, by_human: bool
    ) -> list[Event]:
        """Apply actions for one player, inside a ``TableWork.change``.

        The engine refuses an action with ``RummyError`` and nothing changed;
        the change puts back any earlier actions of the sequence.
        """
        match = table.match
        assert match is not None
        turn_before = (match.hand_number, match.hand.turn)
        events: list[Event] = []
        table.fresh_cards.pop(player, None)
        for action in actions:
            held = set(match.hand.hand_of(player))
            tape = current_tape(table)
            applied = match.apply(player, action)
            add_move(table, tape, player, action)
            events += applied
            if isinstance(action, DrawStock | TakeDiscard):
                drawn = set(match.hand.hand_of(player)) - held
                if drawn:
                    table.fresh_cards[player] = next(iter(drawn)).code
        if by_human:
            table.last_human_action = time.time()
            table.seat(player).missed_turns = 0
        table.selections.pop(player, None)
        names = table.names()
        # Kept as messages: the table shows them in its language, each hand
        # message in its reader's.
        for event in events:
            line = render.event_line(event, names)
            if line:
                table.log_line(line, event.player)
        if match.hand.is_over:
            table.stage = Stage.FINISHED if match.is_over else Stage.HAND_OVER
            table.turn_deadline = None
            table.selections.clear()
        elif (match.hand_number, match.hand.turn) != turn_before:
            # A turn starts with nothing picked.
            table.selections.pop(match.hand.turn or "", None)
            self.start_clock(table)
        return events

    def deal_next_hand(self, table: Table) -> None:
        """Deal the match's next hand, inside a ``TableWork.change``: the log starts
        afresh and the first player's clock runs."""
        match = table.match
        assert match is not None
        match.next_hand()
        table.stage = Stage.PLAYING
        dealer = table.name_of(match.hand.view_for(None).dealer)
        table.new_hand_log(N_("Hand {number}: {dealer} dealt"), number=match.hand_number,
                           dealer=dealer)
        table.last_human_action = time.time()
        self.start_clock(table)

    def give_back(self, table: Table, seat: Seat) -> None:
        """A player takes their seat back from the computer that played it, inside a
        ``TableWork.change``; their turn, if it is theirs, gets its clock."""
        seat.autopilot = False
        seat.missed_turns = 0
        table.last_human_action = time.time()
        table.note(N_("{name} took their seat back"), seat.key, name=seat.shown_name)
        if table.current_seat is seat:
            self.start_clock(table)

    def start_clock(self, table: Table) -> None:
        """Give the player whose turn starts now the table's time limit."""
        seat = table.current_seat
        if seat is None or seat.played_by_computer or not table.rules.turn_timeout:
            table.turn_deadline = None
        else:
            seconds = table.rules.turn_timeout * self.turn_time_scale
            table.turn_deadline = time.time() + seconds
