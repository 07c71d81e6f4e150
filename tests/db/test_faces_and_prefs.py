"""The card emojis and each person's own choices, on each store."""

from __future__ import annotations

from pathlib import Path

from db import Database

from .conftest import Outside


async def test_card_emojis_are_replaced_as_a_whole_and_survive_a_restart(
    db: Database, db_target: str | Path
) -> None:
    assert await db.card_emoji() == {}
    await db.set_card_emoji({"ace_of_spades": (11, "aa"), "card_back": (12, "bb")})
    await db.set_card_emoji({"ace_of_spades": (21, "cc")})
    assert await db.card_emoji() == {"ace_of_spades": (21, "cc")}
    await db.close()
    again = await Database.open(db_target)
    try:
        assert await again.card_emoji() == {"ace_of_spades": (21, "cc")}
    finally:
        await again.close()


async def test_players_choices_are_kept_per_person_one_field_at_a_time(db: Database) -> None:
    assert await db.change_player_prefs(5, {"four_colour": True}) == {"four_colour": True}
    await db.change_player_prefs(6, {"turn_dm": False})
    # A change names only what changed: the rest stays as stored.
    assert await db.change_player_prefs(5, {"turn_dm": True}) == {
        "four_colour": True, "turn_dm": True
    }
    await db.change_player_prefs(5, {"four_colour": False})
    assert await db.load_player_prefs() == {
        5: {"four_colour": False, "turn_dm": True},
        6: {"turn_dm": False},
    }
    assert await db.player_prefs(6) == {"turn_dm": False}
    assert await db.player_prefs(7) == {}


async def test_an_unreadable_choice_is_left_out(db: Database, outside: Outside) -> None:
    await db.change_player_prefs(5, {"four_colour": True})
    await outside("INSERT INTO player_prefs VALUES (7, '[1, 2]', 0)")
    assert await db.load_player_prefs() == {5: {"four_colour": True}}
