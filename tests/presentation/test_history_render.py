"""The history's drawings: the score chart, places and changes, replay controls."""

from __future__ import annotations

import io

from PIL import Image

from presentation.actions import ComponentId
from presentation.colours import seat_rgb
from presentation.history import ordinal_place, replay_controls, signed
from presentation.ratings import sparkline
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


def test_replay_controls_never_share_an_id_and_parse_back() -> None:
    for step, steps in ((0, 0), (0, 1), (1, 2), (5, 5)):
        controls = replay_controls(7, 123, 2, step, steps)
        ids = [c["custom_id"] for row in controls.rows for c in row]
        assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids)
        assert all(ComponentId.parse(i) is not None for i in ids)


def test_the_chart_draws_the_letters_of_every_language() -> None:
    font = chart_font(14)

    def ink(text: str) -> bytes:
        mask = font.getmask(text)
        return bytes(mask)

    missing = ink("\U000e0001")  # a character no font draws: the missing-glyph box
    for letter in "ąęłńóśźżãçõéèêßäöüñ¿":
        assert ink(letter) != missing, letter
