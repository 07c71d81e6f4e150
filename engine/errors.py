"""The engine's one error hierarchy.

Every error is a ``ValueError`` whose message can be shown to a player as it is:
the bot answers a refused click with ``str(error)``.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "HandOverError",
    "IllegalMoveError",
    "InvalidStateError",
    "NotSeatedError",
    "NotYourTurnError",
    "RummyError",
    "SetupError",
    "SetupFault",
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


class SetupFault(StrEnum):
    """Which rule of setting up a hand the players, seed or laid-out cards break."""

    PLAYER_LIST = "player_list"
    """The players are given as one string instead of a list of player ids."""
    PLAYER_COUNT = "player_count"
    """Fewer than 2 or more than 6 players."""
    PLAYER_ID = "player_id"
    """A player id that is not a non-empty string."""
    PLAYER_TWICE = "player_twice"
    """The same player in two seats."""
    SEED = "seed"
    """A seed that is not a whole number."""
    UNKNOWN_HAND = "unknown_hand"
    """A hand given for somebody who has no seat."""
    MISSING_HAND = "missing_hand"
    """A seated player with no hand given."""
    UNSEATED_FIRST = "unseated_first"
    """The player to move first has no seat."""
    NOT_A_CARD = "not_a_card"
    """Something laid out as a card is not a card."""
    CARD_TWICE = "card_twice"
    """One card laid out in two places."""


class SetupError(RummyError):
    """The players, seed or cards a hand is set up from are impossible.

    ``fault`` names the rule broken and ``subject`` the player, seed or card at fault,
    so that a file format can word the problem in its own terms (``engine.replay`` and
    the saved-state loader do); the message is the engine's own wording.
    """

    def __init__(self, message: str, fault: SetupFault, subject: object = None) -> None:
        super().__init__(message)
        self.fault = fault
        self.subject = subject
