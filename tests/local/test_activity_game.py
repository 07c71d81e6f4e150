"""The Activity as a game of its own, in a real browser with the real SDK: opened
from the App Launcher in a voice channel with no game, a match played there from
an empty lobby to a rematch against a computer; a member joining its lobby from
the chat; a turn by keyboard alone and one by finger on a phone; and axe's
accessibility checks on the Activity and on local play's page."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from playwright.async_api import FrameLocator, Locator, Page

from .axe_check import serious_violations
from .conftest import Browsing, LocalBot
from .test_activity import MOST_TURNS, greedy_turn, my_activity_turn, parent_frames
from .test_local_play import ACTION_TIMEOUT, press, shown

VOICE = "Game Night"


async def in_channel(page: Page, name: str) -> None:
    channel = page.locator("#channels button", has_text=name)
    if not await channel.is_visible():
        await page.locator("#menu").click()  # a phone: the channels are behind ☰
    await channel.click()
    await page.locator("#where", has_text=name).wait_for(timeout=ACTION_TIMEOUT)


async def launch_here(page: Page) -> FrameLocator:
    """Discord's App Launcher in the channel shown: the Activity opens over it."""
    await page.locator("#launch").click()
    await page.locator("#activity:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    frame = page.frame_locator("#activity-frame").frame_locator("#activity")
    await frame.locator("#app[aria-busy=false]").wait_for(timeout=ACTION_TIMEOUT)
    return frame


def frames_of(page: Page) -> list[str]:
    """Every frame the Activity's WebSocket receives (the page under test)."""
    received: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: received.append(str(payload))))
    return received


