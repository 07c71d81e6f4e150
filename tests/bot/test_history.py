"""Ratings, the history and replays, end to end: matches played through the
UI on the emulator, and every answer read the way a member sees it."""

from __future__ import annotations

import dataclasses
import json
import re

from openskill.models import PlackettLuce

from bot import RummyBot
from db import Database
from engine.replay import run
from tests.fakediscord.actors import Reply

from .conftest import LaunchBot, Server
from .harness import TablePlayer
from .test_commands import record
from .test_match import play_match
from .test_play import start_game

MODEL = PlackettLuce()


async def play_one(server: Server, bot: RummyBot, seated: list[TablePlayer], *, cpu: bool) -> None:
    """A one-hand match of the seated players (and a hard computer if ``cpu``)."""
    for player in seated:
        player.settle = bot.game.tasks.wait_idle
    lobby = await seated[0].actor.slash(server.channel, "rummy start", hands=1)
    assert lobby.message is not None
    for player in seated[1:]:
        await player.actor.click(lobby.message, label="Join")
    if cpu:
        await seated[0].actor.click(lobby.message, label="Add computer (hard)")
    await seated[0].actor.click(lobby.message, label="Start")
    await bot.game.tasks.wait_idle()
    await play_match(bot, server, seated)
    await bot.game.tasks.wait_idle()


async def expected_order(db: Database, guild_id: int, names: dict[int, str]) -> list[str]:
    """The people best first by ordinal, rated here from the recorded places with
    openskill itself (computers are rated, as their level, but not listed)."""
    ratings: dict[str, object] = {}
    played: dict[str, int] = {}
    entries = list(reversed((await db.history(guild_id, per_page=100)).entries))
    for entry in entries:
        keys = [f"u{s.user_id}" if s.user_id else f"cpu:{s.name}" for s in entry.seats]
        teams = [[ratings.get(k) or MODEL.rating()] for k in keys]
        rated = MODEL.rate(teams, ranks=[s.place for s in entry.seats])  # type: ignore[arg-type]
        for key, [after] in zip(keys, rated, strict=True):
            ratings[key] = after
            played[key] = played.get(key, 0) + 1
    people = [k for k in ratings if k.startswith("u")]
    people.sort(key=lambda k: (played[k] < 5, -ratings[k].ordinal(), int(k[1:])))  # type: ignore[attr-defined]
    return [names[int(k[1:])] for k in people]


def listed(reply: Reply) -> list[str]:
    return re.findall(r"\*\*\d+\.\*\* (\w+) —", reply.text())


