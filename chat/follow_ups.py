"""The chat's side of what the game says (``game.events``): the public table,
the hand messages, DMs, the host's panel and the match's chart. The
Activity's pages hear the same events through their watchers."""

from __future__ import annotations

from chat.messages.hand_layout import DRAW_STOCK_LINE
from chat.messages.table_layout import cancelled_layout, result_layout
from game.events import Closed, Dealt, Moved, Opened, Saved, SeatTaken, TableEvent
from game.tasks import Supervisor
from presentation.card_emoji import CardFaces
from presentation.i18n import speaking
from presentation.render import log_text
from tables import FollowUp, Stage, Table

from .dms import Notifier
from .hand_messages import HandMessages
from .host_panel import HostPanels
from .match_chart import MatchResults
from .table_refresher import TableRefresher
from .table_side import chat_side
from .turn_dms import TurnNudges

# How the chat names itself to the game (``Ask.door``).
CHAT = "chat"


class FollowUps:
    """What the chat draws and sends when the game tells it something."""

    def __init__(
        self,
        refresher: TableRefresher,
        notifier: Notifier,
        hand_messages: HandMessages,
        tasks: Supervisor,
        nudges: TurnNudges,
        host_panels: HostPanels,
        results: MatchResults,
        faces: CardFaces,
    ) -> None:
        self.nudges = nudges
        self.host_panels = host_panels
        self.refresher = refresher
        self.notifier = notifier
        self.hand_messages = hand_messages
        self.tasks = tasks
        self.results = results
        self.faces = faces

    def heard(self, table: Table, event: TableEvent) -> None:
        if table.activity_only:
            # No bot where the game is: the chat has nothing there to draw or
            # send, and Discord would refuse the bot's every post.
            return
        if isinstance(event, Saved):
            self.after_save(table, event.follow_up)
        elif isinstance(event, Moved):
            if event.seat in chat_side(table).hand_messages:
                # The player's hand message shows their own move at once.
                self.tasks.spawn(self.hand_messages.refresh(table, event.seat), "hand-refresh")
        elif isinstance(event, Opened):
            self.refresher.post(table)
        elif isinstance(event, Dealt):
            self._dealt(table, event)
        elif isinstance(event, Closed):
            with speaking(table.language):  # the public table
                self.refresher.replace(table, cancelled_layout(log_text(event.notice)))
        elif isinstance(event, SeatTaken):
            self.notifier.seat_taken(table, table.seat(event.seat))

    def _dealt(self, table: Table, event: Dealt) -> None:
        """A new hand: the finished one keeps its message, with its result and
        without its buttons (a click in the chat has done that already), the
        new one goes on a fresh message, and every player is sent their cards."""
        if event.finished is not None:
            finished_message = chat_side(table).message_id
            if event.asked_by != CHAT and finished_message is not None:
                with speaking(table.language):
                    layout = result_layout(table, event.finished, self.faces, dealt_on=True,
                                           hand_number=event.finished_hand)
                self.tasks.spawn(self.refresher.leave_as(table, finished_message, layout),
                                 "table-finished")
            self.refresher.move(table)
        self.notifier.dealt(table)

    def after_save(self, table: Table, follow_up: FollowUp) -> None:
        if follow_up.refresh:
            self.refresher.request(table)
        if follow_up.result_kept:
            self.tasks.spawn(self.notifier.result_kept(table.channel_id), "result-kept-notice")
        self._follow_in_hand_messages(table, follow_up)
        self.host_panels.follow(table)
        self.results.after_save(table, follow_up)
        if table.stage is Stage.FINISHED:
            self.nudges.cancel(table)
            return
        if follow_up.turn_changed and table.stage is Stage.PLAYING:
            seat = table.current_seat
            if seat is not None and not seat.played_by_computer:
                self.nudges.turn_started(table, seat)
            else:
                self.nudges.cancel(table)

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
