"""The Activity in a real browser: the real Embedded App SDK in the bot's table
page, framed by the stand-in's Discord app (which answers the SDK's
handshake, AUTHORIZE, AUTHENTICATE and the participants), all in local play."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from typing import Any

from playwright.async_api import FrameLocator, Page, Response, WebSocket

from .conftest import Browsing, LocalBot
from .test_local_play import (
    ACTION_TIMEOUT,
    host_panel,
    open_hand,
    plain_turn,
    press,
    shown,
    slash,
    start_against_a_computer,
    table,
)

MOST_TURNS = 120


async def open_activity(page: Page) -> FrameLocator:
    """Press Open table, as the member the page shows: the Activity opens over the chat."""
    await press(page, await table(page), "Open table")
    await page.locator("#activity:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    frame = page.frame_locator("#activity-frame").frame_locator("#activity")
    await frame.locator(".seat").first.wait_for(timeout=ACTION_TIMEOUT)
    return frame


async def my_activity_turn(frame: FrameLocator) -> str:
    """Wait until the Activity offers a draw (``turn``) or shows the hand's end (``over``)."""
    for _ in range(600):
        if await frame.locator("#stock.lit").count():
            return "turn"
        if await frame.locator("#sheet:not([hidden])").count():
            return "over"
        await asyncio.sleep(0.05)
    raise AssertionError("the Activity never offered a turn")


def latest_state(frames: list[str]) -> dict[str, Any]:
    return json.loads(next(f for f in reversed(frames) if f.startswith('{"type":"state"')))


async def fresh_state(frames: list[str], old: str) -> dict[str, Any]:
    """The page's state once it is no longer at position ``old``."""
    for _ in range(300):
        state = latest_state(frames)
        if state["version"] != old:
            return state
        await asyncio.sleep(0.05)
    raise AssertionError("the page's table never moved on")


RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def loneliest(choices: list[str], hand: list[str]) -> str:
    """The card furthest from any meld: fewest cards of its rank or near it in its suit."""
    def rank(code: str) -> int:
        return RANKS.get(code[:-1]) or int(code[:-1])

    def company(code: str) -> tuple[int, int]:
        near = sum(1 for other in hand if other != code and (
            rank(other) == rank(code)
            or (other[-1] == code[-1] and abs(rank(other) - rank(code)) <= 2)))
        return near, -rank(code)

    return min(choices, key=company)


def fits(card: str, hand: list[str], melds: list[dict[str, Any]]) -> bool:
    """Whether ``card`` looks worth taking: near a card in hand, or on a meld's end."""
    def rank(code: str) -> int:
        return RANKS.get(code[:-1]) or int(code[:-1])

    near = any(rank(other) == rank(card)
               or (other[-1] == card[-1] and abs(rank(other) - rank(card)) <= 1)
               for other in hand)
    onto = any(all(rank(c) == rank(card) for c in meld["cards"])
               or (all(c[-1] == card[-1] for c in meld["cards"])
                   and rank(card) in (min(map(rank, meld["cards"])) - 1,
                                      max(map(rank, meld["cards"])) + 1))
               for meld in melds)
    return near or onto


async def greedy_turn(frame: FrameLocator, frames: list[str]) -> str:
    """A turn played by tapping, greedily: draw, meld the largest meld the page
    lights, lay off what fits (tapping the meld), then discard; the card thrown,
    or "" if the hand ended first. The moves are read off the page's own state."""
    state = latest_state(frames)
    top = state["discard_top"]
    if state["legal"]["take"] and top and fits(top, state["hand"], state["melds"]):
        await frame.locator("#discard").click()  # a tap on the pile takes its top card
    else:
        await frame.locator("#stock").click()
    state = await fresh_state(frames, state["version"])
    while state["stage"] == "playing":
        legal = state["legal"]
        if legal["melds"]:
            for code in max(legal["melds"], key=len):
                await frame.locator(f'#hand .card[data-code="{code}"]').click()
            await frame.locator('[data-move="meld"]').click()
        elif legal["lay_offs"]:
            lay_off = legal["lay_offs"][0]
            for code in lay_off["cards"]:
                await frame.locator(f'#hand .card[data-code="{code}"]').click()
            onto = lay_off["meld"]
            await frame.locator(f'.meld[data-drop="meld:{onto}"]').click()
        else:
            code = loneliest(legal["discards"], state["hand"])
            await frame.locator(f'#hand .card[data-code="{code}"]').click()
            await frame.locator('[data-move="discard"]').click()
            await fresh_state(frames, state["version"])
            return str(code)
        state = await fresh_state(frames, state["version"])
    return ""


async def next_mover(frame: FrameLocator, chat: Page) -> str:
    """Whose move it is: Ann in the Activity, Bob in the chat, or ``over``."""
    bob_hand = shown(chat).filter(has_text="Your hand").last
    for _ in range(600):
        if await frame.locator("#sheet:not([hidden])").count():
            return "over"
        if await frame.locator("#stock.lit").count():
            return "Ann"
        if await bob_hand.locator(".btn:not(.disabled)", has_text="Draw from stock").count():
            return "Bob"
        await asyncio.sleep(0.05)
    raise AssertionError("nobody's turn came")


