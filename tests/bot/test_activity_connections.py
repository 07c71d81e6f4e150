"""What a stranger can hold open or send to the Activity's server, in the real
bot on the emulator over real sockets: idle and slow connections are closed,
a socket that never says hello is closed however it pings, pings count, the
connections are capped below what Discord needs and idle ones make room for
pages, players behind one proxy sign in together, one client's bad sign-ins
or bodies leave the others theirs, and unreadable input leaves one short log
line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import socket

import aiohttp
import pytest

import web.server
import web.socket
from app.settings import ActivitySettings
from bot import RummyBot
from web.connections import KEPT_FOR_DISCORD, connection_limit, raise_open_files_limit

from .activity_pages import (
    ACTIVITY,
    Participant,
    first_player_page,
    launch_with_activity,
    open_page,
)
from .conftest import LaunchBot, Server


def port_of(bot: RummyBot) -> int:
    assert bot.activity_server is not None and bot.activity_server.port is not None
    return bot.activity_server.port


async def closed_by_server(sock: socket.socket, within: float = 5.0) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    try:
        while True:
            data = await asyncio.wait_for(loop.sock_recv(sock, 4096), within)
            if not data:
                return True
    except TimeoutError:
        return False
    except ConnectionError:
        return True


async def connect(port: int) -> socket.socket:
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    return sock


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deadlines of half a second instead of ten, so that a test sees them pass."""
    monkeypatch.setattr(web.server, "REQUEST_WITHIN", 0.5)
    monkeypatch.setattr(web.socket, "HELLO_WITHIN", 0.5)


# --- connections ----------------------------------------------------------------------------
async def test_idle_and_slowly_sent_requests_are_closed(
    server: Server, launch: LaunchBot, quick: None
) -> None:
    bot = await launch_with_activity(server, launch)
    idle = [await connect(port_of(bot)) for _ in range(5)]
    slow = await connect(port_of(bot))
    await asyncio.get_running_loop().sock_sendall(slow, b"GET / HTTP/1.1\r\nHost: x\r\n")

    async def dribble() -> None:
        with contextlib.suppress(OSError):
            for _ in range(50):
                await asyncio.get_running_loop().sock_sendall(slow, b"X-a: b\r\n")
                await asyncio.sleep(0.1)

    dribbling = asyncio.create_task(dribble())
    try:
        assert all([await closed_by_server(sock) for sock in idle])
        assert await closed_by_server(slow)
    finally:
        dribbling.cancel()
        for sock in [*idle, slow]:
            sock.close()


async def test_a_socket_that_pings_but_never_says_hello_is_closed(
    server: Server, launch: LaunchBot, quick: None
) -> None:
    bot = await launch_with_activity(server, launch)
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{port_of(bot)}/ws", autoping=False)

        async def ping_now_and_then() -> None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                while not ws.closed:
                    await ws.ping()
                    await asyncio.sleep(0.1)

        pinging = asyncio.create_task(ping_now_and_then())
        frames = []
        async with asyncio.timeout(5):
            async for message in ws:
                if message.type is aiohttp.WSMsgType.TEXT:
                    frames.append(json.loads(message.data))
        pinging.cancel()
        assert ws.close_code == 4400
        assert frames == [{"type": "closing", "code": 4400, "reason": "say hello first"}]


