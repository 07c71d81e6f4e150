"""One game, two doors: the same seeded match (two players, two hands) played
once through the chat's buttons and once through the Activity, with the same
moves, leaves the same messages in the channel, the same DMs in each member's
inbox and the same saved rows. Only each door's own answer to the mover (the
chat's private hand messages, the Activity's frames) may differ.

Each run has a Discord stand-in and a bot of its own; ids and clocks are set
aside before comparing, everything else must match.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from app.settings import ActivitySettings
from bot import RummyBot, Settings
from engine import Action, Discard, DrawStock, LayOff, MeldCards, TakeDiscard
from engine.ai import choose_action
from fakediscord import FakeDiscord, point_discord_at, run_client
from fakediscord.core.world import Message

from .activity_pages import Participant, at_machine_speed
from .conftest import FAST, Server, populate
from .harness import TablePlayer, table_message
from .test_play import in_turn_order, start_game

SEED = 20261127
# Cards as the bot's own emojis, as in a real server: a message drawn without
# them would show. No turn DMs: whether a player is looking is each door's own.
CONFIG = dataclasses.replace(FAST, activity=True, card_emoji=True, table_seed=SEED,
                             turn_nudge_after=10_000.0)
MOST_ACTIONS = 600
# Snowflakes, tokens' numbers and clocks: they differ from run to run.
NUMBERS = re.compile(r"\d{9,}(\.\d+)?")


def plain(text: str) -> str:
    return NUMBERS.sub("#", text)


def message_picture(message: Message) -> str:
    """A message as its reader sees it, ids and clocks aside."""
    shown = {
        "text": message.text(),
        "buttons": [(b.get("label"), b.get("style"), b.get("disabled", False),
                     (b.get("emoji") or {}).get("name")) for b in message.buttons()],
        "files": [a.get("filename") for a in message.attachments],
        "media": message.media_urls(),
    }
    return plain(json.dumps(shown, sort_keys=True, ensure_ascii=False))


def what_members_got(emu: FakeDiscord, server: Server) -> dict[str, list[str]]:
    """The channel's messages, and each player's DMs, in the order they came."""
    got: dict[str, list[str]] = {}
    public = [m for m in emu.world.messages.values()
              if m.channel_id == server.channel.id and not m.ephemeral and not m.deleted]
    got["channel"] = [message_picture(m) for m in sorted(public, key=lambda m: m.id)]
    for actor in (server.ann, server.bob):
        dm = emu.world.dm_channel(actor.user)
        dms = [m for m in emu.world.messages.values() if m.channel_id == dm.id and not m.deleted]
        got[f"DMs of {actor.name}"] = [message_picture(m) for m in sorted(dms, key=lambda m: m.id)]
    return got


def saved_rows(database: Path) -> dict[str, list[str]]:
    """Every row of every table of the bot's database, ids and clocks aside."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        names = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {name: sorted(plain(json.dumps(row, default=str))
                             for row in db.execute(f'SELECT * FROM "{name}"'))
                for name in names}


class Mover:
    """Plays the moves a plain strategy picks, through one door."""

    def __init__(self, bot: RummyBot, emu: FakeDiscord, server: Server, door: str) -> None:
        self.bot, self.emu, self.server, self.door = bot, emu, server, door
        self.players: dict[str, TablePlayer] = {}
        self.pages: dict[str, Participant] = {}

    async def seat(self, players: list[TablePlayer]) -> None:
        for player in players:
            self.players[player.key] = player
            if self.door == "activity":
                instance = self.emu.world.launch_activity(player.actor.id, self.server.channel.id)
                page = Participant(self.bot, self.emu, player.actor)
                assert (await page.sign_in(instance.instance_id)).status == 200
                await page.connect()
                await page.until(lambda page=page: any(f["type"] == "state" for f in page.frames),
                                 "the first state")
                self.pages[player.key] = page
            else:
                await player.open_hand()

    async def play(self, key: str, action: Action) -> None:
        if self.door == "activity":
            await self._in_the_activity(key, action)
        else:
            await self._in_the_chat(key, action)
        await self.bot.game.tasks.wait_idle()

    async def _in_the_activity(self, key: str, action: Action) -> None:
        page = self.pages[key]
        await page.until(lambda: page.state()["version"] == self._position(), "the latest state")
        answer = await page.play(action)
        assert answer["type"] == "done", answer

    async def _in_the_chat(self, key: str, action: Action) -> None:
        player = self.players[key]
        if isinstance(action, DrawStock):
            reply = await player.draw()
        elif isinstance(action, TakeDiscard):
            reply = await player.take()
        elif isinstance(action, MeldCards):
            reply = await player.meld([c.code for c in action.cards])
        elif isinstance(action, LayOff):
            await player.choose([c.code for c in action.cards])
            reply = await player.press(f"Lay off on {action.meld + 1}")
        else:
            assert isinstance(action, Discard)
            reply = await player.discard(action.card.code)
        assert reply.answered and "⚠️" not in reply.text(), reply.text()

    async def next_hand(self, key: str) -> None:
        if self.door == "activity":
            page = self.pages[key]
            await page.until(lambda: page.state()["stage"] == "hand_over", "the hand's end")
            assert (await page.send("next_hand"))["type"] == "done"
        else:
            player = self.players[key]
            reply = await player.actor.click(table_message(self.emu, self.server.channel),
                                             label="Next hand")
            assert reply.answered and not reply.ephemeral
        await self.bot.game.tasks.wait_idle()
        if self.door == "chat":
            for player in self.players.values():
                await player.open_hand()

    def _position(self) -> str:
        table = self.bot.game.tables.get(self.server.channel.id)
        assert table is not None
        return table.position

    async def close(self) -> None:
        for page in self.pages.values():
            await page.close()


