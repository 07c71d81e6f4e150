"""The rules of basic Rummy, pure Python: no Discord, no database, no I/O.

Everything the bot, the database layer and the tests need is re-exported here.
``engine.replay``, ``engine.arena`` and ``engine.bench`` are command-line tools and are
not imported.
"""

from engine.actions import (
    Action,
    Discard,
    DrawStock,
    LayOff,
    MeldCards,
    TakeDiscard,
    action_from_dict,
    action_to_dict,
    describe_action,
)
from engine.cards import (
    Card,
    Suit,
    format_cards,
    full_deck,
    parse_cards,
    sort_by_rank,
    sort_by_suit,
)
from engine.checks import check_position
from engine.errors import (
    HandOverError,
    IllegalMoveError,
    InvalidStateError,
    NotSeatedError,
    NotYourTurnError,
    RummyError,
    SetupError,
    SetupFault,
)
from engine.hand import Hand
from engine.limits import (
    CARDS_DEALT,
    MAX_PLAYERS,
    MAX_RESHUFFLES,
    MAX_TURN_OVERS,
    MAX_TURNS,
    MIN_PLAYERS,
)
from engine.match import Match, MatchOutcome
from engine.melds import (
    Meld,
    MeldKind,
    extend_meld,
    fits_meld,
    lay_off_options,
    make_meld,
    meld_options,
)
from engine.rules import (
    RULE_OPTIONS,
    AceRule,
    EmptyStock,
    GoOut,
    Hints,
    HouseRules,
    MeldsPerTurn,
    RuleOption,
    RummyBonus,
)
from engine.saved import SavedHand, SavedMatch
from engine.scoring import HandOutcome, Termination, hand_points, lowest_count_scores, score_hand
from engine.state import Event, Phase, TableMeld
from engine.view import HandView

__all__ = [
    "CARDS_DEALT",
    "MAX_PLAYERS",
    "MAX_RESHUFFLES",
    "MAX_TURNS",
    "MAX_TURN_OVERS",
    "MIN_PLAYERS",
    "RULE_OPTIONS",
    "AceRule",
    "Action",
    "Card",
    "Discard",
    "DrawStock",
    "EmptyStock",
    "Event",
    "GoOut",
    "Hand",
    "HandOutcome",
    "HandOverError",
    "HandView",
    "Hints",
    "HouseRules",
    "IllegalMoveError",
    "InvalidStateError",
    "LayOff",
    "Match",
    "MatchOutcome",
    "Meld",
    "MeldCards",
    "MeldKind",
    "MeldsPerTurn",
    "NotSeatedError",
    "NotYourTurnError",
    "Phase",
    "RuleOption",
    "RummyBonus",
    "RummyError",
    "SavedHand",
    "SavedMatch",
    "SetupError",
    "SetupFault",
    "Suit",
    "TableMeld",
    "TakeDiscard",
    "Termination",
    "action_from_dict",
    "action_to_dict",
    "check_position",
    "describe_action",
    "extend_meld",
    "fits_meld",
    "format_cards",
    "full_deck",
    "hand_points",
    "lay_off_options",
    "lowest_count_scores",
    "make_meld",
    "meld_options",
    "parse_cards",
    "score_hand",
    "sort_by_rank",
    "sort_by_suit",
]
