"""The engine's one word about languages: ``N_`` marks a player-facing message.

The engine speaks English only. A player-facing error keeps its message as a
template with named placeholders (``RummyError("You don't hold {cards}",
cards=missing)``); ``N_`` marks that template for the translation catalogues
(``presentation.catalogues`` extracts every call named ``N_``) and returns it
unchanged. The presentation layer translates it (``presentation.explain``).
"""

from __future__ import annotations

__all__ = ["N_"]


def N_(message: str) -> str:
    """``message`` itself, marked for the translation catalogues."""
    return message
