"""A German server with a French and a Polish member: the public table speaks
German, each member reads their own hand, refusals and DMs in their language,
and no hand shows anywhere it should not."""

from __future__ import annotations

import string
from collections.abc import Iterable

from babel.messages.catalog import Catalog

from app.commands_text import command_texts
from engine import Card
from presentation.catalogues import read, template
from presentation.i18n import card_text, speaking

from .conftest import LaunchBot, Server
from .harness import table_message
from .test_play import dealt_heads_up

# Long enough that a fragment found in a message is that message, not chance.
FRAGMENT = 14


def english_fragments(catalog: Catalog, wanted: Catalog) -> list[str]:
    """Pieces of English text that a message translated in ``catalog`` would
    show if it were left in English."""
    pieces = []
    for message in wanted:
        if not message.id or not isinstance(message.id, str) or message.context:
            continue
        found = catalog.get(message.id)
        if found is None or found.string == message.id:
            continue
        for literal, *_ in string.Formatter().parse(message.id):
            for line in literal.split("\n"):
                line = line.strip(" *_#-:.>")
                if len(line) >= FRAGMENT and line not in str(found.string):
                    pieces.append(line)
    return pieces


def english_left(text: str, fragments: Iterable[str]) -> list[str]:
    return [fragment for fragment in fragments if fragment in text]


async def test_a_german_server_with_french_and_polish_members(
    server: Server, launch: LaunchBot
) -> None:
    server.guild.preferred_locale = "de"
    server.ann.user.locale = "fr"
    server.bob.user.locale = "pl"
    wanted = template(command_texts())
    german, french, polish = (english_fragments(read(code), wanted) for code in ("de", "fr", "pl"))
    bot = await launch()
    p1, p2 = await dealt_heads_up(
        server, bot, ["4H", "5H", "6H", "QS"], ["KC", "2D", "9S"], ["7H", "8C", "3D"], ["AC"]
    )
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.language == "de"
    by_language = {"fr": french, "pl": polish}
    language_of = {server.ann.id: "fr", server.bob.id: "pl"}
    mover, waiter = p1, p2
    await mover.open_hand()
    await waiter.open_hand()
    # The one who waits tries to open a second game: refused, in their language.
    refused = await waiter.actor.slash(server.channel, "rummy start")
    assert refused.ephemeral
    assert english_left(refused.text(), by_language[language_of[waiter.actor.id]]) == []
    await mover.draw()
    await mover.meld(["4H", "5H", "6H", "7H"])
    await bot.game.tasks.wait_idle()
    # Mid-hand, nothing public shows a card of the waiting player's hand.
    with speaking("de"):
        held = [card_text(Card.parse(code)) for code in ("KC", "2D", "9S")]
    for message in server.emu.messages(server.channel):
        if not message.ephemeral:
            assert not [card for card in held if card in message.text()], message.text()
    public = table_message(server.emu, server.channel)
    assert english_left(public.text(), german) == []
    await mover.discard("QS")  # the last card: out
    await bot.game.tasks.wait_idle()

    public = table_message(server.emu, server.channel)
    assert public.is_v2 and "QS" not in public.text()
    assert english_left(public.text(), german) == []
    with speaking("de"):
        assert card_text(Card.parse("KC")) == "K♣" and card_text(Card.parse("QS")) == "D♠"
    for player in (mover, waiter):
        fragments = by_language[language_of[player.actor.id]]
        assert english_left(player.view_text(), fragments) == [], player.actor.name
    # The leaderboard is posted for the channel: German, whoever asks for it.
    board = await server.ann.slash(server.channel, "rummy leaderboard", order="points")
    german_title = read("de").get("Rummy leaderboard — {server}")
    assert german_title is not None and not board.ephemeral
    assert german_title.string.format(server=server.guild.name) in board.text()
    # The DM of the deal reached each in their own language.
    for actor in (server.ann, server.bob):
        dms = [m.text() for m in actor.dms()]
        fragments = by_language[language_of[actor.id]]
        assert dms and all(english_left(text, fragments) == [] for text in dms)


async def test_a_member_picks_the_language_they_read_the_bot_in(
    server: Server, launch: LaunchBot
) -> None:
    wanted = template(command_texts())
    polish = english_fragments(read("pl"), wanted)
    bot = await launch()
    p1, p2 = await dealt_heads_up(server, bot, ["4H", "5H", "6H"], ["KC", "2D"], ["7H"], ["AC"])
    ann = p1 if p1.actor is server.ann else p2
    await ann.open_hand()
    english_view = ann.view_text()
    settings = await ann.press("⚙")
    chosen = await ann.actor.select(settings.message or 0, ":lang:", ["pl"])
    assert chosen.message is not None and english_left(chosen.text(), polish) == []
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.seat(ann.key).language == "pl"
    assert bot.game.prefs.of(server.ann.id).language == "pl"
    # Her hand reads Polish now, wherever she opens it; the public table stays English.
    reopened = await ann.open_hand()
    assert english_left(reopened.text(), polish) == [] and reopened.text() != english_view
    assert table.language == "en"
    # The command takes her back to her Discord app's language.
    back = await server.ann.slash(server.channel, "rummy language")
    assert back.ephemeral and "English" in back.text()
    assert bot.game.prefs.of(server.ann.id).language is None
