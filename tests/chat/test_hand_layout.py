"""The hand message: what a player sees and may press, within Discord's limits."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chat.messages.hand_layout import hand_layout
from chat.messages.layouts import MAX_COMPONENTS, MAX_TEXT, Layout, count_components, text_length
from engine import DrawStock, Hand, Match, TakeDiscard, parse_cards
from presentation.card_emoji import CardFaces
from presentation.card_faces import all_images
from presentation.i18n import speaking
from presentation.render import piles_text
from tables import Table
from tests.tables.helpers import crowded_table, playing_table

# Emoji ids as long as Discord's snowflakes get.
ALL_EMOJI = CardFaces({name: 1_999_999_999_999_999_000 + i for i, name in enumerate(all_images())})


def buttons(layout: Layout) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 2:
                found.append(item)
            walk(item.get("components", []))
            walk([item["accessory"]] if "accessory" in item else [])

    walk(layout.items)
    return found


def labels(layout: Layout) -> dict[str, bool]:
    """Move and tool buttons by label: True when they can be pressed."""
    return {
        b["label"]: not b["disabled"]
        for b in buttons(layout)
        if b.get("label") and ":pick:" not in b["custom_id"]
    }


def card_buttons(layout: Layout) -> list[dict[str, Any]]:
    return [b for b in buttons(layout) if ":pick:" in b["custom_id"]]


def shown_text(layout: Layout) -> str:
    return json.dumps(layout.items, ensure_ascii=False)


def dealt_as(first: str, *, stock: str, discard: str) -> Table:
    """The playing table with its hand dealt again: seat 1 holds ``first`` and
    moves first, the others hold one card each."""
    table = playing_table()
    match = table.match
    assert match is not None
    data = match.to_dict()
    hand = Hand.from_position(
        match.players,
        match.rules,
        {"1": parse_cards(first.split()), "2": parse_cards(["2C"]), "cpu1": parse_cards(["3C"])},
        parse_cards(stock.split()),
        parse_cards(discard.split()),
        "1",
        seed=match.hand.seed,
    )
    data["hand"] = hand.to_dict()
    table.match = Match.from_dict(data)
    return table


def test_the_draw_phase_offers_only_drawing() -> None:
    table = playing_table()
    layout = hand_layout(table, "1", CardFaces())
    assert labels(layout) == {
        "Draw from stock": True,
        f"Take {table.match.hand.discard_top.display}": True,  # type: ignore[union-attr]
        "💡 Hint": True,
        "Sort by suit": True,
        "⚙": True,
    }
    # Draw first: the hand is shown once, as faces, with no card to pick yet.
    assert card_buttons(layout) == []
    held = table.match.hand.hand_of("1")  # type: ignore[union-attr]
    assert all(card.display in shown_text(layout) for card in held)
    assert "Your turn" in shown_text(layout)


def test_after_drawing_the_new_card_is_marked_and_moves_follow_the_selection() -> None:
    table = playing_table()
    match = table.match
    assert match is not None
    held = set(match.hand.hand_of("1"))
    match.apply("1", DrawStock())
    [drawn] = set(match.hand.hand_of("1")) - held
    table.fresh_cards["1"] = drawn.code
    layout = hand_layout(table, "1", CardFaces())
    assert f"You drew {drawn.display}" in shown_text(layout)
    fresh = [b for b in card_buttons(layout) if b["custom_id"].endswith(drawn.code)]
    assert fresh[0]["label"] == f"🆕 {drawn.display}" and not fresh[0]["disabled"]
    assert labels(layout)["Meld"] is False and labels(layout)["Discard"] is False
    table.selections["1"] = [drawn.code]
    picked = hand_layout(table, "1", CardFaces())
    assert labels(picked)[f"Discard {drawn.display}"] is True
    assert labels(picked)["Meld"] is False  # one card is no meld


def test_meld_lights_up_only_for_a_meld() -> None:
    table = dealt_as("4H 5H 6H KD", stock="9S 9D", discard="AC")
    assert table.match is not None
    table.match.apply("1", DrawStock())
    table.selections["1"] = ["4H", "5H", "KD"]
    assert labels(hand_layout(table, "1", CardFaces()))["Meld"] is False
    table.selections["1"] = ["4H", "5H", "6H"]
    assert labels(hand_layout(table, "1", CardFaces()))["Meld"] is True


def test_cards_are_emojis_when_the_bot_has_them_and_text_otherwise() -> None:
    table = playing_table()
    own = table.match.hand.hand_of("2")  # type: ignore[union-attr]
    text_only = hand_layout(table, "2", CardFaces())
    assert all(card.display in shown_text(text_only) for card in own)
    assert "<:" not in shown_text(text_only)
    pictured = hand_layout(table, "2", ALL_EMOJI)
    assert all(card.display not in shown_text(pictured) for card in own)
    assert "<:" in shown_text(pictured)
    # While picking, the card buttons are the hand: faces too, or text without them.
    match = table.match
    assert match is not None
    match.apply("1", DrawStock())
    held = match.hand.hand_of("1")
    picking = card_buttons(hand_layout(table, "1", CardFaces()))
    assert [b["label"] for b in picking] and all(b["label"] for b in picking)
    assert len(picking) == len(held)
    pictured_picks = card_buttons(hand_layout(table, "1", ALL_EMOJI))
    assert all("label" not in b and b["emoji"]["id"] for b in pictured_picks)


def test_waiting_players_see_whose_turn_it_is_and_no_moves() -> None:
    table = playing_table()
    layout = hand_layout(table, "2", CardFaces())
    assert "Waiting for **Ann**" in shown_text(layout)
    # Nothing has happened but the deal: no log to open yet.
    assert set(labels(layout)) == {"Sort by suit", "⚙"}
    assert card_buttons(layout) == []  # the hand once, as faces


def test_the_largest_hand_message_stays_within_discords_limits() -> None:
    table = crowded_table()
    match = table.match
    assert match is not None
    mover = match.hand.turn
    assert mover is not None
    for viewer in [seat.key for seat in table.seats if seat.key != mover]:
        layout = hand_layout(table, viewer, ALL_EMOJI, note="⚠️ " + "x" * 150)
        assert count_components(layout) <= MAX_COMPONENTS
        assert text_length(layout) <= MAX_TEXT
    # Eleven cards in hand on the viewer's own turn.
    match.apply(mover, match.legal_actions(mover)[-1])  # a discard: the turn passes on
    assert len(match.hand.melds) == 11
    nxt = match.hand.turn
    assert nxt is not None
    match.apply(nxt, DrawStock())
    table.changes += 1  # as a saved change does: views are worked out anew
    table.selections[nxt] = [match.hand.hand_of(nxt)[0].code]
    layout = hand_layout(table, nxt, ALL_EMOJI, note="⚠️ " + "x" * 150)
    assert len(card_buttons(layout)) == 11
    assert count_components(layout) <= MAX_COMPONENTS
    assert text_length(layout) <= MAX_TEXT
    assert all(len(b.get("label", "")) <= 80 for b in buttons(layout))
    assert all(len(b["custom_id"]) <= 100 for b in buttons(layout))


def why_line(layout: Layout) -> str | None:
    """The line under the moves that says why a pick cannot be played."""
    lines = [t for t in texts(layout.items) if t.startswith("-# ✋ ")]
    assert len(lines) <= 1
    return lines[0][len("-# ✋ "):] if lines else None


def texts(items: list[dict[str, Any]]) -> list[str]:
    found: list[str] = []
    for item in items:
        if item.get("type") == 10:
            found.append(item["content"])
        found += texts(item.get("components", []))
    return found


def test_a_dim_move_says_why_in_the_engines_words() -> None:
    table = dealt_as("7S 8S 10S KD KC", stock="9D 5C", discard="JD")
    assert table.match is not None
    # Before the draw, and with nothing picked, there is nothing to explain.
    assert why_line(hand_layout(table, "1", CardFaces())) is None
    table.match.apply("1", TakeDiscard())
    table.changes += 1  # as a saved change does: views are worked out anew
    assert why_line(hand_layout(table, "1", CardFaces())) is None
    table.selections["1"] = ["7S", "8S", "10S"]
    layout = hand_layout(table, "1", CardFaces())
    assert labels(layout)["Meld"] is False
    assert why_line(layout) == (
        "7♠ 8♠ 10♠ is not a run: the ranks must follow one another with no gap"
    )
    table.selections["1"] = ["7S", "KD", "KC"]
    assert why_line(hand_layout(table, "1", CardFaces())) == (
        "7♠ K♣ K♦ is neither a set (cards of one rank) nor a run (cards in sequence, of one suit)"
    )
    # The card just taken from the pile may not go straight back.
    table.selections["1"] = ["JD"]
    layout = hand_layout(table, "1", CardFaces())
    assert labels(layout)["Discard"] is False
    assert why_line(layout) == "You took J♦ from the discard pile this turn: discard another card"
    table.selections["1"] = ["KD", "KC"]
    assert "Two cards are no meld" in (why_line(hand_layout(table, "1", CardFaces())) or "")
    # A pick that can be played needs no word.
    table.selections["1"] = ["KD"]
    assert why_line(hand_layout(table, "1", CardFaces())) is None
    # And the waiting players never see it.
    table.selections["2"] = ["2C"]
    assert why_line(hand_layout(table, "2", CardFaces())) is None


def test_the_reason_is_in_the_readers_language() -> None:
    table = playing_table()
    match = table.match
    assert match is not None
    match.apply("1", TakeDiscard())
    table.changes += 1
    taken = match.hand.view_for("1").may_not_discard
    assert taken is not None
    table.selections["1"] = [taken.code]
    with speaking("de"):
        said = why_line(hand_layout(table, "1", CardFaces()))
    assert said is not None and "You took" not in said and "Ablagestapel" in said, said


def test_the_others_moves_are_listed_once_there_are_any_and_an_empty_pile_says_so() -> None:
    table = playing_table()
    table.new_hand_log("Hand {number}: {dealer} dealt", number=1, dealer="Ann")
    waiting = shown_text(hand_layout(table, "2", CardFaces()))
    assert "So far this hand" not in waiting and "Since your last turn" not in waiting
    table.note("{who} drew from the stock", "1", who="Ann")
    table.changes += 1
    layout = hand_layout(table, "2", CardFaces())
    assert "So far this hand" in shown_text(layout) and "Ann drew" in shown_text(layout)
    assert "Log" in labels(layout)  # the whole log, beside the moves
    # Once Ann has moved again, her draw is still listed, before her discard.
    table.note("{who} discarded {cards}", "1", who="Ann", cards="KD")
    table.changes += 1
    said = shown_text(hand_layout(table, "2", CardFaces()))
    assert "Ann drew from the stock" in said and "Ann discarded K♦" in said
    assert said.index("Ann drew from the stock") < said.index("Ann discarded K♦")
    assert piles_text(None, 0, "🂠", 31) == "**Discard** empty  ·  **Stock** 🂠 31 cards"
    assert piles_text("K♠", 1, "🂠", 30) == "**Discard** K♠ (1 card)  ·  **Stock** 🂠 30 cards"


def test_picked_cards_are_blue_and_dim_moves_are_grey() -> None:
    table = dealt_as("4H 5H 6H KD", stock="9S 9D", discard="AC")
    assert table.match is not None
    table.match.apply("1", DrawStock())
    table.changes += 1
    table.selections["1"] = ["4H", "5H", "KD"]
    layout = hand_layout(table, "1", ALL_EMOJI)
    picked = {b["custom_id"].rsplit(".", 1)[1]: b for b in card_buttons(layout)}
    assert all(picked[code]["style"] == 1 for code in ("4H", "5H", "KD"))
    assert picked["6H"]["style"] == 2 and "label" not in picked["6H"]  # the face alone
    moves = {b["label"]: b for b in buttons(layout) if ":pick:" not in b["custom_id"]}
    assert moves["Meld"]["disabled"] and moves["Meld"]["style"] == 2  # grey, not dim green
    assert moves["Discard"]["disabled"] and moves["Discard"]["style"] == 2
    table.selections["1"] = ["4H", "5H", "6H"]
    lit = {b["label"]: b for b in buttons(hand_layout(table, "1", CardFaces()))
           if ":pick:" not in b["custom_id"]}
    assert not lit["Meld"]["disabled"] and lit["Meld"]["style"] == 3  # green


def test_a_refusal_in_the_message_is_not_said_twice() -> None:
    table = dealt_as("7S 8S 10S KD KC", stock="9D 5C", discard="JD")
    assert table.match is not None
    table.match.apply("1", DrawStock())
    table.changes += 1
    table.selections["1"] = ["7S", "8S", "10S"]
    reason = why_line(hand_layout(table, "1", CardFaces()))
    assert reason is not None
    refused = hand_layout(table, "1", CardFaces(), note=f"⚠️ {reason}")
    assert why_line(refused) is None and shown_text(refused).count(reason) == 1


@pytest.mark.parametrize("four_colour", [False, True], ids=["two colours", "four colours"])
def test_the_card_just_drawn_is_marked_in_no_suits_colour(four_colour: bool) -> None:
    """Green is the four-colour deck's clubs, blue its diamonds, red the hearts:
    the drawn card is told by a mark beside its face, on a grey button."""
    table = dealt_as("4C 5H 6H KD", stock="9C 9D", discard="AC")
    assert table.match is not None
    table.match.apply("1", DrawStock())
    table.fresh_cards["1"] = "9C"
    table.changes += 1
    cards = {
        b["custom_id"].rsplit(".", 1)[1]: b
        for b in card_buttons(hand_layout(table, "1", ALL_EMOJI, four_colour=four_colour))
    }
    drawn = cards["9C"]
    assert drawn["style"] == 2 and drawn["label"] == "🆕" and "emoji" in drawn
    assert all("label" not in b and b["style"] == 2 for code, b in cards.items() if code != "9C")
    # Picked, it turns blue as any pick does, and keeps its mark.
    table.selections["1"] = ["9C"]
    picked = [
        b for b in card_buttons(hand_layout(table, "1", ALL_EMOJI, four_colour=four_colour))
        if b["custom_id"].endswith(".9C")
    ]
    assert picked[0]["style"] == 1 and picked[0]["label"] == "🆕"
