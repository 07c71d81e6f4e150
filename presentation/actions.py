"""Every component action the bot sends, declared once.

A declaration says what its custom id looks like, which message it belongs
on, who may press it and whether pressing it changes the table; the buttons
are built from it (``chat.messages.components``) and clicks are routed by it
(``chat.router``, which binds each action to its handler).

Custom id: ``rummy:<action>:<scope>[:<arg>]``. The scope of a table's control
is its channel and the game's id (``<channel>-<game>``), so a control of a
game that is over never acts in the next game of the same channel; a
leaderboard's scope is its server. The id only says *where* a click belongs
and *what* was pressed; the game state always comes from the table registry,
never from the id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

PREFIX = "rummy"
# Discord caps custom_id at 100 characters; snowflakes are at most 20 digits.
TEMPLATE = re.compile(
    rf"{PREFIX}:(?P<action>[a-z_]+):(?P<scope>[0-9]{{1,20}})(?:-(?P<game>[0-9a-f]{{1,16}}))?"
    r"(?::(?P<arg>[A-Za-z0-9_.-]{1,40}))?"
)


class Place(Enum):
    """The kind of message an action's component is on."""

    LOBBY = "lobby"
    TABLE = "table"
    HAND = "hand"  # a player's ephemeral hand message
    LEADERBOARD = "leaderboard"
    HISTORY = "history"  # a member's ephemeral history, match summary or replay
    HOST = "host"  # the lobby host's ephemeral controls

    @property
    def ephemeral(self) -> bool:
        """Whether messages of this kind are seen only by the member who asked."""
        return self in (Place.HAND, Place.HISTORY, Place.HOST)

    def shown_on(self, ephemeral: bool) -> bool:
        """Whether a message that is (or is not) ephemeral may carry this kind's
        controls: a click from any other is forged."""
        if self is Place.HOST:
            # Before the host had controls of their own they sat on the public
            # lobby, and a lobby drawn then may still be restored and clicked.
            return True
        return ephemeral == self.ephemeral


class Locking(Enum):
    """How a click waits for its table."""

    # Under the table's lock: it may change the table.
    CHANGE = "change"
    # It changes nothing of the game (at most the clicking player's own
    # selection or sort order): it waits only for unsaved changes, never for
    # another click's answer (see tables.lock).
    LOOK = "look"
    # Clicks that arrive together are gathered and take the lock as one group.
    GROUP = "group"


class Who(Enum):
    """Who may press an action's component."""

    ANYONE = "anyone"
    SEATED = "seated"
    HOST = "host"


@dataclass(frozen=True, slots=True)
class ComponentAction:
    """One kind of button or select."""

    name: str
    place: Place
    who: Who = Who.ANYONE
    locking: Locking = Locking.CHANGE
    # For host-only actions, what the refusal says the host alone can do.
    host_task: str = ""
    # What the Activity's page names it in an intent ("" if the page cannot ask
    # for it): one declaration of who may do it and how, for both doors.
    intent: str = ""

    def id(self, scope: int | str, arg: str | int | None = None) -> str:
        """The custom id of this action's component; every hand message is dozens.
        ``scope``: a server id, or a table's ``table_scope``."""
        base = f"{PREFIX}:{self.name}:{scope}"
        return base if arg is None else f"{base}:{arg}"


def table_scope(channel_id: int, game_id: str) -> str:
    """The scope of a table's controls: its channel, and which game there."""
    return f"{channel_id}-{game_id}"


JOIN = ComponentAction("join", Place.LOBBY, locking=Locking.GROUP, intent="join")
LEAVE = ComponentAction("leave", Place.LOBBY, intent="leave")
# The lobby's Rules: the rules for everyone, and for the host their controls too.
LOBBY_RULES = ComponentAction("lrules", Place.LOBBY, locking=Locking.LOOK)
ADD_COMPUTER = ComponentAction(
    "addcpu", Place.HOST, Who.HOST, host_task="add computer players", intent="add_computer"
)
REMOVE_COMPUTER = ComponentAction(
    "dropcpu", Place.HOST, Who.HOST, host_task="remove computer players",
    intent="remove_computer",
)
START = ComponentAction("start", Place.HOST, Who.HOST, host_task="start the game",
                        intent="start")
CANCEL = ComponentAction("cancel", Place.HOST, Who.HOST, host_task="cancel the game",
                         intent="cancel")
# A lobby opened from the Activity, whoever asks first becoming its host (the
# chat opens one with /rummy start, a command, not a component).
OPEN_LOBBY = ComponentAction("open", Place.LOBBY, intent="open")

SHOW_HAND = ComponentAction("hand", Place.TABLE, Who.SEATED, locking=Locking.LOOK)
RULES = ComponentAction("rules", Place.TABLE, locking=Locking.LOOK)
NEXT_HAND = ComponentAction("next", Place.TABLE, Who.SEATED, intent="next_hand")
# Launches the Activity: anyone may watch, only the seated play.
OPEN_TABLE = ComponentAction("activity", Place.TABLE, locking=Locking.LOOK)
# On a finished match's message: the table has left play, so it is answered
# without one (its players are checked by the handler).
REMATCH = ComponentAction("rematch", Place.TABLE, intent="rematch")

