"""The bot's own card faces, drawn as small images for Discord application emojis.

Each face is a 128 px square PNG: a white rounded card with a thin dark edge
(so it shows on Discord's light theme as well as the dark one), the rank large
in the upper half and the suit as a drawn shape in the lower half. Discord
shows emojis at 22 px inline in text, so everything is sized for that first:
the rank and suit are as big as the card allows and there is nothing else on it.

Everything is drawn here from shapes and Pillow's bundled font: no card art from
elsewhere. Shapes are drawn four times larger and scaled down, which gives them
smooth edges. The output is the same bytes on every run (no randomness, whole
pixel coordinates, fixed PNG options), so a hash of the images tells whether
the art changed. That holds for one Pillow build: the font is rasterised and
the PNGs compressed by the FreeType and zlib that Pillow's wheel bundles.

``python -m presentation.card_faces SHEET.png`` writes a contact sheet of every
image at full size and at emoji sizes, to look at them.
"""

from __future__ import annotations

import argparse
import functools
import io
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NoReturn

from PIL import Image, ImageDraw, ImageFont

from engine.cards import SUIT_ORDER, Card, Suit, card_at

from .i18n import rank_letters

__all__ = [
    "BACK_NAME",
    "SIZE",
    "all_images",
    "back_png",
    "contact_sheet",
    "emoji_name",
    "face_png",
    "main",
]

SIZE = 128
"""Width and height of every image, in pixels (Discord's recommended emoji size)."""

BACK_NAME = "card_back"
"""The emoji name of the card back."""

Colour = tuple[int, int, int, int]
Point = tuple[float, float]

# Drawn this many times larger, then scaled down: Pillow's polygons and
# ellipses have hard edges, and averaging the larger drawing smooths them.
_SCALE = 4
_BIG = SIZE * _SCALE

_WHITE: Colour = (255, 255, 255, 255)
_EDGE: Colour = (52, 55, 62, 255)
_RED: Colour = (212, 28, 44, 255)
_BLACK: Colour = (22, 22, 26, 255)
_GREEN: Colour = (18, 132, 58, 255)
_BLUE: Colour = (24, 92, 214, 255)
_BACK: Colour = (30, 70, 160, 255)
_BACK_LATTICE: Colour = (88, 128, 212, 255)

# The card, in 128 px units: a little narrower than tall so that a row of them
# reads as cards rather than tiles, but wide enough for "10" at full height.
_CARD_LEFT, _CARD_TOP, _CARD_RIGHT, _CARD_BOTTOM = 10.0, 1.0, 118.0, 127.0
_CARD_RADIUS = 12.0
_EDGE_WIDTH = 3.0
# Where the rank's capitals and the suit sit: upper half and lower half.
_RANK_TOP, _RANK_BOTTOM = 9.0, 62.0
_SUIT_TOP, _SUIT_BOTTOM = 68.0, 121.0
_RANK_MAX_WIDTH = 98.0
# Pillow's bundled font is a regular weight; a stroke in the ink's own colour
# thickens it to a bold that survives scaling down to 22 px.
_RANK_STROKE = 2.0
_RANK_GAP = 6.0  # between the digits of "10": a clear pixel at 22 px, yet tighter than the font

_RANK_WORDS: dict[int, str] = {
    1: "ace",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
}
_SUIT_WORDS: dict[Suit, str] = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}
_RANK_TEXT: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
# The four-colour deck recolours only clubs and diamonds, so that each suit of
# a colour pair is told apart from the other at a glance.
_FOUR_COLOUR: dict[Suit, tuple[Colour, str]] = {
    Suit.CLUBS: (_GREEN, "green"),
    Suit.DIAMONDS: (_BLUE, "blue"),
}
_STANDARD_COLOUR: dict[Suit, Colour] = {
    Suit.CLUBS: _BLACK,
    Suit.DIAMONDS: _RED,
    Suit.HEARTS: _RED,
    Suit.SPADES: _BLACK,
}


def emoji_name(card: Card, *, four_colour: bool = False, letter: str | None = None) -> str:
    """The emoji name of a card's face, read well by screen readers: ``queen_of_hearts``.

    The four-colour faces of clubs and diamonds get a colour word
    (``ace_of_clubs_green``, ``ten_of_diamonds_blue``); hearts and spades look
    the same in both decks and keep their one name. A face drawn with another
    language's letter for its rank ends with that letter (``queen_of_hearts_d``,
    the German Dame).
    """
    name = f"{_RANK_WORDS[card.rank]}_of_{_SUIT_WORDS[card.suit]}"
    if four_colour and card.suit in _FOUR_COLOUR:
        name += "_" + _FOUR_COLOUR[card.suit][1]
    if is_other_letter(card.rank, letter):
        assert letter is not None
        name += "_" + letter.lower()
    return name


