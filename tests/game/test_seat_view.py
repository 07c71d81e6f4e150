"""A seat's view as data: whose turn and what it holds, the latest moves as the
seat should read them, the legal moves and why a pick is none."""

from __future__ import annotations

from engine import Action, Card, Discard, DrawStock, IllegalMoveError, Phase, TakeDiscard
from game.engine_moves import Moves
from game.seat_view import SINCE_LINES, TWO_CARDS, SeatView, Since
from tables import LogLine, Table
from tests.tables.helpers import playing_table


def play(table: Table, action: Action) -> str:
    """The turn's player makes ``action``, as a door would have it saved; who that was."""
    assert table.match is not None
    player = table.match.hand.turn
    assert player is not None
    Moves().apply(table, player, [action], by_human=True)
    table.changes += 1  # a saved change: the table's views are worked out again
    return player


def dealt() -> Table:
    table = playing_table()
    table.new_hand_log("Hand {number}: {dealer} dealt", number=1, dealer="Ann")
    return table


def turn_of(table: Table) -> str:
    assert table.match is not None and table.match.hand.turn is not None
    return table.match.hand.turn


def others(table: Table, key: str) -> list[str]:
    return [seat.key for seat in table.seats if seat.key != key]


def test_the_draw_phase_says_whose_turn_and_what_a_draw_may_take() -> None:
    table = dealt()
    table.turn_deadline = 1_900_000_000.0
    first = turn_of(table)
    top = table.view_of(first).discard_top
    status = SeatView.of(table, first).status()
    assert (status.turn, status.mine, status.phase) == (first, True, Phase.DRAW)
    assert status.discard_top == top and top is not None
    assert (status.drawn, status.taken, status.may_not_discard) == (None, False, None)
    assert status.deadline == 1_900_000_000.0
    waiting = SeatView.of(table, others(table, first)[0]).status()
    assert (waiting.turn, waiting.mine, waiting.drawn) == (first, False, None)


def test_a_card_drawn_from_the_stock_is_the_seats_own_news() -> None:
    table = dealt()
    first = turn_of(table)
    held = set(table.view_of(first).hand)
    play(table, DrawStock())
    (drawn,) = set(table.view_of(first).hand) - held
    status = SeatView.of(table, first).status()
    assert (status.phase, status.drawn, status.taken) == (Phase.PLAY, drawn, False)
    assert status.may_not_discard is None
    # The others know a card was drawn, never which.
    assert SeatView.of(table, others(table, first)[0]).status().drawn is None


def test_a_card_taken_from_the_discard_pile_may_not_go_straight_back() -> None:
    table = dealt()
    first = turn_of(table)
    top = table.view_of(first).discard_top
    assert top is not None
    play(table, TakeDiscard())
    status = SeatView.of(table, first).status()
    assert (status.drawn, status.taken, status.may_not_discard) == (top, True, top)
    refused = SeatView.of(table, first).why_not([top])
    assert isinstance(refused, IllegalMoveError)
    assert Discard(top) not in SeatView.of(table, first).legal.discards


def test_the_deal_alone_is_no_news() -> None:
    table = dealt()
    for seat in table.seats:
        since = SeatView.of(table, seat.key).since()
        assert since.lines == () and not since
        assert since.since is Since.SO_FAR


def test_the_others_see_a_turn_and_its_player_does_not() -> None:
    table = dealt()
    first = turn_of(table)
    play(table, DrawStock())
    play(table, SeatView.of(table, first).legal.discards[0])
    second = turn_of(table)
    theirs = SeatView.of(table, second).since()
    # Nobody but the first player has moved: the hand so far, deal included.
    assert theirs.since is Since.SO_FAR
    assert theirs.lines == tuple(line for _by, line in table.hand_log)
    assert theirs.lines[0].message == "Hand {number}: {dealer} dealt" and len(theirs.lines) == 3
    mine = SeatView.of(table, first).since()
    assert mine.since is Since.LAST_TURN and mine.lines == ()


def test_a_players_own_turn_moves_are_left_out_of_what_they_missed() -> None:
    table = dealt()
    first = turn_of(table)
    for _turn in range(len(table.seats)):
        play(table, DrawStock())
        play(table, SeatView.of(table, turn_of(table)).legal.discards[0])
    assert turn_of(table) == first
    before = SeatView.of(table, first).since()
    play(table, DrawStock())  # the first player's own move this turn
    after = SeatView.of(table, first).since()
    assert after == before and after.since is Since.LAST_TURN
    # The two others' draw and discard each, none of the first player's.
    assert len(after.lines) == 2 * (len(table.seats) - 1)
    assert all(line in [entry for by, entry in table.hand_log if by != first]
               for line in after.lines)


def test_the_latest_moves_are_capped_to_the_newest() -> None:
    table = dealt()
    first = turn_of(table)
    other = others(table, first)[0]
    for number in range(SINCE_LINES + 5):
        table.note("{name} waved", other, name=str(number))
    since = SeatView.of(table, first).since()
    assert len(since.lines) == SINCE_LINES
    assert since.lines[-1] == LogLine.of("{name} waved", name=str(SINCE_LINES + 4))
    assert since.lines[0] == LogLine.of("{name} waved", name="5")


def test_a_watcher_reads_the_hands_newest_moves_whoever_made_them() -> None:
    table = dealt()
    watcher = SeatView.of(table, None)
    assert watcher.since().since is Since.LATEST
    assert [line.message for line in watcher.since().lines] == ["Hand {number}: {dealer} dealt"]
    assert watcher.status().mine is False and watcher.why_not([Card.parse("AS")]) is None


def test_two_cards_that_fit_nothing_are_refused_as_no_meld() -> None:
    table = dealt()
    first = turn_of(table)
    play(table, DrawStock())
    seat = SeatView.of(table, first)
    hand = seat.view.hand
    pairs = [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]
             if not seat.choices([a, b]).lay_offs]
    refused = seat.why_not(list(pairs[0]))
    assert isinstance(refused, IllegalMoveError) and refused.template == TWO_CARDS
    assert seat.why_not([]) is None
    assert seat.why_not([hand[0]]) is None  # any card but a taken one may go


def test_the_legal_moves_follow_the_phase() -> None:
    table = dealt()
    first = turn_of(table)
    drawing = SeatView.of(table, first).legal
    assert drawing.draw and drawing.take and drawing.discards == ()
    play(table, DrawStock())
    playing = SeatView.of(table, first).legal
    assert not playing.draw and not playing.take
    assert {discard.card for discard in playing.discards} == set(table.view_of(first).hand)
    assert SeatView.of(table, others(table, first)[0]).legal.discards == ()
