"""Replay tool: play a laid-out position and a list of actions, print the result.

    python -m engine.replay FILE      (or ``-`` to read standard input)

The input is one JSON object: ``rules`` (optional; missing keys take their
defaults), ``players``, ``hands`` (player -> card codes, any size), ``stock`` (top
card first), ``discard`` (bottom card first), ``first`` (who moves first), ``seed``
(drives any reshuffle) and ``actions``, each ``{"player": ..., "action": ...}`` in
the replay form of ``engine.actions``.

The output (standard output, one line of JSON) has one step per action,
``{"ok": true}`` or ``{"ok": false, "error": "<the message a player would see>"}``
(a refused action changes nothing and the replay goes on), then the final
``hands`` (sorted by rank, ace low, then suit C D H S), ``melds`` (run order),
``stock_size``, ``discard_top``, ``turn`` and ``outcome``.

A malformed file (bad JSON, an unknown card, key, player, rule value or action
kind, a card in two places, a missing field) prints one line on standard error and
exits with status 2 before any action is played.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, action_from_dict
from engine.cards import Card, sort_by_rank
from engine.errors import RummyError, SetupError, SetupFault
from engine.hand import Hand
from engine.rules import HouseRules

__all__ = ["MalformedReplayError", "load", "main", "play", "run"]

_FIELDS = ("rules", "players", "hands", "stock", "discard", "first", "seed", "actions")
_REQUIRED = _FIELDS[1:]


class MalformedReplayError(RummyError):
    """The replay file cannot be played at all (as opposed to an illegal action in it)."""


def _card_list(value: object, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise MalformedReplayError(f"{where} must be a list of card codes")
    cards = []
    for code in value:
        try:
            cards.append(Card.parse(code))
        except RummyError as exc:
            raise MalformedReplayError(f"{where}: {exc}") from None
    return cards


def _setup_message(exc: SetupError) -> str:
    """A fault of the laid-out position, worded after the field of the file it is in."""
    match exc.fault:
        case SetupFault.PLAYER_TWICE:
            return "players: a player is listed twice"
        case SetupFault.PLAYER_COUNT:
            return f"players: {exc}"
        case SetupFault.SEED:
            return "seed must be a whole number"
        case SetupFault.UNKNOWN_HAND:
            return f"hands: unknown player {exc.subject!r}"
        case SetupFault.MISSING_HAND:
            return f"hands: missing field {exc.subject!r}"
        case SetupFault.UNSEATED_FIRST:
            return f"first: unknown player {exc.subject!r}"
    return str(exc)


def load(data: object) -> tuple[Hand, list[tuple[str, Action]]]:
    """Check a whole replay document and build the starting hand and the action list.

    The fields are read first; the position they lay out is then checked by
    ``Hand.from_position``, as for any laid-out hand. Raises ``MalformedReplayError``
    with a one-line message when anything is wrong.
    """
    if not isinstance(data, dict):
        raise MalformedReplayError("the replay must be a JSON object")
    for key in data:
        if key not in _FIELDS:
            raise MalformedReplayError(f"unknown key {key!r}")
    for key in _REQUIRED:
        if key not in data:
            raise MalformedReplayError(f"missing field {key!r}")
    try:
        rules = HouseRules.from_dict(data.get("rules", {}))
    except RummyError as exc:
        raise MalformedReplayError(f"rules: {exc}") from None
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise MalformedReplayError("players must be a list of player names")
    hands_data = data["hands"]
    if not isinstance(hands_data, dict):
        raise MalformedReplayError("hands must map each player to a list of card codes")
    hands = {p: _card_list(cards, f"hands.{p}") for p, cards in hands_data.items()}
    stock = _card_list(data["stock"], "stock")
    discard = _card_list(data["discard"], "discard")
    try:
        hand = Hand.from_position(
            players, rules, hands, stock, discard, data["first"], data["seed"]
        )
    except SetupError as exc:
        raise MalformedReplayError(_setup_message(exc)) from None
    actions_data = data["actions"]
    if not isinstance(actions_data, list):
        raise MalformedReplayError("actions must be a list")
    actions: list[tuple[str, Action]] = []
    for number, item in enumerate(actions_data):
        where = f"actions[{number}]"
        if not isinstance(item, dict):
            raise MalformedReplayError(f"{where} must be an object")
        if "player" not in item:
            raise MalformedReplayError(f"{where}: missing field 'player'")
        player = item["player"]
        if not isinstance(player, str) or player not in players:
            raise MalformedReplayError(f"{where}: unknown player {player!r}")
        try:
            actions.append((player, action_from_dict(item)))
        except RummyError as exc:
            raise MalformedReplayError(f"{where}: {exc}") from None
    return hand, actions


def play(hand: Hand, actions: Sequence[tuple[str, Action]]) -> dict[str, Any]:
    """Apply the actions in order and report each step and the final position."""
    steps: list[dict[str, Any]] = []
    for player, action in actions:
        try:
            hand.apply(player, action)
        except RummyError as exc:
            steps.append({"ok": False, "error": str(exc)})
        else:
            steps.append({"ok": True})
    outcome = hand.outcome
    return {
        "steps": steps,
        "hands": {p: [str(c) for c in sort_by_rank(hand.hand_of(p))] for p in hand.players},
        "melds": [{"cards": [str(c) for c in m.cards]} for m in hand.melds],
        "stock_size": hand.stock_size,
        "discard_top": None if hand.discard_top is None else str(hand.discard_top),
        "turn": hand.turn,
        "outcome": None
        if outcome is None
        else {
            "went_out": outcome.went_out,
            "winners": list(outcome.winners),
            "scores": {p: outcome.scores[p] for p in hand.players},
            "rummy": outcome.rummy,
        },
    }


def run(data: object) -> dict[str, Any]:
    """Check and play one replay document (already parsed from JSON)."""
    hand, actions = load(data)
    return play(hand, actions)


def _read(source: str) -> object:
    try:
        if source == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise MalformedReplayError(f"cannot read {source}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise MalformedReplayError(f"{source} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedReplayError(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None


def _utf8(stream: Any) -> None:
    # Messages carry suit symbols; a C locale must not turn them into an encoding error.
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status (0, or 2 for a malformed file)."""
    args = list(sys.argv[1:] if argv is None else argv)
    _utf8(sys.stdout)
    _utf8(sys.stderr)
    if len(args) != 1:
        print("usage: python -m engine.replay FILE  (or - for standard input)", file=sys.stderr)
        return 2
    try:
        result = run(_read(args[0]))
    except MalformedReplayError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
