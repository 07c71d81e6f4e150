"""The score chart's layout: bars for one hand, lines for more, ties kept
apart, labels that never cover one another, and text that reads on a phone.

The layout is checked rather than the pixels: it says where each bar, line,
marker and text goes, and the painter only follows it."""

from __future__ import annotations

import io
from itertools import combinations

import pytest
from PIL import Image

from presentation.chart_layout import (
    BAR_STUB,
    DODGE,
    LABEL_ROW,
    LINE_WIDTH,
    MARKER_RADIUS,
    MARKERS,
    PHONE_WIDTH,
    Chart,
    Text,
    chart_font,
    hand_ticks,
    layout,
    level_offsets,
    spread,
)
from presentation.colours import seat_rgb
from presentation.i18n import LANGUAGES, _, speaking
from presentation.score_chart import HEIGHT, WIDTH, Series, draw, running_totals

TITLE = "Match #1: points after each hand"
# The least size, in a phone's pixels, a text of the chart may have.
PHONE_TEXT = 13


def series(*players: tuple[str, list[int]]) -> list[Series]:
    """Players with the points they scored in each hand (running totals made here)."""
    return [Series(name, running_totals([{"k": p} for p in hands], ["k"])[0])
            for name, hands in players]


def width(box: tuple[float, float, float, float]) -> float:
    return box[2] - box[0]


def texts_of(chart: Chart) -> list[Text]:
    found = list(chart.texts)
    found += [t for bar in chart.bars for t in (bar.name, bar.value)]
    found += [line.label for line in chart.lines]
    return found


def test_a_one_hand_match_is_a_bar_per_player_most_points_first() -> None:
    chart = layout(TITLE, series(("Ann", [0]), ("Bob", [34]), ("Cat", [12])))
    assert chart.kind == "bars" and not chart.lines  # no line sloping up from 0
    assert [bar.seat for bar in chart.bars] == [1, 2, 0]
    bob, cat, ann = (width(bar.box) for bar in chart.bars)
    assert cat == pytest.approx(bob * 12 / 34)
    assert ann == BAR_STUB  # nothing scored, still its colour beside its name
    assert [(bar.name.text, bar.value.text) for bar in chart.bars] == [
        ("Bob", "34"), ("Cat", "12"), ("Ann", "0"),
    ]
    # Each bar's points are beside its end, on its row.
    for bar in chart.bars:
        assert bar.value.xy[0] > bar.box[2] and bar.box[1] < bar.value.xy[1] < bar.box[3]
    # No room wasted on a few players: shorter than the line chart.
    assert chart.height < HEIGHT


def test_tied_bars_are_the_same_length_on_rows_of_their_own() -> None:
    chart = layout(TITLE, series(("Ann", [0]), ("Bob", [14]), ("Cat", [14]), ("Dan", [0])))
    widths = [width(bar.box) for bar in chart.bars]
    assert widths[0] == widths[1] > widths[2] == widths[3]
    assert [bar.value.text for bar in chart.bars] == ["14", "14", "0", "0"]
    for one, other in combinations(chart.bars, 2):
        assert one.box[3] <= other.box[1] or other.box[3] <= one.box[1]


def test_players_level_all_match_are_drawn_side_by_side_not_on_top() -> None:
    chart = layout(TITLE, series(("Ann", [10, 0, 20]), ("Bob", [10, 0, 20]), ("Cat", [0, 5, 0])))
    assert chart.kind == "lines"
    ann, bob, cat = chart.lines
    assert ann.points[0] == bob.points[0] == cat.points[0]  # everyone starts from 0
    for (ax, ay), (bx, by) in zip(ann.points[1:], bob.points[1:], strict=True):
        assert ax == bx and abs(ay - by) == DODGE  # side by side, a line's width apart
    assert DODGE > LINE_WIDTH
    # Cat, level with nobody, is not moved: the same height for the same total.
    assert cat.points[2][1] == cat.points[3][1] < cat.points[1][1]
    assert len({line.marker for line in chart.lines}) == 3
    assert len({line.colour for line in chart.lines}) == 3
    # Both tied labels are shown, apart, with the same total.
    assert abs(ann.key[1] - bob.key[1]) >= LABEL_ROW
    assert ann.label.text.endswith(" 30") and bob.label.text.endswith(" 30")


