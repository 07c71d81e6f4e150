"""The relay between the bot's processes against a peer that does not answer
and a member who floods it, in the real bot on the emulator: a page is told to
try again rather than left hanging, takes its connection to the peer with it
when it goes, cannot make one peer hold every relay, and a member reconnecting
in a loop asks the database and Discord no more than their allowance. Other
processes are stood in for by sockets of this test: one that never answers (a
frozen or firewalled process, as its kernel still accepts), and one that
serves every page a table."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from aiohttp import web as aioweb

import web.relay
from bot import RummyBot
from fakediscord import Actor
from tables import Place
from web.pages import HELLO_BURST
from web.relay import PENDING_PER_PEER, TRY_AGAIN, Relays
from web.socket import BAD_FRAME, OPENED_ELSEWHERE, TOO_FAST

from .activity_pages import launch_with_activity
from .conftest import LaunchBot, Server
from .test_activity_floods import RawPage


class Silent:
    """A peer that accepts connections and never says a word."""

    def __init__(self) -> None:
        self.accepted = 0
        self.open = 0
        self.url = ""
        self._server: asyncio.Server | None = None

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._hold, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def _hold(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        self.open += 1
        try:
            await reader.read()  # until the other end lets go
        finally:
            self.open -= 1
            writer.close()

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()


class Holder:
    """A peer that serves every relayed page a picture of the table at once."""

    def __init__(self) -> None:
        self.pages = 0
        self._runner: aioweb.AppRunner | None = None

    async def start(self) -> str:
        app = aioweb.Application()
        app.router.add_get("/ws", self._page)
        self._runner = aioweb.AppRunner(app)
        await self._runner.setup()
        site = aioweb.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        return f"http://127.0.0.1:{self._runner.addresses[0][1]}"

    async def _page(self, request: aioweb.Request) -> aioweb.WebSocketResponse:
        ws = aioweb.WebSocketResponse()
        await ws.prepare(request)
        hello = await ws.receive_json()
        assert hello["type"] == "hello"
        self.pages += 1
        await ws.send_json({"type": "state", "stage": "none"})
        async for _message in ws:
            pass
        return ws

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


def relay_to(bot: RummyBot, server: Server,
             where: Callable[[], str]) -> list[int]:
    """Pages of every server relayed to ``where()``; the servers asked about."""
    assert bot.activity_server is not None
    asked: list[int] = []

    async def locate(guild_id: int) -> str:
        asked.append(guild_id)
        return where()

    bot.activity_server.relays = Relays(locate, server.emu.world.client_secret)
    return asked


def members(server: Server, count: int) -> tuple[list[Actor], str]:
    """``count`` new members of the server, all in the channel's Activity."""
    world = server.emu.world
    actors = [server.emu.create_user(f"Player {n}", guild=server.guild) for n in range(count)]
    instance = ""
    for actor in actors:
        instance = world.launch_activity(actor.id, server.channel.id).instance_id
    return actors, instance


def session_of(bot: RummyBot, server: Server, actor: Actor, instance: str) -> str:
    """A session as the bot's sign-in issues it (as any of its processes would)."""
    assert bot.activity_server is not None
    return bot.activity_server.sessions.issue(actor.id, instance,
                                              Place(server.channel.id, server.guild.id),
                                              actor.name)


