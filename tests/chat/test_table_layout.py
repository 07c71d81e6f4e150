"""The public table message: what the channel sees, within Discord's limits."""

from __future__ import annotations

import json
from typing import Any

from chat.messages.host_panel_layout import host_panel_layout
from chat.messages.layouts import (
    MAX_COMPONENTS,
    MAX_TEXT,
    Layout,
    count_components,
    text,
    text_length,
)
from chat.messages.table_layout import (
    SEAT_COLOURS,
    cancelled_layout,
    ended_layout,
    fitted,
    lobby_layout,
    playing_layout,
    public_layout,
    result_layout,
)
from engine import (
    Card,
    Discard,
    DrawStock,
    Event,
    HouseRules,
    LayOff,
    MeldCards,
    Termination,
    full_deck,
)
from engine.scoring import HandOutcome
from presentation.card_emoji import CardFaces
from presentation.card_faces import all_images
from presentation.i18n import speaking
from presentation.render import event_line, log_text
from tables import Seat, Stage, Table
from tests.tables.helpers import cards_by_rank, crowded_table, laid_out_match, playing_table

ALL_EMOJI = CardFaces({name: 1_999_999_999_999_999_000 + i for i, name in enumerate(all_images())})


def shown(layout: Layout) -> str:
    return json.dumps(layout.items, ensure_ascii=False)


def texts(layout: Layout) -> list[str]:
    found: list[str] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 10:
                found.append(item["content"])
            walk(item.get("components", []))

    walk(layout.items)
    return found


def labels(layout: Layout) -> list[str]:
    found: list[str] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 2:
                found.append(item.get("label", ""))
            walk(item.get("components", []))

    walk(layout.items)
    return found


def test_the_public_table_never_shows_a_hand() -> None:
    table = playing_table()
    assert table.match is not None
    text = shown(playing_layout(table))
    top = table.match.hand.discard_top
    for seat in table.seats:
        for card in table.match.hand.hand_of(seat.key):
            if card != top:
                assert card.display not in text, f"{card} of {seat.name} leaked"


def test_each_seat_has_its_block_and_the_frame_wears_the_turn_players_colour() -> None:
    table = playing_table()
    assert table.match is not None
    turn = table.match.hand.turn
    layout = playing_layout(table)
    blocks = [t for t in texts(layout) if any(t.startswith(m) for m, _ in SEAT_COLOURS)]
    assert len(blocks) == len(table.seats)
    index = [seat.key for seat in table.seats].index(turn)
    marker, colour = SEAT_COLOURS[index]
    assert layout.items[0]["accent_color"] == colour
    (playing,) = [b for b in blocks if "▶️" in b]
    assert playing.startswith(marker) and "to draw from the stock" in playing
    assert all("7 cards" in block and "0 points" in block for block in blocks)
    assert labels(layout) == ["Show hand", "Rules"]


def test_the_discard_and_the_stock_are_card_faces_when_the_bot_has_them() -> None:
    table = playing_table()
    assert table.match is not None
    top = table.match.hand.discard_top
    assert top is not None
    with_faces = shown(playing_layout(table, ALL_EMOJI))
    assert ALL_EMOJI.inline(top) in with_faces and ALL_EMOJI.back() in with_faces
    assert top.display not in with_faces
    assert top.display in shown(playing_layout(table))  # without them: text


def test_one_hand_and_one_point_read_in_the_singular() -> None:
    table = playing_table(rules=HouseRules(target=None, hands=1))
    text = shown(playing_layout(table))
    assert "hand 1 of 1" in text and "Playing 1 hand " in text and "1 hands" not in text


def test_the_lobby_lists_seats_and_only_the_rules_that_differ() -> None:
    table = playing_table(rules=HouseRules(target=None, hands=3))
    table.stage, table.match = Stage.LOBBY, None
    layout = lobby_layout(table)
    text = shown(layout)
    assert "(3/6)" in text and "🤖 Ada (hard)" in text
    assert "3 hands" in text and "500 turns" not in text
    # Everyone sees only what everyone may press; the host is told where the rest is.
    assert labels(layout) == ["Join", "Leave", "Rules"]
    assert f"<@{table.host_id}>: your controls" in text
    assert public_layout(table, ALL_EMOJI).items == layout.items


def test_the_hosts_controls_show_the_seats_and_what_only_the_host_may_press() -> None:
    table = playing_table(rules=HouseRules(target=None, hands=3))
    table.stage, table.match = Stage.LOBBY, None
    panel = host_panel_layout(table)
    assert labels(panel) == [
        "Start", "Cancel", "Add computer (easy)", "Add computer (hard)",
        "Add computer (expert)", "Remove computer",
    ]
    text = shown(panel)
    assert "Only you see this" in text and "(3/6)" in text and "3 hands" in text
    assert "Basic Rummy" not in text
    assert "Basic Rummy" in shown(host_panel_layout(table, with_rules=True))
    assert count_components(panel) <= MAX_COMPONENTS and text_length(panel) <= MAX_TEXT
    # Once the lobby is over, they say so and offer nothing to press.
    for stage, said in ((Stage.PLAYING, "already started"), (Stage.FINISHED, "no game running")):
        table.stage = stage
        closed = host_panel_layout(table)
        assert labels(closed) == [] and said in shown(closed)


