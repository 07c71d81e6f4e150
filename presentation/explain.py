"""An engine error in the reader's language.

The engine words its player-facing errors in English only, as a template and
its parameters (``engine.errors``). ``explain`` translates the template and
writes the parameters as the current language does: cards with its rank
letters, numbers with its separators.
"""

from __future__ import annotations

from engine import Card, RummyError

from .i18n import _, card_text, cards_text, number

__all__ = ["explain"]


def _shown(value: object) -> str:
    if isinstance(value, Card):
        return card_text(value)
    if isinstance(value, list | tuple) and all(isinstance(item, Card) for item in value):
        return cards_text(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return str(value)


def explain(error: RummyError) -> str:
    """What ``error`` says, in the current language (its English ``str`` for a
    message that is not in the catalogues)."""
    if not error.params:
        return _(error.template or str(error))
    return _(error.template, **{name: _shown(value) for name, value in error.params.items()})
