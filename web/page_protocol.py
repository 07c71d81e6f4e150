"""The Activity's page protocol, defined once here: what a page may ask for
and with what, the kinds of frame it is sent, the codes its connection is
closed with, and the version of it all. The page reads the same names from
``protocol.js``, which the server writes from this module (``web.assets``).

An intent names one of the buttons' own actions (``presentation.actions``),
whose declaration says who may do it and how it waits for the table, for
both doors. Melds are named by their number, from 1, as players see them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.rules import RULE_KEYS
from presentation.actions import INTENTS, ComponentAction, Locking
from presentation.i18n import LANGUAGES, Language, _, current, speaking

# Changes whenever a frame's shape does: a page built for another version reloads.
VERSION = 2

# What a page sends.
HELLO, INTENT, PARTICIPANTS = "hello", "intent", "participants"
# What it is sent: its picture of the table, the answer to one of its intents,
# and why its connection is about to close.
STATE, CLOSING = "state", "closing"
DONE, REFUSED, HINT, WHY, LOG, DUPLICATE, ERROR = (
    "done", "refused", "hint", "why", "log", "duplicate", "error")
ANSWERS = (DONE, REFUSED, HINT, WHY, LOG, DUPLICATE, ERROR)
# Answers that change nothing: the picture the page has stays true.
LOOKS = frozenset({WHY, LOG, HINT})
# A quick reaction at the table: the page sends REACT with one of EMOTES, and
# every page of the channel is sent REACTION naming who sent it; a reaction
# refused (sent too often) comes back to its sender alone, marked refused.
REACT, REACTION = "react", "reaction"
EMOTES = ("👍", "😂", "😮", "😢", "🎉", "🔥")

# Why a connection is closed (4000-4999 are the application's own codes).
CLOSE_CODES = {
    "bad_frame": 4400,
    "session_refused": 4401,
    "not_in_instance": 4403,
    "opened_elsewhere": 4409,
    "too_fast": 4429,
}


def changes_table(op: str) -> bool:
    """Whether the intent may change the table: then it names the picture
    (``version``, the table's position) it was made on, and one made on an
    older picture is refused."""
    return INTENTS[op].locking is not Locking.LOOK


@dataclass(frozen=True)
class Intent:
    """One thing a participant asked for; checked by ``parse``, then by the flows."""

    op: str
    cards: tuple[str, ...] = ()
    meld: int | None = None  # the meld's number, from 1
    version: str | None = None
    language: str | None = None
    level: str | None = None  # a computer player's, added to a lobby
    rules: tuple[tuple[str, str | int], ...] = ()  # house rules chosen for a new lobby

    @property
    def action(self) -> ComponentAction:
        return INTENTS[self.op]

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Intent:
        """An intent from a page's message; ``ValueError`` naming what is wrong."""
        op = data.get("op")
        if not isinstance(op, str) or op not in INTENTS:
            raise ValueError(f"unknown op {op!r}")
        cards = data.get("cards", [])
        if not isinstance(cards, list) or len(cards) > 13 or not all(
            isinstance(code, str) and len(code) <= 3 for code in cards
        ):
            raise ValueError("cards must be a list of at most 13 card codes")
        meld = data.get("meld")
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool)
                                 or not 1 <= meld <= 64):
            raise ValueError("meld must be a meld's number")
        version = data.get("version")
        if changes_table(op) and not (isinstance(version, str) and len(version) <= 64):
            raise ValueError("a move needs the version of the table it was made on")
        language = data.get("language")
        if language is not None and not isinstance(language, str):
            raise ValueError("language must be a language code")
        level = data.get("level")
        if level is not None and not (isinstance(level, str) and len(level) <= 16):
            raise ValueError("level must be a computer player's level")
        return cls(op, tuple(cards), meld, version if isinstance(version, str) else None,
                   language, level, _rules(data.get("rules")))


