"""The Activity's pages as their traffic reaches the real bot: sign-in,
WebSocket, intents. Shared by the Activity's tests of the bot."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import aiohttp
import pytest

import web.pages
import web.socket
from app.settings import ActivitySettings
from bot import RummyBot
from engine import Action, Discard, DrawStock, LayOff, MeldCards, TakeDiscard
from fakediscord import Actor, FakeDiscord
from game.config import GameConfig

from .conftest import FAST, LaunchBot, Server
from .harness import TablePlayer
from .test_play import in_turn_order, start_game

ACTIVITY = dataclasses.replace(FAST, activity=True)


async def launch_with_activity(server: Server, launch: LaunchBot,
                               config: GameConfig = ACTIVITY) -> RummyBot:
    server.emu.world.enable_activities()
    settings = ActivitySettings(client_secret=server.emu.world.client_secret, port=0)
    return await launch(config, activity=settings)


def installed_by(server: Server, *people: Actor) -> None:
    """The app installed to these people's own accounts (a user install)."""
    server.emu.world.enable_user_install()
    for person in people:
        server.emu.world.install_for_user(person.user)


def at_machine_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let pages move at machine speed, past any person's pace, which the
    Activity's allowances are for (they have tests of their own)."""
    for module, burst, rate in ((web.socket, "BURST", "RATE"),
                                (web.pages, "MEMBER_BURST", "MEMBER_RATE")):
        monkeypatch.setattr(module, burst, 10_000)
        monkeypatch.setattr(module, rate, 10_000.0)


class Participant:
    """One member's Activity page, as its requests reach the bot."""

    def __init__(self, bot: RummyBot | str, emu: FakeDiscord, actor: Actor) -> None:
        """``bot``: the bot whose Activity server the page reaches, or its address."""
        if isinstance(bot, str):
            self.base = bot
        else:
            assert bot.activity_server is not None and bot.activity_server.port is not None
            self.base = f"http://127.0.0.1:{bot.activity_server.port}"
        self.emu = emu
        self.actor = actor
        self.http = aiohttp.ClientSession()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[dict[str, Any]] = []
        self.session = ""
        self.seq = 0
        self._reader: asyncio.Task[None] | None = None
        self.closed: tuple[int | None, str] | None = None

    async def sign_in(self, instance_id: str, **extra: Any) -> aiohttp.ClientResponse:
        """``extra``: more of the body, as a page launched from a link sends its ``custom_id``."""
        code = self.emu.world.issue_oauth_code(self.actor.id, ["identify"])
        answer = await self.http.post(f"{self.base}/api/token",
                                      json={"code": code, "instance_id": instance_id, **extra})
        if answer.status == 200:
            self.session = (await answer.json())["session"]
        return answer

    async def connect(self, session: str | None = None,
                      headers: dict[str, str] | None = None) -> None:
        self.ws = await self.http.ws_connect(f"{self.base}/ws", headers=headers)
        await self.ws.send_str(json.dumps({"type": "hello", "session": session or self.session}))
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))
        self.closed = (self.ws.close_code, "")

    async def wait_closed(self, limit: float = 5.0) -> int | None:
        assert self._reader is not None
        await asyncio.wait_for(self._reader, limit)
        assert self.closed is not None
        return self.closed[0]

    def state(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f["type"] == "state")

    async def until(self, check: Any, what: str) -> None:
        for _ in range(500):
            if check():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"waited in vain for {what}; last frames: {self.frames[-3:]}")

    async def send(self, op: str, *, seq: int | None = None, **extra: Any) -> dict[str, Any]:
        """Send an intent and return its answer (done, refused, duplicate...)."""
        assert self.ws is not None
        if seq is None:
            self.seq += 1
            seq = self.seq
        frame = {"type": "intent", "seq": seq, "op": op, "version": self.state()["version"],
                 **extra}
        sent_at = len(self.frames)
        await self.ws.send_str(json.dumps(frame))
        await self.until(lambda: any(f.get("seq") == seq for f in self.frames[sent_at:]),
                         f"the answer to {op}")
        return next(f for f in self.frames[sent_at:] if f.get("seq") == seq)

    async def play(self, action: Action) -> dict[str, Any]:
        """Send the intent that plays the engine's ``action``; its answer."""
        if isinstance(action, DrawStock):
            return await self.send("draw")
        if isinstance(action, TakeDiscard):
            return await self.send("take")
        if isinstance(action, MeldCards):
            return await self.send("meld", cards=[c.code for c in action.cards])
        if isinstance(action, LayOff):
            return await self.send("lay_off", cards=[c.code for c in action.cards],
                                   meld=action.meld + 1)
        assert isinstance(action, Discard)
        return await self.send("discard", cards=[action.card.code])

    async def drew(self) -> None:
        """Draw from the stock (it must be this page's turn) and see the card."""
        assert (await self.send("draw"))["type"] == "done"
        await self.until(lambda: self.state()["phase"] == "play", "the drawn card")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        await self.http.close()


async def open_page(bot: RummyBot, server: Server, actor: Actor, pages: list[Participant],
                    channel_id: int | None = None) -> Participant:
    instance = server.emu.world.launch_activity(actor.id, channel_id or server.channel.id)
    page = Participant(bot, server.emu, actor)
    pages.append(page)
    answer = await page.sign_in(instance.instance_id)
    assert answer.status == 200, await answer.text()
    await page.connect()
    await page.until(lambda: any(f["type"] == "state" for f in page.frames), "the first state")
    return page


async def first_player_page(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> tuple[RummyBot, TablePlayer, Participant]:
    """Ann and Bob dealt in, and the first to move with the Activity open."""
    bot = await launch_with_activity(server, launch)
    first, _second = await heads_up(server, bot)
    return bot, first, await open_page(bot, server, first.actor, pages)


async def heads_up(server: Server, bot: RummyBot) -> list[TablePlayer]:
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    return in_turn_order(bot, server, seated)
