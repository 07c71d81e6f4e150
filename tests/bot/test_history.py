"""Ratings, the history and replays, end to end: matches played through the
UI on the emulator, and every answer read the way a member sees it."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
import time
from typing import Any

from openskill.models import PlackettLuce

from bot import RummyBot
from db import Database, HandMoves, HandRecord, MatchRecord, SeatRecord
from engine import HouseRules
from engine.ai import choose_action
from engine.hand import Hand
from engine.replay import run
from engine.tape import HandTape, encode_move
from fakediscord import Message
from fakediscord.core.actors import Reply
from presentation.actions import REPLAY_STEP, REPLAY_TURN
from presentation.i18n import number

from .conftest import LaunchBot, Server
from .harness import TablePlayer
from .test_commands import record
from .test_match import play_match
from .test_play import host_panel, press_start, start_game

MODEL = PlackettLuce()


async def play_one(server: Server, bot: RummyBot, seated: list[TablePlayer], *, cpu: bool) -> None:
    """A one-hand match of the seated players (and a hard computer if ``cpu``)."""
    for player in seated:
        player.settle = bot.game.tasks.wait_idle
    lobby = await seated[0].actor.slash(server.channel, "rummy start", hands=1)
    assert lobby.message is not None
    panel = await host_panel(lobby)
    for player in seated[1:]:
        await player.actor.click(lobby.message, label="Join")
    if cpu:
        await seated[0].actor.click(panel, label="Add computer (hard)")
    await press_start(seated[0].actor, panel)
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
    result = charts[0].content.splitlines()
    assert result[0] == "Match #1: final places" and result[1].startswith("1st ")
    # Each person's rating after the match beside its change, as their stats have it.
    for user_id, name in ((server.ann.id, "Ann"), (server.bob.id, "Bob")):
        rated = (await bot.db.rating_profile(server.guild.id, user_id)).rating
        assert rated is not None
        line = next(line for line in result if f" {name} — " in line)
        assert f" · rating {number(rated.ordinal, 1)} (" in line and " this match)" in line
    assert result[-1].startswith("-# Rating: a skill estimate")
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
    # The rating in words: how sure it is, and what it is made of, without μ or σ.
    assert "Certainty: low (few matches yet)" in stats.text()
    assert "Rating: estimated skill " in stats.text() and "margin for doubt" in stats.text()
    assert "μ" not in stats.text() and "σ" not in stats.text()
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


# --- jumping through a replay -------------------------------------------------------------
async def stored_tape(db: Database, match_id: int, number: int) -> tuple[HandTape, dict[str, str]]:
    """A recorded hand's tape, read as the bot reads it, and its players' names."""
    stored = await db.get_match(match_id)
    assert stored is not None
    moves = stored.hands[number - 1].moves
    assert moves is not None
    players = [seat.player_key for seat in stored.seats]
    rules = HouseRules.from_dict(stored.rules)
    tape = HandTape.read(players, rules, moves.dealer, moves.seed, moves.moves)
    return tape, {seat.player_key: seat.name for seat in stored.seats}


def turn_line(tape: HandTape, names: dict[str, str], turn: int) -> str:
    """How the replay says which turn it shows, and whose."""
    turns = tape.turns()
    return f"**Turn {turn} of {len(turns)}** · {names[turns[turn - 1].player]}"


def at_move(tape: HandTape, step: int) -> str:
    return f"**Move {step} of {len(tape.moves)}:**"


def options(message: Message, custom_id: str) -> list[str]:
    [menu] = [s for s in message.selects() if s["custom_id"] == custom_id]
    return [o["value"] for o in menu["options"]]


async def test_a_replay_jumps_by_turn_and_by_move(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    assert bot.db is not None
    await play_one(server, bot, [server.player(server.ann), server.player(server.bob)], cpu=False)
    replay = await server.ann.slash(server.channel, "rummy replay")
    message = replay.message
    assert message is not None
    tape, names = await stored_tape(bot.db, 1, 1)
    turns = tape.turns()
    assert len(turns) >= 3
    assert turn_line(tape, names, 1) in replay.text() and at_move(tape, 0) in replay.text()
    assert message.button("⏪").get("disabled")

    # By turn: the button names the turn it goes to, and lands at its start.
    on = await server.ann.click(message, label="Turn 2 ⏩")
    assert on.type == 7 and on.message is message
    assert turn_line(tape, names, 2) in on.text() and at_move(tape, turns[1].step) in on.text()
    # By move, into turn 2; then back to its start by turn.
    step = await server.ann.click(message, label="▶")
    assert at_move(tape, turns[1].step + 1) in step.text()
    assert turn_line(tape, names, 2) in step.text()
    back = await server.ann.click(message, label="⏪ Turn 2")
    assert back.message is message and at_move(tape, turns[1].step) in back.text()
    assert "⏪ Turn 1" in [b["label"] for b in message.buttons()]

    # The select goes straight to a turn, far from here.
    far = min(len(turns), 25)
    jump = REPLAY_TURN.id(server.guild.id, "1.1")
    assert options(message, jump)[:3] == ["1", "2", "3"]
    picked = await server.ann.select(message, jump, [str(far)])
    assert picked.type == 7 and picked.message is message
    assert turn_line(tape, names, far) in picked.text()
    assert at_move(tape, turns[far - 1].step) in picked.text()
    # A move back from a turn's start is the last move of the turn before.
    before = await server.ann.click(message, label="◀")
    assert turn_line(tape, names, far - 1) in before.text()
    assert at_move(tape, turns[far - 1].step - 1) in before.text()
    end = await server.ann.click(message, label="⏭")
    assert turn_line(tape, names, len(turns)) in end.text() and "Hand over" in end.text()
    assert message.button("⏩").get("disabled") and message.button("▶").get("disabled")
    # The export is no longer among the moves: it has a row of its own, the last.
    assert [c["label"] for c in message.components[-1]["components"]] == ["Export JSON"]
    assert "Export JSON" not in [c["label"] for c in message.components[0]["components"]]


def long_hand(players: list[str]) -> tuple[int, str, Hand]:
    """The first deal (by seed) that computer players take more than 50 turns over:
    its seed, its moves in the tape's text, and the hand at its end."""
    rules = HouseRules()
    for seed in range(100):
        hand = Hand.deal(players, rules, 0, seed)
        rng = random.Random(seed)
        words = []
        while not hand.is_over:
            player = hand.turn
            assert player is not None
            action = choose_action(hand.view_for(player), "easy", rng)
            words.append(encode_move(players.index(player), action))
            hand.apply(player, action)
        if len(HandTape.read(players, rules, 0, seed, " ".join(words)).turns()) > 50:
            return seed, " ".join(words), hand
    raise AssertionError("no long hand in 100 deals")


