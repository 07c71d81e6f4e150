"""Each seat's colour, in seat order: its marker on the table, the table's
frame while it is that seat's turn, and its line on the score chart, so a
player is the same colour wherever they appear."""

from __future__ import annotations

# (the marker emoji, the colour as Discord's 0xRRGGBB); six seats at most.
SEAT_COLOURS: tuple[tuple[str, int], ...] = (
    ("🔴", 0xED4245),
    ("🔵", 0x3498DB),
    ("🟢", 0x57F287),
    ("🟡", 0xFEE75C),
    ("🟣", 0x9B59B6),
    ("🟠", 0xE67E22),
)


def seat_rgb(index: int) -> tuple[int, int, int]:
    colour = SEAT_COLOURS[index % len(SEAT_COLOURS)][1]
    return (colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF
