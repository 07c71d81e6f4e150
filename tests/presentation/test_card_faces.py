"""The card images uploaded as emojis: their format, names, colours and the sheet tool."""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from engine import Card
from engine.cards import SUIT_ORDER, Suit, full_deck
from presentation.card_emoji import CardFaces
from presentation.card_faces import (
    BACK_NAME,
    all_images,
    back_png,
    emoji_name,
    face_png,
    main,
)
from presentation.i18n import card_text, speaking

ROOT = Path(__file__).resolve().parents[2]
DECK = full_deck()
RECOLOURED = {Suit.CLUBS, Suit.DIAMONDS}
WORDS = {
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
SUITS = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}
# The card's outline is 3 px wide (x 10-12 and 115-117, y 1-3 and 124-126) with
# corners rounded 12 px. INSIDE is the white clear of outline and corners;
# EDGES are thin strips of white along the outline, where no ink should reach.
INSIDE = (16, 8, 112, 121)
EDGES = ((26, 4, 102, 6), (26, 122, 102, 124), (13, 16, 16, 112), (112, 16, 115, 112))


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image


def pixels(png: bytes) -> bytes:
    return decode(png).convert("RGBA").tobytes()


def ink(rgb: tuple[int, int, int]) -> str | None:
    """Which ink a pixel is, by loose bounds; None for white, paper and blended edges."""
    r, g, b = rgb
    if max(r, g, b) < 80:
        return "black"
    if r > 160 and g < 80 and b < 90:
        return "red"
    if g > 100 and r < 60 and b < 100:
        return "green"
    if b > 160 and r < 60 and g < 130:
        return "blue"
    return None


def inks(png: bytes, box: tuple[int, int, int, int] = INSIDE) -> Counter[str]:
    image = decode(png).convert("RGB").crop(box)
    counts: Counter[str] = Counter()
    for value in image.get_flattened_data():
        kind = ink(value)
        if kind is not None:
            counts[kind] += 1
    return counts


def test_every_image_is_a_128px_rgba_png_with_transparent_corners() -> None:
    images = all_images()
    # 52 faces, 26 four-colour ones, the back, and 30 faces lettered as the German
    # (B, D), French (V, D, R) and Polish (W) cards are.
    assert len(images) == 79 + 30
    for name, png in images.items():
        image = decode(png)
        assert (image.size, image.mode) == ((128, 128), "RGBA"), name
        assert len(png) < 256 * 1024, f"{name} is over Discord's emoji limit"
        alpha = image.getchannel("A")
        for corner in ((0, 0), (127, 0), (0, 127), (127, 127)):
            assert alpha.getpixel(corner) == 0, f"{name} has a filled corner"
        assert alpha.getpixel((64, 64)) == 255, f"{name} is see-through in the middle"


def test_the_faces_and_the_back_are_all_different_pictures() -> None:
    standard = [face_png(card) for card in DECK] + [back_png()]
    assert len({pixels(png) for png in standard}) == 53
    assert len({pixels(png) for png in all_images().values()}) == 79 + 30


def test_each_name_reads_the_card() -> None:
    for card in DECK:
        name = f"{WORDS[card.rank]}_of_{SUITS[card.suit]}"
        assert emoji_name(card) == name
        colour = {Suit.CLUBS: "_green", Suit.DIAMONDS: "_blue"}.get(card.suit, "")
        assert emoji_name(card, four_colour=True) == name + colour
    assert emoji_name(Card.parse("QH")) == "queen_of_hearts"
    assert emoji_name(Card.parse("10D"), four_colour=True) == "ten_of_diamonds_blue"


def test_the_names_are_valid_and_unique_emoji_names() -> None:
    names = list(all_images({}))
    assert len(set(names)) == len(names) == 79
    for name in list(all_images()):
        assert re.fullmatch(r"[a-z0-9_]{2,32}", name), name
    assert BACK_NAME == "card_back" and BACK_NAME in names
    expected = {emoji_name(card) for card in DECK} | {BACK_NAME}
    expected |= {emoji_name(card, four_colour=True) for card in DECK if card.suit in RECOLOURED}
    assert set(names) == expected


