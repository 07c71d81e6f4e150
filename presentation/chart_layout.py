"""The layout of a match's score chart (``score_chart`` paints it).

It is posted once when a match ends and shown again in the match summary of
the history, where most players see it on a phone, about 400 px wide: every
text and stroke is sized for that width (``PHONE_WIDTH``), twice over on a
canvas of 800 px so that a desktop's or a sharp phone's pixels are not wasted.

- A match of one hand is a bar per player, longest first: a line from 0 to
  the score would show one slope per player and say no more than the bars
  do, less legibly.
- A longer match is a line per player through its running total after each
  hand (hand 0: everyone at 0). Each player also has a marker shape of their
  own, so lines that run together (a tie) still show whose they are: at a
  point where players are level, their lines and markers are set a few
  pixels apart instead of on top of one another. Each line ends in a label
  (the marker, the name, the total), moved apart from the others so that
  none hides another; tied players' labels say the same total.

The chart is laid out here first (``layout``: where every bar, line, marker
and text goes, in the canvas's pixels) and painted from that, so the layout
can be checked without looking at pixels.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PIL import ImageFont

from tables.names import plain_name

from .colours import seat_rgb
from .i18n import _, number

WIDTH = 800
# The line chart's height; the bars' depends on how many players there are.
HEIGHT = 560
# How wide a phone shows the picture: every text must read at this width.
PHONE_WIDTH = 400
FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]
Marker = Literal["circle", "square", "triangle", "diamond", "down", "hexagon"]
# One shape per seat, in seat order (six seats at most), as colours are.
MARKERS: tuple[Marker, ...] = ("circle", "square", "triangle", "diamond", "down", "hexagon")

# Sizes in the canvas's pixels: half of each on a phone. 13 px is the least a
# phone's reader makes out without zooming; Discord's own text is 15-16 px.
PAD = 16
TITLE_SIZE, TITLE_LEAST = 34, 26
LABEL_SIZE = 30
TICK_SIZE = 26
LINE_WIDTH = 5
MARKER_RADIUS = 8
# Players level at a hand are drawn this far apart: their lines side by side.
DODGE = 8
LABEL_ROW = 36
# A label (name and total) is at most this wide: a long name is shortened.
LABEL_WIDTH = 250
BAR_ROW, BAR_THICKNESS, BAR_STUB = 64, 40, 6


@dataclass(frozen=True)
class Series:
    """One player's line: their name and running total after each hand."""

    name: str
    totals: Sequence[int]


@dataclass(frozen=True)
class Text:
    """A text at ``xy``, placed there by its Pillow ``anchor``."""

    xy: Point
    text: str
    size: int
    anchor: str = "la"
    dim: bool = False


@dataclass(frozen=True)
class Bar:
    """A player's bar (a match of one hand): the box, the name and points beside it."""

    seat: int
    box: Box
    name: Text
    value: Text

    @property
    def colour(self) -> RGB:
        return seat_rgb(self.seat)


@dataclass(frozen=True)
class Line:
    """A player's line: its points (level players set apart by
    ``level_offsets``), the label it ends in, and where that label's marker sits."""

    seat: int
    points: tuple[Point, ...]
    label: Text
    key: Point
    # The points that bear the marker: none at hand 0 (everyone's start), and
    # only the last where hands are too close together for a marker each.
    marked: tuple[Point, ...]

    @property
    def marker(self) -> Marker:
        return MARKERS[self.seat % len(MARKERS)]

    @property
    def colour(self) -> RGB:
        return seat_rgb(self.seat)


@dataclass(frozen=True)
class Chart:
    """Everything the painter draws, in canvas pixels."""

    kind: Literal["bars", "lines"]
    width: int
    height: int
    texts: tuple[Text, ...]
    grid: tuple[tuple[Point, Point], ...] = ()
    bars: tuple[Bar, ...] = ()
    lines: tuple[Line, ...] = ()