async def eventually(check: Callable[[], bool], what: str, limit: float = 15.0) -> None:
    for _ in range(int(limit / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"waited in vain for {what}")


async def opened(pages: list[RawPage], base: str, session: str) -> RawPage:
    page = RawPage(base, session)
    pages.append(page)
    return await page.open()


def base_of(bot: RummyBot) -> str:
    assert bot.activity_server is not None
    return f"http://127.0.0.1:{bot.activity_server.port}"


@pytest.fixture
async def raw_pages() -> Any:
    pages: list[RawPage] = []
    yield pages
    for page in pages:
        await page.close()


@pytest.fixture
async def silent() -> Any:
    peer = Silent()
    peer.url = await peer.start()
    yield peer
    await peer.stop()


async def relayed_to_silence(server: Server, launch: LaunchBot, silent: Silent,
                             monkeypatch: pytest.MonkeyPatch,
                             connect_within: float) -> tuple[RummyBot, str]:
    """The bot, every page relayed to ``silent``, each handshake given
    ``connect_within`` seconds; a session of a member in the channel's Activity."""
    monkeypatch.setattr(web.relay, "CONNECT_WITHIN", connect_within)
    bot = await launch_with_activity(server, launch)
    relay_to(bot, server, lambda: silent.url)
    (ann,), instance = members(server, 1)
    return bot, session_of(bot, server, ann, instance)


async def test_a_peer_that_never_answers_means_try_again_and_its_connection_is_let_go(
    server: Server, launch: LaunchBot, raw_pages: list[RawPage], silent: Silent,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    bot, session = await relayed_to_silence(server, launch, silent, monkeypatch, 1.0)
    page = await opened(raw_pages, base_of(bot), session)
    # The peer took the connection but never finished the handshake: the page
    # is told to come back, and nothing is left open at the peer.
    assert await page.closed_with() == TRY_AGAIN
    assert [f["type"] for f in page.frames] == ["closing"]
    assert silent.accepted == 1
    await eventually(lambda: silent.open == 0, "the peer's connection let go")


async def test_a_page_that_leaves_during_the_handshake_takes_its_connection_along(
    server: Server, launch: LaunchBot, raw_pages: list[RawPage], silent: Silent,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    # The handshake would wait a minute: only the page's going can end it sooner.
    bot, session = await relayed_to_silence(server, launch, silent, monkeypatch, 60.0)
    first = await opened(raw_pages, base_of(bot), session)
    await eventually(lambda: silent.open == 1, "the handshake under way")
    await first.close()
    await eventually(lambda: silent.open == 0, "the handshake given up with the page")
    assert (silent.accepted, silent.open) == (1, 0)
    # Pushed out by the member's newer pages, a page's handshake goes too.
    pages = [await opened(raw_pages, base_of(bot), session) for _ in range(4)]
    await eventually(lambda: silent.accepted == 5, "four more handshakes")
    await eventually(lambda: silent.open == 3, "the oldest page's handshake given up")
    assert (silent.accepted, silent.open) == (5, 3)
    assert await pages[0].closed_with() == OPENED_ELSEWHERE
    assert all(page.ws is not None and not page.ws.closed for page in pages[1:])


async def test_a_peer_that_swallows_handshakes_holds_only_its_share_of_the_relay(
    server: Server, launch: LaunchBot, raw_pages: list[RawPage], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web.relay, "CONNECT_WITHIN", 3.0)
    bot = await launch_with_activity(server, launch)
    silent, holder = Silent(), Holder()
    swallowing, healthy = await silent.start(), await holder.start()
    where = {"peer": swallowing}
    most = 0

    def held() -> bool:
        nonlocal most
        most = max(most, silent.open)
        return False

    try:
        asked = relay_to(bot, server, lambda: where["peer"])
        actors, instance = members(server, 14)
        pages = [await opened(raw_pages, base_of(bot), session_of(bot, server, actor, instance))
                 for actor in actors[:12] for _ in range(3)]
        await eventually(lambda: held() or len(asked) == len(pages), "every page relayed")
        await eventually(lambda: held() or silent.accepted == PENDING_PER_PEER, "its share")
        # A healthy peer's pages are relayed meanwhile.
        where["peer"] = healthy
        for actor in actors[12:]:
            page = await opened(raw_pages, base_of(bot), session_of(bot, server, actor, instance))
            await eventually(lambda page=page: held() or any(f["type"] == "state"
                                                             for f in page.frames),
                             "a healthy peer's page served")
        assert holder.pages == 2
        # The swallowing peer never held more than its share at once; every page
        # waiting on it is told to come back once its time is up.
        await eventually(lambda: held() or all(p.frames for p in pages), "every page told")
        assert most == PENDING_PER_PEER
        assert all(page.frames[-1] == {"type": "closing", "code": TRY_AGAIN,
                                       "reason": page.frames[-1]["reason"]} for page in pages)
        await eventually(lambda: silent.open == 0, "the peer's connections let go")
    finally:
        await silent.stop()
        await holder.stop()


async def test_as_many_pages_are_relayed_as_a_busy_process_serves(
    server: Server, launch: LaunchBot, raw_pages: list[RawPage]
) -> None:
    bot = await launch_with_activity(server, launch)
    holder = Holder()
    peer = await holder.start()
    try:
        relay_to(bot, server, lambda: peer)
        actors, instance = members(server, 40)
        pages = [await opened(raw_pages, base_of(bot), session_of(bot, server, actor, instance))
                 for actor in actors for _ in range(3)]
        await eventually(lambda: all(p.frames for p in pages), "every page answered", 30)
        served = [p for p in pages if any(f["type"] == "state" for f in p.frames)]
        assert len(served) == 120 and holder.pages == 120
    finally:
        await holder.stop()


async def test_a_member_reconnecting_in_a_loop_asks_no_more_than_their_hellos(
    server: Server, launch: LaunchBot, raw_pages: list[RawPage]
) -> None:
    bot = await launch_with_activity(server, launch)
    asked = relay_to(bot, server, lambda: "")  # nobody serves it just now: try again
    (ann,), instance = members(server, 1)
    session = session_of(bot, server, ann, instance)
    codes = []
    for _ in range(3 * HELLO_BURST):
        page = await opened(raw_pages, base_of(bot), session)
        codes.append(await page.closed_with())
        await page.close()
    # Past the member's burst, a hello is refused before the database is asked
    # where the server is played (the refill of a second or so lets one more by).
    assert len(asked) <= HELLO_BURST + 2, len(asked)
    assert codes[:HELLO_BURST] == [TRY_AGAIN] * HELLO_BURST
    assert codes.count(TOO_FAST) >= 2 * HELLO_BURST - 2, codes


async def test_a_member_signed_in_a_moment_ago_elsewhere_is_not_refused_on_an_older_list(
    server: Server, launch: LaunchBot, raw_pages: list[RawPage]
) -> None:
    bot = await launch_with_activity(server, launch)
    (ann, bob, cat), _instance = members(server, 3)
    world = server.emu.world
    instance = world.launch_activity(ann.id, server.channel.id).instance_id
    world.leave_activity(instance, bob.id)
    world.leave_activity(instance, cat.id)
    first = await opened(raw_pages, base_of(bot), session_of(bot, server, ann, instance))
    await eventually(lambda: any(f["type"] == "state" for f in first.frames), "Ann's table")
    # Bob joins the group; another process signs him in (so this one still holds
    # the list from Ann's hello, without him), and his page comes here.
    world.launch_activity(bob.id, server.channel.id)
    joining = await opened(raw_pages, base_of(bot), session_of(bot, server, bob, instance))
    await eventually(lambda: bool(joining.frames), "an answer to Bob's hello")
    assert joining.frames[0]["type"] == "state", joining.frames
    # Someone who is not in the group is refused all the same, once Discord
    # was asked again.
    stranger = await opened(raw_pages, base_of(bot), session_of(bot, server, cat, instance))
    await eventually(lambda: bool(stranger.frames), "an answer to the stranger's hello")
    assert stranger.frames[0]["type"] == "closing", stranger.frames


@pytest.mark.parametrize("after_hello", [False, True])
async def test_json_nested_past_the_parser_closes_the_page_without_a_traceback(
    server: Server, launch: LaunchBot, raw_pages: list[RawPage],
    caplog: pytest.LogCaptureFixture, after_hello: bool
) -> None:
    bot = await launch_with_activity(server, launch)
    (ann,), instance = members(server, 1)
    http = aiohttp.ClientSession()
    try:
        ws = await http.ws_connect(f"{base_of(bot)}/ws")
        if after_hello:
            await ws.send_str(json.dumps(
                {"type": "hello", "session": session_of(bot, server, ann, instance)}))
            assert (await ws.receive_json())["type"] == "state"
        with caplog.at_level(logging.ERROR):
            await ws.send_str("[" * 1000 + "]" * 1000)
            frames = [message async for message in ws]
        assert json.loads(frames[-1].data)["code"] == BAD_FRAME
        assert ws.close_code == BAD_FRAME
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        await http.close()
