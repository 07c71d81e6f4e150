"""Every text of the presentation goes through the catalogues.

The real catalogues are still being translated, so the wrapping is proven
with a pseudo-translation put in German's place: it brackets every message
(⟦…⟧) and writes the court cards as German does (B, D). Whatever a player
reads that is left outside the brackets once they are taken away was never
translated: only names, numbers, cards, emoji and Discord markup may be.
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from chat.messages.components import host_controls, lobby_controls
from chat.messages.hand_layout import HandLayout, hand_layout, settings_layout
from chat.messages.history_layout import entry_line, ordinal_place, signed
from chat.messages.host_panel_layout import host_panel_layout
from chat.messages.layouts import Layout
from chat.messages.ratings_layout import rating_embed, result_text
from chat.messages.scores_layout import leaderboard_embed, stats_embed
from chat.messages.table_layout import lobby_layout, playing_layout, result_layout
from db import HistoryEntry, HistorySeat, LeaderboardPage, PlayerStats, RatingPage, Season
from engine import AceRule, Card, EmptyStock, Hints, HouseRules, Termination
from engine.scoring import HandOutcome
from presentation import i18n
from presentation.i18n import card_text, speaking
from presentation.render import TEXT_CARDS, help_text, rules_text, turn_dm
from tables import Stage, Table
from tests.tables.helpers import crowded_table, playing_table

GERMAN_RANKS = {"J": "B", "Q": "D", "K": "K", "A": "A"}


class Pseudo(gettext.NullTranslations):
    """Brackets every message; court cards as in German."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return GERMAN_RANKS.get(message, message) if context == "card rank" else message


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """German's catalogue replaced by the pseudo-translation, for this test."""
    monkeypatch.setitem(i18n._LOADED, "de", i18n.Language("de", Pseudo()))
    with speaking("de"):
        yield


def untranslated(shown: str) -> list[str]:
    """The words of ``shown`` left once every bracketed message is taken away."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", " ", shown)
        if stripped == shown:
            break
        shown = stripped
    shown = re.sub(r"<[^>]*>", " ", shown)  # mentions, timestamps, custom emoji
    return re.findall(r"[A-Za-z]{3,}", shown)


def layout_words(layout: Layout) -> list[str]:
    """Every text and button label of a layout, one string each."""
    found: list[str] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 10:
                found.append(item["content"])
            if item.get("type") in (2, 3):
                found.append(item.get("label") or item.get("placeholder") or "")
            walk(item.get("components", []))

    walk(layout.items)
    return found


def embed_words(embed: discord.Embed) -> list[str]:
    data = embed.to_dict()
    found = [data.get("title", ""), data.get("description", "")]
    found += [f"{field['name']} {field['value']}" for field in data.get("fields", [])]
    found.append(data.get("footer", {}).get("text", ""))
    return found


def short_names(table: Table) -> Table:
    """Names that are no words, so that no name passes for untranslated text."""
    for seat in table.seats:
        seat.name = f"P{seat.key}"
    table.log.clear()
    table.hand_log.clear()
    return table


def crowded() -> Table:
    return short_names(crowded_table())


def outcome_for(table: Table) -> HandOutcome:
    assert table.match is not None
    keys = [seat.key for seat in table.seats]
    return HandOutcome(
        went_out=keys[0],
        winners=(keys[0],),
        scores={key: 10 if key == keys[0] else 0 for key in keys},
        rummy=True,
        reason=Termination.WENT_OUT,
        remaining={key: () if key == keys[0] else table.match.hand.hand_of(key) for key in keys},
        counts={key: 1 for key in keys},
    )


def leaderboard(points: int = 12) -> LeaderboardPage:
    """Two rows: the numbers under 1,000 (written alike in every language) unless asked."""
    rows = [
        PlayerStats(1, "P1", matches_played=1, matches_won=1, hands_won=1, points=1, rummies=1,
                    rank=1),
        PlayerStats(2, "P2", matches_played=3, matches_won=0, hands_won=2, points=points,
                    rummies=0, rank=2),
    ]
    return LeaderboardPage(rows=rows, page=1, pages=1, total_players=2)


def everything() -> list[str]:
    """A hand message, the public table, a hand's result and a leaderboard."""
    table = crowded()
    turn = table.match.hand.turn if table.match is not None else None
    assert turn is not None
    waiting = next(seat.key for seat in table.seats if seat.key != turn)
    shown: list[str] = []
    shown += layout_words(hand_layout(table, turn, TEXT_CARDS))
    shown += layout_words(hand_layout(table, waiting, TEXT_CARDS))
    shown += layout_words(settings_layout(table, {"deal_dm": True}))
    shown += layout_words(playing_layout(table))
    shown += layout_words(lobby_layout(short_names(playing_table())))
    lobby = short_names(playing_table())
    lobby.stage, lobby.match = Stage.LOBBY, None
    shown += layout_words(host_panel_layout(lobby, note="⟦note⟧"))
    for stage in (Stage.PLAYING, Stage.FINISHED):
        lobby.stage = stage
        shown += layout_words(host_panel_layout(lobby))
    outcome = outcome_for(table)
    table.stage = Stage.HAND_OVER
    shown += layout_words(result_layout(table, outcome))
    shown += layout_words(HandLayout(table, waiting, TEXT_CARDS).result(outcome, None))
    shown += embed_words(leaderboard_embed(leaderboard(), "wins", "G1"))
    shown += embed_words(stats_embed(leaderboard().rows[1], "P2"))
    return shown