def is_other_letter(rank: int, letter: str | None) -> bool:
    """Whether ``letter`` is a face of its own for ``rank``: another letter than the
    English one, and one an emoji name can carry (Discord allows a-z, 0-9 and _)."""
    return (
        letter is not None
        and letter != _RANK_TEXT[rank]
        and letter.isascii()
        and letter.isalpha()
        and len(letter) == 1
    )


def face_png(card: Card, *, four_colour: bool = False, letter: str | None = None) -> bytes:
    """The card's face as a 128x128 RGBA PNG with transparent corners.

    The rank fills the upper half (as ``letter`` when given: the letter a
    language prints on its cards) and the suit shape the lower half, red for
    hearts and diamonds and black for spades and clubs; with ``four_colour``
    clubs are green and diamonds blue. Drawn once per process, then cached.
    """
    colour = _STANDARD_COLOUR[card.suit]
    if four_colour and card.suit in _FOUR_COLOUR:
        colour = _FOUR_COLOUR[card.suit][0]
    rank = letter if is_other_letter(card.rank, letter) else _RANK_TEXT[card.rank]
    assert rank is not None
    return _face(rank, card.suit, colour)


@functools.cache
def back_png() -> bytes:
    """The back of a card: same size and outline as a face, a blue lattice in a white margin.

    Used for cards nobody may see (the stock, other players' hands), so it
    carries no rank or suit and cannot be mistaken for a face.
    """
    big = Image.new("RGBA", (_BIG, _BIG), (0, 0, 0, 0))
    _draw_card(big, _WHITE)
    pattern = _pattern_mask()
    inset = 9.0
    panel = Image.new("L", (_BIG, _BIG), 0)
    ImageDraw.Draw(panel).rounded_rectangle(
        _big_box(_CARD_LEFT + inset, _CARD_TOP + inset, _CARD_RIGHT - inset, _CARD_BOTTOM - inset),
        radius=_big(_CARD_RADIUS - inset / 2),
        fill=255,
    )
    big.paste(_BACK, (0, 0), panel)
    # The lattice only inside the panel, so the margin stays plain; a lighter
    # blue rather than white keeps the back a deep blue at 22 px.
    lattice = Image.new("L", (_BIG, _BIG), 0)
    lattice.paste(pattern, (0, 0), panel)
    big.paste(_BACK_LATTICE, (0, 0), lattice)
    return _png(big.resize((SIZE, SIZE), Image.Resampling.BOX))


def all_images(letters: Mapping[int, Iterable[str]] | None = None) -> dict[str, bytes]:
    """Every image the bot uploads as an emoji, by emoji name.

    The 52 standard faces suit by suit (clubs, diamonds, hearts, spades, ace to
    king), then the 26 four-colour faces of clubs and diamonds, then the back:
    79. Then each face again with every other letter its rank is written with
    in ``letters`` (rank: letters; by default those of the bot's languages, so
    that a German reader's cards say B, D, K as the German text does): 30 more
    for German, French and Polish.
    """
    images: dict[str, bytes] = {}
    for suit in SUIT_ORDER:
        for rank in range(1, 14):
            card = card_at(rank, suit)
            images[emoji_name(card)] = face_png(card)
    for suit in SUIT_ORDER:
        if suit in _FOUR_COLOUR:
            for rank in range(1, 14):
                card = card_at(rank, suit)
                images[emoji_name(card, four_colour=True)] = face_png(card, four_colour=True)
    images[BACK_NAME] = back_png()
    chosen = rank_letters() if letters is None else letters
    for rank, written in sorted(chosen.items()):
        for letter in sorted(set(written)):
            if not is_other_letter(rank, letter):
                continue
            for suit in SUIT_ORDER:
                card = card_at(rank, suit)
                for four in (False, True) if suit in _FOUR_COLOUR else (False,):
                    name = emoji_name(card, four_colour=four, letter=letter)
                    images[name] = face_png(card, four_colour=four, letter=letter)
    return images


# --- drawing -------------------------------------------------------------------------------
def _big(value: float) -> int:
    """A length in 128 px units, in the larger drawing's whole pixels.

    Whole pixels keep the drawing the same on every machine: a float a last
    bit apart could otherwise land a shape edge on another pixel.
    """
    return round(value * _SCALE)


