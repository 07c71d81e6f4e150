"""The engine's one error hierarchy.

Every error is a ``ValueError``. ``str(error)`` is its message in English.

A player-facing error (an illegal move, a house rule that cannot be) is built
from a *template* marked for the translation catalogues and its parameters:
``IllegalMoveError(N_("You don't hold {cards}"), cards=missing)``. Parameters
are cards, lists of cards, numbers or words; ``str(error)`` writes cards as
``card.display``. The bot shows a player ``presentation.explain(error)``: the
template in the player's language, cards with the language's rank letters.
Developer-facing errors (saved state, replay files) are plain English messages.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    "english",
]


def _english_value(value: object) -> str:
    # Duck-typed: engine.cards imports this module, so Card cannot be named here.
    display = getattr(value, "display", None)
    if isinstance(display, str):
        return display
    if isinstance(value, list | tuple):
        return " ".join(_english_value(item) for item in value)
    return str(value)


def english(template: str, params: Mapping[str, object]) -> str:
    """A message template filled in English (cards as ``card.display``)."""
    if not params:
        return template
    return template.format(**{name: _english_value(v) for name, v in params.items()})


class RummyError(ValueError):
    """Base of every engine error.

    ``template`` is the message with its ``{placeholders}`` and ``params`` their
    values; ``str(error)`` is the two put together, in English.
    """

    def __init__(self, template: str = "", /, **params: object) -> None:
        self.template = template
        self.params: dict[str, object] = params
        super().__init__(english(template, params))


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

    def __init__(
        self, message: str, fault: SetupFault, subject: object = None, **params: object
    ) -> None:
        super().__init__(message, **params)
        self.fault = fault
        self.subject = subject