def _rules(given: object) -> tuple[tuple[str, str | int], ...]:
    """House rules as a page chose them: known names, short texts or numbers."""
    if given is None:
        return ()
    if not isinstance(given, dict):
        raise ValueError("rules must be an object of house rules")
    chosen: list[tuple[str, str | int]] = []
    for name, value in given.items():
        if name not in RULE_KEYS:
            raise ValueError(f"{name!r} is not a house rule")
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, str | int) or (
                isinstance(value, str) and len(value) > 32):
            raise ValueError(f"{name} must be a choice or a number")
        chosen.append((name, value))
    return tuple(chosen)


@dataclass
class Answer:
    """What the asker's page is told besides the table's new state."""

    kind: str  # one of ANSWERS
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


def page_words() -> Mapping[str, str]:
    """What the page says of signing in and of its connection, in the current
    language: a state's labels carry them, and ``described`` every language's,
    for what the page must say before its first state (the language then
    guessed from the browser's)."""
    return _page_words_in(current())


# Every state a page is sent carries these words: looked up once a language.
@functools.cache
def _page_words_in(_language: Language) -> Mapping[str, str]:
    return MappingProxyType({
        "reconnecting": _("Reconnecting…"),
        "try_again": _("Try again"),
        "play_here": _("Play here"),
        # Why the connection closed, for each of CLOSE_CODES.
        "closed_elsewhere": _("You opened this table in another window or on another "
                              "device. Press **{button}** to play here again.",
                              button=_("Play here")).replace("**", ""),
        "closed_not_in_instance": _("You are no longer in this Activity. Open it again "
                                    "from Discord, or try again."),
        "closed_broken": _("The connection to the table broke. Try again."),
        "closed_too_fast": _("Too many moves at once: the table comes back in a moment."),
        # Signing in, and why it did not work.
        "signin_consent": _("Rummy needs to know who you are to seat you at the table: "
                            "press Try again, then Authorize."),
        "signin_refused": _("Discord did not sign you in."),
        "signin_unreachable": _("The table's server could not be reached."),
        "signin_busy": _("The table is busy."),
        "signin_not_set_up": _("The Activity is not set up right on the bot's side: tell "
                               "whoever hosts the bot."),
        "signin_here": _("Discord did not seat you in this Activity: open it again from "
                         "the channel, DM or group DM you play in."),
        "signin_failed": _("The table could not sign you in."),
        # {n}: seconds, filled in by the page.
        "signin_retry_in": _("Trying again in {n} s…"),
        "no_answer": _("Discord did not answer the table."),
        "open_from_discord": _("Open this table from Discord: press Open table on the "
                               "table in the chat."),
        # A link to the game, shared where Discord offers no invite (a DM or
        # group DM): the message Discord sends with it, and what a page opened
        # from a link to another conversation's game (or a made-up one) says.
        "share_message": _("Join my game of Rummy"),
        "link_elsewhere": _("That link is for a game in another conversation."),
        # The player's Discord status under the match line: waiting in a lobby,
        # or playing (Discord adds the party's size: "Playing (3 of 4)").
        "presence_lobby": _("Waiting for players"),
        "presence_playing": _("Playing"),
    })


def _every_language() -> dict[str, dict[str, str]]:
    words = {}
    for code in LANGUAGES:
        with speaking(code):
            words[code] = dict(page_words())
    return words


def described() -> dict[str, Any]:
    """The whole protocol as plain data, for the page's module."""
    return {
        "WORDS": _every_language(),
        "VERSION": VERSION,
        "OPS": {op: op for op in sorted(INTENTS)},
        "FRAMES": {name.upper(): name for name in (HELLO, INTENT, PARTICIPANTS, STATE,
                                                   CLOSING, *ANSWERS, REACT, REACTION)},
        "EMOTES": list(EMOTES),
        "CLOSE": {name.upper(): code for name, code in CLOSE_CODES.items()},
    }
