"""Ratings said in words a player without statistics reads: after a match, in
a player's stats, and over the rating leaderboard."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from chat.messages.ratings_layout import add_rating_fields, certainty, rating_embed, result_text
from db import HistoryEntry, HistorySeat, RatedPlayer, RatingPage, RatingProfile, Season
from presentation import i18n
from tests.presentation.test_i18n_presentation import Pseudo, embed_words, untranslated

SEASON = Season(number=1, name="Season 1", started_at=None, ended_at=None)


def profile(mu: float, sigma: float, *, provisional: bool = True) -> RatingProfile:
    rated = RatedPlayer(user_id=2, name="Bob", mu=mu, sigma=sigma, ordinal=mu - 3 * sigma,
                        provisional=provisional, matches=2, wins=1, rank=3)
    return RatingProfile(season=SEASON, rating=rated, trend=[0.0, 3.4, -0.8], best=None,
                         worst=None)


def shown(embed: discord.Embed) -> str:
    data = embed.to_dict()
    fields = [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join([data.get("description", ""), *fields, data.get("footer", {}).get("text", "")])


def entry(*seats: HistorySeat) -> HistoryEntry:
    return HistoryEntry(match_id=7, channel_id=10, ended_at=1_700_000_000.0, abandoned=False,
                        hands=3, seats=list(seats))


ANN = HistorySeat(name="Ann", user_id=1, computer=False, place=1, total=61, won=True,
                  rating_change=3.36)
BOB = HistorySeat(name="Bob", user_id=2, computer=False, place=2, total=25, won=False,
                  rating_change=-1.2)
ADA = HistorySeat(name="Ada", user_id=None, computer=True, place=2, total=25, won=False,
                  rating_change=None)


def test_stats_say_the_rating_and_how_sure_it_is_without_greek_letters() -> None:
    embed = discord.Embed(title="Rummy stats — Bob")
    add_rating_fields(embed, profile(22.6, 7.81))
    text = shown(embed)
    assert "μ" not in text and "σ" not in text
    assert embed.fields[0].value == (
        "**−0.8** · provisional (2/5 matches)\nCertainty: low (few matches yet)"
    )
    # The exact figures stay, in words: the skill, and the margin taken off it (3 × 7.81).
    assert embed.footer.text is not None
    assert "estimated skill 22.6 minus a margin for doubt of 23.4" in embed.footer.text
    assert "the more matches played, the less the rating moves" in embed.footer.text


@pytest.mark.parametrize(
    ("sigma", "words"),
    [(25 / 3, "Certainty: low (few matches yet)"), (7.0, "Certainty: low (few matches yet)"),
     (6.99, "Certainty: settling"), (5.0, "Certainty: settling"), (4.99, "Certainty: sure"),
     (0.5, "Certainty: sure")],
)
def test_certainty_grows_as_the_doubt_shrinks(sigma: float, words: str) -> None:
    assert certainty(sigma) == words


def test_stats_without_a_rating_explain_nothing() -> None:
    embed = discord.Embed(title="Rummy stats — Bob")
    add_rating_fields(embed, RatingProfile(season=SEASON, rating=None, trend=[], best=None,
                                           worst=None))
    assert embed.fields[0].value == "No rated match this season yet."
    assert embed.footer.text is None


def test_a_finished_match_gives_each_rating_with_its_change_in_words() -> None:
    text = result_text(entry(BOB, ANN, ADA), {1: 3.4, 2: -1.2})
    assert text.splitlines() == [
        "Match #7: final places",
        "1st Ann — 61 points · rating 3.4 (+3.4 this match)",
        "2nd Bob — 25 points · rating −1.2 (−1.2 this match)",
        "2nd Ada — 25 points",  # a computer: rated, but not shown
        "-# Rating: a skill estimate from the places of each match, starting at 0; it moves "
        "less the more matches a player has played.",
    ]


def test_a_change_is_still_said_when_the_rating_could_not_be_read() -> None:
    lines = result_text(entry(ANN, ADA)).splitlines()
    assert lines[1] == "1st Ann — 61 points · rating +3.4 this match"
    assert lines[-1].startswith("-# Rating: ")


def test_an_unrated_match_has_no_rating_footnote() -> None:
    unrated = [HistorySeat(name=s.name, user_id=s.user_id, computer=s.computer, place=s.place,
                           total=s.total, won=s.won, rating_change=None) for s in (ANN, BOB)]
    text = result_text(entry(*unrated))
    assert "rating" not in text.lower() and "-#" not in text
    assert text.splitlines()[1:] == ["1st Ann — 61 points", "2nd Bob — 25 points"]
    assert result_text(None) == "Final scores"


def test_the_rating_leaderboard_explains_the_rating_in_plain_words() -> None:
    page = RatingPage(season=SEASON, rows=[], page=1, pages=1, total_players=0)
    rows = [RatedPlayer(user_id=1, name="Ann", mu=30.0, sigma=5.0, ordinal=15.0,
                        provisional=False, matches=9, wins=5, rank=1)]
    text = shown(rating_embed(RatingPage(season=SEASON, rows=rows, page=1, pages=1,
                                         total_players=1), "G1"))
    assert "skill estimate from the places of each match" in text
    assert "openskill" not in text and "uncertainty" not in text
    assert "fewer than 5 matches are provisional" in text
    assert "No rated match in Season 1 yet" in shown(rating_embed(page, "G1"))


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """German's catalogue replaced by the bracketing pseudo-translation."""
    monkeypatch.setitem(i18n._LOADED, "de", i18n.Language("de", Pseudo()))
    with i18n.speaking("de"):
        yield


def test_the_words_of_a_rating_are_messages(pseudo: None) -> None:
    embed = discord.Embed()
    add_rating_fields(embed, profile(22.6, 7.81))
    for words in embed_words(embed):
        assert untranslated(words) == [], words
    assert "22,6" in embed_words(embed)[-1]  # the skill, as German writes it
    assert untranslated(result_text(entry(ANN, BOB, ADA), {1: 3.4})) == []