async def test_a_match_from_the_launcher_in_a_voice_channel_to_a_rematch(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann")
    frames = frames_of(page)
    await in_channel(page, VOICE)
    frame = await launch_here(page)
    clicks = 0
    # No game here: the Activity offers one, with the server's house rules.
    await frame.locator("#lobby:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    await frame.locator("summary").click()
    await frame.locator('select[name="length"]').select_option("hands:1")
    await frame.locator('[data-move="open"]').click()
    clicks += 1
    await frame.locator('[data-move="add_easy"]:not([disabled])').click()
    clicks += 1
    await frame.locator('[data-move="start"]:not([disabled])').click()
    clicks += 1
    # The game is in the voice channel's chat too: its table, in the chat's form.
    await shown(page).filter(has_text="Rummy — hand 1").first.wait_for(timeout=ACTION_TIMEOUT)
    assert await my_activity_turn(frame) == "turn"
    await frame.locator("#stock").click()
    card = frame.locator("#hand .card:not([disabled])").first
    await card.wait_for(timeout=ACTION_TIMEOUT)
    await card.click()
    await frame.locator('[data-move="discard"]:not([disabled])').click()
    clicks += 3
    print(f"\nclicks from the launch to the first card played, alone: {clicks + 1}")
    # The hand plays out in the Activity; the match is one hand.
    for _ in range(MOST_TURNS):
        if await my_activity_turn(frame) == "over":
            break
        await greedy_turn(frame, frames)
    else:
        raise AssertionError("the hand never ended")
    sheet = frame.locator("#sheet:not([hidden])")
    await sheet.wait_for(timeout=ACTION_TIMEOUT)
    assert await sheet.locator(".winners").count() == 1  # the match is over: who won
    assert await sheet.locator(".legend li").count() == 2  # the chart names each player
    await sheet.locator('[data-move="rematch"]').click()
    # Against a computer alone there is nobody to wait for: the next match is dealt.
    await frame.locator("#match", has_text="hand 1").wait_for(timeout=ACTION_TIMEOUT)
    await frame.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    await frame.locator("#sheet").wait_for(state="hidden", timeout=ACTION_TIMEOUT)
    # Its status in Discord says what it plays.
    presence = await page.frame_locator("#activity-frame").locator("body").evaluate(
        "() => window.presence")
    assert presence and "hand 1" in presence["details"]


async def test_a_member_joins_the_activitys_lobby_from_the_chat(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    bob = await browsing.open(local_bot.url + "?as=bob")
    await in_channel(ann, VOICE)
    frame = await launch_here(ann)
    await frame.locator('[data-move="open"]').click()
    await frame.locator('[data-move="start"]').wait_for(timeout=ACTION_TIMEOUT)
    await in_channel(bob, VOICE)
    lobby = shown(bob).filter(has_text="a new game is forming").last
    await lobby.wait_for(timeout=ACTION_TIMEOUT)
    # Alone, Ann may not start yet: a game needs two seats.
    assert await frame.locator('[data-move="start"]').is_disabled()
    await press(bob, lobby, "Join")
    # Ann sees Bob take his seat, and may start with him.
    await frame.locator(".lobby .seat", has_text="Bob").wait_for(timeout=ACTION_TIMEOUT)
    seated = await frame.locator(".lobby .seat .name").all_text_contents()
    assert seated == ["Ann", "Bob"]
    await frame.locator('[data-move="start"]:not([disabled])').click()
    await frame.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    # One game: Ann's Activity deals her ten cards, and seats Bob opposite with ten.
    assert await frame.locator("#hand .card").count() == 10
    assert await frame.locator("#seats .seat .name").all_text_contents() == ["Bob"]
    # Bob, in the chat, has the same game's table to play from.
    await shown(bob).filter(has_text="Rummy — hand 1").first.wait_for(timeout=ACTION_TIMEOUT)
    assert await shown(bob).locator(".btn", has_text="Show hand").count() >= 1


async def started_alone(local_bot: LocalBot, browsing: Browsing, *,
                        sent: list[dict[str, Any]] | None = None, **size: Any) -> tuple[
        Page, FrameLocator]:
    """Ann's Activity in the voice channel, a game against a computer dealt;
    ``sent`` collects every frame her Activity sends."""
    page = await browsing.open(local_bot.url + "?as=ann", **size)
    if sent is not None:
        page.on("websocket", lambda ws: ws.on(
            "framesent", lambda payload: sent.append(json.loads(payload))))
    await in_channel(page, VOICE)
    frame = await launch_here(page)
    await frame.locator('[data-move="open"]').click()
    await frame.locator('[data-move="add_easy"]:not([disabled])').click()
    await frame.locator('[data-move="start"]:not([disabled])').click()
    await frame.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    return page, frame


async def test_a_turn_by_keyboard_alone(local_bot: LocalBot, browsing: Browsing) -> None:
    page, frame = await started_alone(local_bot, browsing)
    assert await my_activity_turn(frame) == "turn"
    keys = 0

    async def key(name: str) -> None:
        nonlocal keys
        await page.keyboard.press(name)
        keys += 1

    # The Activity has the keyboard from the start: D draws.
    await key("d")
    fresh = frame.locator("#hand .card.fresh")
    await fresh.wait_for(timeout=ACTION_TIMEOUT)
    # The focus is on the card drawn: along the hand with the arrows, a card
    # picked with Space.
    assert await frame.locator("#hand .card:focus").get_attribute("data-code") == (
        await fresh.get_attribute("data-code"))
    # A move's key with nothing picked is answered, as a careless tap is (not
    # counted: a mistake, not the turn).
    await page.keyboard.press("m")
    refusal = frame.locator("#note.refused")
    await refusal.wait_for(timeout=ACTION_TIMEOUT)
    assert "3" in (await refusal.text_content() or "")  # at least 3 cards to meld
    await key("ArrowRight")
    await key("Space")
    picked = frame.locator("#hand .card.picked")
    await picked.wait_for(timeout=ACTION_TIMEOUT)
    code = await picked.get_attribute("data-code")
    focused = await frame.locator("#hand .card:focus").get_attribute("data-code")
    assert focused == code  # the focus stays on the card picked
    if not await frame.locator('[data-move="discard"]').is_enabled():
        await key("Space")  # that card may not go back: another one
        await key("ArrowRight")
        await key("Space")
    await key("d")
    await frame.locator("#hand .card").nth(10).wait_for(state="detached",
                                                        timeout=ACTION_TIMEOUT)
    print(f"\nkeys for a turn (draw, pick, discard): {keys}")
    # A desktop has no orientation to lock.
    assert not any(m["message"][1].get("cmd") == "SET_ORIENTATION_LOCK_STATE"
                   for m in await parent_frames(page)
                   if m["to"] == "discord" and m["message"][0] == 1)


async def test_a_turn_by_finger_on_a_phone(local_bot: LocalBot, browsing: Browsing) -> None:
    page, frame = await started_alone(local_bot, browsing, width=360, height=740,
                                       touch=True)
    assert await my_activity_turn(frame) == "turn"
    await frame.locator("#stock").tap()
    card = frame.locator("#hand .card:not([disabled])").last
    await card.wait_for(timeout=ACTION_TIMEOUT)
    await card.tap()
    await frame.locator('[data-move="discard"]:not([disabled])').tap()
    await frame.locator("#hand .card").nth(10).wait_for(state="detached",
                                                        timeout=ACTION_TIMEOUT)
    # Nothing of the table runs off a phone's screen, and every control is a thumb's size.
    small = await frame.locator("#moves button, #tools button, #stock, #discard").evaluate_all(
        "els => els.filter(e => e.offsetParent && (e.offsetHeight < 44 || e.offsetWidth < 44))"
        ".map(e => e.id || e.dataset.move)")
    assert small == []
    wide = await frame.locator("body").evaluate("b => b.scrollWidth <= window.innerWidth")
    assert wide
    # Launched on a phone, the table asked Discord to keep it upright.
    locks = [m["message"][1]["args"] for m in await parent_frames(page)
             if m["to"] == "discord" and m["message"][0] == 1
             and m["message"][1].get("cmd") == "SET_ORIENTATION_LOCK_STATE"]
    assert locks == [{"lock_state": 2}]  # the SDK's PORTRAIT


def on_the_page(statements: str) -> str:
    """A script that runs ``statements`` with the page's own ``app`` and
    ``drawMelds`` (its modules loaded again by their hashed names: the same
    instances), to draw what the deal may not have put on the table yet."""
    return """async () => {
  const loaded = performance.getEntriesByType("resource").map((entry) => entry.name);
  const module = (name) => import(loaded.find((url) => url.includes(`/${name}.`)));
  const { app } = await module("state");
  const { drawMelds } = await module("drawing");
  """ + statements + "\n}"


TEN_TO_QUEEN = '{ number: 1, cards: ["10H", "JH", "QH"], owners: ["Ann"] }'
SHOW_A_MELD = on_the_page(
    f"app.state = {{ ...app.state, melds: [{TEN_TO_QUEEN}] }};\n  drawMelds();")

# The share of a card's width and height, from its top left, of a point where it
# is the card on top.
VISIBLE_POINT = """(card) => {
  const box = card.getBoundingClientRect();
  for (const fy of [0.5, 0.3, 0.15, 0.7, 0.85]) {
    for (const fx of [0.5, 0.3, 0.7]) {
      const under = document.elementFromPoint(box.left + box.width * fx, box.top + box.height * fy);
      if (under && under.closest(".card") === card) return [fx, fy];
    }
  }
  throw new Error("no part of the card is in sight");
}"""


async def finger_drag(page: Page, card: Locator, onto: Locator) -> None:
    """A finger's drag, as a touch screen sends it (Chromium's own touch events,
    not a mouse's): down on the card, along in small steps, up over the target."""
    # Where the card is once it has landed: a card just drawn still glides in.
    await card.evaluate("card => Promise.allSettled(card.getAnimations().map((a) => a.finished))")
    start, end = await card.bounding_box(), await onto.bounding_box()
    assert start is not None and end is not None
    # Where a thumb would go: a part of the card in sight (on a phone the hand's
    # two rows overlap, and a card's middle may lie under the row in front).
    fx, fy = await card.evaluate(VISIBLE_POINT)
    x0, y0 = start["x"] + start["width"] * fx, start["y"] + start["height"] * fy
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    touch = await page.context.new_cdp_session(page)
    await touch.send("Input.dispatchTouchEvent",
                     {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 11):
        x, y = x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10
        await touch.send("Input.dispatchTouchEvent",
                         {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    await touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await touch.detach()


def lay_off_offered(code: str) -> str:
    """A meld drawn that the page may lay ``code`` off on: the deal decides
    whether a real one is down, and this checks the finger, not the deal. Kept
    through every picture of the table that comes after (the draw's own answer
    and the push of the same change may land after it), so that the meld is
    still there when the finger lets go."""
    offered = f"[{{ cards: [{json.dumps(code)}], meld: 1 }}]"
    return on_the_page(
        f"const keep = (state) => ({{ ...state, melds: [{TEN_TO_QUEEN}],\n"
        f"    legal: {{ ...state.legal, lay_offs: {offered} }} }});\n"
        "  const drawn = app.render;\n"
        "  app.render = (next) => drawn(keep(next));\n"
        "  app.state = keep(app.state);\n"
        "  drawMelds();")


async def sent_intent(sent: list[dict[str, Any]], **expected: Any) -> None:
    """Wait until the Activity has sent an intent holding ``expected``."""
    for _ in range(200):
        if any(expected.items() <= frame.items() for frame in sent):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no intent {expected} among {sent[-5:]}")


@pytest.mark.parametrize("width,height", [(360, 740), (400, 860)])
async def test_a_card_dragged_by_finger_lands_on_a_meld_and_on_the_pile(
    local_bot: LocalBot, browsing: Browsing, width: int, height: int
) -> None:
    sent: list[dict[str, Any]] = []
    page, frame = await started_alone(local_bot, browsing, sent=sent, width=width,
                                      height=height, touch=True)
    activity = next(f for f in page.frames if "/activity-app/" in f.url)
    assert await my_activity_turn(frame) == "turn"
    await frame.locator("#stock").tap()
    drawn = frame.locator("#hand .card.fresh")
    await drawn.wait_for(timeout=ACTION_TIMEOUT)
    code = await drawn.get_attribute("data-code")
    assert code is not None
    # The card drawn, dragged onto a meld it fits: laid off there.
    await activity.evaluate(lay_off_offered(code))
    meld = frame.locator('#melds .meld[data-drop="meld:1"]')
    await meld.wait_for(timeout=ACTION_TIMEOUT)
    await finger_drag(page, drawn, meld)
    await sent_intent(sent, op="lay_off", cards=[code], meld=1)
    # (The table has no such meld: the answer says so, and the card stays.)
    await frame.locator("#note.refused").wait_for(timeout=ACTION_TIMEOUT)
    # Then onto the discard pile: thrown.
    await finger_drag(page, frame.locator(f'#hand .card[data-code="{code}"]'),
                      frame.locator("#discard"))
    await sent_intent(sent, op="discard", cards=[code])
    await frame.locator(f'#hand .card[data-code="{code}"]').wait_for(
        state="detached", timeout=ACTION_TIMEOUT)
    # The felt scrolled nowhere under the finger: the page itself never moved.
    assert await activity.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0]

async def test_axe_finds_nothing_serious_in_the_activity_or_the_local_page(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url + "?as=ann", bypass_csp=True)
    assert await serious_violations(page.main_frame) == []
    await in_channel(page, VOICE)
    frame = await launch_here(page)
    activity = next(f for f in page.frames if "/activity-app/" in f.url)
    await frame.locator('[data-move="open"]').wait_for(timeout=ACTION_TIMEOUT)
    assert await serious_violations(activity) == [], "no game"
    await frame.locator('[data-move="open"]').click()
    await frame.locator('[data-move="add_easy"]:not([disabled])').click()
    assert await serious_violations(activity) == [], "the lobby"
    await frame.locator('[data-move="start"]:not([disabled])').click()
    await frame.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    await asyncio.sleep(0.3)
    assert await serious_violations(activity) == [], "the table"
    # The deal decides whether a meld is down yet: one is drawn by the page's
    # own code, so the melds' names are checked on every run.
    await activity.evaluate(SHOW_A_MELD)
    await frame.locator("#melds .meld").first.wait_for(timeout=ACTION_TIMEOUT)
    assert await serious_violations(activity) == [], "the table with a meld"
    assert await serious_violations(page.main_frame) == [], "local play's page in a game"
    rpc = await parent_frames(page)
    assert any(m["message"][1].get("cmd") == "SET_ACTIVITY" for m in rpc
               if m["to"] == "discord" and m["message"][0] == 1)