def test_labels_never_cover_one_another_and_keep_the_order_of_the_totals() -> None:
    players = series(
        ("Ann", [25, 0, 0, 0, 0]), ("Bob", [0, 0, 31, 0, 0]), ("Ada", [0, 18, 0, 0, 7]),
        ("Grzegorz Brzęczyszczykiewicz", [0] * 5), ("Zoë", [0, 0, 0, 12, 0]),
        ("São João", [0] * 5),
    )
    chart = layout(TITLE, players)
    keys = [line.key[1] for line in chart.lines]
    for one, other in combinations(keys, 2):
        assert abs(one - other) >= LABEL_ROW - 1e-9
    totals = [s.totals[-1] for s in players]
    by_height = sorted(range(6), key=lambda seat: keys[seat])
    assert [totals[seat] for seat in by_height] == sorted(totals, reverse=True)
    # Ann and Ada tie at 25: their labels are next to each other, Ann (seated first) above.
    assert by_height.index(0) + 1 == by_height.index(2)
    assert len({line.marker for line in chart.lines}) == 6 == len(MARKERS)
    assert "…" in chart.lines[3].label.text  # the long name is shortened


def test_spread_moves_only_what_overlaps() -> None:
    assert spread([10, 50, 90], 20, 0, 100) == [10, 50, 90]
    assert spread([50, 50, 50], 20, 0, 100) == [30, 50, 70]
    assert spread([0, 0], 20, 0, 100) == [0, 20]  # kept inside, in order
    assert spread([100, 95], 20, 0, 100) == [100, 80]
    assert level_offsets([5, 0, 5, 5]) == [-DODGE, 0.0, 0.0, DODGE]


def test_hand_numbers_fit_a_phone_and_name_the_last_hand() -> None:
    assert hand_ticks(5) == [0, 1, 2, 3, 4, 5]
    for hands in (9, 20, 33, 100):
        ticks = hand_ticks(hands)
        assert ticks[0] == 0 and ticks[-1] == hands and len(ticks) <= 9
        assert ticks == sorted(set(ticks))


def test_markers_are_left_off_where_hands_are_too_close() -> None:
    few = layout(TITLE, series(("Ann", [5, 5]), ("Bob", [0, 9])))
    assert all(line.marked == line.points[1:] for line in few.lines)
    many = layout(TITLE, series(("Ann", [5] * 80), ("Bob", [1] * 80)))
    assert all(line.marked == line.points[-1:] for line in many.lines)


CHARTS = {
    "one hand, two players": series(("Ann", [34]), ("Bob", [0])),
    "one hand, a long name": series(("Ann", [34]), ("Computer (hard) " * 3, [0])),
    "five hands, six players": series(*((f"Player {n}" * (n + 1), [n, 0, 3, 0, 9 * n])
                                        for n in range(6))),
    "a long match": series(("Ann", [0, 50] * 30), ("Bob", [45, 0] * 30)),
}


@pytest.mark.parametrize("players", CHARTS.values(), ids=CHARTS.keys())
def test_every_text_reads_on_a_phone_and_stays_on_the_picture(players: list[Series]) -> None:
    german = "Partie Nr. 1234: Punkte nach jeder Runde, Zwischenstand nach jedem Spiel"
    for title in (TITLE, german):
        chart = layout(title, players)
        shrink = PHONE_WIDTH / chart.width
        for text in texts_of(chart):
            assert text.size * shrink >= PHONE_TEXT, text
            left, top, right, bottom = chart_font(text.size).getbbox(
                text.text, anchor=text.anchor
            )
            x, y = text.xy
            assert x + left >= 0 and x + right <= chart.width, text
            assert y + top >= 0 and y + bottom <= chart.height, text
    assert LINE_WIDTH * shrink >= 2.5 and MARKER_RADIUS * 2 * shrink >= 7


def test_the_chart_is_a_small_png_in_the_seats_colours() -> None:
    lines = draw(TITLE, [Series("Ann", [10, 30]), Series("Bob", [0, 45])])
    bars = draw(TITLE, [Series("Ann", [10]), Series("Bob", [0])])
    for png in (lines, bars):
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size[0] == WIDTH and len(png) < 64_000
        colours = {c for _, c in image.convert("RGB").getcolors(WIDTH * HEIGHT) or []}
        assert seat_rgb(0) in colours and seat_rgb(1) in colours and seat_rgb(2) not in colours
    assert Image.open(io.BytesIO(lines)).size == (WIDTH, HEIGHT)


def test_the_chart_writes_every_language_the_bot_speaks() -> None:
    font = chart_font(26)
    missing = bytes(font.getmask("\U000e0001"))  # what the font draws for a letter it lacks
    for code in LANGUAGES:
        with speaking(code):
            axis = _("hand")
            png = draw(_("Match #{id}: points after each hand", id=1), CHARTS["a long match"])
        assert png.startswith(b"\x89PNG")
        for letter in axis.replace(" ", ""):
            assert bytes(font.getmask(letter)) != missing, (code, letter)
