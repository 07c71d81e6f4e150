"""Every word the bot says, in the reader's language.

The English text in the code is the message id; each other language is a
gettext catalogue (``presentation/locales/<language>/LC_MESSAGES/rummy.po``,
kept up to date with ``python -m presentation.catalogues update``), compiled in
memory when the bot starts: there is no build step.

What language a text is drawn in is the *current* language of the task
drawing it (``speaking``): a member's own for what only they see (their hand,
refusals, DMs), the server's for the public table. ``_`` and ``n_`` read it,
so the rendering code needs no language parameter threaded through it.

Messages name their placeholders (``_("{who} drew", who=name)``) so that a
translation can move them; plurals go through ``n_`` and the language's own
plural rules (CLDR's, through Babel: Polish has three forms).
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from engine import Card, full_deck
from engine.cards import RANK_NAMES
from tables import Table

DOMAIN = "rummy"
LOCALES = Path(__file__).resolve().parent / "locales"
ENGLISH = "en"
# Ranks written as a letter rather than a number.
LETTER_RANKS = (1, 11, 12, 13)
# Adding a language: its catalogue under LOCALES, and one line here.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português do Brasil",
    "pl": "Polski",
}


def _speaker_of(locale: str) -> str | None:
    """The language of ours a Discord locale names: the exact one (pt-BR), else
    the same language anywhere (es-419 and es-ES: es; en-GB: en)."""
    code = locale.replace("-", "_")
    if code in LANGUAGES:
        return code
    base = code.split("_")[0]
    return base if base in LANGUAGES else None


# Discord's locale codes, as its API documents them (``AvailableLocalesEnum``):
# a member's app language (``interaction.locale``) is one of these. Kept as
# words rather than read from discord.py, so that the Activity, which reads
# its members' languages too, needs nothing of it.
DISCORD_LOCALES = (
    "ar", "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr", "he",
    "hi", "hr", "hu", "id", "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru",
    "sv-SE", "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
)
# Those that name one of ours.
_DISCORD_LOCALES = {
    locale: spoken for locale in DISCORD_LOCALES if (spoken := _speaker_of(locale)) is not None
}

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


class Language:
    """One language's catalogue, and how it writes numbers and card ranks."""

    def __init__(self, code: str, translations: gettext.NullTranslations) -> None:
        self.code = code
        self.locale = Locale.parse(code)
        self.translations = translations
        # Cards are written in every message: all 52 are worked out once, by code
        # (a string keeps its hash; a Card works its out at every lookup).
        self.cards = {
            str(card): self._rank(card.rank) + SUIT_SYMBOLS[card.suit.value]
            for card in full_deck()
        }
        # The letters of the ranks that are letters (ace and the court cards):
        # the card faces are drawn with them, so that faces and text agree.
        self.letters = {rank: self._rank(rank) for rank in LETTER_RANKS}

    def _rank(self, rank: int) -> str:
        return self.translations.pgettext("card rank", RANK_NAMES[rank])

    def card(self, card: Card) -> str:
        return self.cards[card.code]


def _load(code: str) -> Language:
    if code == ENGLISH:
        return Language(code, gettext.NullTranslations())
    path = LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as source:
        catalog = read_po(source, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Language(code, gettext.GNUTranslations(compiled))


_LOADED: dict[str, Language] = {code: _load(code) for code in LANGUAGES}
_current: ContextVar[Language] = ContextVar("language", default=_LOADED[ENGLISH])


def language_for(locale: object) -> str:
    """The bot's language for a Discord locale (``interaction.locale``, a
    ``discord.Locale`` or its code), English for any other."""
    code = str(getattr(locale, "value", locale) or "")
    return _DISCORD_LOCALES.get(code, ENGLISH)


def language(code: str | None) -> Language:
    """A loaded language by its code; English for an unknown one."""
    return _LOADED.get(code or ENGLISH, _LOADED[ENGLISH])


def current() -> Language:
    return _current.get()


@contextlib.contextmanager
def speaking(code: str | None) -> Iterator[Language]:
    """Draw texts in language ``code`` inside the block (this task only)."""
    token = _current.set(language(code))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def use(code: str | None) -> None:
    """Draw texts in language ``code`` for the rest of this task (one task
    answers one interaction: nothing to undo)."""
    _current.set(language(code))


def seat_language(table: Table, key: str) -> str:
    """What seat ``key`` reads the bot in (English for a computer)."""
    for seat in table.seats:
        if seat.key == key:
            return seat.language
    return ENGLISH


def _(message: str, /, **params: object) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled in."""
    text = _current.get().translations.gettext(message)
    return text.format(**params) if params else text


def n_(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The form for ``count`` in the current language; ``{n}`` is the count,
    written as the language writes numbers."""
    found = _current.get()
    if not params:
        return _counted(found, singular, plural, count)
    text = found.translations.ngettext(singular, plural, count)
    return text.format(n=number(count), **params)


@functools.lru_cache(maxsize=8192)
def _counted(found: Language, singular: str, plural: str, count: int) -> str:
    # "7 cards" and "12 points" are in every table and hand message: each
    # distinct one is worked out once per loaded language.
    token = _current.set(found)
    try:
        return found.translations.ngettext(singular, plural, count).format(n=number(count))
    finally:
        _current.reset(token)


def rank_letters() -> dict[int, set[str]]:
    """Every letter a rank is written with, in any of the bot's languages."""
    letters: dict[int, set[str]] = {rank: set() for rank in LETTER_RANKS}
    for loaded in _LOADED.values():
        for rank, letter in loaded.letters.items():
            letters[rank].add(letter)
    return letters


def label_on(message: str, shown_in: str | None) -> str:
    """A button's label as the reader sees it on a message drawn in language
    ``shown_in``: help, refusals and DMs speak the reader's language but name the
    public table's buttons as the table, in the server's language, shows them."""
    return language(shown_in).translations.gettext(message)


def N_(message: str) -> str:
    """Marks a message for the catalogues where it is defined; it is translated
    where it is shown (``_(message)``)."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted message (singular and plural) for the catalogues where it
    is kept, to be shown later with ``n_``."""
    return singular, plural


def number(value: float, digits: int = 0) -> str:
    """A number as the current language writes it (``1,234`` / ``1.234``), a
    negative one with a true minus sign, as rating changes are (``−0.8``)."""
    if digits == 0 and float(value).is_integer():
        whole = int(value)
        if -1000 < whole < 1000:
            # Every language here writes these as plain digits; and counts are in
            # every message, where Babel's formatting cost a few microseconds each.
            return str(whole) if whole >= 0 else MINUS + str(-whole)
        return _formatted(_current.get().code, whole, 0)
    return _formatted(_current.get().code, float(value), digits)


# The minus sign, not the hyphen the locales' number formats use.
MINUS = "\u2212"


@functools.lru_cache(maxsize=4096)
def _formatted(code: str, value: float, digits: int) -> str:
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    written = format_decimal(value, format=pattern, locale=language(code).locale)
    return MINUS + written[1:] if written.startswith("-") else written


def card_text(card: Card) -> str:
    """A card in text, its rank as the current language writes it (``B♠`` in German)."""
    return _current.get().cards[card.code]


def cards_text(cards: Iterable[Card]) -> str:
    shown = _current.get().cards
    return " ".join([shown[card.code] for card in cards])
