"""Every way a game stops leaves each open Activity page with what happened and
the way on, in the real bot on the emulator: the state a page draws from says
why the game stopped, in the reader's language, and offers a new game's form
(or the Rematch of a finished match, or the Join of a new lobby); a bot that
restarts mid-game gives a page coming back the same game."""

from __future__ import annotations

from typing import Any

from bot import RummyBot
from engine.cards import full_deck
from presentation.i18n import LANGUAGES
from web.page_protocol import described

from .activity_pages import Participant, heads_up, launch_with_activity, open_page
from .conftest import LaunchBot, Server, StopBot
from .harness import play_simple_turn, rig_hand
from .test_play import button_id, host_panel, in_turn_order, start_game


def stopped(page: Participant) -> bool:
    state = page.state()
    return state["stage"] == "none" and "closed" in state


async def until_stopped(page: Participant) -> dict[str, Any]:
    """The page's picture once its game stopped: no table, the form for a new one."""
    await page.until(lambda: stopped(page), "the stopped game's notice")
    state = page.state()
    assert "seats" not in state and "hand" not in state and "legal" not in state
    assert state["new_game"]["options"], "no new game is offered"
    return state


async def test_rummy_end_mid_hand_tells_every_page_who_ended_it(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    server.bob.user.locale = "fr"
    await heads_up(server, bot)
    ann = await open_page(bot, server, server.ann, pages)
    bob = await open_page(bot, server, server.bob, pages)
    await server.ann.slash(server.channel, "rummy end")
    said = await until_stopped(ann)
    assert said["closed"]["text"] == "Ann ended the game."
    # Each in their own language: Bob's Discord speaks French.
    theirs = await until_stopped(bob)
    assert theirs["language"] == "fr" and "Ann" in theirs["closed"]["text"]
    assert theirs["closed"]["text"] != said["closed"]["text"]
    # The way on: a new game from the page, with the server's house rules.
    assert (await ann.send("open"))["type"] == "done"
    await bob.until(lambda: bob.state()["stage"] == "lobby", "the new lobby")
    assert bob.state()["lobby"]["can_join"]


async def first_goes_out(server: Server, bot: RummyBot, pages: list[Participant], *,
                         hands: int, watched_by: list[Participant] | None = None) -> Participant:
    """Ann and Bob dealt a match of ``hands``, the first to move holding three
    melds: from their page they draw, meld everything and go out. Their page;
    with ``watched_by``, Cat watches from hers (added to it) from before the draw."""
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated, hands=hands)
    first, second = in_turn_order(bot, server, seated)
    going_out = ["2C", "3C", "4C", "5C", "6D", "6H", "6S", "9S", "9H", "9D"]
    other = ["AS", "3S", "5S", "7S", "JS", "KS", "2H", "4H", "8H", "10H"]
    rest = [c.code for c in full_deck() if c.code not in going_out + other]
    await rig_hand(bot, server.channel.id, {first.key: going_out, second.key: other},
                   stock=rest[1:], discard=rest[:1])
    page = await open_page(bot, server, first.actor, pages)
    if watched_by is not None:
        watched_by.append(await open_page(bot, server, server.cat, pages))
    await page.drew()
    for meld in (going_out[:4], going_out[4:7], going_out[7:]):
        assert (await page.send("meld", cards=meld))["type"] == "done"
    assert (await page.send("discard", cards=[page.state()["hand"][0]]))["type"] == "done"
    return page

