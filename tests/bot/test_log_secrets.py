"""At any log level, the log holds no interaction token and no card of anyone's hand.

discord.py logs every request's URL and body at DEBUG, and its gateway every
event: an interaction's URL carries its token (anyone holding it can answer
as the bot for fifteen minutes), and a hand view or a DM carries a player's
cards. The bot's handler is installed here exactly as ``bot.py`` installs it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest

from app.logs import setup_logging
from bot import RummyBot
from engine import Card
from fakediscord import FakeDiscord

from .conftest import LaunchBot, Server
from .harness import play_simple_turn
from .test_play import heads_up

TURNS = 4


class Captured(logging.Handler):
    """Every record as the bot's handler writes it: filtered, then formatted."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[str, str]] = []  # (logger, text)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((record.name, self.format(record)))


@pytest.fixture
def debug_log(fake_discord: FakeDiscord) -> Iterator[Captured]:
    """The root logger at DEBUG into a Captured handler, set up as bot.py sets up stderr."""
    root = logging.getLogger()
    level = root.level
    captured = Captured()
    setup_logging(logging.DEBUG, secrets=[fake_discord.token], handler=captured)
    try:
        yield captured
    finally:
        root.removeHandler(captured)
        root.setLevel(level)


def hands_now(bot: RummyBot, server: Server) -> set[Card]:
    table = bot.game.tables.get(server.channel.id)
    if table is None or table.match is None:
        return set()
    hand = table.match.hand
    return {card for player in table.match.players for card in hand.hand_of(player)}


def card_pattern(cards: set[Card]) -> re.Pattern[str]:
    """Any of the cards, as players see them (7♥) or as codes (7H) standing alone."""
    names = sorted({c.display for c in cards} | {c.code for c in cards}, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])")


def leaks(lines: list[tuple[str, str]], secrets: set[str], cards: set[Card]) -> list[str]:
    found = [f"{name}: {text}" for name, text in lines if any(s in text for s in secrets)]
    if cards:
        pattern = card_pattern(cards)
        found += [f"{name}: {text}" for name, text in lines if pattern.search(text)]
    return found


async def test_a_debug_log_holds_no_token_and_no_hand(
    server: Server, launch: LaunchBot, debug_log: Captured
) -> None:
    bot, first, second = await heads_up(server, launch)
    world = server.emu.world
    for turn in range(TURNS):
        await play_simple_turn((first, second)[turn % 2], bot)
        await bot.game.tasks.wait_idle()
        tokens = {interaction.token for interaction in world.interactions.values()}
        found = leaks(debug_log.lines, tokens | {server.emu.token}, hands_now(bot, server))
        assert not found, f"{len(found)} log lines hold secrets, the first:\n" + "\n".join(
            line[:400] for line in found[:5]
        )
    # The log did hold what would have leaked: requests to the interaction
    # routes, and the gateway's events.
    texts = [text for _, text in debug_log.lines]
    assert any("/interactions/" in text for text in texts)
    assert any("/webhooks/" in text for text in texts)
    assert any("INTERACTION_CREATE" in text for text in texts)
