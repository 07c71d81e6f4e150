"""The history's drawings: the score chart, places and changes, replay controls."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from chat.messages.history_layout import ReplayAt, ordinal_place, replay_controls, signed
from chat.messages.ratings_layout import sparkline
from engine.tape import Turn
from presentation.actions import REPLAY_EXPORT, REPLAY_STEP, REPLAY_TURN, ComponentId
from presentation.colours import seat_rgb
from presentation.score_chart import HEIGHT, WIDTH, Series, chart_font, draw, running_totals


def test_running_totals_add_each_hand() -> None:
    hands = [{"a": 5, "b": 0}, {"a": 0, "b": 7}, {"a": 3}]
    assert running_totals(hands, ["a", "b"]) == [[5, 5, 8], [0, 7, 7]]


def test_the_chart_is_a_small_png_with_a_line_per_player() -> None:
    png = draw("Match #1: points", [Series("Ann", [10, 30]), Series("Bob", [0, 45])])
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert len(png) < 64_000
    colours = {colour for _, colour in image.convert("RGB").getcolors(WIDTH * HEIGHT) or []}
    assert seat_rgb(0) in colours and seat_rgb(1) in colours and seat_rgb(2) not in colours


def test_places_and_changes_read_as_people_say_them() -> None:
    assert [ordinal_place(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
    ]
    assert (signed(2.345), signed(-0.04), signed(-1.26)) == ("+2.3", "+0.0", "−1.3")
    assert sparkline([1.0, 2.0, 3.0]) == "▁▅█" and sparkline([]) == ""


NAMES = {"a": "Ann", "b": "Bob"}


def turns_of(count: int, length: int = 3) -> tuple[Turn, ...]:
    """``count`` turns of ``length`` moves each (draw, meld, discard), Ann first."""
    return tuple(Turn(n * length, "ab"[n % 2]) for n in range(count))


def at(step: int, turns: tuple[Turn, ...] = turns_of(4), steps: int | None = None) -> ReplayAt:
    return ReplayAt(7, 123, 2, step, 3 * len(turns) if steps is None else steps, turns)


def controls_of(place: ReplayAt) -> list[list[dict[str, Any]]]:
    return replay_controls(place, NAMES).rows


def by_label(place: ReplayAt) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for row in controls_of(place) for c in row if c["type"] == 2}


def target(button: dict[str, Any]) -> int:
    """The step a step button shows, read back from its id as the flow reads it."""
    parsed = ComponentId.parse(button["custom_id"])
    assert parsed is not None and parsed.action is REPLAY_STEP and parsed.arg is not None
    return int(parsed.arg.split(".")[2])


def test_replay_controls_never_share_an_id_and_parse_back() -> None:
    places = [at(0, (), 0), at(0, turns_of(1), 1), at(1, turns_of(1), 2), at(5, turns_of(2))]
    places += [at(step, turns_of(70)) for step in (0, 100, 209, 210)]
    places.append(ReplayAt(7 * 10**18, 10**9, 300, 1499, 1500, turns_of(500)))
    for place in places:
        rows = controls_of(place)
        ids = [c["custom_id"] for row in rows for c in row]
        assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids)
        assert all(ComponentId.parse(i) is not None for i in ids)
        # Discord's limits: 5 rows, 5 buttons a row, a select alone in its row.
        assert len(rows) <= 5 and all(len(row) <= 5 for row in rows)
        assert all(len(row) == 1 for row in rows if any(c["type"] == 3 for c in row))
        assert all(len(c.get("options", ())) <= 25 for row in rows for c in row)


def test_the_main_row_is_navigation_and_the_export_is_alone_at_the_bottom() -> None:
    rows = controls_of(at(4))
    assert [c["label"] for c in rows[0]] == ["⏮", "◀", "▶", "⏭"]
    [export] = rows[-1]
    parsed = ComponentId.parse(export["custom_id"])
    assert parsed is not None and parsed.action is REPLAY_EXPORT and parsed.arg == "123.2"
    assert all(c is export or "rjson" not in c["custom_id"] for row in rows for c in row)


def test_first_and_last_are_disabled_at_the_ends() -> None:
    start, end = by_label(at(0)), by_label(at(12))
    assert [start[b]["disabled"] for b in ("⏮", "◀", "▶", "⏭")] == [True, True, False, False]
    assert [end[b]["disabled"] for b in ("⏮", "◀", "▶", "⏭")] == [False, False, True, True]
    assert target(start["⏭"]) == 12 and target(start["▶"]) == 1
    assert target(end["⏮"]) == 0 and target(end["◀"]) == 11
    # No turn before the deal's, none after the last: those buttons are greyed.
    assert start["⏪"]["disabled"] and not start["Turn 2 ⏩"]["disabled"]
    assert end["⏩"]["disabled"] and not end["⏪ Turn 4"]["disabled"]


def test_turn_jumps_land_on_the_start_of_the_turn_they_name() -> None:
    # Turns begin at steps 0, 3, 6 and 9.
    middle = by_label(at(4))  # in turn 2, past its start: back goes to its start
    assert target(middle["⏪ Turn 2"]) == 3 and target(middle["Turn 3 ⏩"]) == 6
    start = by_label(at(6))  # at turn 3's start: back goes to turn 2
    assert target(start["⏪ Turn 2"]) == 3 and target(start["Turn 4 ⏩"]) == 9
    assert target(by_label(at(3))["⏪ Turn 1"]) == 0
    assert target(by_label(at(8))["Turn 4 ⏩"]) == 9


def test_the_select_lists_the_turns_with_whose_they_are() -> None:
    rows = controls_of(at(4))
    [menu] = rows[2]
    parsed = ComponentId.parse(menu["custom_id"])
    assert parsed is not None and parsed.action is REPLAY_TURN and parsed.arg == "123.2"
    assert [(o["label"], o["value"]) for o in menu["options"]] == [
        ("Turn 1 · Ann", "1"), ("Turn 2 · Bob", "2"), ("Turn 3 · Ann", "3"), ("Turn 4 · Bob", "4"),
    ]
    assert len(rows) == 4  # no pages for a short hand
    # A hand of one turn has nowhere to jump by turn.
    assert len(controls_of(at(1, turns_of(1), 3))) == 2


def test_a_long_hand_pages_its_turns_25_at_a_time() -> None:
    turns = turns_of(60)
    rows = controls_of(at(3 * 29 + 1, turns))  # in turn 30
    [menu], [pages] = rows[2], rows[3]
    assert [o["value"] for o in menu["options"]] == [str(n) for n in range(26, 51)]
    assert [(o["label"], o["value"], o["default"]) for o in pages["options"]] == [
        ("Turns 1–25", "1", False), ("Turns 26–50", "26", True), ("Turns 51–60", "51", False),
    ]
    assert pages["custom_id"] != menu["custom_id"]
    assert [o["value"] for o in controls_of(at(180, turns))[2][0]["options"]][-1] == "60"
    # A page of one turn is named as that turn.
    last = controls_of(at(0, turns_of(26)))[3][0]["options"][-1]
    assert (last["label"], last["value"]) == ("Turn 26", "26")


def test_pages_beyond_a_select_show_those_around_the_current_one() -> None:
    turns = turns_of(700)  # 28 pages: more than a select holds
    options = controls_of(at(3 * 400, turns))[3][0]["options"]  # turn 401, page 17
    assert len(options) == 25 and [o["value"] for o in options if o["default"]] == ["401"]
    assert options[-1]["value"] == str(27 * 25 + 1)  # the window is pushed to the end
    first = controls_of(at(0, turns))[3][0]["options"]
    assert first[0]["value"] == "1" and first[0]["default"]


def test_the_chart_draws_the_letters_of_every_language() -> None:
    font = chart_font(14)

    def ink(text: str) -> bytes:
        mask = font.getmask(text)
        return bytes(mask)

    missing = ink("\U000e0001")  # a character no font draws: the missing-glyph box
    for letter in "ąęłńóśźżãçõéèêßäöüñ¿":
        assert ink(letter) != missing, letter