def _big_box(left: float, top: float, right: float, bottom: float) -> tuple[int, int, int, int]:
    return (_big(left), _big(top), _big(right) - 1, _big(bottom) - 1)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    # Fixed options and no metadata, so the same pixels always give the same bytes.
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _draw_card(big: Image.Image, fill: Colour) -> None:
    """The rounded card with its dark edge, on a transparent drawing of ``_BIG`` pixels."""
    ImageDraw.Draw(big).rounded_rectangle(
        _big_box(_CARD_LEFT, _CARD_TOP, _CARD_RIGHT, _CARD_BOTTOM),
        radius=_big(_CARD_RADIUS),
        fill=fill,
        outline=_EDGE,
        width=_big(_EDGE_WIDTH),
    )


@functools.cache
def _blank_card() -> Image.Image:
    big = Image.new("RGBA", (_BIG, _BIG), (0, 0, 0, 0))
    _draw_card(big, _WHITE)
    return big.resize((SIZE, SIZE), Image.Resampling.BOX)


@functools.cache
def _face(rank: str, suit: Suit, colour: Colour) -> bytes:
    face = _blank_card().copy()
    face.paste(colour, (0, 0), _rank_mask(rank))
    face.paste(colour, (0, 0), _suit_mask(suit))
    return _png(face)


@functools.cache
def _font() -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font, sized so that its capitals fill the rank's band."""
    probe_size = 400
    probe = _load_font(probe_size)
    top, bottom = _ink_rows(probe, "K", stroke=_big(_RANK_STROKE))
    band = _big(_RANK_BOTTOM - _RANK_TOP)
    # Scale the size by how much of the band the probe's capitals fill; the
    # stroke is fixed, so take it out of both sides of the ratio.
    stroke = 2 * _big(_RANK_STROKE)
    return _load_font(round(probe_size * (band - stroke) / (bottom - top - stroke)))


def _load_font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    if not isinstance(font, ImageFont.FreeTypeFont):
        # Without FreeType Pillow falls back to a tiny bitmap font that cannot scale.
        raise RuntimeError("Pillow was built without FreeType: card ranks cannot be drawn")
    return font


def _ink_rows(font: ImageFont.FreeTypeFont, text: str, *, stroke: int) -> tuple[int, int]:
    """Top and bottom of the text's ink, relative to its baseline."""
    _, top, _, bottom = font.getbbox(text, anchor="ls", stroke_width=stroke)
    return int(top), int(bottom)