def test_a_language_that_letters_its_ranks_otherwise_gets_faces_of_its_own() -> None:
    queen = Card.parse("QH")
    images = all_images({12: {"Q", "D"}, 11: {"J", "ß"}})
    # The Dame of the German deck: a face of its own, that says D, not Q.
    assert emoji_name(queen, letter="D") == "queen_of_hearts_d" in images
    assert emoji_name(queen, letter="Q") == "queen_of_hearts"
    assert pixels(images["queen_of_hearts_d"]) != pixels(images["queen_of_hearts"])
    assert "queen_of_diamonds_blue_d" in images
    # A letter no emoji name can carry stays with the English face.
    assert not any("ß" in name for name in images)
    assert len(images) == 79 + 6


def test_the_faces_say_what_the_text_says_in_each_language() -> None:
    everything = CardFaces({name: number for number, name in enumerate(all_images(), 1)})
    queen = Card.parse("QS")
    for code, face, written in (("en", "queen_of_spades", "Q♠"), ("es", "queen_of_spades", "Q♠"),
                                ("de", "queen_of_spades_d", "D♠"),
                                ("fr", "queen_of_spades_d", "D♠")):
        with speaking(code):
            assert everything.inline(queen).startswith(f"<:{face}:"), code
            emoji = everything.component_emoji(queen)
            assert emoji is not None and emoji["name"] == face, code
            assert card_text(queen) == written
    with speaking("fr"):
        assert everything.inline(Card.parse("KD"), four_colour=True).startswith(
            "<:king_of_diamonds_blue_r:")
    # Before the lettered faces are uploaded, a German reader gets text in
    # German letters rather than an English face.
    english_only = CardFaces({name: number for number, name in enumerate(all_images({}), 1)})
    with speaking("de"):
        assert english_only.inline(queen) == "D♠"
        assert english_only.component_emoji(queen) is None


def test_the_images_are_listed_under_their_own_names() -> None:
    images = all_images()
    for card in DECK:
        assert images[emoji_name(card)] == face_png(card)
        assert images[emoji_name(card, four_colour=True)] == face_png(card, four_colour=True)
    assert images[BACK_NAME] == back_png()


def test_four_colours_change_only_clubs_and_diamonds() -> None:
    for card in DECK:
        same = pixels(face_png(card)) == pixels(face_png(card, four_colour=True))
        assert same == (card.suit not in RECOLOURED), card


@pytest.mark.parametrize(
    ("suit", "four_colour", "colour"),
    [
        (Suit.CLUBS, False, "black"),
        (Suit.DIAMONDS, False, "red"),
        (Suit.HEARTS, False, "red"),
        (Suit.SPADES, False, "black"),
        (Suit.CLUBS, True, "green"),
        (Suit.DIAMONDS, True, "blue"),
        (Suit.HEARTS, True, "red"),
        (Suit.SPADES, True, "black"),
    ],
)
def test_each_suit_is_drawn_in_its_colour(suit: Suit, four_colour: bool, colour: str) -> None:
    for card in (c for c in DECK if c.suit is suit):
        counts = inks(face_png(card, four_colour=four_colour))
        assert counts.most_common(1)[0][0] == colour, (card, counts)
        # Every inked pixel is that colour: no stray ink of another.
        assert counts[colour] == counts.total() and counts[colour] > 400, (card, counts)


def test_the_rank_is_above_the_suit_and_nothing_reaches_the_edge() -> None:
    for card in DECK:
        png = face_png(card)
        assert all(inks(png, strip).total() == 0 for strip in EDGES), f"{card}: ink at the edge"
        left, top, right, bottom = INSIDE
        rank, suit = inks(png, (left, top, right, 64)), inks(png, (left, 66, right, bottom))
        assert rank.total() > 400 and suit.total() > 400, card
        # A clear line between rank and suit: they never run into each other.
        assert any(inks(png, (left, y, right, y + 1)).total() == 0 for y in range(58, 72)), card


