"""The game's timings and limits, set by the bot's settings; tests shrink them."""

from __future__ import annotations

from dataclasses import dataclass

from presentation.pacing import FOLLOW_AFTER, QUIET_FOLLOW_AFTER, REQUESTS_PER_SECOND


@dataclass(frozen=True)
class GameConfig:
    """Timings, all in seconds, and the bot's own request rate."""

    computer_delay: float = 1.0
    lobby_timeout: float = 15 * 60
    idle_timeout: float = 30 * 60
    sweep_interval: float = 30.0
    # Deal every new table from this seed instead of a random one: replays a
    # reported game exactly, and lets tests compare runs.
    table_seed: int | None = None
    # A player whose turn it is and who has not looked at the game for this
    # long gets a DM (at most one a turn).
    turn_nudge_after: float = 20.0
    # Show cards as the bot's own emojis (uploaded at start-up); tests that
    # are not about the pictures skip the upload.
    card_emoji: bool = True
    # Multiplies every turn timer; tests shrink two-minute turns to moments.
    turn_time_scale: float = 1.0
    # Table edits and DMs a second, all tables together (see
    # presentation.pacing); tests that play at machine speed raise it.
    request_rate: float = REQUESTS_PER_SECOND
    # How long a waiting player's hand message lets the game move on before it
    # shows it (chat.hand_messages): the moves made meanwhile cost it
    # one edit. Tests that check every message after every move make it 0.
    follow_after: float = FOLLOW_AFTER
    # How long a draw from the stock may wait for the mover's next move before
    # the waiting players' messages show it by itself.
    quiet_follow_after: float = QUIET_FOLLOW_AFTER
    # The bot serves the Activity: the table offers Open table.
    activity: bool = False