def _glyph(font: ImageFont.FreeTypeFont, char: str, baseline: int) -> Image.Image:
    """One character drawn with its baseline at ``baseline``, cut to the columns its ink covers.

    The font's own boxes run from advance to advance, side bearings included;
    cutting to the ink lets the rank be centred, and "10" spaced, by what shows.
    """
    stroke = _big(_RANK_STROKE)
    canvas = Image.new("L", (2 * _BIG, _BIG), 0)
    ImageDraw.Draw(canvas).text(
        (_BIG // 2, baseline),
        char,
        font=font,
        fill=255,
        anchor="ls",
        stroke_width=stroke,
        stroke_fill=255,
    )
    box = canvas.getbbox()
    if box is None:
        raise RuntimeError(f"the font draws nothing for {char!r}")
    return canvas.crop((box[0], 0, box[2], _BIG))


@functools.cache
def _rank_mask(rank: str) -> Image.Image:
    """The rank's ink (``"10"``, ``"Q"``) in the upper band, centred, as a 128 px alpha mask."""
    font = _font()
    cap_top, _ = _ink_rows(font, "K", stroke=_big(_RANK_STROKE))
    baseline = _big(_RANK_TOP) - cap_top
    # The font spaces "10" for running text, far wider than a card needs.
    glyphs = [_glyph(font, char, baseline) for char in rank]
    gap = _big(_RANK_GAP)
    width = sum(glyph.width for glyph in glyphs) + gap * (len(glyphs) - 1)
    if width > _big(_RANK_MAX_WIDTH):
        raise RuntimeError(f"rank {rank} is wider than the card")
    big = Image.new("L", (_BIG, _BIG), 0)
    x = (_BIG - width) // 2
    for glyph in glyphs:
        big.paste(glyph, (x, 0))
        x += glyph.width + gap
    return big.resize((SIZE, SIZE), Image.Resampling.BOX)


# Suit shapes in units of their own height: y from 0 (top) to 1 (bottom), x
# centred on 0. A shape is its polygons (lists of points) and its circles
# (centre x, centre y, radius), all filled.
Circle = tuple[float, float, float]
Shape = tuple[list[list[Point]], list[Circle]]


def _curve(start: Point, control: Point, end: Point, steps: int = 24) -> list[Point]:
    """Points along a quadratic curve, the start left out (it ends the previous curve)."""
    points = []
    for i in range(1, steps + 1):
        t = i / steps
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t**2
        points.append(
            (
                a * start[0] + b * control[0] + c * end[0],
                a * start[1] + b * control[1] + c * end[1],
            )
        )
    return points


def _heart_outline(steps: int = 240) -> list[Point]:
    """The classic heart curve, scaled into the unit box (point down)."""
    raw = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    top = min(y for _, y in raw)
    height = max(y for _, y in raw) - top
    return [(x / height, (y - top) / height) for x, y in raw]


def _stem(top: float, half_width: float) -> list[Point]:
    """The flared foot of a spade or club, from ``top`` down to the bottom of the box."""
    neck = 0.025
    outline: list[Point] = [(-neck, top)]
    outline += _curve((-neck, top), (-neck, 0.9), (-half_width, 1.0))
    outline += [(half_width, 1.0)]
    outline += _curve((half_width, 1.0), (neck, 0.9), (neck, top))
    return outline


def _suit_shape(suit: Suit) -> Shape:
    if suit is Suit.HEARTS:
        return [_heart_outline()], []
    if suit is Suit.DIAMONDS:
        half, bow = 0.41, 0.05  # sides bowed slightly inward, like a printed pip
        corners = [(0.0, 0.0), (half, 0.5), (0.0, 1.0), (-half, 0.5)]
        outline: list[Point] = [corners[0]]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            control = (middle[0] * (1 - 4 * bow), 0.5 + (middle[1] - 0.5) * (1 - 4 * bow))
            outline += _curve(a, control, b)
        return [outline], []
    if suit is Suit.SPADES:
        # A heart upside down makes the blade; it stops above the foot.
        blade = 0.8
        body = [(x * blade * 1.04, (1 - y) * blade) for x, y in _heart_outline()]
        return [body, _stem(blade * 0.6, 0.2)], []
    # Clubs: three leaves round a filled middle, on the same foot as a spade.
    r = 0.215
    leaves = [(0.0, r), (-0.255, 0.555), (0.255, 0.555)]
    centre = [(0.0, 0.3), (-0.18, 0.62), (0.18, 0.62)]
    return [centre, _stem(0.55, 0.2)], [(x, y, r) for x, y in leaves]


def _shape_width(shape: Shape) -> float:
    polygons, circles = shape
    xs = [abs(x) for polygon in polygons for x, _ in polygon]
    xs += [abs(x) + r for x, _, r in circles]
    return 2 * max(xs)


@functools.cache
def _suit_mask(suit: Suit) -> Image.Image:
    """The suit's shape in the lower band, centred, as a 128 px alpha mask."""
    shape = _suit_shape(suit)
    height = _SUIT_BOTTOM - _SUIT_TOP
    # Wide shapes (the heart) are shrunk a little to look as big as tall ones.
    width = _shape_width(shape)
    scale = height * min(1.0, 0.98 / width)
    centre_x = SIZE / 2
    top = _SUIT_TOP + (height - scale) / 2

    def place(x: float, y: float) -> tuple[int, int]:
        return _big(centre_x + x * scale), _big(top + y * scale)

    big = Image.new("L", (_BIG, _BIG), 0)
    draw = ImageDraw.Draw(big)
    polygons, circles = shape
    for polygon in polygons:
        draw.polygon([place(x, y) for x, y in polygon], fill=255)
    for x, y, r in circles:
        cx, cy = place(x, y)
        radius = _big(r * scale)
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=255)
    return big.resize((SIZE, SIZE), Image.Resampling.BOX)


def _pattern_mask() -> Image.Image:
    """Diagonal lines both ways across the whole drawing: the lattice of a card back."""
    mask = Image.new("L", (_BIG, _BIG), 0)
    draw = ImageDraw.Draw(mask)
    step, width = _big(11.0), _big(2.0)
    for offset in range(-_BIG, 2 * _BIG, step):
        draw.line([(offset, 0), (offset + _BIG, _BIG)], fill=255, width=width)
        draw.line([(offset, _BIG), (offset + _BIG, 0)], fill=255, width=width)
    return mask


