"""The replay tool, run as players and bug reporters run it: ``python -m engine.replay``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import MalformedReplayError, load, main

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE_INPUT = """\
{"rules": {"ace": "low", "melds_per_turn": "unlimited", "go_out": "any", "rummy_bonus": "double", "empty_stock": "reshuffle"},
 "players": ["ann", "bob", "cat"],
 "hands": {"ann": ["AS", "2S", "3S", "4S", "QH"], "bob": ["KD"], "cat": ["7H"]},
 "stock": ["9C", "4D"],
 "discard": ["2H", "7C"],
 "first": "ann",
 "seed": 7,
 "actions": [
   {"player": "ann", "action": "draw", "source": "stock"},
   {"player": "ann", "action": "meld", "cards": ["AS", "2S", "3S"]},
   {"player": "ann", "action": "lay_off", "cards": ["4S"], "meld": 0},
   {"player": "ann", "action": "discard", "card": "9C"}
 ]}
"""  # noqa: E501  (the issue's text, verbatim)

EXAMPLE_OUTPUT = """\
{"steps": [{"ok": true}, {"ok": true}, {"ok": true}, {"ok": true}],
 "hands": {"ann": ["QH"], "bob": ["KD"], "cat": ["7H"]},
 "melds": [{"cards": ["AS", "2S", "3S", "4S"]}],
 "stock_size": 1, "discard_top": "9C", "turn": "bob",
 "outcome": null}"""


def run_tool(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.replay", *(args or ("-",))],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_the_issue_example_comes_out_exactly() -> None:
    result = run_tool(EXAMPLE_INPUT)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout) == json.loads(EXAMPLE_OUTPUT)
    # One line of JSON: the issue's text with its line breaks taken out.
    assert result.stdout == EXAMPLE_OUTPUT.replace("\n", "") + "\n"
    assert list(json.loads(result.stdout)) == [
        "steps", "hands", "melds", "stock_size", "discard_top", "turn", "outcome",
    ]  # fmt: skip


def test_a_file_argument(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_text(EXAMPLE_INPUT, encoding="utf-8")
    result = run_tool("", str(path))
    assert result.returncode == 0
    assert json.loads(result.stdout) == json.loads(EXAMPLE_OUTPUT)


def example(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_INPUT)
    data.update(changes)
    return data


def replay(data: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Run the tool in-process on a document; it must succeed."""
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main([str(path)]) == 0, capsys.readouterr().err
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_illegal_steps_report_the_message_and_play_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    actions = [
        {"player": "bob", "action": "draw", "source": "stock"},
        {"player": "ann", "action": "discard", "card": "QH"},
        {"player": "ann", "action": "draw", "source": "discard"},
        {"player": "ann", "action": "discard", "card": "7C"},
        {"player": "ann", "action": "meld", "cards": ["AS", "2S", "9S"]},
        {"player": "ann", "action": "meld", "cards": ["AS", "2S", "KD"]},
        {"player": "ann", "action": "lay_off", "cards": ["4S"], "meld": 3},
        {"player": "ann", "action": "discard", "card": "QH"},
    ]
    result = replay(example(actions=actions), tmp_path, capsys)
    assert result["steps"] == [
        {"ok": False, "error": "It is not your turn."},
        {"ok": False, "error": "You must draw before you discard"},
        {"ok": True},
        {"ok": False, "error": "You took 7♣ from the discard pile this turn: discard another card"},
        {"ok": False, "error": "You don't hold 9♠"},
        {"ok": False, "error": "You don't hold K♦"},
        {"ok": False, "error": "There is no meld 3 on the table"},
        {"ok": True},
    ]
    assert result["hands"]["ann"] == ["AS", "2S", "3S", "4S", "7C"]
    assert result["discard_top"] == "QH"
    assert result["turn"] == "bob"


def test_going_rummy_and_later_actions_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = example(
        hands={"ann": ["4S", "2S", "AS"], "bob": ["KD", "5C"], "cat": ["7H", "AD"]},
        actions=[
            {"player": "ann", "action": "draw", "source": "discard"},
            {"player": "ann", "action": "meld", "cards": ["AS", "2S", "4S"]},
            {"player": "ann", "action": "meld", "cards": ["AS", "2S", "3S"]},
            {"player": "ann", "action": "discard", "card": "4S"},
            {"player": "bob", "action": "draw", "source": "stock"},
        ],
        discard=["2H", "3S"],
    )
    result = replay(data, tmp_path, capsys)
    assert [s["ok"] for s in result["steps"]] == [True, False, True, True, False]
    assert result["steps"][1]["error"] == (
        "A♠ 2♠ 4♠ is not a run: the ranks must follow one another with no gap"
    )
    assert result["steps"][4]["error"] == "This hand is over"
    assert result["turn"] is None
    assert result["outcome"] == {
        "went_out": "ann",
        "winners": ["ann"],
        "scores": {"ann": 2 * (15 + 8), "bob": 0, "cat": 0},
        "rummy": True,
    }
    assert result["hands"] == {"ann": [], "bob": ["5C", "KD"], "cat": ["AD", "7H"]}


