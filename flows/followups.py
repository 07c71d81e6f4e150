"""What follows a saved change: the public table, DMs, the player whose turn
it is now, and the table's next timer."""

from __future__ import annotations

from presentation.hand_messages import HandMessages
from presentation.notify import Notifier
from presentation.refresh import TableRefresher
from tables import FollowUp, Stage, Table

from .automation import Automation
from .nudges import TurnNudges
from .tasks import Supervisor


class FollowUps:
    """``TableWork``'s follow-ups: called once a change is saved."""

    def __init__(
        self,
        refresher: TableRefresher,
        notifier: Notifier,
        hand_messages: HandMessages,
        automation: Automation,
        tasks: Supervisor,
        nudges: TurnNudges,
    ) -> None:
        self.nudges = nudges
        self.refresher = refresher
        self.notifier = notifier
        self.hand_messages = hand_messages
        self.automation = automation
        self.tasks = tasks

    def after_save(self, table: Table, follow_up: FollowUp) -> None:
        if follow_up.refresh:
            self.refresher.request(table)
        if follow_up.result_kept:
            self.tasks.spawn(self.notifier.result_kept(table.channel_id), "result-kept-notice")
        hand_over = table.match is not None and table.match.hand.is_over
        if follow_up.turn_changed and hand_over:
            # The hand is over: every open hand message shows how it ended.
            for key in list(table.hand_messages):
                self.tasks.spawn(self.hand_messages.refresh(table, key), "hand-refresh")
        if table.stage is Stage.FINISHED:
            self.automation.cancel(table)
            self.nudges.cancel(table)
            return
        if follow_up.turn_changed and table.stage is Stage.PLAYING:
            seat = table.current_seat
            if seat is not None and not seat.played_by_computer:
                self.nudges.turn_started(table, seat)
                self.tasks.spawn(self.hand_messages.refresh(table, seat.key), "hand-refresh")
            else:
                self.nudges.cancel(table)
        self.automation.schedule(table)
