"""Engine errors worded for the reader: the template through the catalogue,
cards with the reader's rank letters."""

from __future__ import annotations

import pytest

from engine import HouseRules, RummyError, make_meld
from engine.cards import Card
from presentation.catalogues import template
from presentation.explain import explain
from presentation.i18n import speaking
from tests.engine.test_error_templates import CASES


def _refusal(codes: str) -> RummyError:
    with pytest.raises(RummyError) as caught:
        make_meld([Card.parse(code) for code in codes.split()], HouseRules())
    return caught.value


@pytest.mark.parametrize("codes", ["JC QC KC AC", "QS KS AS", "JH QD KS", "2C 2C 2D"])
def test_in_english_it_says_what_the_engine_says(codes: str) -> None:
    error = _refusal(codes)
    with speaking("en"):
        assert explain(error) == str(error)


def test_cards_take_the_readers_rank_letters() -> None:
    # German writes the jack B (Bube) and the queen D (Dame): the de catalogue says so.
    error = _refusal("JH QD KS")
    assert str(error) == "J♥ Q♦ K♠ is not a run: a run is one suit"
    with speaking("de"):
        shown = explain(error)
    assert "B♥ D♦ K♠" in shown and "J♥" not in shown


def test_numbers_are_written_as_the_reader_writes_them() -> None:
    with pytest.raises(RummyError) as caught:
        HouseRules(target=0)
    with speaking("de"):
        assert "10.000" in explain(caught.value)


def test_a_message_outside_the_catalogues_is_shown_as_it_is() -> None:
    with speaking("de"):
        assert explain(RummyError("the replay must be a JSON object")) == (
            "the replay must be a JSON object"
        )


def test_every_template_the_engine_raises_is_in_the_catalogues() -> None:
    """A template marked with the engine's N_ is extracted like any other text."""
    known = {message.id for message in template() if message.id}
    for _name, move, _shown, _template, _params in CASES:
        with pytest.raises(RummyError) as caught:
            move()
        assert caught.value.template in known


def test_a_meld_of_no_kind_is_explained_in_one_sentence_in_every_language() -> None:
    error = _refusal("9C AD 3H")
    assert str(error) == (
        "A♦ 3♥ 9♣ is neither a set (cards of one rank) nor a run (cards in sequence, of one suit)"
    )
    with speaking("fr"):
        assert explain(error) == (
            "A♦ 3♥ 9♣ n'est ni un groupe (cartes de même valeur) ni une suite "
            "(cartes qui se suivent, d'une seule couleur)"
        )
    for language in ("de", "es", "pl", "pt_BR"):
        with speaking(language):
            shown = explain(error)
        assert shown.startswith("A♦ 3♥ 9♣ ") and "neither" not in shown, (language, shown)
