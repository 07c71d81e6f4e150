"""The moves of each hand of a table's match, kept for the history's replays.

A table carries one tape per hand of its match (``Table.tapes``): the hand's
number, its dealer and seed, and its moves in ``engine.tape``'s compact text.
They are part of the saved table, so they survive a restart and are undone
with any change that is undone, and they are recorded with the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from db import HandMoves
from engine import Action, Hand, HouseRules
from engine.expert import PublicRecord, record_of_moves
from engine.tape import encode_move, parse_moves

from .table import Table


def current_tape(table: Table) -> dict[str, Any] | None:
    """The current hand's tape, started if no move has been made in the hand yet
    (call it before applying a move). None when the hand was under way before
    taping began (a table saved by an older release): a tape must hold every
    move from the deal, or its replay would not be the hand played."""
    match = table.match
    assert match is not None
    number = match.hand_number
    if table.tapes and table.tapes[-1]["hand"] == number:
        return table.tapes[-1]
    hand = match.hand
    if hand != Hand.deal(match.players, match.rules, hand.dealer, hand.seed):
        return None
    tape = {"hand": number, "dealer": hand.dealer, "seed": hand.seed, "moves": ""}
    table.tapes.append(tape)
    return tape


def add_move(table: Table, tape: dict[str, Any] | None, player: str, action: Action) -> None:
    """Write a move the match has just applied onto the tape ``current_tape`` gave."""
    if tape is None:
        return
    assert table.match is not None
    word = encode_move(table.match.players.index(player), action)
    tape["moves"] = f"{tape['moves']} {word}" if tape["moves"] else word


def finished_tapes(table: Table) -> dict[int, HandMoves]:
    """The tapes of the match's finished hands, by hand number."""
    match = table.match
    if match is None:
        return {}
    finished = len(match.history)
    return {
        int(tape["hand"]): HandMoves(
            dealer=int(tape["dealer"]), seed=int(tape["seed"]), moves=str(tape["moves"])
        )
        for tape in table.tapes
        if int(tape["hand"]) <= finished
    }


@dataclass(frozen=True)
class RecordSource:
    """What a hand's public record is replayed from, copied off the table: the
    replay may then run on a worker thread while the table moves on."""

    players: tuple[str, ...]
    rules: HouseRules
    dealer: int
    seed: int
    moves: str
    totals: tuple[tuple[str, int], ...]
    hand_number: int
    # A hand under way before taping began: its record is known to be empty.
    untaped: bool = False

    def record(self) -> PublicRecord:
        """The public record: what every seat has seen of the hand, and the match
        totals before it (the expert computer's memory). Replays the hand's moves."""
        totals = dict(self.totals)
        if self.untaped:
            return PublicRecord.of([], totals, self.hand_number)
        dealt = Hand.deal(list(self.players), self.rules, self.dealer, self.seed)
        moves = parse_moves(list(self.players), self.moves)
        return record_of_moves(dealt, moves, totals, self.hand_number)


def record_source(table: Table) -> RecordSource:
    """The current hand's record, ready to replay (read with the table settled)."""
    match = table.match
    assert match is not None
    totals = match.totals
    outcome = match.hand.outcome
    if outcome is not None:
        totals = {p: total - outcome.scores[p] for p, total in totals.items()}
    number = match.hand_number
    tape = table.tapes[-1] if table.tapes and table.tapes[-1]["hand"] == number else None
    hand = match.hand
    players = tuple(match.players)
    if tape is None:
        # Nobody has moved yet, or the hand was under way before taping began.
        fresh = hand == Hand.deal(match.players, match.rules, hand.dealer, hand.seed)
        return RecordSource(players, match.rules, hand.dealer, hand.seed, "",
                            tuple(totals.items()), number, untaped=not fresh)
    return RecordSource(players, match.rules, int(tape["dealer"]), int(tape["seed"]),
                        str(tape["moves"]), tuple(totals.items()), number)


def public_record(table: Table) -> PublicRecord:
    """What every seat has seen of the current hand (from its tape), and the
    match totals before it: the expert computer's memory. Replays the hand's
    moves, so it is worked out off the event loop, with the table locked. A hand
    under way before taping began has an empty record."""
    return record_source(table).record()
