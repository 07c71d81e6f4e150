"""The slash commands as each member's client shows them, and every language
played through a hand within Discord's limits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from presentation.catalogues import read
from presentation.i18n import LANGUAGES

from .conftest import LaunchBot, Server
from .harness import play_simple_turn, table_message
from .test_play import in_turn_order, start_game

# The Discord locales of each language the bot speaks (English is the default).
LOCALES = {"de": ["de"], "fr": ["fr"], "es": ["es-ES", "es-419"], "pt_BR": ["pt-BR"], "pl": ["pl"]}


def walk(item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield item
    for option in item.get("options") or []:
        yield from walk(option)


async def test_the_sync_carries_every_command_and_option_in_every_language(
    server: Server, launch: LaunchBot
) -> None:
    await launch()
    (rummy,) = server.emu.commands()
    catalogues = {code: read(code) for code in LOCALES}
    items = list(walk(rummy))
    assert len(items) > 40  # the group, its commands and all their options
    for item in items:
        descriptions = item.get("description_localizations") or {}
        names = item.get("name_localizations") or {}
        for code, locales in LOCALES.items():
            translated = catalogues[code].get(item["name"], context="command name")
            assert translated is not None
            for locale in locales:
                assert descriptions.get(locale), (item["name"], locale)
                if translated.string != item["name"]:
                    assert names.get(locale) == translated.string, (item["name"], locale)


@pytest.mark.parametrize("code", [code for code in LANGUAGES])
async def test_a_hand_in_each_language_stays_within_discords_limits(
    server: Server, launch: LaunchBot, code: str
) -> None:
    # Every message the bot sends is checked by the emulator as Discord checks it
    # (labels, options, placeholders, text lengths): a refused one fails the test.
    locale = {"en": "en-US", **{c: loc[0] for c, loc in LOCALES.items()}}[code]
    server.guild.preferred_locale = locale
    for actor in (server.ann, server.bob, server.cat):
        actor.user.locale = locale
    bot = await launch()
    seated = [server.player(actor) for actor in (server.ann, server.bob, server.cat)]
    await start_game(server, bot, seated, hands=1)
    order = in_turn_order(bot, server, seated)
    # The settings menu first: a random deal may end the one-hand match within the
    # turns below, and then there is no hand left to open.
    await order[0].open_hand()
    await order[0].press("⚙")
    for turn in range(9):
        await play_simple_turn(order[turn % 3], bot)
        await bot.game.tasks.wait_idle()
        table = bot.game.tables.get(server.channel.id)
        if table is None or table.match is None or table.match.hand.is_over:
            break
    for command in ("rummy help", "rummy rules", "rummy stats", "rummy leaderboard"):
        answer = await server.ann.slash(server.channel, command)
        assert answer.answered
    assert table_message(server.emu, server.channel).is_v2