def covered(png: bytes) -> tuple[float, tuple[float, float, float]]:
    """How much of the card's inside is not white, and that part's mean colour."""
    image = decode(png).convert("RGB").crop(INSIDE)
    coloured = [p for p in image.get_flattened_data() if min(p) < 200]
    if not coloured:
        return 0.0, (255.0, 255.0, 255.0)
    mean = tuple(sum(p[i] for p in coloured) / len(coloured) for i in range(3))
    return len(coloured) / (image.width * image.height), (mean[0], mean[1], mean[2])


def test_the_back_is_blue_all_over_where_a_face_is_mostly_white() -> None:
    share, (r, g, b) = covered(back_png())
    assert share > 0.8 and b > r + 80 and b > g + 40, (share, r, g, b)
    for card in DECK:
        assert covered(face_png(card))[0] < 0.35, card


def digest(images: dict[str, bytes]) -> str:
    hashed = hashlib.sha256()
    for name, png in sorted(images.items()):
        hashed.update(name.encode() + b"\0" + png)
    return hashed.hexdigest()


def test_a_fresh_process_draws_the_same_bytes() -> None:
    script = (
        "import hashlib\n"
        "from presentation.card_faces import all_images\n"
        "h = hashlib.sha256()\n"
        "for name, png in sorted(all_images().items()):\n"
        "    h.update(name.encode() + b'\\0' + png)\n"
        "print(h.hexdigest())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == digest(all_images())


def test_the_sheet_command_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "sheet.png"
    assert main([str(sheet)]) == 0
    assert str(sheet) in capsys.readouterr().out
    image = decode(sheet.read_bytes())
    # Thirteen cards side by side, seven rows of them at three sizes.
    assert image.width > 13 * 128 and image.height > 7 * (128 + 48 + 22)


@pytest.mark.parametrize(
    "argv",
    [[], ["a.png", "b.png"], ["sheet.txt"], ["no-such-folder/sheet.png"], ["--size", "9"]],
)
def test_the_sheet_command_refuses_bad_arguments(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code not in (0, None)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_sheet_command_reports_a_file_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    taken = tmp_path / "taken.png"
    taken.mkdir()
    assert main([str(taken)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err, err


def test_the_sheet_command_runs_as_a_module(tmp_path: Path) -> None:
    tool = [sys.executable, "-m", "presentation.card_faces"]
    bad = subprocess.run(
        [*tool, str(tmp_path / "sheet.gif")], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode != 0 and bad.stderr.count("\n") == 1 and not bad.stdout
    good = subprocess.run(
        [*tool, str(tmp_path / "sheet.png")], cwd=ROOT, capture_output=True, text=True
    )
    assert good.returncode == 0, good.stderr
    assert (tmp_path / "sheet.png").read_bytes().startswith(b"\x89PNG")


def test_each_image_is_drawn_once() -> None:
    card = Card.parse("7C")
    assert face_png(card) is face_png(card)
    assert back_png() is back_png()
    assert all_images()[emoji_name(card)] is face_png(card)


@pytest.mark.parametrize("suit", SUIT_ORDER)
def test_the_ten_is_drawn_whole_and_centred(suit: Suit) -> None:
    # "10" is the widest rank. Rows 16-64 of the white, clear of the rounded corners.
    image = decode(face_png(Card.parse(f"10{suit.value}"))).convert("RGB").crop((13, 16, 115, 64))
    columns = [
        x + 13
        for x in range(image.width)
        if any(ink(image.getpixel((x, y))) for y in range(image.height))
    ]
    assert columns, "no ten drawn"
    assert columns[0] >= INSIDE[0] and columns[-1] < INSIDE[2], "the ten reaches the edge"
    assert abs((columns[0] + columns[-1]) / 2 - 64) <= 2, "the ten is off centre"
    assert columns[-1] - columns[0] > 55, "the ten is squeezed"
