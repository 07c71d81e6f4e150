"""A whole match in a group DM, where the bot is no member and the Activity is
the only door, in a real browser with the real bot: Ann launches it from the
group DM and hosts, Bob joins from his own launch on a phone, an easy
computer fills the third seat, the match is played out and Ann asks for a
rematch, which Bob is invited to."""

from __future__ import annotations

import asyncio

from playwright.async_api import FrameLocator

from .conftest import Browsing, LocalBot
from .test_activity import MOST_TURNS, greedy_turn
from .test_activity_game import frames_of, launch_here
from .test_local_conversations import PHONE, in_conversation, picture
from .test_local_play import ACTION_TIMEOUT, shown

ROUNDS = MOST_TURNS * 3  # three seats' turns


async def mover(frames: dict[str, tuple[FrameLocator, list[str]]]) -> str | None:
    """Whose Activity offers a draw now ("" when the match's result shows); None
    while a computer or the bot is still on its way."""
    for name, (frame, _) in frames.items():
        if await frame.locator("#sheet:not([hidden]) .winners").count():
            return ""
        if await frame.locator("#stock.lit").count():
            return name
    return None


async def test_a_match_in_a_group_dm_from_the_launcher_to_the_rematch(
    local_bot: LocalBot, browsing: Browsing
) -> None:
    ann = await browsing.open(local_bot.url + "?as=ann")
    ann_frames = frames_of(ann)
    await in_conversation(ann, "Bob, Cat")
    ann_table = await launch_here(ann)
    clicks = {"Ann": 2, "Bob": 0}  # the conversation, then its launcher
    await ann_table.locator("#lobby:not([hidden])").wait_for(timeout=ACTION_TIMEOUT)
    await ann_table.locator("summary").click()
    await ann_table.locator('select[name="length"]').select_option("hands:1")
    await ann_table.locator('[data-move="open"]').click()
    await ann_table.locator('[data-move="add_easy"]:not([disabled])').click()
    clicks["Ann"] += 2

    # Bob, on his phone, opens the same group DM and its launcher: the lobby.
    bob = await browsing.open(local_bot.url + "?as=bob", **PHONE)
    bob_frames = frames_of(bob)
    await in_conversation(bob, "Ann, Cat")
    bob_table = await launch_here(bob)
    clicks["Bob"] += 3  # ☰, the conversation, its launcher
    join = bob_table.locator('[data-move="join"]:not([disabled])')
    await join.click()
    clicks["Bob"] += 1
    await ann_table.locator(".lobby .seat", has_text="Bob").wait_for(timeout=ACTION_TIMEOUT)
    seated = await ann_table.locator(".lobby .seat .name").all_text_contents()
    assert len(seated) == 3 and seated[0] == "Ann" and "Bob" in seated, seated
    await ann_table.locator('[data-move="start"]:not([disabled])').click()
    clicks["Ann"] += 1
    await ann_table.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    await bob_table.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    await picture(bob, "group-dm-match-phone")

    # Nothing of the game is posted in the group DM: the bot is no member there.
    assert await shown(ann).filter(has_text="Rummy — hand 1").count() == 0

    tables = {"Ann": (ann_table, ann_frames), "Bob": (bob_table, bob_frames)}
    first_card: dict[str, int] = {}
    for _ in range(ROUNDS):
        name = await mover(tables)
        if name == "":
            break
        if name is None:
            await asyncio.sleep(0.05)
            continue
        frame, frames = tables[name]
        await greedy_turn(frame, frames)
        first_card.setdefault(name, clicks[name] + 3)
    else:
        raise AssertionError("the match never ended")
    print(f"\nclicks from opening the group DM to the first card played: {first_card}")
    await picture(ann, "group-dm-result-desktop")

    # Both see the result; Ann asks for a rematch and Bob is invited to it.
    for frame, _ in tables.values():
        await frame.locator("#sheet:not([hidden]) .winners").wait_for(timeout=ACTION_TIMEOUT)
    await ann_table.locator('#sheet [data-move="rematch"]').click()
    await bob_table.locator('[data-move="join"]:not([disabled])').wait_for(
        timeout=ACTION_TIMEOUT)
    await bob_table.locator('[data-move="join"]').click()
    # Everyone is back: the rematch deals by itself, in the same group DM.
    await ann_table.locator("#match", has_text="hand 1").wait_for(timeout=ACTION_TIMEOUT)
    await bob_table.locator("#hand .card").first.wait_for(timeout=ACTION_TIMEOUT)
    # From the first launch to the rematch, nothing was posted in the group DM.
    assert await shown(ann).count() == 0
