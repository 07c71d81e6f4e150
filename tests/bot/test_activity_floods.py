"""One member flooding the Activity, in the real bot on the emulator: however
many pages they open and however often they ask for a hint, the position's
hint is worked out once, their pages share one allowance, nothing waits for
the expert's thinking, and the other servers' clicks are answered."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import statistics
import threading
from typing import Any

import aiohttp
import pytest

import game.hints
from bot import RummyBot
from engine import Action, HandView
from tables.tapes import RecordSource
from web.pages import MEMBER_BURST, PAGES_PER_MEMBER

from .activity_pages import Participant, first_player_page
from .conftest import LaunchBot, Server
from .harness import TablePlayer
from .test_play import in_turn_order, start_game


class RawPage:
    """A page of the attacker's own making: one more WebSocket with a session."""

    def __init__(self, base: str, session: str) -> None:
        self.base, self.session = base, session
        self.http = aiohttp.ClientSession()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[dict[str, Any]] = []
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> RawPage:
        self.ws = await self.http.ws_connect(f"{self.base}/ws")
        await self.ws.send_str(json.dumps({"type": "hello", "session": self.session}))
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))

    async def closed_with(self) -> int | None:
        assert self.reader is not None and self.ws is not None
        await asyncio.wait_for(self.reader, 5)
        return self.ws.close_code

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        await self.http.close()


async def elsewhere(server: Server, bot: RummyBot) -> tuple[Server, list[TablePlayer]]:
    """Two members of another server, playing over the chat's buttons there."""
    emu = server.emu
    guild = emu.create_guild("Elsewhere")
    other = dataclasses.replace(
        server, guild=guild, channel=emu.create_text_channel(guild, "cards"),
        ann=emu.create_user("Zoe", guild=guild), bob=emu.create_user("Yan", guild=guild))
    seated = [other.player(other.ann), other.player(other.bob)]
    await start_game(other, bot, seated)
    return other, in_turn_order(bot, other, seated)


# --- many pages, one member ----------------------------------------------------------------
async def test_a_members_pages_past_the_limit_close_the_oldest_and_share_one_allowance(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot, _first, page = await first_player_page(server, launch, pages)
    raw = [await RawPage(page.base, page.session).open() for _ in range(PAGES_PER_MEMBER + 2)]
    try:
        # The first page and the first two raw ones were pushed out, told why.
        assert await page.wait_closed() == 4409
        for old in raw[:2]:
            assert await old.closed_with() == 4409
            assert {"type": "closing", "code": 4409,
                    "reason": "the table is open in another window"} in old.frames
        live = raw[2:]
        assert all(p.ws is not None and not p.ws.closed for p in live)
        assert bot.activity_server is not None
        assert len(bot.activity_server.pages.of_member(server.ann.id)
                   + bot.activity_server.pages.of_member(server.bob.id)) == PAGES_PER_MEMBER
        # Each page alone stays under its own burst; together they pass the member's.
        each = MEMBER_BURST // len(live) + 4
        assert each < 20
        for seq in range(each):
            for number, p in enumerate(live):
                assert p.ws is not None
                if not p.ws.closed:
                    frame = {"type": "intent", "seq": 1000 + seq * 10 + number, "op": "log"}
                    await p.ws.send_str(json.dumps(frame))
        readers = [p.reader for p in live if p.reader is not None]
        done, _running = await asyncio.wait(readers, timeout=5,
                                            return_when=asyncio.FIRST_COMPLETED)
        assert done, "no page was closed for going past the member's allowance"
        closed = [p for p in live if p.reader in done]
        assert closed[0].ws is not None and closed[0].ws.close_code == 4429
    finally:
        for p in raw:
            await p.close()


# --- one hint a position --------------------------------------------------------------------
async def test_a_positions_hint_is_worked_out_once_whoever_asks_and_however_often(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot, first, page = await first_player_page(server, launch, pages)
    hints = bot.game.hints
    before = hints.worked_out
    answers = [await page.send("hint") for _ in range(5)]
    assert {a["type"] for a in answers} == {"hint"}
    assert len({a["text"] for a in answers}) == 1
    await first.open_hand()
    for _ in range(2):
        pressed = await first.press("💡 Hint")
        assert "💡 Hint:" in pressed.text()
    assert hints.worked_out - before == 1
    # A move makes a new position, with a hint of its own.
    await page.drew()
    assert (await page.send("hint"))["type"] == "hint"
    assert hints.worked_out - before == 2


async def test_the_expert_thinking_over_a_hint_holds_up_no_move(
    server: Server, launch: LaunchBot, pages: list[Participant],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = threading.Event()
    thinking = threading.Event()
    real = game.hints._think

    def slow_think(view: HandView, source: RecordSource, seed: str) -> Action:
        thinking.set()
        gate.wait(10)
        return real(view, source, seed)

    monkeypatch.setattr(game.hints, "_think", slow_think)
    _bot, first, page = await first_player_page(server, launch, pages)
    try:
        assert page.ws is not None
        page.seq += 1
        asked = page.seq
        await page.ws.send_str(json.dumps({"type": "intent", "seq": asked, "op": "hint",
                                           "version": page.state()["version"]}))
        await asyncio.to_thread(thinking.wait, 5)
        # While the expert thinks, the same player draws through the chat.
        await first.open_hand()
        drawn = await asyncio.wait_for(first.draw(), 5)
        assert drawn.answered and "⚠️" not in drawn.text()
    finally:
        gate.set()
    await page.until(lambda: any(f.get("seq") == asked for f in page.frames), "the hint")
    answer = next(f for f in page.frames if f.get("seq") == asked)
    # The hint was for the table before the draw: it says so instead of misleading.
    assert answer["type"] == "refused" and "moved on" in answer["text"]


async def test_a_hint_flood_from_every_page_leaves_other_servers_answered(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot, _first, page = await first_player_page(server, launch, pages)
    _other, (zoe, _yan) = await elsewhere(server, bot)
    flooders = [await RawPage(page.base, page.session).open()
                for _ in range(PAGES_PER_MEMBER)]
    stop = asyncio.Event()
    seq = [5000]

    async def flood(raw: RawPage) -> None:
        while not stop.is_set() and raw.ws is not None and not raw.ws.closed:
            seq[0] += 1
            frame = {"type": "intent", "seq": seq[0], "op": "hint",
                     "version": page.state()["version"]}
            try:
                await raw.ws.send_str(json.dumps(frame))
            except ConnectionError:
                return
            await asyncio.sleep(1 / 7)

    worked_out = bot.game.hints.worked_out
    running = [asyncio.create_task(flood(raw)) for raw in flooders]
    try:
        latencies = []
        for _ in range(12):
            reply = await zoe.open_hand()
            assert reply.answered
            assert reply.latency is not None
            latencies.append(reply.latency)
    finally:
        stop.set()
        await asyncio.gather(*running)
        for raw in flooders:
            await raw.close()
    print(f"\nanother server's clicks during the hint flood: median "
          f"{statistics.median(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms; "
          f"hints worked out: {bot.game.hints.worked_out - worked_out}")
    # One position, however many asks.
    assert bot.game.hints.worked_out - worked_out <= 1