PICK = ComponentAction("pick", Place.HAND, Who.SEATED, locking=Locking.LOOK)
# The card menu and the lay-off menu of earlier versions: a click on one
# brings that hand message up to date.
SELECT_CARDS = ComponentAction("cards", Place.HAND, Who.SEATED, locking=Locking.LOOK)
SORT = ComponentAction("sort", Place.HAND, Who.SEATED, locking=Locking.LOOK, intent="sort")
REFRESH = ComponentAction("refresh", Place.HAND, Who.SEATED, locking=Locking.LOOK)
DRAW = ComponentAction("draw", Place.HAND, Who.SEATED, intent="draw")
TAKE = ComponentAction("take", Place.HAND, Who.SEATED, intent="take")
MELD = ComponentAction("meld", Place.HAND, Who.SEATED, intent="meld")
LAY_OFF = ComponentAction("layoff", Place.HAND, Who.SEATED, intent="lay_off")
LAY_OFF_ONTO = ComponentAction("onto", Place.HAND, Who.SEATED)
DISCARD = ComponentAction("discard", Place.HAND, Who.SEATED, intent="discard")
RECLAIM = ComponentAction("reclaim", Place.HAND, Who.SEATED, intent="reclaim")
SETTINGS = ComponentAction("prefs", Place.HAND, Who.SEATED, locking=Locking.LOOK)
HINT = ComponentAction("hint", Place.HAND, Who.SEATED, locking=Locking.LOOK, intent="hint")
# The hand's log is what everyone at the table saw: a watcher may read it too.
FULL_LOG = ComponentAction("log", Place.HAND, locking=Locking.LOOK, intent="log")
TOGGLE = ComponentAction("toggle", Place.HAND, Who.SEATED, locking=Locking.LOOK)
# The language a member reads the bot in: a watcher of the Activity chooses too.
LANGUAGE = ComponentAction("lang", Place.HAND, locking=Locking.LOOK, intent="language")
# Why the picked cards make no move: the Activity asks; the chat's hand message
# says it under its dim buttons, and a click names it only to redraw.
WHY = ComponentAction("why", Place.HAND, Who.SEATED, locking=Locking.LOOK, intent="why")

LEADERBOARD_PAGE = ComponentAction("lb", Place.LEADERBOARD, locking=Locking.LOOK)

# The history's controls: the scope is the server, the argument says what is
# shown (``chat.messages.history_layout``); what it shows is read from the database
# for the server the click comes from.
HISTORY_PAGE = ComponentAction("hist", Place.HISTORY, locking=Locking.LOOK)
HISTORY_MATCH = ComponentAction("hmatch", Place.HISTORY, locking=Locking.LOOK)
REPLAY_HAND = ComponentAction("rhand", Place.HISTORY, locking=Locking.LOOK)
REPLAY_STEP = ComponentAction("rstep", Place.HISTORY, locking=Locking.LOOK)
# The replay's selects of turns: the value picked is the turn to show.
REPLAY_TURN = ComponentAction("rturn", Place.HISTORY, locking=Locking.LOOK)
REPLAY_EXPORT = ComponentAction("rjson", Place.HISTORY, locking=Locking.LOOK)
# Posts a member's stats, first shown to the asker alone, for the channel.
SHARE_STATS = ComponentAction("share", Place.HISTORY, locking=Locking.LOOK)

ACTIONS: dict[str, ComponentAction] = {
    action.name: action
    for action in (
        JOIN,
        LEAVE,
        LOBBY_RULES,
        ADD_COMPUTER,
        REMOVE_COMPUTER,
        START,
        CANCEL,
        SHOW_HAND,
        RULES,
        NEXT_HAND,
        OPEN_TABLE,
        REMATCH,
        PICK,
        SELECT_CARDS,
        SORT,
        REFRESH,
        DRAW,
        TAKE,
        MELD,
        LAY_OFF,
        LAY_OFF_ONTO,
        DISCARD,
        RECLAIM,
        SETTINGS,
        TOGGLE,
        LANGUAGE,
        HINT,
        FULL_LOG,
        WHY,
        LEADERBOARD_PAGE,
        HISTORY_PAGE,
        HISTORY_MATCH,
        REPLAY_HAND,
        REPLAY_STEP,
        REPLAY_TURN,
        REPLAY_EXPORT,
        SHARE_STATS,
    )
}


# The actions the Activity's page may ask for, by the name it gives them.
INTENTS: dict[str, ComponentAction] = {
    action.intent: action for action in (*ACTIONS.values(), OPEN_LOBBY) if action.intent
}


@dataclass(frozen=True, slots=True)
class ComponentId:
    """A parsed custom id: which action, where, and its argument."""

    action: ComponentAction
    scope: int
    arg: str | None = None
    game: str | None = None

    def __str__(self) -> str:
        scope = self.scope if self.game is None else table_scope(self.scope, self.game)
        return self.action.id(scope, self.arg)

    @classmethod
    def parse(cls, custom_id: str) -> ComponentId | None:
        """The id's parts, or None for an id this bot never sends."""
        found = TEMPLATE.fullmatch(custom_id)
        if found is None:
            return None
        action = ACTIONS.get(found["action"])
        if action is None:
            return None
        return cls(action, int(found["scope"]), found["arg"], found["game"])