@asynccontextmanager
async def seated(door: str, folder: Path, hands: int) -> AsyncIterator[tuple[RummyBot, FakeDiscord,
                                                                          Server, Mover]]:
    """Ann and Bob dealt in at one table of a bot of its own on a stand-in of its
    own, each with the door ``door`` open on it (their hand messages, or their
    pages); the bot's database in ``folder``."""
    emu = FakeDiscord()
    await emu.start()
    try:
        with point_discord_at(emu):
            server = populate(emu)
            emu.world.enable_activities()
            settings = Settings(token=emu.token, database_path=folder / f"{door}.sqlite3",
                                game=CONFIG,
                                activity=ActivitySettings(client_secret=emu.world.client_secret,
                                                          port=0))
            bot = RummyBot(settings)
            runner = await run_client(emu, bot)
            mover = Mover(bot, emu, server, door)
            try:
                await bot.game.tasks.wait_idle()  # the card faces are uploaded
                players = [server.player(server.ann), server.player(server.bob)]
                await start_game(server, bot, players, hands=hands)
                await mover.seat(in_turn_order(bot, server, players))
                yield bot, emu, server, mover
            finally:
                await mover.close()
                problems = await runner.stop()
            assert problems == [], problems
    finally:
        await emu.stop()


async def play_the_match(door: str, folder: Path) -> tuple[dict[str, list[str]],
                                                          dict[str, list[str]]]:
    async with seated(door, folder, hands=2) as (bot, emu, server, mover):
        await play_hands(bot, server, mover)
        got = what_members_got(emu, server)
    return got, saved_rows(folder / f"{door}.sqlite3")


async def play_hands(bot: RummyBot, server: Server, mover: Mover) -> None:
    for _ in range(MOST_ACTIONS):
        table = bot.game.tables.get(server.channel.id) or bot.game.tables.ended(
            server.channel.id)
        assert table is not None and table.match is not None
        if table.match.is_over:
            return
        if table.match.hand.is_over:
            await mover.next_hand(next(iter(mover.players)))
            continue
        turn = table.match.hand.turn
        assert turn is not None
        view = table.view_of(turn)
        # The same move for the same view in both runs: the easy player's choice.
        action = choose_action(view, "easy", random.Random(len(table.hand_log)))
        await mover.play(turn, action)
    raise AssertionError("the match did not end")


async def test_the_same_match_through_either_door_leaves_the_same_traces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    at_machine_speed(monkeypatch)
    chat_got, chat_rows = await play_the_match("chat", tmp_path)
    activity_got, activity_rows = await play_the_match("activity", tmp_path)
    assert len(chat_got["channel"]) >= 3  # two hands' tables, and the final places
    assert any("hand 2 is over" in line for line in chat_got["channel"])
    differences = [first_difference(f"{reader}", chat_got[reader], activity_got[reader])
                   for reader in chat_got]
    differences += [first_difference(f"saved rows of {table}", chat_rows[table],
                                     activity_rows.get(table, []))
                    for table in chat_rows]
    found = [difference for difference in differences if difference]
    assert not found, "\n\n".join(found)


def first_difference(what: str, chat: list[str], activity: list[str]) -> str:
    """Where two runs' traces first part, said briefly (a whole diff of long
    traces takes pytest minutes to write)."""
    for index, (one, other) in enumerate(zip(chat, activity, strict=False)):
        if one != other:
            return f"{what}, #{index}:\n  buttons: {one[:1500]}\n  Activity: {other[:1500]}"
    if len(chat) != len(activity):
        extra = chat[len(activity):] or activity[len(chat):]
        return (f"{what}: {len(chat)} through the buttons, {len(activity)} through the "
                f"Activity; the first extra one: {extra[0][:1500]}")
    return ""

