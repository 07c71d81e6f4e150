"""What follows a saved change: the public table, DMs, the player whose turn
it is now, and the table's next timer."""

from __future__ import annotations

from presentation.hand_message import DRAW_STOCK_LINE
from presentation.hand_messages import HandMessages
from presentation.notify import Notifier
from presentation.refresh import TableRefresher
from tables import FollowUp, Stage, Table

from .automation import Automation
from .host_panel import HostPanels
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
        host_panels: HostPanels,
    ) -> None:
        self.nudges = nudges
        self.host_panels = host_panels
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
        self._follow_in_hand_messages(table, follow_up)
        self.host_panels.follow(table)
        if table.stage is Stage.FINISHED:
            self.automation.cancel(table)
            self.nudges.cancel(table)
            return
        if follow_up.turn_changed and table.stage is Stage.PLAYING:
            seat = table.current_seat
            if seat is not None and not seat.played_by_computer:
                self.nudges.turn_started(table, seat)
            else:
                self.nudges.cancel(table)
        self.automation.schedule(table)

    def _follow_in_hand_messages(self, table: Table, follow_up: FollowUp) -> None:
        """Every open hand message shows the change: at once for the player
        whose turn starts or ended (a turn the timer played included), when the
        hand or the game ends, and a moment later for those still waiting."""
        hand_over = table.match is not None and table.match.hand.is_over
        ended = table.stage is Stage.FINISHED or (follow_up.turn_changed and hand_over)
        seat = table.current_seat
        now = {follow_up.turn_before} if follow_up.turn_changed else set()
        if follow_up.turn_changed and seat is not None:
            now.add(seat.key)
        quiet = not follow_up.turn_changed and _drew_from_the_stock(table)
        for key in self.hand_messages.behind(table):
            if ended or key in now:
                self.tasks.spawn(self.hand_messages.refresh(table, key), "hand-refresh")
            elif not self.hand_messages.following(table, key, quiet=quiet):
                follow = self.hand_messages.follow(table, key, quiet=quiet)
                self.tasks.spawn(follow, "hand-follow")


def _drew_from_the_stock(table: Table) -> bool:
    """Whether the latest change was a draw from the stock and nothing else (a
    reshuffle it caused writes a line after it)."""
    return bool(table.hand_log) and table.hand_log[-1][1].message == DRAW_STOCK_LINE
