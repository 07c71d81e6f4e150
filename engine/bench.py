"""Benchmark: random legal play, and the cost of ``legal_actions``.

    python -m engine.bench [--seconds S]

For 2, 4 and 6 players under the default house rules, plays whole hands in which
every move is picked at random among ``legal_actions``, and prints hands per second
and the mean (overall, and after the draw when melds are searched), 99th percentile
and worst time of one ``legal_actions`` call (it runs on every render of
a hand view and on every move of a computer player). Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from engine.hand import Hand
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
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