async def test_rummy_end_between_hands_leaves_no_result_without_a_way_on(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    page = await first_goes_out(server, bot, pages, hands=3)
    await page.until(lambda: page.state()["stage"] == "hand_over", "the hand's result")
    await server.mod.slash(server.channel, "rummy end")
    state = await until_stopped(page)
    assert state["closed"]["text"] == "Mod ended the game."
    assert "outcome" not in state  # the finished hand's result is not left up


async def lobby_from_the_activity(server: Server, launch: LaunchBot,
                                  pages: list[Participant]) -> tuple[Participant, Participant]:
    """Ann and Bob with the Activity open; Ann opens a lobby from it, and Bob's
    page shows it. Their pages."""
    bot = await launch_with_activity(server, launch)
    ann = await open_page(bot, server, server.ann, pages)
    bob = await open_page(bot, server, server.bob, pages)
    assert (await ann.send("open"))["type"] == "done"
    await bob.until(lambda: bob.state()["stage"] == "lobby", "the lobby")
    return ann, bob


async def test_a_cancelled_lobby_says_so_by_either_door(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    ann, bob = await lobby_from_the_activity(server, launch, pages)
    # Cancelled from the Activity, where it was opened.
    assert (await ann.send("cancel"))["type"] == "done"
    for page in (ann, bob):
        assert (await until_stopped(page))["closed"]["text"] == "Ann cancelled the lobby."
    # From the chat: the host's Cancel among their controls.
    lobby = await server.bob.slash(server.channel, "rummy start")
    await ann.until(lambda: ann.state()["stage"] == "lobby", "Bob's lobby")
    panel = await host_panel(lobby)
    await server.bob.click(panel, custom_id=button_id(panel, "cancel"))
    assert (await until_stopped(ann))["closed"]["text"] == "Bob cancelled the lobby."


async def test_the_host_cannot_leave_the_lobby_so_nobody_is_left_in_it(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    ann, bob = await lobby_from_the_activity(server, launch, pages)
    assert not ann.state()["lobby"]["can_leave"]  # the host's way out is Cancel
    refused = await ann.send("leave")
    assert refused["type"] == "refused" and "Cancel" in refused["text"]
    assert (await bob.send("join"))["type"] == "done"
    await bob.until(lambda: bob.state()["lobby"]["can_leave"], "Bob's seat")
    assert (await bob.send("leave"))["type"] == "done"
    await bob.until(lambda: bob.state()["lobby"]["can_join"], "Bob's seat given up")
    assert ann.state()["stage"] == "lobby" and ann.state()["lobby"]["host"]


async def test_a_forgotten_game_or_lobby_is_closed_with_its_reason(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    await heads_up(server, bot)
    page = await open_page(bot, server, server.ann, pages)
    table = bot.game.tables.get(server.channel.id)
    assert table is not None
    await bot.game.automation.sweep(now=table.last_human_action + 30 * 60 + 1)
    state = await until_stopped(page)
    assert "abandoned" in state["closed"]["text"]
    assert (await page.send("open"))["type"] == "done"
    lobby = bot.game.tables.get(server.channel.id)
    assert lobby is not None
    await page.until(lambda: page.state()["stage"] == "lobby", "the new lobby")
    await bot.game.automation.sweep(now=lobby.created_at + 24 * 3600)
    state = await until_stopped(page)
    assert state["closed"]["text"] == "Nobody started this game, so the lobby closed."


async def test_a_finished_match_offers_rematch_and_a_new_game_not_a_dead_end(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    watchers: list[Participant] = []
    page = await first_goes_out(server, bot, pages, hands=1, watched_by=watchers)
    watcher = watchers[0]
    await page.until(lambda: page.state()["stage"] == "finished", "the match's end")
    state = page.state()
    outcome = state["outcome"]
    # The result names the Rematch the page shows beside it, not the chat's table.
    assert outcome["match_over"] and state["new_game"]["options"]
    assert "Rematch" in outcome["next"] and "on the table" not in outcome["next"]
    assert state["labels"]["see_table"] and state["labels"]["see_result"]
    # One who watched has no Rematch to press: nothing tells them to.
    await watcher.until(lambda: watcher.state()["stage"] == "finished", "the match's end")
    assert "next" not in watcher.state()["outcome"]
    assert "closed" not in watcher.state() and watcher.state()["new_game"]


async def test_a_page_coming_back_after_a_restart_shows_the_same_game(
    server: Server, launch: LaunchBot, stop_bot: StopBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    first, _second = await heads_up(server, bot)
    page = await open_page(bot, server, first.actor, pages)
    before = page.state()
    await stop_bot(bot)
    await page.wait_closed()
    bot = await launch_with_activity(server, launch)
    again = Participant(bot, server.emu, first.actor)
    pages.append(again)
    again.session = page.session  # the page reconnects with the session it has
    await again.connect()
    await again.until(lambda: any(f["type"] == "state" for f in again.frames), "the game")
    after = again.state()
    assert after["stage"] == "playing" and "closed" not in after
    assert after["hand"] == before["hand"] and after["turn"] == before["turn"]
    assert after["version"] == before["version"]


async def test_the_pages_words_are_the_catalogues_in_the_players_language(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    server.bob.user.locale = "fr"
    await heads_up(server, bot)
    ann = await open_page(bot, server, server.ann, pages)
    bob = await open_page(bot, server, server.bob, pages)
    # Every close of the connection has words of the catalogue, in each language.
    for name in ("closed_elsewhere", "closed_not_in_instance", "closed_broken",
                 "closed_too_fast", "play_here", "try_again"):
        assert ann.state()["labels"][name] and bob.state()["labels"][name]
        assert ann.state()["labels"][name] != bob.state()["labels"][name], name
    assert "Play here" in ann.state()["labels"]["closed_elsewhere"]
    assert "**" not in ann.state()["labels"]["closed_elsewhere"]  # a banner reads no bold
    # The form's house rules are named for the form, not by the slash command's
    # descriptions of its options.
    await server.ann.slash(server.channel, "rummy end")
    state = await until_stopped(ann)
    labels = {option["name"]: option["label"] for option in state["new_game"]["options"]}
    assert labels["length"] == "Length of the match"
    assert labels["turn_timeout"] == "Time for each turn"
    assert not any("0 =" in label or "instead of" in label for label in labels.values())
    # A computer's seat says its level, as the chat does.
    assert (await ann.send("open"))["type"] == "done"
    assert (await ann.send("add_computer", level="hard"))["type"] == "done"
    await bob.until(lambda: len(bob.state().get("seats", [])) == 2, "Ada's seat")
    assert [seat["named"] for seat in ann.state()["seats"]] == ["Ann", "Ada (hard)"]
    assert bob.state()["seats"][1]["named"] == "Ada (difficile)"


async def test_the_latest_moves_on_the_page_keep_the_draws_from_the_stock(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    bot = await launch_with_activity(server, launch)
    first, second = await heads_up(server, bot)
    page = await open_page(bot, server, second.actor, pages)
    await play_simple_turn(first, bot)
    await page.until(lambda: page.state()["turn"] == second.key, "their turn")
    since = page.state()["since"]
    assert any("drew from the stock" in line for line in since), since
    assert any("discarded" in line for line in since), since


def test_the_page_can_say_why_it_cannot_sign_in_before_any_state_in_every_language() -> None:
    """Signing in and a connection closed early come before the first state and
    its labels: protocol.js holds those words in every language."""
    words = described()["WORDS"]
    assert set(words) == set(LANGUAGES)
    for code, said in words.items():
        assert set(said) == set(words["en"]) and all(said.values()), code
        if code != "en":
            assert said["signin_here"] != words["en"]["signin_here"], code
    assert "{n}" in words["fr"]["signin_retry_in"]  # the page fills in the seconds
