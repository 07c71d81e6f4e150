"""The Activity with the bot sharded over several processes on one PostgreSQL:
Discord maps one address to the Activity, so a page may reach a process that
does not play its server. That process relays it to the one that does, and
after a takeover to its successor: the page plays the same game throughout."""

from __future__ import annotations

import asyncio
import json
import signal
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp

from bot import RummyBot
from fakediscord import Actor
from tests.bot_process import BotProcess
from tests.ports import free_port
from tests.postgres_server import PostgresServer
from web.relay import RELAYED, TRY_AGAIN, Relays

from .activity_pages import Participant, launch_with_activity
from .conftest import LaunchBot, Server
from .harness import table_message
from .test_play import start_game
from .test_standby import (
    connected_shards,
    deal_and_draw,
    tables_on_shards,
    until_logged,
)

LOOKS = 15  # round trips timed on each way in
MOVES = 8  # moves timed from page to page on each way in


async def signed_in(where: RummyBot | str, server: Server, actor: Actor, instance_id: str,
                    pages: list[Participant]) -> Participant:
    """A member's page signed in at a bot (or its Activity's address)."""
    page = Participant(where, server.emu, actor)
    pages.append(page)
    answer = await page.sign_in(instance_id)
    assert answer.status == 200, await answer.text()
    return page


async def first_state(page: Participant, session: str | None = None) -> float:
    """Connect and wait for the first picture of the table; the seconds it took."""
    page.frames.clear()
    started = time.perf_counter()
    await page.connect(session)
    while not any(f["type"] == "state" for f in page.frames):
        if page.closed is not None or time.perf_counter() - started > 5:
            raise AssertionError(f"no picture of the table: {page.frames[-2:]}, {page.closed}")
        await asyncio.sleep(0.0005)
    return time.perf_counter() - started


async def looks(page: Participant) -> list[float]:
    """Round trips of an intent that only looks (the hand's log), in seconds,
    watched for every half millisecond."""
    assert page.ws is not None
    times = []
    for _ in range(LOOKS):
        page.seq += 1
        seq, sent_at = page.seq, len(page.frames)
        started = time.perf_counter()
        await page.ws.send_str(json.dumps({"type": "intent", "seq": seq, "op": "log"}))
        while not any(f.get("seq") == seq for f in page.frames[sent_at:]):
            assert time.perf_counter() - started < 5, "no answer to a look"
            await asyncio.sleep(0.0005)
        times.append(time.perf_counter() - started)
        answer = next(f for f in page.frames[sent_at:] if f.get("seq") == seq)
        assert answer["type"] == "log", answer
        await asyncio.sleep(0.2)  # within a member's allowance of frames
    return times


async def connected(where: str, earlier: Participant, pages: list[Participant]) -> Participant:
    """The member's page connected again, at ``where``, with the session and
    the numbering of its intents it held (a session is good in every
    process), holding its first picture of the table."""
    page = Participant(where, earlier.emu, earlier.actor)
    pages.append(page)
    page.session, page.seq = earlier.session, earlier.seq
    await first_state(page, page.session)
    return page


async def moves_seen(two: list[Participant], moves: int) -> list[float]:
    """Moves played in turn from two players' pages (draw, then throw back the
    card drawn): for each, the seconds from one page sending it to the other
    page holding the picture that shows it."""
    times = []
    for _ in range(moves):
        mover = next(p for p in two if p.state()["turn"] == p.state()["you"])
        watcher = next(p for p in two if p is not mover)
        state, seen = mover.state(), watcher.state()["version"]
        intent: dict[str, object] = {"op": "draw"}
        if state["phase"] != "draw":
            intent = {"op": "discard", "cards": [state["fresh"] or state["hand"][-1]]}
        mover.seq += 1
        started = time.perf_counter()
        assert mover.ws is not None
        await mover.ws.send_str(json.dumps({"type": "intent", "seq": mover.seq,
                                            "version": state["version"], **intent}))
        while watcher.state()["version"] == seen:
            assert time.perf_counter() - started < 5, "the other page never saw the move"
            await asyncio.sleep(0.0005)
        times.append(time.perf_counter() - started)
        while mover.state()["version"] == state["version"]:
            assert time.perf_counter() - started < 5, "the mover's page never saw its move"
            await asyncio.sleep(0.0005)
        await asyncio.sleep(0.15)  # within a member's allowance of frames
    return times


