"""Fixed bounds of the game, the same at every table whatever its house rules.

They live apart from the house rules and from the hand so that both can state them:
``presentation.house_rules`` states them to players, ``engine.hand`` enforces them.
"""

from __future__ import annotations

__all__ = [
    "CARDS_DEALT",
    "MAX_PLAYERS",
    "MAX_RESHUFFLES",
    "MAX_TURNS",
    "MAX_TURN_OVERS",
    "MIN_PLAYERS",
]

MIN_PLAYERS = 2
"""The fewest players a hand is dealt to."""
MAX_PLAYERS = 6
"""The most players a hand is dealt to."""
CARDS_DEALT: dict[int, int] = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""Cards dealt to each player, by number of players."""
MAX_RESHUFFLES = 3
"""Under ``empty_stock = reshuffle``: rebuilds of the stock allowed in one hand."""
MAX_TURN_OVERS = 1
"""Under ``empty_stock = turn_over``: turn-overs of the discard pile allowed in one hand."""
MAX_TURNS = 500
"""Completed turns after which a hand ends with nobody out, under every rule."""
