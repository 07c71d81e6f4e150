"""Words that agree with their numbers: "1 card", "2 cards"."""

from __future__ import annotations


def plural(count: int, one: str, many: str | None = None) -> str:
    """The count with the word that goes with it."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
