"""Local play in a real browser: the real bot, with no Discord account."""

from __future__ import annotations

import asyncio

from playwright.async_api import Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from engine import Card
from presentation.card_faces import emoji_name

from .conftest import Browsing, LocalBot

TURNS_WATCHED = 6
# A hand against a computer ends long before this many turns of ours.
MOST_TURNS = 120
ACTION_TIMEOUT = 15_000  # ms: a click answered, a message drawn


def shown(page: Page) -> Locator:
    """The messages of the channel on screen."""
    return page.locator("#log .channel-log:not([hidden]) .msg")


def hand_message(page: Page) -> Locator:
    return shown(page).filter(has=page.locator(".ephemeral-note, .ephemeral")).filter(
        has_text="Your hand").last


async def slash(page: Page, command: str, **options: str) -> None:
    """Type a slash command as a person does: pick it from the list, fill its options."""
    await page.fill("#text", f"/{command}")
    await page.locator("#suggestions .suggestion").first.wait_for()
    await page.press("#text", "Enter")
    for name, value in options.items():
        field = page.locator(f'#options [data-option="{name}"]')
        if await field.evaluate("element => element.tagName") == "SELECT":
            await field.select_option(label=value)
        else:
            await field.fill(value)
    await page.click("#send")


async def press(page: Page, within: Locator, label: str) -> None:
    """Click an enabled button of a message by the start of its label."""
    button = within.locator(".btn:not(.disabled)", has_text=label).first
    await button.click(timeout=ACTION_TIMEOUT)


async def host_panel(page: Page) -> Locator:
    panel = shown(page).filter(has_text="Your controls as host").last
    await panel.wait_for(timeout=ACTION_TIMEOUT)
    return panel


async def table(page: Page) -> Locator:
    found = shown(page).filter(has_text="Rummy").filter(
        has=page.locator(".btn", has_text="Show hand")).last
    await found.wait_for(timeout=ACTION_TIMEOUT)
    return found


async def open_hand(page: Page) -> Locator:
    await press(page, await table(page), "Show hand")
    hand = shown(page).filter(has_text="Your hand").last
    await hand.wait_for(timeout=ACTION_TIMEOUT)
    return hand


# In a page's function: ``last``, the newest hand message or hand result of the
# channel on screen (earlier games' results count not); "over" if it is a result.
NEWEST_HAND = """
    const log = document.querySelector('#log .channel-log:not([hidden])');
    const hands = [...log.querySelectorAll('.msg')].filter(
        m => m.textContent.includes('Your hand') || m.textContent.includes('is over'));
    const last = hands[hands.length - 1];
    if (!last) return false;
    if (last.textContent.includes('is over')) return 'over';"""


async def my_turn_or_over(page: Page) -> str:
    """Wait until this player may draw, or the hand is over: "turn" or "over"
    (as the newest hand message or result says: earlier games' results count not)."""
    found = await page.wait_for_function(
        """() => {""" + NEWEST_HAND + """
            const draw = [...last.querySelectorAll('.btn:not(.disabled)')]
                .some(b => b.textContent.includes('Draw from stock'));
            return draw ? 'turn' : false;
        }""", timeout=60_000)
    return str(await found.json_value())


# The card just drawn: marked 🆕, on a button of no suit's colour.
DRAWN_CARD = '.btn[data-custom-id*=":pick:"]:has-text("🆕")'


async def drew_or_over(page: Page) -> str:
    """After pressing Draw from stock: "drew" once the hand message shows the card
    drawn (marked 🆕), or "over" when that draw ended the hand, as drawing from an
    empty stock does under the rules; a refusal, or nothing, fails."""
    try:
        found = await page.wait_for_function(
            """() => {""" + NEWEST_HAND + """
                const cards = last.querySelectorAll('.btn[data-custom-id*=":pick:"]');
                return [...cards].some((card) => card.textContent.includes("🆕"))
                    ? 'drew' : false;
            }""", timeout=ACTION_TIMEOUT)
    except PlaywrightTimeout:
        said = await page.locator("#refusal").text_content()
        hand = shown(page).filter(has_text="Your hand").last
        raise AssertionError(f"no card drawn: {await hand.text_content()!r}, "
                             f"refused: {said!r}") from None
    return str(await found.json_value())


async def plain_turn(page: Page) -> list[str] | None:
    """Draw, then discard the card drawn: three clicks. The cards still held, or
    None when the draw ended the hand."""
    hand = shown(page).filter(has_text="Your hand").last
    await press(page, hand, "Draw from stock")
    if await drew_or_over(page) == "over":
        return None
    picks = hand.locator('.btn[data-custom-id*=":pick:"]')
    held = [card_of(await b.get_attribute("data-custom-id")) for b in await picks.all()]
    drawn = hand.locator(DRAWN_CARD).first
    thrown = card_of(await drawn.get_attribute("data-custom-id"))
    await drawn.click(timeout=ACTION_TIMEOUT)
    await press(page, hand, "Discard")
    return [code for code in held if code != thrown]


