"""The translation catalogues: complete, true to their placeholders, and
plural-wise right for each language."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.catalog import Catalog, Message

from app.commands_text import command_texts
from chat.messages.history_layout import signed
from presentation.catalogues import missing, read, template
from presentation.i18n import ENGLISH, LANGUAGES, language_for, n_, number, speaking

TRANSLATED = [code for code in LANGUAGES if code != ENGLISH]


@pytest.fixture(scope="module")
def wanted() -> Catalog:
    return template(command_texts())


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(code: str, wanted: Catalog) -> None:
    assert missing(read(code), wanted) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders_of_their_message(code: str, wanted: Catalog) -> None:
    catalog = read(code)
    for message in wanted:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        assert found is not None
        if isinstance(message.id, str):
            assert fields(forms(found)[0]) == fields(message.id), (code, message.id)
            continue
        _singular, plural = message.id
        expected = fields(plural)
        for form in forms(found):
            # A language may spell "one" without the number ("une carte").
            assert fields(form) <= expected and expected - {"n"} <= fields(form), (
                code,
                message.id,
                form,
            )


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_messages_have_the_forms_cldr_gives_the_language(code: str) -> None:
    catalog = read(code)
    count = catalog.num_plurals
    assert count == {"de": 2, "fr": 2, "es": 2, "pt_BR": 2, "pl": 3}[code]
    for message in catalog:
        if message.id and not isinstance(message.id, str):
            assert len(forms(message)) == count, (code, message.id)


def test_polish_says_one_few_and_many_cards_differently() -> None:
    with speaking("pl"):
        one, two, five, twenty_two = (n_("{n} card", "{n} cards", n) for n in (1, 2, 5, 22))
    assert len({one.split()[1], two.split()[1], five.split()[1]}) == 3
    assert two.split()[1] == twenty_two.split()[1]


def test_numbers_are_written_as_each_language_writes_them() -> None:
    with speaking("de"):
        german = n_("{n} point", "{n} points", 1234)
    with speaking("en"):
        english = n_("{n} point", "{n} points", 1234)
    assert "1.234" in german and "1,234" in english


def test_a_negative_number_has_the_minus_sign_a_rating_change_has() -> None:
    with speaking("en"):
        assert number(-0.8, 1) == "−0.8" == signed(-0.8) and number(-5) == "−5"
        assert number(-1234) == "−1,234" and number(0.8, 1) == "0.8"
    with speaking("de"):
        assert number(-1234.5, 1) == "−1.234,5"


@pytest.mark.parametrize("locale", ["ja", "xx-YY", "", None, "en-GB"])
def test_an_unknown_locale_falls_back_to_english(locale: object) -> None:
    assert language_for(locale) == ENGLISH


def test_every_discord_locale_of_a_supported_language_finds_it() -> None:
    assert {language_for(code) for code in ("de", "fr", "es-ES", "es-419", "pt-BR", "pl")} == set(
        TRANSLATED
    )


def test_card_ranks_are_one_or_two_letters_in_every_language(wanted: Catalog) -> None:
    for code in TRANSLATED:
        catalog = read(code)
        for message in wanted:
            if message.context == "card rank":
                found = catalog.get(message.id, context=message.context)
                assert found is not None and re.fullmatch(r"\w{1,2}", str(found.string))
