"""Arena: the computer levels play one another, and the results are printed.

    python -m engine.arena [--hands N] [--players 2 4 6] [--seed S]
                           [--matchups expert:hard hard:easy ...] [--rule NAME=VALUE ...]

For every player count and every matchup A:B, plays N seeded hands. Seats alternate
A, B, A, B ... and every deal is played twice, the second time with the levels moved
one seat round, so neither level profits from a lucky deal or from moving first; the
dealer moves one seat each deal. A level *wins* a hand when one of its seats is among
the hand's winners. For each level it prints the share of hands won with a 95% Wilson
interval, the average points a seat of that level scored per hand with a 95% interval,
and how long one decision (one ``choose_action`` call) took: median and 99th
percentile. The computer seats get the hand's public record as the bot keeps it, so the
expert plays with its memory. Not a test: it asserts nothing, it only reports (the
benchmarks the levels are held to are printed at the end).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.ai import Level, choose_action
from engine.errors import RummyError
from engine.expert import PublicRecord
from engine.hand import Hand
from engine.rules import HouseRules
from engine.scoring import Termination
from engine.state import Event
from engine.view import HandView

DEFAULT_MATCHUPS: tuple[tuple[Level, Level], ...] = (
    (Level.EXPERT, Level.HARD),
    (Level.HARD, Level.EASY),
    (Level.EASY, Level.RANDOM),
    (Level.HARD, Level.RANDOM),
)


@dataclass
class Tally:
    """What one batch of hands of one matchup produced."""

    hands: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    # Per hand, the average points of the level's seats, squared and summed: with
    # ``points`` it gives the spread for the interval on average points.
    points_squared: dict[str, float] = field(default_factory=dict)
    seat_hands: dict[str, int] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    nobody_out: int = 0
    shared: int = 0
    moves: int = 0

    def add(self, other: Tally) -> None:
        """Count another batch of the same matchup into this one."""
        self.hands += other.hands
        self.nobody_out += other.nobody_out
        self.shared += other.shared
        self.moves += other.moves
        for name in ("wins", "points", "points_squared", "seat_hands"):
            mine: dict[str, int] = getattr(self, name)
            for level, value in getattr(other, name).items():
                mine[level] = mine.get(level, 0) + value
        for level, values in other.times.items():
            self.times.setdefault(level, []).extend(values)


def seat_levels(levels: tuple[str, str], players: int, number: int) -> list[str]:
    """Levels by seat for hand ``number``: alternating, shifted one seat on odd hands."""
    return [levels[(seat + number) % 2] for seat in range(players)]


def hand_seed(seed: int, players: int, deal: int) -> int:
    """The same deals for every matchup, so matchups are compared on equal cards."""
    return seed * 1_000_003 + players * 100_003 + deal


Decide = Callable[[HandView, str, random.Random, PublicRecord], Action]
"""How a seat of a level picks its move: ``choose_action``'s signature."""


def play_hand(
    levels: Sequence[str],
    rules: HouseRules,
    seed: int,
    dealer: int,
    tally: Tally,
    decide: Decide = choose_action,
) -> None:
    """Play one whole hand between computer seats and add it to ``tally``."""
    players = [f"cpu{i + 1}" for i in range(len(levels))]
    level_of = dict(zip(players, levels, strict=True))
    rngs = {p: random.Random(f"arena:{seed}:{p}") for p in players}
    hand = Hand.deal(players, rules, dealer, seed)
    # What everyone at the table saw, as the bot keeps it for its computer seats.
    events = [Event("deal", players[dealer], hand.discard_pile)]
    moves = 0
    while not hand.is_over:
        player = hand.turn
        assert player is not None
        view = hand.view_for(player)
        start = time.perf_counter()
        record = PublicRecord.of(events)
        action = decide(view, level_of[player], rngs[player], record)
        tally.times.setdefault(level_of[player], []).append(time.perf_counter() - start)
        events += hand.apply(player, action)
        moves += 1
    outcome = hand.outcome
    assert outcome is not None
    tally.hands += 1
    tally.moves += moves
    if outcome.reason is not Termination.WENT_OUT:
        tally.nobody_out += 1
    winning = {level_of[p] for p in outcome.winners}
    if len(winning) > 1:
        tally.shared += 1
    for level in set(levels):
        tally.wins[level] = tally.wins.get(level, 0) + (level in winning)
    for p in players:
        level = level_of[p]
        tally.points[level] = tally.points.get(level, 0) + outcome.scores[p]
        tally.seat_hands[level] = tally.seat_hands.get(level, 0) + 1
    for level in set(levels):
        seats = [p for p in players if level_of[p] == level]
        average = sum(outcome.scores[p] for p in seats) / len(seats)
        tally.points_squared[level] = tally.points_squared.get(level, 0.0) + average * average