def card_of(custom_id: str | None) -> str:
    """The card a card button picks (its custom id ends with hand.code)."""
    return str(custom_id).rsplit(".", 1)[1]


async def start_against_a_computer(page: Page) -> None:
    await slash(page, "rummy start", hands="1")
    panel = await host_panel(page)
    await press(page, panel, "Add computer (easy)")
    await panel.filter(has_text="Computer").wait_for(timeout=ACTION_TIMEOUT)
    await press(page, await host_panel(page), "Start")


async def test_a_whole_hand_is_played_through_the_page(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url)
    await start_against_a_computer(page)
    await open_hand(page)
    for _ in range(MOST_TURNS):
        if await my_turn_or_over(page) == "over":
            break
        await plain_turn(page)
    else:
        raise AssertionError("the hand never ended")
    result = shown(page).filter(has_text="Hand 1 is over").last
    await result.wait_for(timeout=ACTION_TIMEOUT)
    public = shown(page).filter(has_text="scores")
    assert await public.count() >= 1


def card_marks(code: str) -> list[str]:
    """How a card can appear in a page: its face's emoji name, or written out."""
    card = Card.parse(code)
    return [f":{emoji_name(card)}", f":{emoji_name(card)}_", card.display]


async def test_two_members_in_two_pages_never_see_each_others_cards(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    bob = await browsing.open(local_bot.url + "?as=bob")
    await slash(ann, "rummy start", hands="1")
    panel = await host_panel(ann)
    lobby = shown(bob).filter(has=bob.locator(".btn", has_text="Join")).last
    await press(bob, lobby, "Join")
    await panel.filter(has_text="Bob").wait_for(timeout=ACTION_TIMEOUT)
    await press(ann, await host_panel(ann), "Start")
    await open_hand(ann)
    await open_hand(bob)
    pages = {"ann": ann, "bob": bob}
    checked = 0
    for _ in range(TURNS_WATCHED):
        mover_name = await whose_turn(pages)
        mover = pages[mover_name]
        other = pages["bob" if mover_name == "ann" else "ann"]
        held = await plain_turn(mover)
        assert held is not None, "the stock ran out within a few turns"
        await asyncio.sleep(0.3)  # let both pages take in the move
        seen = await other.content()
        leaked = [code for code in held for mark in card_marks(code) if mark in seen]
        assert not leaked, f"{mover_name}'s cards {leaked} show in the other page"
        checked += 1
    assert checked == TURNS_WATCHED


async def whose_turn(pages: dict[str, Page]) -> str:
    for _ in range(200):
        for name, page in pages.items():
            hand = shown(page).filter(has_text="Your hand").last
            if await hand.locator(".btn:not(.disabled)", has_text="Draw from stock").count():
                return name
        await asyncio.sleep(0.1)
    raise AssertionError("nobody's turn came")


async def test_refusals_show_where_the_person_looks(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url)
    # What Discord's app refuses: an option out of its range never reaches the bot.
    await slash(ann, "rummy start", hands="0")
    refusal = ann.locator("#refusal")
    await refusal.wait_for(timeout=ACTION_TIMEOUT)
    assert "minimum" in (await refusal.text_content() or "")
    assert await shown(ann).count() == 0
    # What the bot refuses: a second Join is answered in the clicker's own view.
    await ann.fill("#text", "")
    await slash(ann, "rummy start")
    bob = await browsing.open(local_bot.url + "?as=bob")
    lobby = shown(bob).filter(has=bob.locator(".btn", has_text="Join")).last
    await press(bob, lobby, "Join")
    await press(bob, shown(bob).filter(has=bob.locator(".btn", has_text="Join")).last, "Join")
    told = shown(bob).filter(has_text="already").last
    await told.wait_for(timeout=ACTION_TIMEOUT)
    assert "Only you can see this" in (await told.text_content() or "")
    assert await shown(ann).filter(has_text="already").count() == 0
    # Dismissed, as in Discord's app: gone from Bob's page.
    await told.locator(".dismiss").click()
    assert await shown(bob).filter(has_text="already").count() == 0


async def test_the_deal_reaches_the_members_dms(local_bot: LocalBot, browsing: Browsing) -> None:
    page = await browsing.open(local_bot.url)
    await start_against_a_computer(page)
    await table(page)
    await page.click("#dms button")
    dm = page.locator("#log .channel-log:not([hidden]) .msg", has_text="dealt").last
    await dm.wait_for(timeout=ACTION_TIMEOUT)
    assert "#rummy" in (await dm.text_content() or "")


async def test_a_phone_screen_needs_no_sideways_scrolling(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url, width=400, height=800)
    await start_against_a_computer(page)
    await open_hand(page)
    wide = await page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert wide[0] <= wide[1] == 400, wide


async def test_a_german_server_and_a_french_member(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url)
    await page.select_option("#server-locale", "de")
    await page.select_option("#my-locale", "fr")
    await page.wait_for_function("() => document.documentElement.lang === 'fr'")
    # The message box offers the commands as a French client names them.
    await page.fill("#text", "/rummy")
    offered = await page.locator("#suggestions .suggestion").all_text_contents()
    assert any(text.startswith("/rami commencer") and "Ouvrir une salle" in text
               for text in offered), offered
    await page.fill("#text", "")
    await slash(page, "rummy start")
    # The public lobby speaks the server's language, the host's own view theirs.
    lobby = shown(page).filter(has=page.locator(".btn", has_text="Beitreten")).last
    await lobby.wait_for(timeout=ACTION_TIMEOUT)
    public = await lobby.text_content() or ""
    assert "Rommé" in public and "Regeln" in public and "Join" not in public, public
    panel = shown(page).filter(has_text="Tes commandes").last
    await panel.wait_for(timeout=ACTION_TIMEOUT)
    own = await panel.text_content() or ""
    assert "Commencer" in own and "Starten" not in own and "Start" not in own, own
    # Ann's words are French, and name the lobby's button as the lobby shows it.
    assert "**Regeln**" not in own and "Regeln" in own, own


async def test_a_killed_bot_comes_back_to_the_same_game_in_the_open_page(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    page = await browsing.open(local_bot.url)
    await start_against_a_computer(page)
    hand = await open_hand(page)
    assert await my_turn_or_over(page) == "turn"
    held = await plain_turn(page)
    assert held is not None
    await my_turn_or_over(page)
    before = await hand.get_attribute("data-message-id")
    # The stand-in keeps its side of things up to a moment before a kill.
    await asyncio.sleep(1)
    await local_bot.stop(kill=True)
    await page.locator("#offline").wait_for(timeout=ACTION_TIMEOUT)
    await local_bot.start()
    # The page reconnects by itself, to the same server and the same hand message.
    await page.locator("#offline").wait_for(state="hidden", timeout=60_000)
    again = shown(page).filter(has_text="Your hand").last
    assert await again.get_attribute("data-message-id") == before
    # The game goes on where it was: the same cards, and the next turn is played.
    assert await my_turn_or_over(page) == "turn"
    after = await plain_turn(page)
    assert after is not None and set(held) <= set(after)
    # The page lost its connection while the bot was down, and said so.
    browsing.console_errors[:] = [e for e in browsing.console_errors if "WebSocket" not in e]



async def test_reset_starts_local_play_afresh(local_bot: LocalBot, browsing: Browsing) -> None:
    page = await browsing.open(local_bot.url)
    await start_against_a_computer(page)
    await table(page)
    page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    await page.click("#reset")
    # The page says it starts afresh, then comes back to an empty server, where
    # a game starts as on a new one.
    await page.locator("#offline", has_text="Starting afresh").wait_for(timeout=ACTION_TIMEOUT)
    await page.locator("#offline").wait_for(state="hidden", timeout=60_000)
    await page.wait_for_function(
        "() => document.querySelectorAll('#log .msg').length === 0", timeout=ACTION_TIMEOUT)
    await slash(page, "rummy start")
    await host_panel(page)
    assert await shown(page).filter(has_text="Show hand").count() == 0
    browsing.console_errors[:] = [e for e in browsing.console_errors if "WebSocket" not in e]


async def test_options_typed_after_the_command_are_taken_as_discords_app_takes_them(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url)
    refusal = ann.locator("#refusal")
    # Mistyped options are refused where Ann looks, and nothing is sent.
    for typed, why in (("/rummy start hands:lots", "takes a number"),
                       ("/rummy start colour:red", "has no option colour"),
                       ("/rummy start quickly", "is not an option"),
                       ("/rummy join", "join is not a command of /rummy"),
                       ("/poker", "/poker is not a command here")):
        await ann.fill("#text", typed)
        await ann.press("#text", "Enter")
        await refusal.filter(has_text=why).wait_for(timeout=ACTION_TIMEOUT)
    assert await shown(ann).count() == 0
    # The whole command typed in one go, options and all, opens the lobby.
    await ann.fill("#text", "/rummy start hands:1")
    await ann.press("#text", "Enter")
    panel = await host_panel(ann)
    await shown(ann).filter(has_text="1 hand").first.wait_for(timeout=ACTION_TIMEOUT)
    assert await refusal.is_hidden()
    assert await panel.count() == 1
