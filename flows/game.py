"""The running game side of the bot: every flow, and what they share."""

from __future__ import annotations

from dataclasses import dataclass

from presentation.card_emoji import CardFaces
from presentation.hand_messages import HandMessages
from presentation.notify import Notifier
from presentation.pacing import RequestBudget
from presentation.refresh import TableRefresher
from tables import TableRegistry, TableWork

from .automation import Automation
from .channels import ChannelEvents
from .config import GameConfig
from .ending import Ending
from .hints import HintBook
from .history import History
from .lobby import Lobby
from .moves import Moves
from .nudges import TurnNudges
from .play import Play
from .prefs import PlayerPrefs
from .results import MatchResults
from .router import ComponentRouter
from .seasons import Seasons
from .settings import ServerRules
from .stats import Stats
from .table_door import TableDoor
from .tasks import Supervisor
from .watchers import TableWatchers


@dataclass
class Game:
    """What slash commands and clicks are handed to (built by ``app.wiring``)."""

    config: GameConfig
    budget: RequestBudget
    faces: CardFaces
    prefs: PlayerPrefs
    nudges: TurnNudges
    tables: TableRegistry
    work: TableWork
    tasks: Supervisor
    moves: Moves
    refresher: TableRefresher
    notifier: Notifier
    hand_messages: HandMessages
    automation: Automation
    lobby: Lobby
    play: Play
    ending: Ending
    stats: Stats
    server_rules: ServerRules
    router: ComponentRouter
    channels: ChannelEvents
    history: History
    seasons: Seasons
    results: MatchResults
    # The Activity's door to the tables, and the pages watching them.
    door: TableDoor
    watchers: TableWatchers
    hints: HintBook

    async def close(self) -> None:
        """Stop the timers and background work, then the table edits."""
        self.tasks.closing = True
        await self.automation.close()
        await self.nudges.close()
        await self.tasks.close()
        await self.refresher.close()
        self.hints.close()