# --- contact sheet -------------------------------------------------------------------------
_SHEET_BACKGROUND = (49, 51, 56, 255)  # Discord's dark theme
_SHEET_LIGHT = (255, 255, 255, 255)  # Discord's light theme
_SHEET_TEXT = (220, 221, 222, 255)


def _scaled(png: bytes, size: int) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGBA").resize((size, size), Image.Resampling.LANCZOS)


def contact_sheet() -> Image.Image:
    """Every image at 128 px with, under each, the same at 48 and 22 px on both themes.

    One row per suit, then the four-colour clubs and diamonds, then the back
    and a line of small cards as they would sit in a message.
    """
    rows: list[tuple[str, list[bytes]]] = [
        (_SUIT_WORDS[suit], [face_png(card_at(rank, suit)) for rank in range(1, 14)])
        for suit in SUIT_ORDER
    ]
    rows += [
        (
            f"{_SUIT_WORDS[suit]}, four-colour",
            [face_png(card_at(rank, suit), four_colour=True) for rank in range(1, 14)],
        )
        for suit in SUIT_ORDER
        if suit in _FOUR_COLOUR
    ]
    rows.append(("back", [back_png()]))
    gap, label_height = 10, 18
    cell_width, cell_height = SIZE + gap, SIZE + 4 + 2 * 48 + 4 + gap
    row_height = label_height + cell_height
    hand = [card_at(r, s) for r, s in ((10, Suit.HEARTS), (11, Suit.SPADES), (1, Suit.DIAMONDS))]
    hand += [card_at(r, Suit.CLUBS) for r in (7, 8, 9)] + [card_at(12, Suit.HEARTS)]
    sheet = Image.new(
        "RGBA",
        (gap + 13 * cell_width, gap + len(rows) * row_height + 2 * (label_height + 48)),
        _SHEET_BACKGROUND,
    )
    draw = ImageDraw.Draw(sheet)
    label_font = ImageFont.load_default(size=14)
    y = gap
    for label, images in rows:
        draw.text((gap, y), label, font=label_font, fill=_SHEET_TEXT)
        y += label_height
        for column, png in enumerate(images):
            x = gap + column * cell_width
            sheet.alpha_composite(_scaled(png, SIZE), (x, y))
            # The small sizes twice: on the dark theme, and on a light patch.
            small_y = y + SIZE + 4
            sheet.alpha_composite(_scaled(png, 48), (x, small_y))
            sheet.alpha_composite(_scaled(png, 22), (x + 52, small_y + 13))
            draw.rectangle((x, small_y + 52, x + SIZE - 1, small_y + 52 + 47), fill=_SHEET_LIGHT)
            sheet.alpha_composite(_scaled(png, 48), (x, small_y + 52))
            sheet.alpha_composite(_scaled(png, 22), (x + 52, small_y + 52 + 13))
        y += cell_height
    for theme_fill, theme in ((_SHEET_BACKGROUND, "dark"), (_SHEET_LIGHT, "light")):
        draw.rectangle((gap, y, sheet.width - gap, y + label_height + 40), fill=theme_fill)
        ink = _SHEET_TEXT if theme == "dark" else (40, 40, 40, 255)
        draw.text((gap + 4, y + 2), f"a hand at 22 px, {theme} theme", font=label_font, fill=ink)
        hand_y = y + label_height + 4
        for i, card in enumerate(hand):
            sheet.alpha_composite(_scaled(face_png(card), 22), (gap + 4 + i * 26, hand_y))
            four = face_png(card, four_colour=True)
            sheet.alpha_composite(_scaled(four, 22), (gap + 220 + i * 26, hand_y))
        y += label_height + 48
    return sheet


class _OneLineParser(argparse.ArgumentParser):
    """Reports a bad command line in one line rather than argparse's usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Write the contact sheet to the PNG file named on the command line."""
    parser = _OneLineParser(
        prog="python -m presentation.card_faces",
        description="Draw every card image on one contact sheet, to look at them.",
    )
    parser.add_argument("sheet", type=Path, help="the PNG file to write (SHEET.png)")
    args = parser.parse_args(argv)
    path: Path = args.sheet
    if path.suffix.lower() != ".png":
        parser.error(f"{path} does not end in .png: the sheet is written as a PNG")
    if not path.parent.is_dir():
        parser.error(f"{path.parent} is not a folder")
    try:
        contact_sheet().save(path, format="PNG")
    except OSError as error:
        print(
            f"{parser.prog}: error: cannot write {path}: {error.strerror or error}", file=sys.stderr
        )
        return 1
    print(f"wrote the contact sheet to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
