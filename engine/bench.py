"""Benchmark: random legal play, and the cost of ``legal_actions``; or of copying a match.

    python -m engine.bench [--seconds S] [--copy]

For 2, 4 and 6 players under the default house rules, plays whole hands in which
every move is picked at random among ``legal_actions``, and prints hands per second
and the mean (overall, and after the draw when melds are searched), 99th percentile
and worst time of one ``legal_actions`` call (it runs on every render of
a hand view and on every move of a computer player).

With ``--copy``: the two ways to keep a match to roll back to, timed on a 4-player
match in the middle of a hand: ``Match.copy()``, and a round trip through the save
format, ``Match.from_dict(match.to_dict())``. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit
from collections.abc import Callable, Sequence

from engine.actions import LayOff, MeldCards
from engine.hand import Hand
from engine.match import Match
from engine.rules import HouseRules
from engine.state import Phase


def _bench(players: int, seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    seats = [f"p{i}" for i in range(players)]
    rules = HouseRules()
    hands = moves = 0
    calls: list[float] = []
    play_calls: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hand = Hand.deal(seats, rules, hands % players, rng.randrange(2**32))
        while not hand.is_over:
            player = hand.turn
            assert player is not None
            t0 = time.perf_counter()
            legal = hand.legal_actions(player)
            spent = time.perf_counter() - t0
            calls.append(spent)
            if hand.phase is Phase.PLAY:
                play_calls.append(spent)
            hand.apply(player, rng.choice(legal))
            moves += 1
        hands += 1
    elapsed = time.perf_counter() - start
    ordered = sorted(calls)
    return {
        "hands_per_s": hands / elapsed,
        "moves_per_hand": moves / hands,
        "legal_mean_us": statistics.fmean(calls) * 1e6,
        "legal_play_mean_us": statistics.fmean(play_calls) * 1e6,
        "legal_p99_us": ordered[int(len(ordered) * 0.99)] * 1e6,
        "legal_max_us": ordered[-1] * 1e6,
    }


def mid_hand_match(players: int, seed: int) -> Match:
    """A match in the middle of its first hand: half the stock drawn by random legal
    play that puts down whatever it can, so there are melds on the table."""
    rng = random.Random(seed)
    while True:
        match = Match.start([f"p{i}" for i in range(players)], HouseRules(), rng.randrange(2**32))
        hand = match.hand
        stop = hand.stock_size // 2
        while not hand.is_over and hand.stock_size > stop:
            player = hand.turn
            assert player is not None
            legal = match.legal_actions(player)
            plays = [a for a in legal if isinstance(a, MeldCards | LayOff)]
            match.apply(player, rng.choice(plays or legal))
        if not hand.is_over and hand.melds:
            return match


def _per_call_us(action: Callable[[], object], seconds: float) -> float:
    """The mean time of one call, in microseconds: the best of 5 batches of about
    ``seconds / 5`` each."""
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 50:
        action()
        calls += 1
    number = max(1, calls * 10)
    return min(timeit.repeat(action, number=number, repeat=5)) / number * 1e6


def _bench_copy(seconds: float, seed: int) -> None:
    match = mid_hand_match(4, seed)
    print(
        f"copying a 4-player match mid-hand (hand {match.hand_number},"
        f" {match.hand.stock_size} cards left in the stock, {len(match.hand.melds)} melds)"
    )
    copy_us = _per_call_us(match.copy, seconds)
    trip_us = _per_call_us(lambda: Match.from_dict(match.to_dict()), seconds)
    print(f"{'Match.copy()':>36}  {copy_us:>8.1f} us")
    print(f"{'Match.from_dict(match.to_dict())':>36}  {trip_us:>8.1f} us")


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: run the benchmark asked for and print it; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--copy", action="store_true", help="time Match.copy() against a save-and-load"
    )
    args = parser.parse_args(argv)
    if args.copy:
        _bench_copy(args.seconds, args.seed)
        return 0
    print("random legal play, default house rules (moves picked uniformly at random)")
    print(
        f"{'players':>7}  {'hands/s':>8}  {'moves/hand':>10}  {'legal_actions mean':>18}  "
        f"{'after draw':>10}  {'p99':>8}  {'max':>8}"
    )
    for players in (2, 4, 6):
        r = _bench(players, args.seconds, args.seed)
        print(
            f"{players:>7}  {r['hands_per_s']:>8.1f}  {r['moves_per_hand']:>10.1f}  "
            f"{r['legal_mean_us']:>15.1f} us  {r['legal_play_mean_us']:>7.1f} us  "
            f"{r['legal_p99_us']:>5.0f} us  "
            f"{r['legal_max_us']:>5.0f} us"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