def running_totals(scores: Sequence[dict[str, int]], keys: Sequence[str]) -> list[list[int]]:
    """Each key's running total after each hand, from the hands' scores."""
    lines: list[list[int]] = [[] for _ in keys]
    for hand in scores:
        for line, key in zip(lines, keys, strict=True):
            line.append((line[-1] if line else 0) + hand.get(key, 0))
    return lines


@functools.cache
def chart_font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, shipped with the bot (``presentation/fonts``): Pillow's own
    font has no letters beyond ASCII, and names and titles come in every
    language (ł, ã, ß, é)."""
    return ImageFont.truetype(str(FONT), size)


def text_width(text: str, size: int) -> float:
    return float(chart_font(size).getlength(text))


def shortened(text: str, size: int, width: float) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``width``."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(f"{text}…", size) > width:
        text = text[:-1]
    return f"{text.rstrip()}…"


def _title(title: str) -> Text:
    """The title, as large as fits the width (smaller down to a floor, then cut)."""
    room = WIDTH - 2 * PAD
    size = TITLE_SIZE
    while size > TITLE_LEAST and text_width(title, size) > room:
        size -= 2
    return Text((PAD, PAD), shortened(title, size, room), size)


def _nice_step(top: int) -> int:
    """A round step for at most five grid lines above 0 up to ``top``: few
    enough to read on a phone."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= 5:
            return step
    return max(1, -(-top // 5))


def hand_ticks(hands: int) -> list[int]:
    """The hand numbers written under the x axis: at most about eight (as many
    as fit a phone), the last hand always among them."""
    every = max(1, -(-hands // 8))
    ticks = list(range(0, hands + 1, every))
    if ticks[-1] != hands:
        if hands - ticks[-1] < every * 0.6:
            ticks.pop()
        ticks.append(hands)
    return ticks


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as near ``wanted`` as they can be while at least ``gap`` apart
    and between ``low`` and ``high`` (if they fit): labels that would cover
    one another move apart, each group centred where its members wanted to be.
    Equal wishes keep their order."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    groups: list[list[int]] = []  # runs of labels, each packed ``gap`` apart
    starts: list[float] = []

    def start_of(group: list[int]) -> float:
        mean = sum(wanted[i] for i in group) / len(group)
        start = mean - gap * (len(group) - 1) / 2
        return max(low, min(start, high - gap * (len(group) - 1)))

    for index in order:
        groups.append([index])
        starts.append(start_of(groups[-1]))
        while len(groups) > 1 and starts[-2] + gap * len(groups[-2]) > starts[-1]:
            last = groups.pop()
            starts.pop()
            groups[-1].extend(last)
            starts[-1] = start_of(groups[-1])
    placed = [0.0] * len(wanted)
    for group, start in zip(groups, starts, strict=True):
        for position, index in enumerate(group):
            placed[index] = start + position * gap
    return placed


def level_offsets(values: Sequence[int]) -> list[float]:
    """How far from its value each player's point is drawn: players on the same
    value are set ``DODGE`` apart around it, in seat order (the first one
    highest), so that their lines and markers are all seen."""
    offsets = [0.0] * len(values)
    for value in set(values):
        same = [i for i, v in enumerate(values) if v == value]
        for rank, index in enumerate(same):
            offsets[index] = (rank - (len(same) - 1) / 2) * DODGE
    return offsets


def layout(title: str, series: Sequence[Series]) -> Chart:
    """Where everything goes: bars for a match of one hand (or none), lines for more."""
    hands = max((len(s.totals) for s in series), default=0)
    if hands <= 1:
        return _bars(_title(title), series)
    return _lines(_title(title), series, hands)


def _bars(title: Text, series: Sequence[Series]) -> Chart:
    """A bar per player, most points first: the name, the bar, the points."""
    values = [s.totals[-1] if s.totals else 0 for s in series]
    order = sorted(range(len(series)), key=lambda i: (-values[i], i))
    names = [shortened(plain_name(s.name), LABEL_SIZE, LABEL_WIDTH) for s in series]
    shown = [number(v) for v in values]
    name_right = PAD + max((text_width(n, LABEL_SIZE) for n in names), default=0)
    start = name_right + 16
    room = WIDTH - PAD - 12 - max((text_width(v, LABEL_SIZE) for v in shown), default=0) - start
    top = max([1, *values])
    first = title.xy[1] + title.size + 24
    bars = []
    for row, seat in enumerate(order):
        middle = first + row * BAR_ROW + BAR_ROW / 2
        end = start + max(BAR_STUB, room * max(0, values[seat]) / top)
        box = (start, middle - BAR_THICKNESS / 2, end, middle + BAR_THICKNESS / 2)
        bars.append(
            Bar(
                seat,
                box,
                Text((name_right, middle), names[seat], LABEL_SIZE, "rm"),
                Text((end + 12, middle), shown[seat], LABEL_SIZE, "lm"),
            )
        )
    height = int(first + len(order) * BAR_ROW + PAD)
    return Chart("bars", WIDTH, height, (title,), bars=tuple(bars))


def _lines(title: Text, series: Sequence[Series], hands: int) -> Chart:
    """A line per player through their running totals, labelled at its end."""
    top = max([1, *(t for s in series for t in s.totals)])
    step = _nice_step(top)
    ceiling = -(-top // step) * step
    labels = [
        f"{shortened(plain_name(s.name), LABEL_SIZE, LABEL_WIDTH)}  "
        f"{number(s.totals[-1] if s.totals else 0)}"
        for s in series
    ]
    label_width = max((text_width(label, LABEL_SIZE) for label in labels), default=0)
    tick_width = max(text_width(number(v), TICK_SIZE) for v in range(0, ceiling + 1, step))
    left = PAD + tick_width + 12
    key_x = WIDTH - PAD - label_width - 10 - MARKER_RADIUS
    right = key_x - MARKER_RADIUS - 18
    plot_top = title.xy[1] + title.size + 30
    plot_bottom = HEIGHT - PAD - 2 * TICK_SIZE - 36

    def x_at(hand: int) -> float:
        return left + (right - left) * hand / hands

    def y_at(points: int) -> float:
        return plot_bottom - (plot_bottom - plot_top) * max(0, points) / ceiling

    texts = [title]
    grid = []
    for value in range(0, ceiling + 1, step):
        grid.append(((left, y_at(value)), (right, y_at(value))))
        texts.append(Text((left - 12, y_at(value)), number(value), TICK_SIZE, "rm", dim=True))
    for hand in hand_ticks(hands):
        texts.append(Text((x_at(hand), plot_bottom + 26), number(hand), TICK_SIZE, "mt", True))
    # Translators: the score chart's x axis, under the hand numbers.
    texts.append(Text(((left + right) / 2, HEIGHT - PAD), _("hand"), TICK_SIZE, "md", dim=True))
    columns = [[0, *s.totals] for s in series]
    # Not at hand 0: every line starts from the same point, and fans out from it.
    spread_at = [[0.0] * len(columns)] + [
        level_offsets([line[n] if n < len(line) else line[-1] for line in columns])
        for n in range(1, hands + 1)
    ]
    roomy = (right - left) / hands >= 3 * MARKER_RADIUS
    ends = [y_at(line[-1]) for line in columns]
    keys_y = spread(ends, LABEL_ROW, plot_top - LABEL_ROW / 2, plot_bottom + LABEL_ROW / 2)
    lines = []
    for seat, line in enumerate(columns):
        points = tuple((x_at(n), y_at(total) + spread_at[n][seat]) for n, total in enumerate(line))
        key = (key_x, keys_y[seat])
        label = Text((key_x + MARKER_RADIUS + 10, keys_y[seat]), labels[seat], LABEL_SIZE, "lm")
        lines.append(Line(seat, points, label, key, points[1:] if roomy else points[-1:]))
    return Chart("lines", WIDTH, HEIGHT, tuple(texts), grid=tuple(grid), lines=tuple(lines))
