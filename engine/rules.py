"""House rules: every point where the rule texts disagree, as one frozen value.

The defaults are the most common rules (docs/playing.md, House rules): ace low,
unlimited melds per turn, going out any way, rummy doubles the score, the discard
pile is reshuffled when the stock runs out, and the match is played to 100 points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, TypeVar

from engine.errors import RummyError
from engine.words import N_

__all__ = [
    "RULE_KEYS",
    "RULE_OPTIONS",
    "AceRule",
    "EmptyStock",
    "GoOut",
    "Hints",
    "HouseRules",
    "MeldsPerTurn",
    "RuleOption",
    "RummyBonus",
]


class AceRule(StrEnum):
    """``low``: the ace only goes below the 2. ``high_or_low``: it may also follow the king."""

    LOW = "low"
    HIGH_OR_LOW = "high_or_low"


class MeldsPerTurn(StrEnum):
    """How many new melds a player may put down in one turn (lay-offs are never limited)."""

    UNLIMITED = "unlimited"
    ONE = "one"


class GoOut(StrEnum):
    """``any``: the last card may go by meld, lay-off or discard. ``discard_only``: by discard."""

    ANY = "any"
    DISCARD_ONLY = "discard_only"


class RummyBonus(StrEnum):
    """Whether going out in one turn without earlier melds doubles the hand's score."""

    DOUBLE = "double"
    NONE = "none"


class EmptyStock(StrEnum):
    """What drawing from an empty stock does (``engine.hand`` plays it out, within the
    bounds of ``engine.limits``)."""

    RESHUFFLE = "reshuffle"
    TURN_OVER = "turn_over"


class Hints(StrEnum):
    """Whether players may ask for a suggested move (the strongest computer's)."""

    ON = "on"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One house rule as a host sets it when opening a table.

    ``name`` is the ``HouseRules`` field (and the slash-command option), ``description``
    says in at most 100 characters what it decides (Discord's limit for an option), and
    the rule takes either one of ``choices`` or a whole number from ``minimum`` to
    ``maximum``. ``HouseRules`` checks its values against these same declarations.
    """

    name: str
    description: str
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None


def _values(kind: type[Enum]) -> tuple[str, ...]:
    return tuple(str(member.value) for member in kind)


RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("ace", N_("Aces low only, or high or low"), choices=_values(AceRule)),
    RuleOption(
        "melds_per_turn",
        N_("How many melds a player may put down in one turn"),
        choices=_values(MeldsPerTurn),
    ),
    RuleOption("go_out", N_("Whether the last card must be discarded"), choices=_values(GoOut)),
    RuleOption(
        "rummy_bonus",
        N_("Double the points for going out in one turn"),
        choices=_values(RummyBonus),
    ),
    RuleOption(
        "empty_stock", N_("What happens when the stock runs out"), choices=_values(EmptyStock)
    ),
    RuleOption("target", N_("Play until someone reaches this score"), minimum=1, maximum=10000),
    RuleOption("hands", N_("Play this many hands instead of to a target"), minimum=1, maximum=100),
    RuleOption("turn_timeout", N_("Seconds per turn (0 = no timer)"), minimum=0, maximum=3600),
    RuleOption("hints", N_("Whether players may ask for a suggested move"), choices=_values(Hints)),
)
"""Every house rule, in the order of the ``HouseRules`` fields."""
RULE_KEYS: tuple[str, ...] = tuple(option.name for option in RULE_OPTIONS)

_E = TypeVar("_E", bound=Enum)

# The enum each choice rule's value becomes; its values are the option's choices.
_ENUM_RULES: dict[str, type[Enum]] = {
    "ace": AceRule,
    "melds_per_turn": MeldsPerTurn,
    "go_out": GoOut,
    "rummy_bonus": RummyBonus,
    "empty_stock": EmptyStock,
    "hints": Hints,
}
_INT_RULES: dict[str, tuple[int, int]] = {
    option.name: (option.minimum, option.maximum)
    for option in RULE_OPTIONS
    if option.minimum is not None and option.maximum is not None
}


def _enum_value(name: str, kind: type[_E], value: object) -> _E:
    """The member of ``kind`` that ``value`` is or names; a message lists the choices."""
    if isinstance(value, kind):
        return value
    for member in kind:
        if member.value == value:
            return member
    choices = ", ".join(str(member.value) for member in kind)
    raise RummyError(N_("{name} must be one of: {choices}"), name=name, choices=choices)


def _check_int(name: str, value: object, optional: bool) -> None:
    """A whole-number rule lies in its declared range (``None`` allowed when optional)."""
    low, high = _INT_RULES[name]
    if value is None and optional:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RummyError(
            N_("{name} must be a whole number from {low} to {high}"), name=name, low=low, high=high
        )


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house rules of one table, validated on construction.

    A match ends either when a total reaches ``target`` or after ``hands`` hands:
    exactly one of the two is set (pass ``target=None`` together with ``hands``).
    ``turn_timeout`` is only stored here; the bot enforces it (0 means no timer).
    """

    ace: AceRule = AceRule.LOW
    melds_per_turn: MeldsPerTurn = MeldsPerTurn.UNLIMITED
    go_out: GoOut = GoOut.ANY
    rummy_bonus: RummyBonus = RummyBonus.DOUBLE
    empty_stock: EmptyStock = EmptyStock.RESHUFFLE
    target: int | None = 100
    hands: int | None = None
    turn_timeout: int = 120
    hints: Hints = Hints.ON

    def __post_init__(self) -> None:
        for name, kind in _ENUM_RULES.items():
            # Accepting the plain string too keeps HouseRules(ace="low") from building a
            # value that compares unequal to the real one.
            object.__setattr__(self, name, _enum_value(name, kind, getattr(self, name)))
        _check_int("target", self.target, optional=True)
        _check_int("hands", self.hands, optional=True)
        _check_int("turn_timeout", self.turn_timeout, optional=False)
        if (self.target is None) == (self.hands is None):
            raise RummyError(
                N_("Choose either a target score or a number of hands for the match, not both")
            )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form; ``from_dict`` reads it back to an equal value."""
        saved = {
            "ace": self.ace.value,
            "melds_per_turn": self.melds_per_turn.value,
            "go_out": self.go_out.value,
            "rummy_bonus": self.rummy_bonus.value,
            "empty_stock": self.empty_stock.value,
            "target": self.target,
            "hands": self.hands,
            "turn_timeout": self.turn_timeout,
        }
        # Written only when not the default, so that rules saved before hints
        # existed read back and save again exactly as they were.
        if self.hints is not Hints.ON:
            saved["hints"] = self.hints.value
        return saved

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        """Read house rules; missing keys take their defaults.

        Giving ``hands`` without ``target`` switches the match to a fixed number of hands.
        An unknown key or a bad value raises ``RummyError`` with a message naming it.
        """
        if not isinstance(data, Mapping):
            raise RummyError("house rules must be given as an object of name: value")
        for key in data:
            if key not in RULE_KEYS:
                raise RummyError(f"unknown house rule {key!r}")
        values: dict[str, Any] = {}
        for name, kind in _ENUM_RULES.items():
            if name in data:
                values[name] = _enum_value(name, kind, data[name])
        for name in _INT_RULES:
            if name in data:
                _check_int(name, data[name], optional=name != "turn_timeout")
                values[name] = data[name]
        if values.get("hands") is not None and "target" not in values:
            values["target"] = None
        return cls(**values)
