"""Names are text, never markup: a member whose name holds @everyone, a
mention, markdown or a right-to-left override pings nobody and changes no
message's look, through a whole match, its announcements and a season's end."""

from __future__ import annotations

import re

from fakediscord.core.world import Message

from .conftest import LaunchBot, Server
from .test_match import play_match
from .test_play import start_game

NASTY = "@everyone **Big** [win](https://evil.example) <@1> \u202e999 STNIOP"
SEASON = "@here [prize](https://evil.example) # Finals"
# What would show as markup, or read backwards, if a name went out raw.
RAW = ("@everyone", "@here", "**Big**", "[win](https://evil.example)", "<@1>", "\u202e",
       "[prize](https://evil.example)", "# Finals")


def bot_messages(server: Server) -> list[Message]:
    world = server.emu.world
    return [m for m in world.messages.values() if m.author_id == world.bot.id]


async def test_a_nasty_name_pings_nobody_and_shows_as_text(
    server: Server, launch: LaunchBot
) -> None:
    server.guild.members[server.ann.id].nick = NASTY
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, hands=1)
    await play_match(bot, server, seated)
    await bot.game.tasks.wait_idle()
    # A second game, stopped by its host: the announcement names her.
    await start_game(server, bot, seated, hands=1)
    ended = await server.ann.slash(server.channel, "rummy end")
    assert not ended.ephemeral
    await server.mod.slash(server.channel, "rummy season end", name=SEASON)
    for command in ("rummy leaderboard", "rummy history", "rummy stats"):
        await server.bob.slash(server.channel, command)
    await server.bob.slash(server.channel, "rummy leaderboard", season=SEASON)
    await bot.game.tasks.wait_idle()

    assert [ping for _, ping in server.emu.world.pings()] == []
    shown = [m.text() for m in bot_messages(server)]
    assert any("999 STNIOP" in text for text in shown)  # she is named, as text
    assert any("Finals" in text for text in shown)
    for text in shown:
        for raw in RAW:
            # Escaped, a character reads as itself: only an unescaped one is markup.
            assert not re.search(r"(?<!\\)" + re.escape(raw), text), (raw, text)