def run_matchup(
    levels: tuple[str, str], players: int, rules: HouseRules, hands: int, seed: int
) -> Tally:
    """Play ``hands`` hands of one matchup: deal ``n // 2`` is played as hands ``n`` and
    ``n + 1`` with the levels swapped round the table."""
    tally = Tally()
    for number in range(hands):
        deal = number // 2
        play_hand(
            seat_levels(levels, players, number),
            rules,
            hand_seed(seed, players, deal),
            deal % players,
            tally,
        )
    return tally


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% with the default ``z``)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, squares: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """A normal 95% interval for a mean, from the sum and the sum of squares of ``n``
    values (each hand counts once, as its seats' points are not independent)."""
    if n < 2:
        return -math.inf, math.inf
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = z * math.sqrt(variance / n)
    return mean - half, mean + half


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (0.0 for no values)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def report(levels: tuple[str, str], players: int, tally: Tally, seconds: float) -> list[str]:
    """The printed lines for one matchup: a summary, then one row per level.

    Average points are per seat and hand, with a 95% interval over hands; decision
    times are the median and the 99th percentile of one ``choose_action`` call.
    """
    lines = [
        f"{players} players, {levels[0]} vs {levels[1]}: {tally.hands} hands"
        f" ({tally.moves / max(1, tally.hands):.0f} moves a hand, {tally.nobody_out} ended"
        f" with nobody out, {tally.shared} won by both levels) in {seconds:.1f} s",
        f"  {'level':<7} {'seats':>5} {'hands won':>9} {'win rate':>8}  {'95% CI':<16}"
        f" {'avg points':>10}  {'95% CI':<14} {'decision median':>15} {'p99':>9}",
    ]
    for level in dict.fromkeys(levels):
        won = tally.wins.get(level, 0)
        low, high = wilson(won, tally.hands)
        points = tally.points.get(level, 0) / max(1, tally.seat_hands.get(level, 0))
        seats = tally.seat_hands.get(level, 0) / max(1, tally.hands)
        # Per hand the level's seats average ``points`` * seats / seats: the interval
        # is on that per-hand average.
        p_low, p_high = mean_interval(
            points * tally.hands, tally.points_squared.get(level, 0.0), tally.hands
        )
        times = tally.times.get(level, [])
        interval = f"[{low:.1%}, {high:.1%}]"
        points_interval = f"[{p_low:.1f}, {p_high:.1f}]"
        lines.append(
            f"  {level:<7} {seats:>5.1f} {won:>9} {won / max(1, tally.hands):>8.1%}  {interval:<16}"
            f" {points:>10.1f}  {points_interval:<14}"
            f" {percentile(times, 0.5) * 1e3:>12.3f} ms {percentile(times, 0.99) * 1e3:>6.3f} ms"
        )
    return lines


def _parse_matchup(text: str) -> tuple[str, str]:
    parts = text.split(":")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{text!r}: write a matchup as LEVEL:LEVEL")
    try:
        return Level(parts[0]).value, Level(parts[1]).value
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: levels are random, easy, hard and expert"
        ) from None


def parse_rules(items: Sequence[str]) -> HouseRules:
    data: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise RummyError(f"{item!r}: write a house rule as NAME=VALUE")
        data[name] = int(value) if value.isdigit() else value
    return HouseRules.from_dict(data)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: play every matchup and print the results; returns 0."""
    parser = argparse.ArgumentParser(
        description="Computer levels play each other; win rates and decision times."
    )
    parser.add_argument("--hands", type=int, default=2000, help="hands per matchup")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--matchups",
        type=_parse_matchup,
        nargs="+",
        default=[(a.value, b.value) for a, b in DEFAULT_MATCHUPS],
    )
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    if args.hands < 1 or any(not 2 <= p <= 6 for p in args.players):
        parser.error("--hands must be positive and --players between 2 and 6")
    try:
        rules = parse_rules(args.rule)
    except RummyError as exc:
        parser.error(str(exc))
    shown = ", ".join(
        f"{k}={v}"
        for k, v in rules.to_dict().items()
        if k not in ("target", "hands", "turn_timeout")
    )
    print(f"house rules: {shown}; seed {args.seed}; {args.hands} hands per matchup")
    heads_up: dict[tuple[str, str], Tally] = {}
    four_players: dict[tuple[str, str], Tally] = {}
    decision_times: dict[str, list[float]] = {}
    started = time.perf_counter()
    for players in args.players:
        for levels in args.matchups:
            begin = time.perf_counter()
            tally = run_matchup(levels, players, rules, args.hands, args.seed)
            if players == 2:
                heads_up[levels] = tally
            if players == 4 and "expert" in levels:
                four_players[levels] = tally
            for level, times in tally.times.items():
                decision_times.setdefault(level, []).extend(times)
            print("\n".join(report(levels, players, tally, time.perf_counter() - begin)))
            print(flush=True)
    print(f"total {time.perf_counter() - started:.0f} s")
    for (a, b), wanted in (
        (("expert", "hard"), 0.60),
        (("hard", "easy"), 0.60),
        (("easy", "random"), 0.5),
    ):
        pair = heads_up.get((a, b))
        if pair is None:
            continue
        rate = pair.wins.get(a, 0) / pair.hands
        low, _ = wilson(pair.wins.get(a, 0), pair.hands)
        verdict = "yes" if rate >= wanted and pair.hands >= 2000 else "NO"
        print(
            f"{a} beats {b} heads-up (needs >= {wanted:.0%} over >= 2000 hands):"
            f" {rate:.1%} (95% CI from {low:.1%}) over {pair.hands} hands -> {verdict}"
        )
    for (a, b), tally in four_players.items():
        mine = tally.points.get(a, 0) / max(1, tally.seat_hands.get(a, 0))
        theirs = tally.points.get(b, 0) / max(1, tally.seat_hands.get(b, 0))
        verdict = "yes" if mine > theirs else "NO"
        print(
            f"{a} ahead of {b} on average points in 4-player hands:"
            f" {mine:.1f} against {theirs:.1f} over {tally.hands} hands -> {verdict}"
        )
    for level, times in sorted(decision_times.items()):
        print(
            f"{level} decision time over {len(times)} decisions: median"
            f" {percentile(times, 0.5) * 1e3:.2f} ms, p99 {percentile(times, 0.99) * 1e3:.2f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
