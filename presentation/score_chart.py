"""A match's score chart, as a PNG: bars for a match of one hand, a line per
player for a longer one (``chart_layout`` says where everything goes and why).

Painted with Pillow at twice the canvas's size and scaled down, which smooths
the lines and markers Pillow draws without anti-aliasing, then written with a
palette of the chart's own colours and their blends with the background: the
seat colours stay exact and the file small (a few tens of kilobytes), fit to
attach to any message.

    python -m presentation.score_chart OUT.png   (draws an example)
"""

from __future__ import annotations

import functools
import io
import math
import sys
from collections.abc import Sequence

from PIL import Image, ImageDraw

from .chart_layout import (
    HEIGHT,
    LINE_WIDTH,
    MARKER_RADIUS,
    RGB,
    WIDTH,
    Chart,
    Line,
    Marker,
    Point,
    Series,
    Text,
    chart_font,
    layout,
    running_totals,
)
from .colours import SEAT_COLOURS, seat_rgb

__all__ = ["FILENAME", "HEIGHT", "WIDTH", "Series", "chart_font", "draw", "running_totals"]

FILENAME = "scores.png"
BACKGROUND = (47, 49, 54)  # Discord's dark theme, so the chart sits in the chat
GRID = (79, 84, 92)
TEXT = (220, 221, 222)
DIM = (185, 187, 190)
SCALE = 2
# Steps from the background to each colour in the palette: edges that scaling
# down leaves part one colour, part the background.
BLENDS = 24


def draw(title: str, series: Sequence[Series]) -> bytes:
    """The chart as PNG bytes."""
    return paint(layout(title, series))


def paint(chart: Chart) -> bytes:
    image = Image.new("RGB", (chart.width * SCALE, chart.height * SCALE), BACKGROUND)
    pen = ImageDraw.Draw(image)
    for start, end in chart.grid:
        pen.line([_up(start), _up(end)], fill=GRID, width=SCALE)
    for text in chart.texts:
        _text(pen, text)
    for bar in chart.bars:
        pen.rounded_rectangle([v * SCALE for v in bar.box], radius=4 * SCALE, fill=bar.colour)
        _text(pen, bar.name)
        _text(pen, bar.value)
    # Every line first, then every marker: a marker is never under another's line.
    for line in chart.lines:
        _line(pen, line)
    for line in chart.lines:
        for point in line.marked:
            _marker(pen, line.marker, point, line.colour)
        _marker(pen, line.marker, line.key, line.colour)
        _text(pen, line.label)
    image = image.resize((chart.width, chart.height), Image.Resampling.LANCZOS)
    image = image.quantize(palette=_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@functools.cache
def _palette() -> Image.Image:
    colours = [BACKGROUND]
    for colour in (GRID, TEXT, DIM, *(seat_rgb(seat) for seat in range(len(SEAT_COLOURS)))):
        for step in range(1, BLENDS + 1):
            colours.append(
                (
                    round(BACKGROUND[0] + (colour[0] - BACKGROUND[0]) * step / BLENDS),
                    round(BACKGROUND[1] + (colour[1] - BACKGROUND[1]) * step / BLENDS),
                    round(BACKGROUND[2] + (colour[2] - BACKGROUND[2]) * step / BLENDS),
                )
            )
    colours += [BACKGROUND] * (256 - len(colours))  # no black for an overshoot to fall on
    holder = Image.new("P", (1, 1))
    holder.putpalette([value for colour in colours[:256] for value in colour])
    return holder


def _up(point: Point) -> Point:
    return point[0] * SCALE, point[1] * SCALE


def _text(pen: ImageDraw.ImageDraw, text: Text) -> None:
    pen.text(
        _up(text.xy),
        text.text,
        font=chart_font(text.size * SCALE),
        fill=DIM if text.dim else TEXT,
        anchor=text.anchor,
    )


def _line(pen: ImageDraw.ImageDraw, line: Line) -> None:
    """The line, round at its start, and a thin lead from its end to its label."""
    width = LINE_WIDTH * SCALE
    points = [_up(p) for p in line.points]
    pen.line(points, fill=line.colour, width=width, joint="curve")
    x, y = points[0]
    pen.ellipse([(x - width / 2, y - width / 2), (x + width / 2, y + width / 2)], fill=line.colour)
    end_x, end_y = points[-1]
    key_x, key_y = _up(line.key)
    reach = MARKER_RADIUS * SCALE
    if key_x - reach > end_x + reach:
        pen.line(
            [(end_x + reach, end_y), (key_x - reach, key_y)], fill=line.colour, width=SCALE * 2
        )


def _marker(pen: ImageDraw.ImageDraw, marker: Marker, at: Point, colour: RGB) -> None:
    """A seat's marker, ringed in the background's colour so that markers set
    side by side stay apart."""
    x, y = _up(at)
    r = MARKER_RADIUS * SCALE
    ring = 2 * SCALE
    if marker == "circle":
        pen.ellipse([(x - r, y - r), (x + r, y + r)], fill=colour, outline=BACKGROUND, width=ring)
        return
    pen.polygon(marker_outline(marker, (x, y), r), fill=colour, outline=BACKGROUND, width=ring)


def marker_outline(marker: Marker, at: Point, r: float) -> list[Point]:
    """The corners of a marker other than the circle, of about a circle's area."""
    x, y = at
    corners: dict[Marker, list[tuple[float, float]]] = {
        "square": [(-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)],
        "diamond": [(0, -1.25), (1.25, 0), (0, 1.25), (-1.25, 0)],
        "triangle": [(0, -1.3), (1.2, 0.85), (-1.2, 0.85)],
        "down": [(0, 1.3), (1.2, -0.85), (-1.2, -0.85)],
        "hexagon": [
            (1.1 * math.cos(math.pi / 3 * k), 1.1 * math.sin(math.pi / 3 * k)) for k in range(6)
        ],
    }
    return [(x + dx * r, y + dy * r) for dx, dy in corners[marker]]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m presentation.score_chart OUT.png", file=sys.stderr)
        return 2
    scores = [{"a": 25, "b": 0, "c": 0}, {"a": 0, "b": 40, "c": 0}, {"a": 0, "b": 0, "c": 61}]
    lines = running_totals(scores, ["a", "b", "c"])
    chart = draw(
        "Match #1: points after each hand",
        [Series(n, t) for n, t in zip(("Ann", "Bob", "Computer (hard)"), lines, strict=True)],
    )
    with open(args[0], "wb") as handle:
        handle.write(chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