async def test_a_flood_of_pings_is_closed_like_any_flood(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch_with_activity(server, launch)
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{port_of(bot)}/ws", autoping=False)
        with contextlib.suppress(ConnectionError, RuntimeError):
            for _ in range(500):
                await ws.ping()
        async with asyncio.timeout(5):
            async for _message in ws:
                pass
        assert ws.close_code == 4429


async def test_busy_connections_past_the_limit_are_turned_away_and_the_chat_plays_on(
    server: Server, launch: LaunchBot, pages: list[Participant], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web.server, "connection_limit", lambda: 8)
    bot = await launch_with_activity(server, launch)
    async with aiohttp.ClientSession() as http:
        # WebSockets waiting to be told hello: busy, never evicted for a newcomer.
        held = [await http.ws_connect(f"http://127.0.0.1:{port_of(bot)}/ws")
                for _ in range(8)]
        extra = await connect(port_of(bot))
        answer = await asyncio.wait_for(asyncio.get_running_loop().sock_recv(extra, 200), 5)
        assert answer.startswith(b"HTTP/1.1 503")
        extra.close()
        # The chat's door is not the Activity's: a slash command is answered.
        reply = await server.ann.slash(server.channel, "rummy rules")
        assert reply.answered
        for ws in held:
            await ws.close()
    # Once they are gone, a page opens again.
    await asyncio.sleep(0.2)
    page = await open_page(bot, server, server.ann, pages)
    assert page.state()["type"] == "state"


async def test_idle_connections_at_the_limit_make_room_for_a_page(
    server: Server, launch: LaunchBot, pages: list[Participant], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web.server, "connection_limit", lambda: 8)
    bot = await launch_with_activity(server, launch)
    held = [await connect(port_of(bot)) for _ in range(8)]
    try:
        await asyncio.sleep(0.1)
        # A sign-in, the WebSocket and its hello: each takes an idle one's place.
        page = await open_page(bot, server, server.ann, pages)
        assert page.state()["type"] == "state"
        assert await closed_by_server(held[0])
    finally:
        for sock in held:
            sock.close()


def test_the_limit_leaves_descriptors_for_discord() -> None:
    assert connection_limit(1024) == 1024 - KEPT_FOR_DISCORD
    assert connection_limit(1 << 20) == 4096
    assert connection_limit(100) == 16  # a host set that low still serves a table


def test_the_open_files_limit_is_raised_to_what_the_system_allows() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 256:
        pytest.fail(f"this machine's hard limit on open files is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, hard))
    try:
        raised = raise_open_files_limit()
        now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert raised == now and now > 128
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# --- sign-ins ---------------------------------------------------------------------------------
async def test_one_clients_flood_of_bad_codes_leaves_everyone_else_their_sign_in(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    base = f"http://127.0.0.1:{port_of(bot)}"
    # The flood comes from an address of its own (127.0.0.2 is this machine too).
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with aiohttp.ClientSession(connector=connector) as attacker:
        answers = [await attacker.post(f"{base}/api/token",
                                       json={"code": f"bad-{n}", "instance_id": "i-1"})
                   for n in range(40)]
    statuses = [a.status for a in answers]
    assert statuses.count(429) >= 30
    told = next(a for a in answers if a.status == 429)
    assert int(told.headers["Retry-After"]) >= 1
    for actor in (server.ann, server.bob, server.cat, server.dan, server.eve):
        await open_page(bot, server, actor, pages)  # each signs in: 200


async def sign_in_from(page: Participant, instance_id: str,
                       headers: dict[str, str]) -> int:
    """A page's sign-in, as a proxy passes it on with ``headers``: its status."""
    code = page.emu.world.issue_oauth_code(page.actor.id, ["identify"])
    answer = await page.http.post(f"{page.base}/api/token", headers=headers,
                                  json={"code": code, "instance_id": instance_id})
    return answer.status


async def test_players_behind_one_proxy_address_sign_in_together(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    guild = server.guild
    people = [server.ann, server.bob, server.cat, server.dan, server.eve, server.fay,
              *(server.emu.create_user(f"Player {n}", guild=guild) for n in range(4))]
    proxied = {"X-Forwarded-For": "203.0.113.7"}  # Discord's proxy, as the host's proxy saw it
    instance = server.emu.world.launch_activity(people[0].id, server.channel.id)
    for actor in people[1:]:
        server.emu.world.launch_activity(actor.id, server.channel.id)
    signing_in = [Participant(bot, server.emu, actor) for actor in people]
    pages.extend(signing_in)
    statuses = await asyncio.gather(*(sign_in_from(page, instance.instance_id, proxied)
                                      for page in signing_in))
    assert statuses == [200] * 10


async def test_empty_posts_from_a_players_proxy_address_use_up_none_of_its_sign_ins(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    proxied = {"X-Forwarded-For": "203.0.113.7"}
    base = f"http://127.0.0.1:{port_of(bot)}"
    async with aiohttp.ClientSession() as attacker:
        answers = [await attacker.post(f"{base}/api/token", headers=proxied)
                   for _ in range(30)]
    assert {answer.status for answer in answers} == {400}
    for actor in (server.ann, server.bob, server.cat):
        instance = server.emu.world.launch_activity(actor.id, server.channel.id)
        page = Participant(bot, server.emu, actor)
        pages.append(page)
        assert await sign_in_from(page, instance.instance_id, proxied) == 200


async def test_a_forwarded_for_from_a_peer_that_is_no_trusted_proxy_is_not_believed(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    base = f"http://127.0.0.1:{port_of(bot)}"
    # 127.0.0.2 is this machine too, but no trusted proxy (only 127.0.0.1 and ::1 are).
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with aiohttp.ClientSession(connector=connector) as attacker:
        answers = [await attacker.post(
            f"{base}/api/token", headers={"X-Forwarded-For": f"198.51.100.{n}"},
            json={"code": f"bad-{n}", "instance_id": "i-1"}) for n in range(40)]
    statuses = [answer.status for answer in answers]
    # One client, whatever it says: its refused codes use up its own allowance.
    assert statuses.count(401) <= 8 and statuses.count(429) >= 30
    await open_page(bot, server, server.ann, pages)  # 200: everybody else's allowance stands


async def test_a_body_nested_too_deep_is_a_bad_request_logged_without_a_traceback(
    server: Server, launch: LaunchBot, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await launch_with_activity(server, launch)
    caplog.set_level(logging.DEBUG)
    async with aiohttp.ClientSession() as http:
        for _ in range(3):
            answer = await http.post(f"http://127.0.0.1:{port_of(bot)}/api/token",
                                     data="[" * 2000, headers={"Content-Type": "application/json"})
            assert answer.status == 400
            assert "JSON object" in (await answer.json())["error"]
    assert [r for r in caplog.records if r.exc_info is not None] == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_a_wrong_client_secret_is_logged_once_and_players_told_plainly(
    server: Server, launch: LaunchBot, pages: list[Participant],
    caplog: pytest.LogCaptureFixture,
) -> None:
    server.emu.world.enable_activities()
    bot = await launch(ACTIVITY, activity=ActivitySettings(client_secret="not-the-secret",
                                                           port=0))
    caplog.set_level(logging.INFO, logger="web")
    for _ in range(2):
        page = Participant(bot, server.emu, server.ann)
        pages.append(page)
        instance = server.emu.world.launch_activity(server.ann.id, server.channel.id)
        answer = await page.sign_in(instance.instance_id)
        assert answer.status == 503
        assert "not set up right" in (await answer.json())["error"]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "invalid_client" in errors[0].getMessage()
    assert "not-the-secret" not in caplog.text


# --- input nobody should send -----------------------------------------------------------------
async def test_a_session_with_a_character_outside_ascii_is_refused_quietly(
    server: Server, launch: LaunchBot, pages: list[Participant],
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = await launch_with_activity(server, launch)
    page = Participant(bot, server.emu, server.ann)
    pages.append(page)
    await page.connect("abc.déf")
    assert await page.wait_closed() == 4401
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_unreadable_requests_leave_one_short_line(
    server: Server, launch: LaunchBot, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await launch_with_activity(server, launch)
    caplog.set_level(logging.DEBUG)
    for _ in range(30):
        sock = await connect(port_of(bot))
        await asyncio.get_running_loop().sock_sendall(
            sock, b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n")
        await closed_by_server(sock)
        sock.close()
    about = [r for r in caplog.records
             if r.name in ("web.visitors", "aiohttp.server") and r.levelno >= logging.INFO]
    assert len(about) == 1
    assert about[0].exc_info is None and len(about[0].getMessage()) < 300


async def test_the_page_names_who_may_frame_it_and_leaks_no_referrer_or_version(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch_with_activity(server, launch)
    async with aiohttp.ClientSession() as http:
        page = await http.get(f"http://127.0.0.1:{port_of(bot)}/")
    policy = page.headers["Content-Security-Policy"]
    ancestors = policy.split("frame-ancestors", 1)[1].split(";")[0].split()
    assert "*" not in ancestors and "https://discord.com" in ancestors
    assert "https://*.discordsays.com" in ancestors
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert "aiohttp" not in page.headers["Server"].lower()


# --- members who leave ------------------------------------------------------------------------
async def test_a_member_who_leaves_is_closed_when_the_others_see_them_go(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    ann = await open_page(bot, server, server.ann, pages)
    cat = await open_page(bot, server, server.cat, pages)
    instance = server.emu.world.activity_instance(
        next(iter(server.emu.world.activity_instances)))
    assert instance is not None
    server.emu.world.leave_activity(instance.instance_id, server.cat.id)
    assert ann.ws is not None
    # Ann's page saw the participants change (Discord's SDK tells it) and says so.
    await ann.ws.send_str(json.dumps({"type": "participants"}))
    assert await cat.wait_closed() == 4403
    assert ann.ws is not None and not ann.ws.closed


async def test_a_player_who_left_cannot_move_a_moment_later(
    server: Server, launch: LaunchBot, pages: list[Participant],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web.socket, "MOVE_FRESH", 0.0)
    bot, first, page = await first_player_page(server, launch, pages)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    position = table.position
    for instance in list(server.emu.world.activity_instances.values()):
        server.emu.world.leave_activity(instance.instance_id, first.actor.id)
    assert page.ws is not None
    await page.ws.send_str(json.dumps({"type": "intent", "seq": 99, "op": "draw",
                                       "version": page.state()["version"]}))
    assert await page.wait_closed() == 4403
    assert table.position == position
