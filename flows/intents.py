"""What a page of the Activity asks for, and what it is answered: checked for
shape here, then played by ``flows.table_door``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The moves that change the table, and those that only answer the asker.
MOVES = frozenset({"draw", "take", "meld", "lay_off", "discard", "next_hand", "reclaim",
                   "join", "rematch"})
ASKS = frozenset({"sort", "hint", "log", "why", "language"})
OPS = MOVES | ASKS


@dataclass(frozen=True)
class Intent:
    """One thing a participant asked for; checked by ``parse``, then by the engine."""

    op: str
    cards: tuple[str, ...] = ()
    meld: int | None = None
    version: str | None = None
    language: str | None = None

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Intent:
        """An intent from a page's message; ``ValueError`` naming what is wrong."""
        op = data.get("op")
        if op not in OPS:
            raise ValueError(f"unknown op {op!r}")
        cards = data.get("cards", [])
        if not isinstance(cards, list) or len(cards) > 13 or not all(
            isinstance(code, str) and len(code) <= 3 for code in cards
        ):
            raise ValueError("cards must be a list of at most 13 card codes")
        meld = data.get("meld")
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool)
                                 or not 0 <= meld < 64):
            raise ValueError("meld must be a meld's index")
        version = data.get("version")
        if op in MOVES and not (isinstance(version, str) and len(version) <= 64):
            raise ValueError("a move needs the version of the table it was made on")
        language = data.get("language")
        if language is not None and not isinstance(language, str):
            raise ValueError("language must be a language code")
        return cls(op, tuple(cards), meld, version, language)


@dataclass
class Answer:
    """What the asker's page is told besides the table's new state."""

    kind: str  # done, refused, hint, log, why
    text: str = ""
    cards: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def answer_frame(answer: Answer, seq: int) -> dict[str, Any]:
    """The asker's answer as the page reads it."""
    frame: dict[str, Any] = {"type": answer.kind, "seq": seq}
    if answer.text:
        frame["text"] = answer.text
    if answer.cards:
        frame["cards"] = answer.cards
    if answer.lines:
        frame["lines"] = answer.lines
    return frame