def answered_or_closed(page: Participant) -> Callable[[], bool]:
    return lambda: page.closed is not None or any(f["type"] == "state" for f in page.frames)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def test_a_page_reaching_another_process_plays_there_and_follows_a_takeover(
    server: Server, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    emu = server.emu
    emu.world.enable_activities()
    tables = tables_on_shards(server, 2)
    url = postgres_server.new_database()
    ports = {name: free_port() for name in ("zero", "one", "standby")}

    def settings(name: str, **more: str) -> dict[str, str]:
        return {"DATABASE_URL": url, "SHARD_COUNT": "2", "LEASE_CHECK": "0.1",
                "LEASE_TTL": "1", "LOG_LEVEL": "INFO",
                "DISCORD_CLIENT_SECRET": emu.world.client_secret,
                "WEB_HOST": "127.0.0.1", "WEB_PORT": str(ports[name]), **more}

    def base(name: str) -> str:
        return f"http://127.0.0.1:{ports[name]}"

    bots: dict[str, BotProcess] = {}
    pages: list[Participant] = []
    try:
        for name, shard in (("zero", "0"), ("one", "1")):
            bots[name] = await BotProcess.start(
                emu, tmp_path / "unused", tmp_path / f"{name}.log", log_level="INFO",
                extra_env=settings(name, SHARD_IDS=shard))
        await emu._wait_until(lambda: connected_shards(server) == {0, 1}, 60)
        for name in ("zero", "one"):
            await until_logged(bots[name], "the Activity's table is served")
        # A game in the server of shard 1, dealt in the chat; its first mover drew.
        channel, players = tables[1]
        mover = await deal_and_draw(channel, players)
        instance = emu.world.launch_activity(mover.actor.id, channel.id)

        # The page reaches shard 1's own process, then shard 0's, which relays it.
        same = await signed_in(base("one"), server, mover.actor, instance.instance_id, pages)
        same_first = await first_state(same)
        same_looks = await looks(same)
        own_picture = same.state()
        await same.close()
        page = Participant(base("zero"), emu, mover.actor)
        pages.append(page)
        page.session, page.seq = same.session, same.seq
        relayed_first = await first_state(page, same.session)
        relayed_looks = await looks(page)
        picture = page.state()
        assert picture["stage"] == "playing" and picture["you"] == own_picture["you"]
        assert sorted(picture["hand"]) == sorted(own_picture["hand"]) and len(picture["hand"]) == 11

        # A move through the relay is played by shard 1's process, and the chat shows it.
        thrown = picture["hand"][-1]
        answer = await page.send("discard", cards=[thrown])
        assert answer["type"] == "done", answer
        await page.until(lambda: page.state()["discard_top"] == thrown, "the discard")
        other = next(p for p in players if p is not mover)
        for _ in range(200):
            if "Your turn" in (reply := await other.open_hand()).text():
                break
            await asyncio.sleep(0.05)
        assert "Your turn" in reply.text(), reply.text()

        # Moves' journeys from one page to the other: both pages at shard 1's own
        # process, then both at shard 0's, relayed.
        emu.world.launch_activity(other.actor.id, channel.id)
        theirs = await signed_in(base("one"), server, other.actor, instance.instance_id, pages)
        journeys: dict[str, list[float]] = {}
        two = [page, theirs]
        for name in ("one", "zero"):
            for each in two:
                await each.close()
            two = [await connected(base(name), each, pages) for each in two]
            journeys[name] = await moves_seen(two, MOVES)
        page = two[0]
        await two[1].close()
        print(f"\nfirst picture: same process {ms(same_first)}, relayed {ms(relayed_first)}; "
              f"a look's round trip (median of {LOOKS}): same process "
              f"{ms(statistics.median(same_looks))}, relayed "
              f"{ms(statistics.median(relayed_looks))}; a move's journey page to page "
              f"(median of {MOVES}): same process {ms(statistics.median(journeys['one']))}, "
              f"relayed {ms(statistics.median(journeys['zero']))} (slowest "
              f"{ms(max(journeys['one']))}, {ms(max(journeys['zero']))})")

        # A standby waits; shard 1's process dies with no warning.
        before = page.state()
        bots["standby"] = await BotProcess.start(
            emu, tmp_path / "unused", tmp_path / "standby.log", log_level="INFO",
            extra_env=settings("standby", STANDBY="true"))
        await until_logged(bots["standby"], "standing by")
        bots["one"].process.send_signal(signal.SIGKILL)
        await bots["one"].process.wait()
        # The relayed page is told to reconnect, not left hanging.
        assert await asyncio.wait_for(page.wait_closed(), 10) == 1013
        await until_logged(bots["standby"], "serving shards 1")
        # The chat's clicks reach the successor once its shard is on the gateway.
        await emu._wait_until(lambda: connected_shards(server) == {0, 1}, 30)
        await until_logged(bots["standby"], "the Activity's table is served")

        # Reconnected to the same address, the page plays on with the successor:
        # the same hand, the discard kept, and the other player's draw shows.
        # Until the successor says where it serves, the page is told to try again
        # (never shown an empty table to start a game on).
        again = Participant(base("zero"), emu, mover.actor)
        pages.append(again)
        told: list[int | None] = []
        for _ in range(100):
            again.session = page.session
            await again.connect()
            await again.until(answered_or_closed(again), "an answer")
            if again.closed is None:
                break
            told.append(again.closed[0])
            await again.close()
            again = Participant(base("zero"), emu, mover.actor)
            pages.append(again)
            await asyncio.sleep(0.1)
        assert set(told) <= {TRY_AGAIN}, told
        after = again.state()
        assert after["stage"] == "playing", after["stage"]
        for kept in ("discard_top", "stock", "turn", "phase"):
            assert after[kept] == before[kept], (kept, after[kept], before[kept])
        assert sorted(after["hand"]) == sorted(before["hand"])
        stock = after["stock"]
        if after["turn"] == after["you"]:
            assert (await again.send("draw"))["type"] == "done"
        else:
            await other.open_hand()
            drawn = await other.draw()
            assert "You drew" in drawn.text(), drawn.text()
        await again.until(lambda: again.state()["stock"] == stock - 1, "the next draw")
        assert "hand 1" in table_message(emu, channel).text().lower()
    finally:
        for page_open in pages:
            await page_open.close()
        for bot in bots.values():
            await bot.stop()
    for name in ("zero", "standby"):
        assert bots[name].log_counts()[0] == 0, bots[name].log_tail()
    # Processes starting together race to upload the card faces, and the loser
    # of each race takes the winner's emoji: those are the only refusals.
    others = [p for p in emu.take_problems() if "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" not in p]
    assert others == []


async def test_a_page_is_never_relayed_twice_and_an_unreachable_process_means_try_again(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch_with_activity(server, launch)
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    assert bot.activity_server is not None
    # As if another process held this server's shard, at an address nobody answers.
    asked: list[int] = []

    async def elsewhere(guild_id: int) -> str:
        asked.append(guild_id)
        return f"http://127.0.0.1:{free_port()}"

    secret = server.emu.world.client_secret
    bot.activity_server.relays = Relays(elsewhere, secret)
    pages: list[Participant] = []
    try:
        instance = server.emu.world.launch_activity(server.ann.id, server.channel.id)
        page = await signed_in(bot, server, server.ann, instance.instance_id, pages)
        await page.connect()
        # Told to try again, in a frame and by the close code, and nothing played.
        assert await page.wait_closed() == TRY_AGAIN
        assert [f["type"] for f in page.frames] == ["closing"]
        assert asked == [server.guild.id]
        # Nobody serves it just now (a takeover under way): try again, too.

        async def nobody_yet(guild_id: int) -> str:
            asked.append(guild_id)
            return ""

        relays = bot.activity_server.relays = Relays(nobody_yet, secret)
        waiting = Participant(bot, server.emu, server.ann)
        pages.append(waiting)
        await waiting.connect(page.session)
        assert await waiting.wait_closed() == TRY_AGAIN
        assert [f["type"] for f in waiting.frames] == ["closing"]
        assert asked == [server.guild.id] * 2
        # Anybody's claim to be another process is no proof: the page is handled as
        # any other (here: try again), never shown a table this process does not
        # play. Signed with another bot's secret, or a minute old, neither.
        stranger = Relays(nobody_yet, "another bot's secret")
        for claim in ("1", relays.vouch(time.time() - 120), stranger.vouch(),
                      relays.vouch()[:-1] + "é"):
            forged = Participant(bot, server.emu, server.ann)
            pages.append(forged)
            await forged.connect(page.session, headers={RELAYED: claim})
            assert await forged.wait_closed() == TRY_AGAIN, claim
            assert [f["type"] for f in forged.frames] == ["closing"]
        assert asked == [server.guild.id] * 6
        # A connection another process opened for a page is served here, whatever
        # the lease says: a lease that moved meanwhile cannot bounce it around.
        again = Participant(bot, server.emu, server.ann)
        pages.append(again)
        again.session = page.session
        await again.connect(headers={RELAYED: relays.vouch()})
        await again.until(lambda: any(f["type"] == "state" for f in again.frames),
                          "the table, served here")
        assert again.state()["stage"] == "playing" and asked == [server.guild.id] * 6
    finally:
        for open_page in pages:
            await open_page.close()


async def reconnect_loops(base: str, session: str, loops: int, seconds: float) -> int:
    """One member's connect, hello and close, in ``loops`` loops at once for
    ``seconds``, as fast as the process answers; the hellos sent."""
    sent = 0
    deadline = time.monotonic() + seconds
    async with aiohttp.ClientSession() as http:

        async def loop() -> None:
            nonlocal sent
            while time.monotonic() < deadline:
                try:
                    async with http.ws_connect(f"{base}/ws") as ws:
                        await ws.send_str(json.dumps({"type": "hello", "session": session}))
                        sent += 1
                        await ws.receive(timeout=5)
                except (aiohttp.ClientError, TimeoutError):
                    await asyncio.sleep(0.01)

        await asyncio.gather(*(loop() for _ in range(loops)))
    return sent


async def test_a_member_flooding_another_process_and_a_frozen_holder_strand_nobody(
    server: Server, postgres_server: PostgresServer, tmp_path: Path
) -> None:
    emu = server.emu
    emu.world.enable_activities()
    tables = tables_on_shards(server, 2)
    url = postgres_server.new_database()
    ports = {name: free_port() for name in ("zero", "one")}

    def base(name: str) -> str:
        return f"http://127.0.0.1:{ports[name]}"

    bots: dict[str, BotProcess] = {}
    pages: list[Participant] = []
    try:
        # Leases as long as in production: a process that stops renewing still
        # serves for most of half a minute, so a freeze of a few seconds costs
        # it nothing, and only a renewal refused for good would make it step down.
        for name, shard in (("zero", "0"), ("one", "1")):
            bots[name] = await BotProcess.start(
                emu, tmp_path / "unused", tmp_path / f"{name}.log", log_level="INFO",
                extra_env={"DATABASE_URL": url, "SHARD_COUNT": "2", "SHARD_IDS": shard,
                           "LEASE_TTL": "30", "DISCORD_CLIENT_SECRET": emu.world.client_secret,
                           "WEB_HOST": "127.0.0.1", "WEB_PORT": str(ports[name])})
        await emu._wait_until(lambda: connected_shards(server) == {0, 1}, 60)
        for name in ("zero", "one"):
            await until_logged(bots[name], "the Activity's table is served")
        channel, players = tables[1]
        mover = await deal_and_draw(channel, players)
        instance = emu.world.launch_activity(mover.actor.id, channel.id)
        page = await signed_in(base("zero"), server, mover.actor, instance.instance_id, pages)

        # One member reconnects in 40 loops at the process that does not play
        # their server: it keeps renewing its own leases, and says so once.
        hellos = await reconnect_loops(base("zero"), page.session, loops=40, seconds=5.0)
        print(f"\n{hellos} hellos in 5 s at the process that relays")
        assert bots["zero"].process.returncode is None
        zero_log = bots["zero"].log_path.read_text(errors="replace")
        assert "cannot confirm the shard leases" not in zero_log
        assert zero_log.count("cannot tell which process") <= 1
        await asyncio.sleep(1.5)  # the member's allowance of hellos refills a little
        await first_state(page)
        assert page.state()["stage"] == "playing"

        # The process that plays the server freezes: the relayed page is closed
        # to try again rather than left open with nothing coming, and so is a
        # page that comes meanwhile.
        bots["one"].process.send_signal(signal.SIGSTOP)
        try:
            assert await page.wait_closed(15) == TRY_AGAIN
            newcomer = Participant(base("zero"), emu, mover.actor)
            pages.append(newcomer)
            await newcomer.connect(page.session)
            assert await newcomer.wait_closed(15) == TRY_AGAIN
            assert [f["type"] for f in newcomer.frames] == ["closing"]
        finally:
            bots["one"].process.send_signal(signal.SIGCONT)
        # Thawed, it serves the page again, the same table.
        again = Participant(base("zero"), emu, mover.actor)
        pages.append(again)
        await first_state(again, page.session)
        assert sorted(again.state()["hand"]) == sorted(page.state()["hand"])
    finally:
        for page_open in pages:
            await page_open.close()
        for bot in bots.values():
            await bot.stop()
    # Processes starting together race to upload the card faces: the loser of
    # each race is refused, and takes the winner's emoji.
    others = [p for p in emu.take_problems() if "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" not in p]
    assert others == []
