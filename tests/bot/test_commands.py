"""/rummy leaderboard, stats, settings and rules."""

from __future__ import annotations

import time

from db import HandRecord, MatchRecord, SeatRecord

from .conftest import LaunchBot, Server, StopBot


def record(
    guild_id: int, winner: tuple[int, str], loser: tuple[int, str], points: int
) -> MatchRecord:
    now = time.time()
    return MatchRecord(
        guild_id=guild_id,
        channel_id=1,
        seats=[
            SeatRecord(str(winner[0]), winner[0], winner[1], False),
            SeatRecord(str(loser[0]), loser[0], loser[1], False),
        ],
        rules={},
        hands=[
            HandRecord(
                1,
                str(winner[0]),
                False,
                {str(winner[0]): points, str(loser[0]): 0},
                (str(winner[0]),),
                "went_out",
            )
        ],
        totals={str(winner[0]): points, str(loser[0]): 0},
        winners=(str(winner[0]),),
        abandoned=False,
        started_at=now,
        ended_at=now,
    )


async def test_leaderboard_pages_and_stats(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    assert bot.db is not None
    empty = await server.ann.slash(server.channel, "rummy leaderboard")
    assert "No finished games" in empty.text()
    assert empty.message is not None and empty.message.buttons() == []  # nowhere to page to
    # Twelve players with distinct results, so the board has two pages.
    for n in range(12):
        await bot.db.record_match(
            record(server.guild.id, (1000 + n, f"Player {n}"), (2000 + n, f"Loser {n}"), 10 + n)
        )
    await bot.db.record_match(record(999, (5, "Elsewhere"), (6, "Far"), 500))  # other server

    board = await server.ann.slash(server.channel, "rummy leaderboard", order="points")
    assert not board.ephemeral
    text = board.text()
    assert "**1.** Player 11" in text and "Page 1 of 3" in text and "Elsewhere" not in text
    assert board.message is not None and board.message.button("Previous").get("disabled")
    second = await server.bob.click(board.message, label="Next")
    assert second.type == 7 and "Page 2 of 3" in second.text() and "**11.**" in second.text()

    mine = await server.ann.slash(server.channel, "rummy stats")
    assert "Ann has not finished a game here yet." in mine.text()
    someone = await server.ann.slash(server.channel, "rummy stats", member=server.bob)
    assert "Bob has not finished a game" in someone.text()


async def test_settings_need_manage_server_and_become_defaults(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    refused = await server.ann.slash(server.channel, "rummy settings", ace="high_or_low")
    assert refused.ephemeral and "Manage Server" in refused.text()
    saved = await server.mod.slash(server.channel, "rummy settings", ace="high_or_low", hands=3)
    assert saved.ephemeral and "now start with" in saved.text()
    assert "Aces high or low" in saved.text() and "3 hands" in saved.text()
    assert "Going out" not in saved.text()  # only what changed
    again = await server.mod.slash(server.channel, "rummy settings", hands=3)
    assert "Nothing changed" in again.text()
    rules = await server.ann.slash(server.channel, "rummy rules")
    assert rules.ephemeral and "Q-K-A" in rules.text() and "Server defaults" in rules.text()
    await server.ann.slash(server.channel, "rummy start")
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.rules.ace.value == "high_or_low" and table.rules.hands == 3
    # Options given to /rummy start still win over the defaults.
    await server.bob.slash(server.other_channel, "rummy start", ace="low", target=60)
    other = bot.game.tables.get(server.other_channel.id)
    assert other is not None and other.rules.ace.value == "low" and other.rules.target == 60
    at_table = await server.ann.slash(server.channel, "rummy rules")
    assert "House rules at this table" in at_table.text()


async def test_new_server_defaults_reach_the_next_game_after_a_game_used_the_old(
    server: Server, launch: LaunchBot
) -> None:
    """The defaults are kept in memory once read: a change must still reach the next game."""
    bot = await launch()
    await server.ann.slash(server.channel, "rummy start")
    first = bot.game.tables.get(server.channel.id)
    assert first is not None and first.rules.hands is None
    saved = await server.mod.slash(server.channel, "rummy settings", hands=2)
    assert "2 hands" in saved.text()
    await server.bob.slash(server.other_channel, "rummy start")
    second = bot.game.tables.get(server.other_channel.id)
    assert second is not None and second.rules.hands == 2


async def test_defaults_that_could_not_be_saved_do_not_reach_the_next_game(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch(allow_errors=True)
    await server.ann.slash(server.channel, "rummy start")
    assert bot.db is not None
    bot.db.abandon()  # every write now fails, as on a dead disk
    refused = await server.mod.slash(server.channel, "rummy settings", hands=2)
    assert refused.ephemeral and "could not be saved" in refused.text()
    rules = bot.game.server_rules.of(server.channel.guild_id)
    assert rules.hands is None


async def test_server_defaults_outlive_a_restart(
    server: Server, launch: LaunchBot, stop_bot: StopBot
) -> None:
    """The defaults are read once at start-up, so a restarted bot must read them."""
    bot = await launch()
    saved = await server.mod.slash(server.channel, "rummy settings", ace="high_or_low", hands=2)
    assert "now start with" in saved.text()
    await stop_bot(bot)
    bot = await launch()
    await server.ann.slash(server.channel, "rummy start")
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.rules.ace.value == "high_or_low" and table.rules.hands == 2


async def test_help_says_how_a_turn_goes(server: Server, launch: LaunchBot) -> None:
    await launch()
    shown = await server.ann.slash(server.channel, "rummy help")
    assert shown.ephemeral and "**Draw**" in shown.text() and "/rummy start" in shown.text()
    assert len(shown.text()) < 2000
    # Every command a member may use is named.
    for command in ("hand", "rules", "leaderboard", "stats", "end", "settings", "history",
                    "replay", "language", "season end"):
        assert f"`/rummy {command}`" in shown.text(), command


async def test_the_lobby_lists_only_the_rules_that_differ(
    server: Server, launch: LaunchBot
) -> None:
    await launch()
    standard = await server.ann.slash(server.channel, "rummy start")
    assert "The standard game" in standard.text() and "Aces" not in standard.text()
    other = await server.bob.slash(server.other_channel, "rummy start", ace="high_or_low", hands=5)
    text = other.text().split("House rules", 1)[1]
    assert "Aces high or low" in text and "5 hands" in text and "Going out" not in text