def test_the_largest_table_stays_within_discords_limits() -> None:
    table = crowded_table()
    layout = playing_layout(table, ALL_EMOJI)
    assert len([t for t in texts(layout) if "Player with a long name" in t]) >= 6
    assert count_components(layout) <= MAX_COMPONENTS
    assert text_length(layout) <= MAX_TEXT
    assert ALL_EMOJI.back() in shown(layout)  # the faces fit: no fallback needed here


def test_the_largest_result_stays_within_discords_limits() -> None:
    table = crowded_table()
    assert table.match is not None
    keys = [seat.key for seat in table.seats]
    deck = full_deck()
    outcome = HandOutcome(
        went_out=None,
        winners=tuple(keys[:2]),
        scores={key: 0 for key in keys},
        rummy=False,
        reason=Termination.TURN_LIMIT,
        remaining={key: tuple(deck[i::6]) for i, key in enumerate(keys)},  # all 52 cards
        counts={key: 85 for key in keys},
    )
    table.stage = Stage.HAND_OVER
    layout = result_layout(table, outcome, ALL_EMOJI)
    assert count_components(layout) <= MAX_COMPONENTS
    assert text_length(layout) <= MAX_TEXT
    text = shown(layout)
    assert "a tie: the winners share the points" in text
    assert all(ALL_EMOJI.inline(card) in text for card in deck)
    assert labels(layout) == ["Next hand", "Rules"]


def shared_melds_table() -> Table:
    """Eleven melds of four, each put down by one player and laid off on by
    another, every name as long as Discord allows: the longest table there is."""
    ranks = cards_by_rank()
    sets = [cards[:3] for cards in ranks[:11]]
    fourths = [cards[3] for cards in ranks[:11]]
    spare = [card for cards in ranks[11:] for card in cards]  # 8 cards
    keys = ["1", "2", "3", "4", "5", "6"]
    dealt = [[*(card for meld in sets for card in meld), spare[0]], [*fourths, spare[1]]]
    dealt += [[spare[2 + index]] for index in range(4)]
    match, order = laid_out_match(keys, 5, dealt, spare[6:8], [])
    melder, layer = order[0], order[1]
    match.apply(melder, DrawStock())
    for meld in sets:
        match.apply(melder, MeldCards(tuple(meld)))
    match.apply(melder, Discard(spare[0]))
    match.apply(layer, DrawStock())
    for number, card in enumerate(fourths):
        match.apply(layer, LayOff((card,), number))
    table = Table(channel_id=10**19, guild_id=20, host_id=1, rules=match.rules, seed=5)
    name = "has a display name of 32 chars"
    table.seats = [Seat(key, f"{key} {name}"[:32], int(key)) for key in keys]
    table.match, table.stage = match, Stage.PLAYING
    for number, seat in enumerate(table.seats):
        table.note(f"{seat.name} laid off {fourths[number].display} on meld {number + 1}")
    return table


def test_the_longest_table_keeps_its_card_faces_within_the_limit() -> None:
    table = shared_melds_table()
    assert len(table.names()["1"]) == 32
    layout = playing_layout(table, ALL_EMOJI)
    assert count_components(layout) <= MAX_COMPONENTS
    assert text_length(layout) <= MAX_TEXT
    assert shown(layout).count("<:") >= 44  # every melded card a face


def test_a_layout_too_long_for_card_faces_is_written_in_text_cards() -> None:
    def draw(faces: CardFaces) -> Layout:
        return Layout(text(faces.back() * 200))

    assert text_length(fitted(draw, CardFaces())) <= MAX_TEXT
    assert "🂠" in shown(fitted(draw, ALL_EMOJI))
    assert ALL_EMOJI.back() in shown(fitted(lambda faces: Layout(text(faces.back())), ALL_EMOJI))


def test_games_that_stop_say_so_without_controls() -> None:
    table = playing_table()
    ended = ended_layout(table, "<@1>")
    assert "ended this game" in shown(ended) and "Totals when it stopped" in shown(ended)
    assert labels(ended) == [] and labels(cancelled_layout("The host cancelled.")) == []



def test_the_log_reads_in_each_readers_language() -> None:
    table = playing_table()
    line = event_line(Event("discard", "1", (Card.parse("QS"),)), table.names())
    assert line is not None
    table.log_line(line, "1")
    with speaking("en"):
        english = log_text(table.log[-1])
    with speaking("de"):
        german = log_text(table.log[-1])
    assert english == "Ann discarded Q♠"
    assert german != english and "D♠" in german and "Ann" in german
    # A line saved before lines were messages comes back as the text it was.
    saved = table.to_dict()
    saved["log"] = ["Bob drew from the stock"]
    again = Table.from_dict(saved)
    with speaking("de"):
        assert log_text(again.log[0]) == "Bob drew from the stock"