def test_turn_over_and_the_nobody_out_ending(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = example(
        rules={"empty_stock": "turn_over"},
        players=["ann", "bob"],
        hands={"ann": ["6C", "2D"], "bob": ["KC", "9C"]},
        stock=[],
        discard=["9H", "3D"],
        actions=[
            {"player": "ann", "action": "draw", "source": "stock"},
            {"player": "ann", "action": "discard", "card": "9H"},
            {"player": "bob", "action": "draw", "source": "stock"},
            {"player": "bob", "action": "discard", "card": "KC"},
            {"player": "ann", "action": "draw", "source": "stock"},
        ],
    )
    result = replay(data, tmp_path, capsys)
    assert [s["ok"] for s in result["steps"]] == [True] * 5
    assert result["stock_size"] == 0 and result["discard_top"] == "KC"
    assert result["hands"] == {"ann": ["2D", "6C"], "bob": ["3D", "9C"]}
    assert result["outcome"] == {
        "went_out": None,
        "winners": ["ann"],
        "scores": {"ann": 4, "bob": 0},  # 12 - 8
        "rummy": False,
    }


def test_reshuffles_replay_the_same_every_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = example(
        stock=[],
        discard=["2H", "3H", "4H", "5H", "6H", "8H", "7C"],
        actions=[
            {"player": "ann", "action": "draw", "source": "stock"},
            {"player": "ann", "action": "discard", "card": "QH"},
        ],
    )
    first = replay(data, tmp_path, capsys)
    assert first == replay(data, tmp_path, capsys)
    assert first["stock_size"] == 5 and first["discard_top"] == "QH"


def one_action(**fields: object) -> str:
    return json.dumps(example(actions=[fields]))


MALFORMED: list[tuple[str, str]] = [
    ("not json", '{"players": ['),
    ("not an object", "[1, 2]"),
    ("unknown card", json.dumps(example(stock=["9C", "1?"]))),
    ("card in two places", json.dumps(example(stock=["9C", "AS"]))),
    ("unknown player in hands", json.dumps(example(hands={"ann": [], "bob": [], "dan": []}))),
    ("unknown first player", json.dumps(example(first="zed"))),
    ("unknown acting player", one_action(player="zed", action="draw", source="stock")),
    ("unknown key", json.dumps(example(colour="red"))),
    ("unknown rule key", json.dumps(example(rules={"aces": "low"}))),
    ("bad rule value", json.dumps(example(rules={"ace": "sideways"}))),
    ("unknown action kind", one_action(player="ann", action="knock")),
    ("unknown action key", one_action(player="ann", action="draw", source="stock", x=1)),
    ("missing field", json.dumps({k: v for k, v in example().items() if k != "stock"})),
    ("missing action field", one_action(player="ann", action="discard")),
    ("missing player", one_action(action="draw", source="stock")),
    ("missing hand", json.dumps(example(hands={"ann": ["AS"], "bob": ["KD"]}))),
    ("bad card in an action", one_action(player="ann", action="discard", card="ZZ")),
    ("seed not a number", json.dumps(example(seed="7"))),
]


@pytest.mark.parametrize("text", [t for _, t in MALFORMED], ids=[n for n, _ in MALFORMED])
def test_malformed_input_exits_2_with_one_line(text: str) -> None:
    result = run_tool(text)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert result.stderr.endswith("\n")


def test_malformed_messages_say_what_is_wrong() -> None:
    cases = {
        json.dumps(example(stock=["9C", "1?"])): "'1?' is not a card",
        json.dumps(example(stock=["9C", "AS"])): "AS is in two places",
        json.dumps(example(first="zed")): "unknown player 'zed'",
        json.dumps(example(rules={"aces": "low"})): "unknown house rule 'aces'",
        json.dumps(example(rules={"ace": "x"})): "ace must be one of: low, high_or_low",
        json.dumps(example(actions=[{"player": "ann", "action": "knock"}])): "unknown action",
        json.dumps({k: v for k, v in example().items() if k != "seed"}): "missing field 'seed'",
    }
    for text, fragment in cases.items():
        result = run_tool(text)
        assert fragment in result.stderr


def test_missing_file_and_usage() -> None:
    assert run_tool("", "/nonexistent/replay.json").returncode == 2
    result = subprocess.run(
        [sys.executable, "-m", "engine.replay"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": ["ann", "ann", "bob"]}, "players: a player is listed twice"),
        (
            {"players": ["ann"], "hands": {"ann": ["AS"]}},
            "players: Rummy is played by 2 to 6 players",
        ),
        ({"players": ["ann", 3]}, "players must be a list of player names"),
        ({"hands": {"ann": [], "bob": [], "cat": [], "dan": []}}, "hands: unknown player 'dan'"),
        ({"hands": {"ann": [], "bob": []}}, "hands: missing field 'cat'"),
        ({"first": "zed"}, "first: unknown player 'zed'"),
        ({"first": None}, "first: unknown player None"),
        ({"seed": "7"}, "seed must be a whole number"),
        ({"seed": True}, "seed must be a whole number"),
        ({"stock": ["9C", "AS"]}, "AS is in two places"),
        ({"discard": ["2H", "2H"]}, "2H is in two places"),
    ],
)
def test_each_fault_of_the_position_is_named_after_its_field(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(MalformedReplayError) as caught:
        load(example(**changes))
    assert str(caught.value) == message
