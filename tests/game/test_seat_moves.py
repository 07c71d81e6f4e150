"""The checks of a seated player's move, written once for both doors: who
may move, on which picture of the table, with which cards, and the move built
from them; each refusal in the asker's language. No I/O: a table in memory."""

from __future__ import annotations

import pytest

from engine import Discard, DrawStock, LayOff, MeldCards, Phase, TakeDiscard
from game.seat_moves import (
    Ask,
    build_action,
    in_hand,
    on_turn,
    picked,
    seat_at,
)
from presentation.i18n import speaking
from tables import Refusal, Stage, Table
from tests.tables.helpers import playing_table


def ask_of(table: Table, key: str, door: str = "activity", **more: object) -> Ask:
    seat = table.seat(key)
    assert seat.user_id is not None
    # The chat's buttons are the public table's, in the table's language.
    return Ask(seat.user_id, door, table_labels=door == "chat", **more)  # type: ignore[arg-type]


def person_on_turn() -> tuple[Table, str, str]:
    for seed in range(50):
        table = playing_table(seed)
        assert table.match is not None
        turn = table.match.hand.turn
        if turn in ("1", "2"):
            return table, turn, "2" if turn == "1" else "1"
    raise AssertionError("no seed deals a person first")


def test_a_member_without_a_seat_is_told_they_are_not_playing() -> None:
    table = playing_table()
    with pytest.raises(Refusal, match="not playing at this table"):
        seat_at(table, 12345)


def test_a_move_on_an_older_picture_of_the_table_is_refused() -> None:
    table, turn, _other = person_on_turn()
    fresh = ask_of(table, turn, position=table.position)
    assert in_hand(table, fresh).key == turn
    stale = ask_of(table, turn, position="playing.1.0.draw.10x")
    with pytest.raises(Refusal, match="moved on"):
        in_hand(table, stale)
    # The chat's picture is its message's hand: another hand's message is stale.
    with pytest.raises(Refusal, match="moved on"):
        in_hand(table, ask_of(table, turn, "chat", hand=table.hand_number + 1))


def test_a_finished_hand_names_next_hand_as_each_door_shows_it() -> None:
    table, turn, _other = person_on_turn()
    table.stage = Stage.HAND_OVER
    table.language = "de"
    with speaking("fr"):
        with pytest.raises(Refusal) as chat:
            in_hand(table, ask_of(table, turn, "chat"))
        with pytest.raises(Refusal) as activity:
            in_hand(table, ask_of(table, turn, "activity"))
    # French words around the button's label: the chat's table is German, the
    # Activity draws its own buttons in French.
    assert "Nächste Runde" in str(chat.value)
    assert "Nächste Runde" not in str(activity.value)
    assert str(chat.value).split("**")[0] == str(activity.value).split("**")[0]


def test_out_of_turn_says_whose_turn_it_is() -> None:
    table, turn, other = person_on_turn()
    with pytest.raises(Refusal, match=f"{table.seat(turn).name} is playing"):
        on_turn(table, ask_of(table, other))
    assert on_turn(table, ask_of(table, turn)).key == turn


def test_picked_cards_must_be_cards_in_the_hand() -> None:
    table, turn, other = person_on_turn()
    assert table.match is not None
    mine = table.match.hand.hand_of(turn)
    theirs = table.match.hand.hand_of(other)
    seat = table.seat(turn)
    assert picked(table, seat, (mine[1].code, mine[0].code)) == (mine[0], mine[1])
    with pytest.raises(Refusal, match="no longer in your hand"):
        picked(table, seat, (theirs[0].code,))
    with pytest.raises(Refusal):
        picked(table, seat, ("ZZ",))


def test_a_move_is_built_from_the_picked_cards_or_refused_plainly() -> None:
    table, turn, _other = person_on_turn()
    assert table.match is not None
    seat = table.seat(turn)
    assert build_action(table, seat, "draw", (), None) == DrawStock()
    assert build_action(table, seat, "take", (), None) == TakeDiscard()
    with pytest.raises(Refusal, match="Draw first"):
        build_action(table, seat, "discard", (table.match.hand.hand_of(turn)[0],), None)
    table.match.apply(turn, DrawStock())
    table.changes += 1  # as a saved change counts: the seat's view is worked out again
    assert table.match.hand.phase is Phase.PLAY
    held = table.match.hand.hand_of(turn)
    assert build_action(table, seat, "discard", (held[0],), None) == Discard(held[0])
    with pytest.raises(Refusal, match="exactly one card"):
        build_action(table, seat, "discard", held[:2], None)
    with pytest.raises(Refusal, match="at least 3 cards"):
        build_action(table, seat, "meld", held[:2], None)
    assert build_action(table, seat, "meld", held[:3], None) == MeldCards(held[:3])
    with pytest.raises(Refusal, match="Pick the cards"):
        build_action(table, seat, "lay_off", (), 0)
    with pytest.raises(Refusal, match="no such meld"):
        build_action(table, seat, "lay_off", held[:1], None)
    assert build_action(table, seat, "lay_off", held[:1], 0) == LayOff(held[:1], 0)