async def drawn_against_a_computer(
    local_bot: LocalBot, browsing: Browsing, **size: int
) -> tuple[Page, FrameLocator]:
    """Ann's page and her Activity, in a game against a computer, her card drawn."""
    page = await browsing.open(local_bot.url, **size)
    await start_against_a_computer(page)
    frame = await open_activity(page)
    assert await my_activity_turn(frame) == "turn"
    await frame.locator("#stock").click()
    await frame.locator("#hand .card:not([disabled])").first.wait_for(timeout=ACTION_TIMEOUT)
    return page, frame


def parent_frames(page: Page) -> Any:
    return page.frame_locator("#activity-frame").locator("body").evaluate(
        "() => window.rpcFrames")


async def test_the_real_sdk_handshake_reaches_the_table(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url)
    policies: list[str] = []

    async def served(response: Response) -> None:
        if re.search(r"/activity-app/[\w.-]+/\?", response.url):
            policies.append(await response.header_value("Content-Security-Policy") or "")

    page.on("response", served)
    await start_against_a_computer(page)
    frame = await open_activity(page)
    # The page came through Discord's proxy, under Discord's policy instead of
    # its own (scripts of its origin, and inline ones the proxy nonces), and
    # works under it.
    assert len(policies) == 1 and policies[0].startswith("script-src 'self' 'unsafe-eval' 'nonce-")
    # The SDK asked Discord's app what a real one would be asked, and was answered.
    rpc = await parent_frames(page)
    asked = [m["message"][1].get("cmd") for m in rpc
             if m["to"] == "discord" and m["message"][0] == 1]
    assert asked[:2] == ["AUTHORIZE", "AUTHENTICATE"]
    handshake = next(m["message"][1] for m in rpc if m["message"][0] == 0)
    assert handshake["frame_id"] and handshake["client_id"]
    assert "SUBSCRIBE" in asked
    # The table is Ann's: her seat, her ten cards, her move.
    assert await frame.locator(".seat.you .name").text_content() == "Ann"
    assert await frame.locator("#hand .card").count() == 10
    assert await my_activity_turn(frame) == "turn"