# --- the pseudo-translation ---------------------------------------------------------------
def test_every_text_a_player_reads_is_a_message(pseudo: None) -> None:
    for shown in everything():
        assert untranslated(shown) == [], shown


def test_card_ranks_follow_the_language(pseudo: None) -> None:
    table = crowded()
    assert table.match is not None
    turn = table.match.hand.turn
    assert turn is not None
    melds = table.match.hand.view_for(None).melds
    court = [card for meld in melds for card in meld.cards if card.rank == 11]
    assert court, "a set of jacks is on the table"
    for layout in (hand_layout(table, turn, TEXT_CARDS), playing_layout(table)):
        shown = json.dumps(layout.items, ensure_ascii=False)
        for card in court:
            assert card_text(card) in shown
            assert card.display not in shown
    assert card_text(Card.parse("QS")) == "D♠"
    assert card_text(Card.parse("JH")) == "B♥"
    assert card_text(Card.parse("10H")) == "10♥"


def test_counts_take_the_form_for_their_number(pseudo: None) -> None:
    table = crowded()
    assert table.match is not None
    one_card = next(key for key, n in table.match.hand.view_for(None).card_counts.items()
                    if n == 1)
    table_text = "\n".join(layout_words(playing_layout(table)))
    assert "⟦1 card⟧" in table_text
    assert "cards" not in untranslated(table_text)
    hand_text = "\n".join(layout_words(hand_layout(table, one_card, TEXT_CARDS)))
    assert "⟦1 card⟧" in hand_text
    assert re.search(r"⟦\d+ cards⟧", table_text)  # the seat with many


def test_numbers_are_written_as_the_language_writes_them(pseudo: None) -> None:
    board = " ".join(embed_words(leaderboard_embed(leaderboard(1234), "points", "G1")))
    assert "1.234" in board  # German groups thousands with a point
    assert signed(3.44) == "+3,4"
    assert signed(-0.04) == "+0,0"
    assert ordinal_place(2) == "⟦2nd⟧"


def test_dms_history_and_ratings_are_messages(pseudo: None) -> None:
    table = short_names(playing_table())
    key = table.seats[0].key
    for hand_open in (False, True):
        assert untranslated(turn_dm(table, key, "<https://discord.test/x>",
                                    hand_open=hand_open)) == []
    seats = [
        HistorySeat(name="P1", user_id=1, computer=False, place=1, total=120, won=True,
                    rating_change=3.4),
        HistorySeat(name="P2", user_id=None, computer=True, place=2, total=None, won=False,
                    rating_change=-1.2),
    ]
    entry = HistoryEntry(match_id=7, channel_id=10, ended_at=1_700_000_000.0, abandoned=False,
                         hands=1, seats=seats)
    assert untranslated(entry_line(entry)) == []
    assert untranslated(result_text(entry)) == []
    page = RatingPage(season=Season(number=1, name="S1", started_at=None, ended_at=None),
                      rows=[], page=1, pages=1, total_players=0)
    for shown in embed_words(rating_embed(page, "G1")):
        assert untranslated(shown) == [], shown
    assert untranslated(help_text(i18n.current().code)) == []
    # The house rules in force, whichever they are.
    other = HouseRules(target=None, hands=3, ace=AceRule.HIGH_OR_LOW, turn_timeout=0,
                       empty_stock=EmptyStock.TURN_OVER, hints=Hints.OFF)
    for rules in (HouseRules(), other):
        assert untranslated(rules_text(rules)) == []


def test_texts_name_the_tables_buttons_as_the_server_shows_them() -> None:
    # A French member on a German server: the words are French, the buttons
    # named are the ones the German table shows.
    table = short_names(playing_table())
    table.language = "de"
    key = table.seats[0].key
    with speaking("fr"):
        said = help_text("de") + turn_dm(table, key, "<https://discord.test/x>", hand_open=False)
    assert said.count("**Hand zeigen**") == 2 and "Voir ma main" not in said
    assert "**Hand zeigen** sur la table ouvre ta main" in said  # French words around it
    with speaking("fr"):
        alike = help_text("fr")
    assert "**Voir ma main**" in alike and "Hand zeigen" not in alike


def test_english_counts_agree_with_their_numbers() -> None:
    table = crowded()
    text = "\n".join(layout_words(playing_layout(table)))
    assert re.search(r"\b1 card\b", text)
    assert not re.search(r"\b1 cards\b", text)
    assert re.search(r"\b[02-9]\d* cards\b", text)
    assert not re.search(r"\b1 points\b", text)


def test_lobby_buttons_are_messages(pseudo: None) -> None:
    table = short_names(playing_table())
    for row in [*lobby_controls(table).rows, *host_controls(table).rows]:
        for item in row:
            assert untranslated(item["label"]) == [], item["label"]


def test_the_discord_locales_named_are_discord_pys_and_the_openapi_descriptions() -> None:
    # Written out so the Activity reads languages without discord.py: they must
    # stay the locales Discord sends, as both the client library and the API
    # description list them.
    from presentation.i18n import DISCORD_LOCALES

    spec = Path(__file__).resolve().parents[2] / "fakediscord" / "core" / "spec" / "openapi.json"
    described = json.loads(spec.read_text(encoding="utf-8"))["components"]["schemas"][
        "AvailableLocalesEnum"]
    documented = {choice["const"] for choice in described["oneOf"]}
    assert set(DISCORD_LOCALES) == documented
    assert {locale.value for locale in discord.Locale} <= documented
