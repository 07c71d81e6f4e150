"""The house rules in force, one line each, in the reader's language.

The engine describes its rules in English for its own tools; what a player
reads (``/rummy rules``, the host's Rules) is written here, from the same
choices, so that a Polish table's rules read in Polish.
"""

from __future__ import annotations

from engine import (
    MAX_RESHUFFLES,
    MAX_TURNS,
    AceRule,
    EmptyStock,
    GoOut,
    Hints,
    HouseRules,
    MeldsPerTurn,
    RummyBonus,
)

from .i18n import _, n_, number


def house_rule_lines(rules: HouseRules) -> list[str]:
    """One line per house rule, as ``HouseRules.describe`` says them in English."""
    return [
        _ace(rules),
        _("Melds: put down as many as you like in a turn; lay-offs are unlimited.")
        if rules.melds_per_turn is MeldsPerTurn.UNLIMITED
        else _("Melds: at most one new meld per turn; lay-offs are unlimited."),
        _("Going out: your last card may go by meld, lay-off or discard.")
        if rules.go_out is GoOut.ANY
        else _("Going out: your last card must be discarded; keep one to throw away."),
        _("Rummy: going out in one turn, with nothing melded or laid off before, doubles the "
          "hand's score.")
        if rules.rummy_bonus is RummyBonus.DOUBLE
        else _("Rummy: no bonus for going out in one turn."),
        _empty_stock(rules),
        _("Every hand ends: after {turns} turns without anyone going out, the lowest count in "
          "hand wins it.", turns=number(MAX_TURNS)),
        _match(rules),
        n_("Turn timer: {n} second.", "Turn timer: {n} seconds.", rules.turn_timeout)
        if rules.turn_timeout
        else _("Turn timer: off."),
        _("Hints: a player may ask for a suggested move.")
        if rules.hints is Hints.ON
        else _("Hints: none."),
    ]


def _ace(rules: HouseRules) -> str:
    if rules.ace is AceRule.LOW:
        return _("Aces are low: A-2-3 is a run, Q-K-A is not; an ace left in hand counts 1.")
    return _("Aces are high or low: A-2-3 and Q-K-A are runs, K-A-2 is not; an ace left in "
             "hand counts 15.")


def _empty_stock(rules: HouseRules) -> str:
    if rules.empty_stock is EmptyStock.RESHUFFLE:
        return n_(
            "Empty stock: the next draw from it shuffles the discard pile, all but its top "
            "card, into a new stock; after {n} reshuffle, or with fewer than 2 cards in the "
            "pile, drawing from the empty stock ends the hand with nobody out.",
            "Empty stock: the next draw from it shuffles the discard pile, all but its top "
            "card, into a new stock; after {n} reshuffles, or with fewer than 2 cards in the "
            "pile, drawing from the empty stock ends the hand with nobody out.",
            MAX_RESHUFFLES,
        )
    return _("Empty stock: drawing from it turns the whole discard pile over, unshuffled, as "
             "the new stock; the second time, drawing from it ends the hand with nobody out.")


def _match(rules: HouseRules) -> str:
    if rules.target is not None:
        return _("Match: first to {target} points; tied leaders share the win.",
                 target=number(rules.target))
    return n_("Match: {n} hand; the highest total wins, ties share.",
              "Match: {n} hands; the highest total wins, ties share.", rules.hands or 1)