async def record_long_hand(server: Server, db: Database) -> int:
    """A recorded match of Ann and Bob of one long hand; its number."""
    players = [str(server.ann.id), str(server.bob.id)]
    seed, words, hand = long_hand(players)
    outcome = hand.outcome
    assert outcome is not None
    now = time.time()
    return await db.record_match(
        MatchRecord(
            guild_id=server.guild.id,
            channel_id=server.channel.id,
            seats=[
                SeatRecord(players[0], server.ann.id, "Ann", False),
                SeatRecord(players[1], server.bob.id, "Bob", False),
            ],
            rules=HouseRules().to_dict(),
            hands=[
                HandRecord(1, outcome.went_out, outcome.rummy, dict(outcome.scores),
                           tuple(outcome.winners), outcome.reason.value,
                           HandMoves(0, seed, words))
            ],
            totals=dict(outcome.scores),
            winners=tuple(outcome.winners),
            abandoned=False,
            started_at=now - 600,
            ended_at=now,
        )
    )


def looks(message: Message) -> tuple[Any, ...]:
    return copy.deepcopy(message.embeds), copy.deepcopy(message.components), message.edits


async def test_a_long_hand_pages_its_turns_and_forged_jumps_change_nothing(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    assert bot.db is not None
    match_id = await record_long_hand(server, bot.db)
    tape, names = await stored_tape(bot.db, match_id, 1)
    turns, steps = tape.turns(), len(tape.moves)
    replay = await server.ann.slash(server.channel, "rummy replay", match=match_id, hand=1)
    message = replay.message
    assert message is not None and len(message.components) == 5
    jump = REPLAY_TURN.id(server.guild.id, f"{match_id}.1")
    pages = REPLAY_TURN.id(server.guild.id, f"{match_id}.1.p")
    assert options(message, jump) == [str(n) for n in range(1, 26)]
    assert options(message, pages)[:3] == ["1", "26", "51"]

    # A page of turns: its first turn, and the select now lists that page.
    page = await server.ann.select(message, pages, ["26"])
    assert page.type == 7 and page.message is message
    assert turn_line(tape, names, 26) in page.text()
    assert at_move(tape, turns[25].step) in page.text()
    assert options(message, jump) == [str(n) for n in range(26, 51)]
    picked = await server.ann.select(message, jump, ["40"])
    assert turn_line(tape, names, 40) in picked.text()
    assert at_move(tape, turns[39].step) in picked.text()

    # Made-up jumps are refused to the clicker alone, and the replay stays as it was:
    # a step the message does not show (out of range, or no number) by the router...
    shown = looks(message)
    guild = server.guild.id
    for arg in (f"{match_id}.1.{steps + 1}.n", f"{match_id}.1.x.tn", f"{match_id}.1.3.n"):
        refused = await server.ann.forge_click(message, REPLAY_STEP.id(guild, arg))
        assert refused.type == 4 and refused.ephemeral and refused.message is not message
        assert "That control is not one I recognise" in refused.text()
    # ...and a turn the select does not offer, which only the replay can judge.
    forged_turns = {
        (jump, "0"): f"has turns 1 to {len(turns)}, not 0",
        (pages, str(len(turns) + 1)): f"has turns 1 to {len(turns)}, not {len(turns) + 1}",
        (jump, "seven"): "Pick one turn from the list",
        (pages, "²"): "Pick one turn from the list",
    }
    for (menu, value), said in forged_turns.items():
        refused = await server.ann.forge_select(message, menu, [value])
        assert refused.type == 4 and refused.ephemeral and refused.message is not message
        assert said in refused.text(), refused.text()
    assert looks(message) == shown
