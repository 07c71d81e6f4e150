"""What the chat's cog is handed: the chat's door to the game, as the slash
commands and the gateway's events reach it. ``app.game.Game`` is one; the
cog knows nothing of the Activity's door beside it."""

from __future__ import annotations

from typing import Protocol

from game.prefs import PlayerPrefs
from game.tasks import Supervisor

from .channel_events import ChannelEvents
from .commands.end import Ending
from .commands.history import History
from .commands.seasons import Seasons
from .commands.server_defaults import ServerSettings
from .commands.stats import Stats
from .lobby import Lobby
from .router import ComponentRouter
from .table_buttons import Play


class ChatDoor(Protocol):
    """The parts of the running bot a slash command or a gateway event needs."""

    @property
    def prefs(self) -> PlayerPrefs: ...
    @property
    def tasks(self) -> Supervisor: ...
    @property
    def router(self) -> ComponentRouter: ...
    @property
    def channels(self) -> ChannelEvents: ...
    @property
    def settings(self) -> ServerSettings: ...
    @property
    def lobby(self) -> Lobby: ...
    @property
    def play(self) -> Play: ...
    @property
    def ending(self) -> Ending: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def history(self) -> History: ...
    @property
    def seasons(self) -> Seasons: ...
