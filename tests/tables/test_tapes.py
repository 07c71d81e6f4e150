"""Each hand's moves are taped as it is played, recorded with the match, and a
replay of the tape ends exactly where the hand ended."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from db import Database
from engine import Discard, HouseRules
from engine.ai import choose_action
from engine.replay import run
from engine.tape import HandTape, decode_move, encode_move
from game.engine_moves import Moves
from tables import Stage, Table
from tables.records import match_record
from tables.tapes import finished_tapes

from .helpers import playing_table


def play_match(table: Table, seed: int) -> list[dict[str, Any]]:
    """Play the table's match to its end with computer moves for every seat;
    the final state of each hand, as the engine saves it."""
    match = table.match
    assert match is not None
    rng = random.Random(seed)
    moves = Moves()
    finals: list[dict[str, Any]] = []
    while True:
        hand = match.hand
        turn = hand.turn
        assert turn is not None
        moves.apply(table, turn, [choose_action(hand.view_for(turn), "easy", rng)], by_human=False)
        if match.hand.is_over:
            finals.append(match.hand.to_dict())
            if match.is_over:
                return finals
            match.next_hand()
            table.stage = Stage.PLAYING


def test_every_move_word_reads_back_as_its_move() -> None:
    table = playing_table(seed=3)
    play_match(table, 3)
    for tape in table.tapes:
        for word in tape["moves"].split():
            seat, action = decode_move(word)
            assert encode_move(seat, action) == word


async def test_a_recorded_hand_replays_to_the_state_it_ended_in(tmp_path: Path) -> None:
    table = playing_table(seed=11, rules=HouseRules(target=60))
    finals = play_match(table, 11)
    assert len(finals) >= 2  # more than one hand, so the later deals are tested too
    assert sorted(finished_tapes(table)) == list(range(1, len(finals) + 1))
    async with await Database.open(tmp_path / "r.db") as db:
        match_id = await db.record_match(match_record(table, abandoned=False))
        stored = await db.get_match(match_id)
    assert stored is not None
    players = [seat.player_key for seat in stored.seats]
    rules = HouseRules.from_dict(stored.rules)
    for hand, final in zip(stored.hands, finals, strict=True):
        assert hand.moves is not None
        tape = HandTape.read(players, rules, hand.moves.dealer, hand.moves.seed, hand.moves.moves)
        replayed = tape.final()
        assert replayed.to_dict() == final
        assert replayed.outcome is not None and dict(replayed.outcome.scores) == hand.scores
        # The export replays the same way through the command-line tool.
        result = run(tape.export())
        assert all(step["ok"] for step in result["steps"])
        assert result["outcome"]["scores"] == hand.scores


def test_a_hand_under_way_before_taping_is_not_taped() -> None:
    table = playing_table(seed=5)
    match = table.match
    assert match is not None
    turn = match.hand.turn
    assert turn is not None
    # Moves made by an older release: the match moved on, no tape was kept.
    match.apply(turn, choose_action(match.hand.view_for(turn), "easy", random.Random(1)))
    Moves().apply(
        table,
        match.hand.turn or "",
        [choose_action(match.hand.view_for(match.hand.turn), "easy", random.Random(2))],
        by_human=False,
    )
    assert table.tapes == []


def test_tapes_survive_a_save_and_are_undone_with_a_change() -> None:
    table = playing_table(seed=8)
    match = table.match
    assert match is not None
    snapshot = table.snapshot()
    turn = match.hand.turn
    assert turn is not None
    Moves().apply(
        table,
        turn,
        [choose_action(match.hand.view_for(turn), "easy", random.Random(1))],
        by_human=False,
    )
    assert len(table.tapes) == 1 and table.tapes[0]["moves"]
    assert Table.from_dict(table.to_dict()).tapes == table.tapes
    table.restore(snapshot)
    assert table.tapes == []


def test_a_tape_knows_where_each_turn_began_and_whose_it_was() -> None:
    table = playing_table(seed=4, rules=HouseRules(target=60))
    play_match(table, 4)
    for taped in table.tapes:
        players = [seat.key for seat in table.seats]
        tape = HandTape.read(players, table.rules, taped["dealer"], taped["seed"], taped["moves"])
        turns = tape.turns()
        assert turns[0].step == 0 and len(turns) > 1
        ends = [t.step for t in turns[1:]] + [len(tape.moves)]
        for turn, end in zip(turns, ends, strict=True):
            # At its start the hand waits for that player's draw...
            assert tape.at(turn.step).turn == turn.player
            # ...and every move until the next turn is theirs, the last a discard
            # (or, in the hand's last turn, the move that ended it).
            assert {player for player, _ in tape.moves[turn.step : end]} == {turn.player}
            assert end == len(tape.moves) or isinstance(tape.moves[end - 1][1], Discard)
