"""A match's score chart: each player's running total after every hand, as a PNG.

Drawn with Pillow, 800x400, small enough to attach to any message (a few
tens of kilobytes). It is posted once when a match ends and shown again in the
match summary of the history.

    python -m presentation.score_chart OUT.png   (draws an example)
"""

from __future__ import annotations

import functools
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .colours import seat_rgb
from .i18n import _

WIDTH, HEIGHT = 800, 400
FILENAME = "scores.png"
FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
BACKGROUND = (47, 49, 54)  # Discord's dark theme, so the chart sits in the chat
GRID = (79, 84, 92)
TEXT = (220, 221, 222)
LEFT, RIGHT, TOP, BOTTOM = 56, 170, 40, 44


@dataclass(frozen=True)
class Series:
    """One player's line: their name and running total after each hand."""

    name: str
    totals: Sequence[int]


def running_totals(scores: Sequence[dict[str, int]], keys: Sequence[str]) -> list[list[int]]:
    """Each key's running total after each hand, from the hands' scores."""
    lines: list[list[int]] = [[] for _ in keys]
    for hand in scores:
        for line, key in zip(lines, keys, strict=True):
            line.append((line[-1] if line else 0) + hand.get(key, 0))
    return lines


def _nice_step(top: int) -> int:
    """A round step for about five grid lines up to ``top``."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= 6:
            return step
    return max(1, top // 5)


@functools.cache
def chart_font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, shipped with the bot (``presentation/fonts``): Pillow's own
    font has no letters beyond ASCII, and names and titles come in every
    language (ł, ã, ß, é)."""
    return ImageFont.truetype(str(FONT), size)


def draw(title: str, series: Sequence[Series]) -> bytes:
    """The chart as PNG bytes. The x axis is the hand number (0: before the first
    hand), the y axis the running total; the legend names each line's player."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(image)
    font = chart_font(14)
    small = chart_font(12)
    hands = max((len(s.totals) for s in series), default=0)
    top = max([1, *(t for s in series for t in s.totals)])
    step = _nice_step(top)
    ceiling = -(-top // step) * step
    width = WIDTH - LEFT - RIGHT
    height = HEIGHT - TOP - BOTTOM

    def x_at(hand: int) -> float:
        return LEFT + width * hand / max(1, hands)

    def y_at(points: int) -> float:
        return TOP + height * (1 - max(0, points) / ceiling)

    pen.text((LEFT, 12), title, font=font, fill=TEXT)
    for value in range(0, ceiling + 1, step):
        y = y_at(value)
        pen.line([(LEFT, y), (LEFT + width, y)], fill=GRID)
        pen.text((LEFT - 8, y), str(value), font=small, fill=TEXT, anchor="rm")
    every = max(1, -(-hands // 15))  # at most about 15 labels along the bottom
    for hand in range(0, hands + 1, every):
        pen.text((x_at(hand), TOP + height + 8), str(hand), font=small, fill=TEXT, anchor="mt")
    # Translators: the score chart's x axis, under the hand numbers.
    axis = _("hand")
    pen.text((LEFT + width / 2, HEIGHT - 16), axis, font=small, fill=TEXT, anchor="mm")
    for index, line in enumerate(series):
        colour = seat_rgb(index)
        points = [(x_at(0), y_at(0))]
        points += [(x_at(n), y_at(t)) for n, t in enumerate(line.totals, 1)]
        if len(points) > 1:
            pen.line(points, fill=colour, width=3, joint="curve")
        for x, y in points[1:]:
            pen.ellipse([(x - 3, y - 3), (x + 3, y + 3)], fill=colour)
        legend_y = TOP + index * 24
        pen.rectangle(
            [(WIDTH - RIGHT + 16, legend_y + 3), (WIDTH - RIGHT + 28, legend_y + 15)], fill=colour
        )
        final = line.totals[-1] if line.totals else 0
        name = line.name if len(line.name) <= 12 else f"{line.name[:11]}…"
        pen.text((WIDTH - RIGHT + 34, legend_y), name, font=font, fill=TEXT)
        pen.text((WIDTH - 8, legend_y), str(final), font=font, fill=TEXT, anchor="ra")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


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
