"""Where a game is played, as the game needs to know it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """A channel with a game in it, the board its results go to (a server's,
    or a DM's or group DM's own: its channel id), and whether the bot is a
    member there (where it is not, nothing can be posted and the Activity is
    the game's only door)."""

    channel_id: int
    board_id: int
    activity_only: bool = False

    @classmethod
    def private(cls, channel_id: int) -> Place:
        """A DM or group DM between people: its own board, no bot in it."""
        return cls(channel_id, channel_id, activity_only=True)