async def test_two_members_play_one_hand_through_the_two_doors(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    bob = await browsing.open(local_bot.url + "?as=bob")
    frames: list[str] = []

    def capture(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(str(payload)))

    ann.on("websocket", capture)
    # Bob only ever throws back what he drew, so Ann may need cards he keeps:
    # the pile turned over ends the hand the second time the stock runs out,
    # where a reshuffle could go on for hundreds of turns.
    await slash(ann, "rummy start", hands="1", empty_stock="Turn the pile over")
    panel = await host_panel(ann)
    lobby = shown(bob).filter(has=bob.locator(".btn", has_text="Join")).last
    await press(bob, lobby, "Join")
    await panel.filter(has_text="Bob").wait_for(timeout=ACTION_TIMEOUT)
    await press(ann, await host_panel(ann), "Start")
    frame = await open_activity(ann)
    await open_hand(bob)
    checked = 0
    for _ in range(MOST_TURNS):
        mover = await next_mover(frame, bob)
        if mover == "over":
            break
        if mover == "Ann":
            # Bob, in the chat, sees Ann's move as his turn coming (next_mover).
            if not await greedy_turn(frame, frames):
                break
        else:
            if not checked:
                # Ann taps the stock out of turn: she is told why, and nothing moves.
                await frame.locator("#stock").click()
                await frame.locator("#note.refused", has_text="Not your turn").wait_for(
                    timeout=ACTION_TIMEOUT)
            before = await frame.locator("#discard-count").text_content()
            held = await plain_turn(bob)
            if held is None:
                break  # Bob's draw from an empty stock ended the hand
            # Ann, in the Activity, sees Bob's discard land on the pile.
            await frame.locator("#discard-count").filter(
                has_not_text=before or "").wait_for(timeout=ACTION_TIMEOUT)
            # Nothing Ann's page holds now, in its DOM or its latest frame, is a card
            # Bob holds.
            shown_codes = set(await frame.locator("[data-code]").evaluate_all(
                "cards => cards.map(c => c.dataset.code)"))
            latest = next(f for f in reversed(frames) if f.startswith('{"type":"state"'))
            in_frame = {code for code in held if f'"{code}"' in latest}
            assert not shown_codes & set(held) and not in_frame, (shown_codes & set(held),
                                                                  in_frame)
            checked += 1
    else:
        status = await frame.locator("#status").text_content()
        raise AssertionError(f"the hand went on past {MOST_TURNS} turns; the table says {status!r}")
    await frame.locator("#sheet:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    assert "is over" in (await frame.locator("#sheet h2").text_content() or "")
    # One result, recorded once.
    await asyncio.sleep(0.5)
    with sqlite3.connect(local_bot.home / "rummy-local.sqlite3") as db:
        (matches,) = db.execute("select count(*) from matches").fetchone()
    assert matches == 1
    assert checked > 0
    # Ann's page received her own view only: a hand, never the others' hands.
    states = [json.loads(f) for f in frames if f.startswith('{"type":"state"')]
    assert states and all("hands" not in state for state in states)


async def test_a_killed_bot_comes_back_to_the_activity_mid_turn(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    _page, frame = await drawn_against_a_computer(local_bot, browsing)
    held = set(await frame.locator("#hand .card").evaluate_all(
        "cards => cards.map(c => c.dataset.code)"))
    assert len(held) == 11
    await asyncio.sleep(1)  # the stand-in keeps its side a moment after a change
    await local_bot.stop(kill=True)
    await frame.locator("#banner:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    await local_bot.start()
    # The page reconnects by itself; the drawn card is still there, drawn once.
    await frame.locator("#banner").wait_for(state="hidden", timeout=60_000)
    again = set(await frame.locator("#hand .card").evaluate_all(
        "cards => cards.map(c => c.dataset.code)"))
    assert again == held
    cards = frame.locator("#hand .card")
    await cards.first.click()
    if not await frame.locator('[data-move="discard"]').is_enabled():
        await cards.first.click()
        await cards.nth(1).click()
    await frame.locator('[data-move="discard"]').click()
    await frame.locator("#hand .card").nth(9).wait_for(timeout=ACTION_TIMEOUT)
    assert await frame.locator("#hand .card").count() == 10
    # The connection dropped while the bot was down, and the browser said so.
    browsing.console_errors[:] = [e for e in browsing.console_errors if "WebSocket" not in e
                                  and "Failed to load resource" not in e]


async def test_the_whole_table_fits_a_phone_and_every_control_is_reachable(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page, frame = await drawn_against_a_computer(local_bot, browsing, width=400, height=780)
    inner = page.frame_locator("#activity-frame").frame_locator("#activity").locator("html")
    size = await inner.evaluate("() => [innerWidth, innerHeight, "
                                "document.documentElement.scrollWidth]")
    width, height, scroll_width = size
    assert scroll_width <= width, "the table scrolls sideways on a phone"
    controls = frame.locator("#hand .card, #moves button, #tools button, #tools select, "
                             "#stock, #discard")
    for index in range(await controls.count()):
        box = await controls.nth(index).evaluate(
            "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, "
            "r.bottom] }")
        left, top, right, bottom = box
        assert left >= -1 and right <= width + 1 and top >= -1 and bottom <= height + 1, box
    # A card dragged onto the discard pile is discarded.
    card = frame.locator("#hand .card").first
    await card.drag_to(frame.locator("#discard"))
    await frame.locator("#hand .card").nth(10).wait_for(state="detached", timeout=ACTION_TIMEOUT)
    assert await frame.locator("#hand .card").count() == 10


async def test_a_member_who_watches_shows_to_the_players_and_sees_no_hand(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    cat = await browsing.open(local_bot.url + "?as=cat")
    await start_against_a_computer(ann)
    players = await open_activity(ann)
    watching = await open_activity(cat)
    # Discord tells the players' pages who else has the Activity open.
    await players.locator(".watcher", has_text="Cat").wait_for(timeout=ACTION_TIMEOUT)
    assert await watching.locator("#hand .card").count() == 0
    assert await watching.locator(".seat.you").count() == 0
    # Cat closes the Activity: Discord tells the players' pages she has gone.
    await cat.locator("#activity-close").click()
    await players.locator(".watcher", has_text="Cat").wait_for(state="detached",
                                                              timeout=ACTION_TIMEOUT)


async def test_a_note_in_the_old_language_goes_when_the_player_switches_language(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    _page, frame = await drawn_against_a_computer(local_bot, browsing)
    # A careless tap: two cards picked, then the discard pile. The refusal shows,
    # in English.
    cards = frame.locator("#hand .card:not([disabled])")
    await cards.nth(0).click()
    await cards.nth(1).click()
    await frame.locator("#discard").click()
    toast = frame.locator("#note")
    await frame.locator("#note.refused").wait_for(timeout=ACTION_TIMEOUT)
    refusal = await toast.text_content()
    assert refusal
    await frame.locator("#language").select_option("de")
    await frame.locator("#status").filter(has_text="Du bist dran").wait_for(timeout=ACTION_TIMEOUT)
    # What the page says now is German, the English refusal gone.
    await toast.filter(has_text="Gespeichert.").wait_for(timeout=ACTION_TIMEOUT)
    assert refusal not in (await toast.text_content() or "")
    # Read, "Gespeichert." gives way to why the two picked cards make nothing,
    # which had waited behind it, in German too.
    await frame.locator("#note.why").wait_for(timeout=ACTION_TIMEOUT)
    explained = await toast.text_content() or ""
    assert explained.startswith("✋") and "Gespeichert." not in explained
