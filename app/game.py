"""The running bot's parts: the game, and both doors to it (built by
``app.wiring``). The chat's cog sees only its door's part of it
(``chat.door.ChatDoor``)."""

from __future__ import annotations

from dataclasses import dataclass

from chat.channel_events import ChannelEvents
from chat.commands.end import Ending
from chat.commands.history import History
from chat.commands.seasons import Seasons
from chat.commands.server_defaults import ServerSettings
from chat.commands.stats import Stats
from chat.dms import Notifier
from chat.hand_messages import HandMessages
from chat.lobby import Lobby
from chat.match_chart import MatchResults
from chat.router import ComponentRouter
from chat.table_buttons import Play
from chat.table_refresher import TableRefresher
from chat.turn_dms import TurnNudges
from game.config import GameConfig
from game.engine_moves import Moves
from game.events import TableEvents
from game.hints import HintBook
from game.prefs import PlayerPrefs
from game.server_rules import ServerRules
from game.tasks import Supervisor
from game.timers import Automation
from presentation.card_emoji import CardFaces
from presentation.pacing import RequestBudget
from tables import TableRegistry, TableWork
from web.table_door import TableDoor
from web.watchers import TableWatchers


@dataclass
class Game:
    """The game, the chat's door and the Activity's, wired together."""

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
    settings: ServerSettings
    events: TableEvents
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