async def test_two_matches_through_the_ui_set_the_rating_order(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    assert bot.db is not None
    names = {server.ann.id: "Ann", server.bob.id: "Bob", server.cat.id: "Cat"}
    await play_one(server, bot, [server.player(server.ann), server.player(server.bob)], cpu=False)
    # The chart of the match that ended, posted once in its channel.
    charts = [m for m in server.emu.messages(server.channel) if m.attachments]
    assert len(charts) == 1 and charts[0].attachments[0]["filename"] == "scores.png"
    assert charts[0].file_data["scores.png"].startswith(b"\x89PNG")
    assert charts[0].content.startswith("Match #1: 1st ")
    first = await server.ann.slash(server.channel, "rummy leaderboard", order="rating")
    assert not first.ephemeral and "provisional" in first.text()
    assert listed(first) == await expected_order(bot.db, server.guild.id, names)

    await play_one(
        server,
        bot,
        [server.player(server.cat), server.player(server.bob), server.player(server.ann)],
        cpu=True,
    )
    charts = [m for m in server.emu.messages(server.channel) if m.attachments]
    assert len(charts) == 2 and charts[1].content.startswith("Match #2: ")
    second = await server.ann.slash(server.channel, "rummy leaderboard", order="rating")
    order = listed(second)
    # Three people; the computer was rated too, but is never listed.
    assert sorted(order) == ["Ann", "Bob", "Cat"] and "Ada" not in second.text()
    assert order == await expected_order(bot.db, server.guild.id, names)
    # Below five matches nobody is established: the default order is still wins.
    default = await server.ann.slash(server.channel, "rummy leaderboard")
    assert "Ranked by matches won" in default.text()
    stats = await server.bob.slash(server.channel, "rummy stats")
    assert "Rating · Season 1" in stats.text() and "provisional (2/5 matches)" in stats.text()
    assert "Trend" in stats.text()
    # Only Bob sees them, until he shares them with the channel.
    assert stats.ephemeral and stats.message is not None
    shared = await server.bob.click(stats.message, label="Share in the channel")
    assert not shared.ephemeral and shared.message is not None
    assert "Rating · Season 1" in shared.text() and "Rummy stats — Bob" in shared.text()
    assert shared.message in server.cat.visible_messages(server.channel)


async def test_history_pages_and_a_hand_replays_and_exports(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    assert bot.db is not None
    # Twelve older matches, recorded as earlier ones were, so the history has pages.
    for n in range(12):
        old = record(server.guild.id, (3000 + n, f"Old{n}"), (4000 + n, f"Gone{n}"), 5)
        await bot.db.record_match(
            dataclasses.replace(old, ended_at=1_000_000.0 + n, started_at=999_000.0)
        )
    await play_one(server, bot, [server.player(server.ann), server.player(server.bob)], cpu=False)
    match_id = await bot.db.latest_match(server.channel.id)
    assert match_id == 13

    history = await server.ann.slash(server.channel, "rummy history")
    assert history.ephemeral and history.message is not None
    assert "Page 1 · older matches on the next page" in history.text()
    assert f"**#{match_id}** <t:" in history.text()  # newest first, a Discord timestamp
    assert history.message.button("Previous").get("disabled")
    older = await server.ann.click(history.message, label="Next")
    assert older.type == 7 and older.message is history.message  # edited in place
    assert "Page 2" in older.text() and "older matches" not in older.text()
    assert "#1** <t:1000000:d>" in older.text()
    back = await server.ann.click(history.message, label="Previous")
    assert "Page 1" in back.text()

    summary = await server.ann.select(history.message, "hmatch", [str(match_id)])
    assert summary.ephemeral and summary.message is not None
    assert f"Rummy match #{match_id}" in summary.text() and "**1.**" in summary.text()
    assert summary.message.file_data["scores.png"].startswith(b"\x89PNG")
    assert summary.embeds[0]["image"]["url"] == "attachment://scores.png"

    replay = await server.ann.select(summary.message, "rhand", ["1"])
    assert replay.ephemeral and replay.message is not None
    steps = int(re.search(r"Move 0 of (\d+)", replay.text())[1])  # type: ignore[index]
    # Every hand is shown: both players' cards are on the replay.
    assert "Ann · 10 cards" in replay.text() and "Bob · 10 cards" in replay.text()
    step = await server.ann.click(replay.message, label="▶")
    assert step.type == 7 and step.message is replay.message and "Move 1 of" in step.text()
    last = await server.ann.click(replay.message, label="⏭")
    assert f"Move {steps} of {steps}" in last.text() and "Hand over" in last.text()
    assert replay.message.button("▶").get("disabled")
    start = await server.ann.click(replay.message, label="⏮")
    assert "Move 0 of" in start.text()

    exported = await server.ann.click(replay.message, label="Export JSON")
    assert exported.ephemeral and exported.message is not None
    [(name, data)] = exported.message.file_data.items()
    assert name == f"rummy-match{match_id}-hand1.json"
    result = run(json.loads(data))
    stored = await bot.db.get_match(match_id)
    assert stored is not None
    assert all(step["ok"] for step in result["steps"])
    assert result["outcome"]["scores"] == stored.hands[0].scores


async def test_bad_requests_are_answered_privately_and_change_nothing(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    assert bot.db is not None
    nobody = await server.ann.slash(server.channel, "rummy history", member=server.cat)
    assert nobody.ephemeral and "Cat has no recorded match here yet" in nobody.text()
    stats = await server.ann.slash(server.channel, "rummy stats", member=server.cat)
    assert stats.ephemeral and "has not finished a game" in stats.text()
    season = await server.ann.slash(server.channel, "rummy leaderboard", season="Winter")
    assert season.ephemeral and "no season named 'Winter'" in season.text()
    early = await server.mod.slash(server.channel, "rummy season end")
    assert early.ephemeral and "no rated match yet" in early.text()

    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, hands=1)
    during = await server.bob.slash(server.channel, "rummy replay")
    assert during.ephemeral and "still being played" in during.text()
    await play_match(bot, server, seated)
    await bot.game.tasks.wait_idle()

    past = await server.ann.slash(server.channel, "rummy history", page=3)
    assert past.ephemeral and "There is no page 3" in past.text()
    no_match = await server.ann.slash(server.channel, "rummy replay", match=99)
    assert no_match.ephemeral and "no match #99" in no_match.text()
    no_hand = await server.ann.slash(server.channel, "rummy replay", match=1, hand=4)
    assert no_hand.ephemeral and "hands 1 to 1" in no_hand.text()
    latest = await server.ann.slash(server.channel, "rummy replay")
    assert latest.ephemeral and "Replay · match #1, hand 1" in latest.text()

    refused = await server.ann.slash(server.channel, "rummy season end", name="Spring")
    assert refused.ephemeral and "Manage Server" in refused.text()
    assert await bot.db.seasons(server.guild.id) == []
    before = (await bot.db.rating_board(server.guild.id)).rows
    ended = await server.mod.slash(server.channel, "rummy season end", name="Spring")
    assert not ended.ephemeral and "Spring" in ended.text()
    taken = await server.mod.slash(server.channel, "rummy season end", name="spring")
    assert taken.ephemeral and "no rated match yet" in taken.text()
    archived = await server.ann.slash(server.channel, "rummy leaderboard", season="spring")
    assert "Spring, ended <t:" in archived.text()
    assert listed(archived) == [row.name for row in before]
    fresh = await server.ann.slash(server.channel, "rummy leaderboard", order="rating")
    assert "No rated match in Season 2 yet" in fresh.text()
