"""The Activity's server in the real bot, on the emulator: the handshake with
Discord (OAuth2 code, /users/@me, the instance), each participant's WebSocket,
and the one table that the Activity and the chat's buttons both play."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from app.settings import ActivitySettings, Settings, SettingsError
from bot import RummyBot
from chat.table_side import chat_side
from engine.cards import full_deck
from tables import Place
from web.sessions import Sessions
from web.socket import MAX_FRAME

from .activity_pages import (
    ACTIVITY,
    Participant,
    first_player_page,
    heads_up,
    launch_with_activity,
    open_page,
)
from .conftest import LaunchBot, Server
from .harness import rig_hand, table_message
from .test_play import in_turn_order, start_game


# --- the handshake ----------------------------------------------------------------------
async def test_the_entry_point_command_survives_the_bots_command_sync(
    server: Server, launch: LaunchBot
) -> None:
    # Discord refuses an overwrite of the global commands that leaves the Entry
    # Point out (code 50240): the bot's start-up sync keeps it, beside its own.
    before = server.emu.world.enable_activities()
    await launch(ACTIVITY, activity=ActivitySettings(
        client_secret=server.emu.world.client_secret, port=0))
    after = server.emu.world.entry_point()
    assert after is not None and after["id"] == before["id"] and after["type"] == 4
    # Discord's own handler launches it (the bot answers no interaction), in
    # servers, DMs and group DMs, for a server's install and a person's own;
    # not in the bot's DM, where there is nobody to play with.
    assert after["handler"] == 2 and after["contexts"] == [0, 2]
    assert after["integration_types"] == [0, 1]
    rummy = server.emu.world.find_command("rummy", None)
    assert rummy is not None
    assert rummy["contexts"] == [0, 1, 2] and rummy["integration_types"] == [0, 1]


async def test_a_client_id_of_another_application_stops_the_start_with_its_reason(
    server: Server, launch: LaunchBot, tmp_path: Path
) -> None:
    # Discord answers an instance's lookup only to the Activity's own bot: with
    # another id every sign-in would fail, so the bot does not start at all.
    server.emu.world.enable_activities()
    wrong = server.emu.world.application_id + 1
    settings = ActivitySettings(client_secret=server.emu.world.client_secret, port=0,
                                client_id=wrong)
    bot = RummyBot(Settings(token=server.emu.token, database_path=tmp_path / "r.sqlite3",
                            game=ACTIVITY, activity=settings))
    try:
        with pytest.raises(SettingsError, match=f"DISCORD_CLIENT_ID is {wrong}") as refused:
            await bot.login(server.emu.token)  # log-in runs the start-up that checks it
    finally:
        await bot.close()
    assert str(server.emu.world.application_id) in str(refused.value)
    assert bot.activity_server is None
    # Its own id is welcome.
    right = dataclasses.replace(settings, client_id=server.emu.world.application_id)
    bot = await launch(ACTIVITY, activity=right)
    assert bot.activity_server is not None

async def test_discords_wait_at_sign_in_is_passed_on_to_the_page(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    limited = server.emu.fail_next("POST /oauth2/token", 429, retry_after=3.0)
    instance = server.emu.world.launch_activity(server.ann.id, server.channel.id)
    page = Participant(bot, server.emu, server.ann)
    pages.append(page)
    answer = await page.sign_in(instance.instance_id)
    # Not "Discord could not be asked" (503): Discord's own wait, for the page to keep.
    assert (answer.status, answer.headers["Retry-After"]) == (429, "3")
    assert "Discord asks for a moment" in (await answer.json())["error"]
    assert limited.hits == 1
    assert (await page.sign_in(instance.instance_id)).status == 200

async def test_a_member_in_the_instance_gets_a_session_for_its_channel(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = await open_page(bot, server, server.ann, pages)
    session = Sessions(server.emu.world.client_secret).read(page.session)
    assert (session.user_id, session.channel_id) == (server.ann.id, server.channel.id)
    assert page.state()["stage"] == "none"  # no game in the channel yet


async def test_a_code_discord_refuses_gets_no_session(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    instance = server.emu.world.launch_activity(server.ann.id, server.channel.id)
    page = Participant(bot, server.emu, server.ann)
    pages.append(page)
    answer = await page.http.post(f"{page.base}/api/token",
                                  json={"code": "made-up", "instance_id": instance.instance_id})
    assert answer.status == 401
    # A code is good once: the second use of a real one is refused too.
    code = server.emu.world.issue_oauth_code(server.ann.id, ["identify"])
    body = {"code": code, "instance_id": instance.instance_id}
    assert (await page.http.post(f"{page.base}/api/token", json=body)).status == 200
    assert (await page.http.post(f"{page.base}/api/token", json=body)).status == 401


async def test_a_member_not_in_the_instance_gets_no_session(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    instance = server.emu.world.launch_activity(server.ann.id, server.channel.id)
    page = Participant(bot, server.emu, server.bob)  # Bob never launched it
    pages.append(page)
    answer = await page.sign_in(instance.instance_id)
    assert answer.status == 403
    assert "not in that instance" in (await answer.json())["error"]


@pytest.mark.parametrize("body", [b"not json", b"[]", b'{"code": 5, "instance_id": "i"}',
                                  b'{"code": "c"}', b"x" * 5000])
async def test_a_malformed_token_request_is_refused_with_a_reason(
    server: Server, launch: LaunchBot, pages: list[Participant], body: bytes
) -> None:
    bot = await launch_with_activity(server, launch)
    page = Participant(bot, server.emu, server.ann)
    pages.append(page)
    answer = await page.http.post(f"{page.base}/api/token", data=body,
                                  headers={"Content-Type": "application/json"})
    assert answer.status in (400, 413)


async def test_the_page_is_never_cached_and_its_files_are_cached_for_good(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = Participant(bot, server.emu, server.ann)
    pages.append(page)
    answer = await page.http.get(f"{page.base}/")
    html = await answer.text()
    assert answer.headers["Cache-Control"] == "no-store"
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    # The page names its client id and files by content-hashed names only.
    assert str(server.emu.world.application_id) in html and "@asset" not in html
    script = "assets/" + html.split('"main":"')[1].split('"')[0]
    assert script.startswith("assets/main.") and script.endswith(".js")
    # Its one inline script, which starts the modules, is allowed by its hash.
    assert "script-src 'self' 'sha256-" in answer.headers["Content-Security-Policy"]
    served = await page.http.get(f"{page.base}/{script}", headers={"Accept-Encoding": "gzip"})
    assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert served.headers["Content-Encoding"] == "gzip"
    assert served.headers["Content-Type"].startswith("text/javascript")
    assert "@asset" not in await served.text()
    missing = await page.http.get(f"{page.base}/assets/table.000000000000.js")
    assert missing.status == 404


# --- authority -----------------------------------------------------------------------------
async def test_a_forged_or_expired_session_is_closed_with_its_reason(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    forged = Sessions("not the bot's secret").issue(server.ann.id, "i", Place(server.channel.id, 1))
    expired = Sessions(server.emu.world.client_secret, lifetime=-1).issue(
        server.ann.id, "i", Place(server.channel.id, 1))
    for token in (forged, expired, "garbage"):
        page = Participant(bot, server.emu, server.ann)
        pages.append(page)
        await page.connect(token)
        assert await page.wait_closed() == 4401
        assert not any(f["type"] == "state" for f in page.frames)


async def test_a_member_who_left_the_instance_is_closed(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = await open_page(bot, server, server.ann, pages)
    instance = server.emu.world.launch_activity(server.bob.id, server.channel.id)
    server.emu.world.leave_activity(instance.instance_id, server.ann.id)
    assert bot.activity_server is not None
    bot.activity_server._instances.clear()  # what Discord said is asked again
    again = Participant(bot, server.emu, server.ann)
    pages.append(again)
    await again.connect(page.session)
    assert await again.wait_closed() == 4403


async def test_an_instance_in_another_channel_shows_and_plays_only_that_channel(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    await heads_up(server, bot)
    elsewhere = await open_page(bot, server, server.ann, pages, server.other_channel.id)
    assert elsewhere.state()["stage"] == "none"
    answer = await elsewhere.send("draw")
    assert answer["type"] == "refused"
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert len(table.match.hand.hand_of(table.match.hand.turn or "")) == 10


async def test_an_intent_out_of_turn_is_refused_and_changes_nothing(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    _first, second = await heads_up(server, bot)
    page = await open_page(bot, server, second.actor, pages)
    before = page.state()["version"]
    answer = await page.send("draw")
    assert answer["type"] == "refused"
    assert "Not your turn" in answer["text"]
    assert page.state()["version"] == before


async def test_a_replayed_intent_is_played_once(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot, first, page = await first_player_page(server, launch, pages)
    await page.drew()
    assert len(page.state()["hand"]) == 11
    # The same intent again, as a page sends it after a reconnect.
    again = await page.send("draw", seq=page.seq)
    assert again["type"] == "duplicate"
    # Sent anew from the old picture of the table: out of date, not played.
    stale = dict(page.state(), version="playing.1.0.draw.10")
    page.frames.append(stale)
    answer = await page.send("draw")
    assert answer["type"] == "refused" and "moved on" in answer["text"]
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert len(table.match.hand.hand_of(first.key)) == 11


async def test_an_oversized_or_malformed_frame_closes_the_page_and_changes_nothing(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    first, _second = await heads_up(server, bot)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    position = table.position
    for bad, code in (("x" * (MAX_FRAME + 1), 1009), ("not json", 4400), ("[1, 2]", 4400)):
        page = await open_page(bot, server, first.actor, pages)
        assert page.ws is not None
        await page.ws.send_str(bad)
        assert await page.wait_closed() == code
    # A well-formed frame with a bad intent is answered, not played.
    page = await open_page(bot, server, first.actor, pages)
    answer = await page.send("meld", cards=["ZZ", "7H", "8H"])
    assert answer["type"] == "refused"
    answer = await page.send("explode")
    assert answer["type"] == "error"
    assert table.position == position


async def test_a_page_that_sends_too_fast_is_closed(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = await open_page(bot, server, server.ann, pages)
    assert page.ws is not None
    for seq in range(1, 60):
        if page.ws.closed:
            break
        await page.ws.send_str(json.dumps({"type": "intent", "seq": seq, "op": "log"}))
    assert await page.wait_closed() == 4429


# --- one table, two doors --------------------------------------------------------------------
async def test_the_activity_and_the_buttons_play_one_table(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    first, second = await heads_up(server, bot)
    page = await open_page(bot, server, first.actor, pages)
    watcher = await open_page(bot, server, server.cat, pages)  # no seat: watches
    # The public table offers the Activity.
    assert any(b.get("label") == "Open table" for b in table_message(
        server.emu, server.channel).buttons())
    state = page.state()
    assert state["you"] == first.key and state["legal"]["draw"]
    await page.drew()
    state = page.state()
    discard = state["legal"]["discards"][0]
    assert (await page.send("discard", cards=[discard])).get("type") == "done"
    # The other player, in the chat, sees the move and plays by the buttons.
    await second.open_hand()
    assert "Draw from stock" in [b["label"] for b in second.view.buttons() if b.get("label")]
    await second.draw()
    await page.until(lambda: page.state()["seats"][1 if state["seats"][0]["you"] else 0][
        "cards"] == 11, "the chat player's draw on the Activity")
    # The watcher sees the table but never a hand, and may not act.
    assert watcher.state()["hand"] == []
    assert watcher.state()["legal"] is None
    assert (await watcher.send("draw"))["type"] == "refused"


async def test_open_table_tells_a_member_without_use_activities_why_not(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch_with_activity(server, launch)
    await heads_up(server, bot)
    server.emu.set_permissions(server.channel, server.cat, use_embedded_activities=False)
    table = table_message(server.emu, server.channel)
    refused = await server.cat.click(table, label="Open table")
    assert refused.type == 4 and refused.ephemeral and refused.activity_instance is None
    assert "Use Activities" in refused.text()
    assert server.emu.world.activity_instances == {}
    # A member with the permission gets the Activity.
    opened = await server.bob.click(table, label="Open table")
    assert opened.type == 12 and opened.activity_instance is not None

async def test_no_frame_holds_another_players_card_while_the_hand_is_live(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    first, second = await heads_up(server, bot)
    page = await open_page(bot, server, second.actor, pages)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    hidden_at_each_frame: list[tuple[set[str], str]] = []
    seen = 0

    def check() -> None:
        nonlocal seen
        match = table.match
        assert match is not None
        other = {c.code for c in match.hand.hand_of(first.key)}
        for frame in page.frames[seen:]:
            if frame.get("type") == "state" and frame.get("outcome") is None:
                hidden_at_each_frame.append((other, json.dumps(frame)))
        seen = len(page.frames)

    for _ in range(6):  # a few turns each
        await first.open_hand()
        await first.draw()
        await first.discard(first.hand()[0])
        await page.until(lambda: page.state()["legal"] is not None, "Bob's turn")
        check()
        await page.drew()
        check()
        card = page.state()["legal"]["discards"][0]
        assert (await page.send("discard", cards=[card]))["type"] == "done"
        check()
        if table.stage.value != "playing":
            break
    assert hidden_at_each_frame
    for other, text in hidden_at_each_frame:
        codes = {token.strip('"') for token in text.replace("[", ",").replace("]", ",").split(",")}
        assert not other & codes, f"{other & codes} leaked"


async def test_a_player_with_the_activity_open_is_not_called_by_dm_to_their_turn(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    server.emu.world.enable_activities()
    config = dataclasses.replace(ACTIVITY, turn_nudge_after=0.3)
    bot = await launch(config, activity=ActivitySettings(
        client_secret=server.emu.world.client_secret, port=0))
    first, second = await heads_up(server, bot)
    page = await open_page(bot, server, second.actor, pages)
    dms_before = {p.key: len(p.actor.dms()) for p in (first, second)}
    # The chat player moves: the Activity player's turn starts while they look at it.
    await first.open_hand()
    await first.draw()
    await first.discard(first.hand()[0])
    await page.until(lambda: page.state()["legal"] is not None, "the Activity player's turn")
    await asyncio.sleep(0.8)
    assert len(second.actor.dms()) == dms_before[second.key]
    # They move in the Activity; the chat player, who has not looked since, is called.
    await page.drew()
    assert (await page.send("discard", cards=[page.state()["legal"]["discards"][0]]))[
        "type"] == "done"
    for _ in range(100):
        if len(first.actor.dms()) > dms_before[first.key]:
            break
        await asyncio.sleep(0.02)
    assert len(first.actor.dms()) > dms_before[first.key]


async def test_a_pick_that_makes_no_move_is_explained_in_the_players_words(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    _bot, _first, page = await first_player_page(server, launch, pages)
    await page.drew()
    hand = page.state()["hand"]
    states_before = sum(1 for f in page.frames if f["type"] == "state")
    answer = await page.send("why", cards=[hand[0], hand[-1]])
    assert answer["type"] == "why" and "Two cards are no meld" in answer["text"]
    await asyncio.sleep(0.3)
    # Asking changes nothing, so no new picture of the table follows the answer.
    assert sum(1 for f in page.frames if f["type"] == "state") == states_before


async def test_a_move_reaches_its_asker_once_after_its_answer(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    _bot, _first, page = await first_player_page(server, launch, pages)
    sent_at = len(page.frames)
    assert (await page.send("draw"))["type"] == "done"
    # A look asked next is answered after anything the draw's save pushed.
    assert (await page.send("log"))["type"] == "log"
    frames = page.frames[sent_at:]
    assert [frame["type"] for frame in frames] == ["done", "state", "log"]
    assert frames[1]["phase"] == "play" and len(frames[1]["hand"]) == 11


async def test_a_sort_and_a_refusal_are_each_followed_by_one_picture(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    first, second = await heads_up(server, bot)
    page = await open_page(bot, server, first.actor, pages)
    waiting = await open_page(bot, server, second.actor, pages)
    sent_at = len(page.frames)
    # A sort saves nothing and leaves the table's position as it was: its
    # answer alone carries the hand in its new order.
    assert (await page.send("sort"))["type"] == "done"
    assert (await page.send("log"))["type"] == "log"
    frames = page.frames[sent_at:]
    assert [frame["type"] for frame in frames] == ["done", "state", "log"]
    assert frames[1]["labels"]["sort"] == "Sort by rank"
    sent_at = len(waiting.frames)
    assert (await waiting.send("draw"))["type"] == "refused"
    assert (await waiting.send("log"))["type"] == "log"
    assert [frame["type"] for frame in waiting.frames[sent_at:]] == ["refused", "state", "log"]


async def test_a_connection_dropped_mid_turn_resyncs_and_plays_its_move_once(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot, first, page = await first_player_page(server, launch, pages)
    version = page.state()["version"]
    assert page.ws is not None
    # The draw goes out and the connection drops before its answer is read.
    await page.ws.send_str(json.dumps({"type": "intent", "seq": 1, "op": "draw",
                                       "version": version}))
    await page.ws.close()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    for _ in range(200):
        if len(table.match.hand.hand_of(first.key)) == 11:
            break
        await asyncio.sleep(0.01)
    # The page comes back with its session and sends the unanswered draw again.
    again = Participant(bot, server.emu, first.actor)
    pages.append(again)
    again.session, again.seq = page.session, 1
    await again.connect()
    await again.until(lambda: any(f["type"] == "state" for f in again.frames), "the full state")
    assert again.state()["phase"] == "play" and len(again.state()["hand"]) == 11
    answer = await again.send("draw", seq=1)
    assert answer["type"] == "duplicate"
    assert len(table.match.hand.hand_of(first.key)) == 11


async def test_rummy_start_in_a_channel_with_the_activity_open_shows_the_new_lobby(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = await open_page(bot, server, server.bob, pages)
    assert page.state()["stage"] == "none"
    await server.ann.slash(server.channel, "rummy start")
    await page.until(lambda: page.state()["stage"] == "lobby", "the lobby on the Activity")
    assert [seat["name"] for seat in page.state()["seats"]] == ["Ann"]


async def test_without_a_client_secret_the_activity_is_off_and_nothing_else_changes(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    assert bot.activity_server is None
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    labels = [b.get("label") for b in table_message(server.emu, server.channel).buttons()]
    assert "Open table" not in labels and "Show hand" in labels


async def test_a_flood_of_sign_ins_is_told_to_wait_without_asking_discord(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = Participant(bot, server.emu, server.ann)
    pages.append(page)
    asked_before = sum(1 for r in server.emu.traffic.requests if r.path == "/oauth2/token")
    statuses = [
        (await page.http.post(f"{page.base}/api/token",
                              json={"code": "nope", "instance_id": "i"})).status
        for _ in range(60)
    ]
    assert statuses.count(429) >= 20 and set(statuses) <= {401, 429}
    # Only the sign-ins let through were traded with Discord.
    asked = sum(1 for r in server.emu.traffic.requests if r.path == "/oauth2/token")
    assert asked - asked_before == statuses.count(401)


async def test_a_match_won_in_the_activity_is_rematched_and_joined_from_it(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    server.ann.user.locale = server.bob.user.locale = "fr"  # their Discord apps speak French
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, hands=1)
    first, second = in_turn_order(bot, server, seated)
    # The first to move holds three melds: a draw, three melds and a discard end it.
    going_out = ["2C", "3C", "4C", "5C", "6D", "6H", "6S", "9S", "9H", "9D"]
    other = ["AS", "3S", "5S", "7S", "JS", "KS", "2H", "4H", "8H", "10H"]
    rest = [c.code for c in full_deck() if c.code not in going_out + other]
    await rig_hand(bot, server.channel.id, {first.key: going_out, second.key: other},
                   stock=rest[1:], discard=rest[:1])
    page = await open_page(bot, server, first.actor, pages)
    guest = await open_page(bot, server, second.actor, pages)
    await page.drew()
    for meld in (going_out[:4], going_out[4:7], going_out[7:]):
        assert (await page.send("meld", cards=meld))["type"] == "done"
    last = page.state()["hand"][0]
    assert (await page.send("discard", cards=[last]))["type"] == "done"
    await page.until(lambda: page.state()["stage"] == "finished", "the match's end")
    assert page.state()["outcome"]["match_over"] and page.state()["outcome"]["chart"]
    with sqlite3.connect(bot.settings.database_path) as db:
        assert db.execute("select count(*) from matches").fetchone() == (1,)
    # A rematch from the Activity: a new lobby in the channel, posted for everyone.
    assert (await page.send("rematch"))["type"] == "done"
    await guest.until(lambda: guest.state()["stage"] == "lobby", "the rematch's lobby")
    lobby = bot.game.tables.get(server.channel.id)
    assert lobby is not None and lobby.invited == [second.actor.id]
    await until_posted(bot, server)
    # The other player takes their seat back from the Activity: the match deals itself.
    assert (await guest.send("join"))["type"] == "done"
    await guest.until(lambda: guest.state()["stage"] == "playing", "the new deal")
    assert len(guest.state()["hand"]) == 10
    # The guest's page keeps speaking the language their seat had (the table's is English).
    assert guest.state()["language"] == "fr"
    assert [s["name"] for s in guest.state()["seats"]] == [s.name for s in lobby.seats]
    # A second rematch is refused: the channel has its game.
    assert (await page.send("rematch"))["type"] == "refused"


async def until_posted(bot: RummyBot, server: Server) -> None:
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    for _ in range(200):
        if chat_side(table).message_id is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the rematch's lobby was never posted")


async def test_a_player_switches_doors_in_the_middle_of_a_turn(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    _bot, first, page = await first_player_page(server, launch, pages)
    await first.open_hand()
    await page.drew()  # drawn in the Activity...
    drawn = set(page.state()["hand"])
    await asyncio.sleep(0.2)
    # ...the chat's hand message shows the card at once, and the turn ends there.
    assert set(first.hand()) == drawn
    await first.discard(first.hand()[0])
    await page.until(lambda: page.state()["legal"] is None, "the turn passed on the page")
    assert len(page.state()["hand"]) == 10
