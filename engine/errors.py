"""The engine's one error hierarchy.

Every error is a ``ValueError`` whose message can be shown to a player as it is:
the bot answers a refused click with ``str(error)``.
"""

from __future__ import annotations

__all__ = [
    "HandOverError",
    "IllegalMoveError",
    "InvalidStateError",
    "NotSeatedError",
    "NotYourTurnError",
    "RummyError",
]


class RummyError(ValueError):
    """Base of every engine error; the message is fit to show a player."""


class IllegalMoveError(RummyError):
    """The move breaks a rule of the game or of the table's house rules."""


class NotYourTurnError(IllegalMoveError):
    """Somebody other than the player to move tried to act."""


class NotSeatedError(IllegalMoveError):
    """The player id does not belong to this hand or match."""


class HandOverError(IllegalMoveError):
    """The hand (or the whole match) is already finished, or not ready for this."""


class InvalidStateError(RummyError):
    """Saved state handed to ``from_dict`` is malformed or inconsistent."""
