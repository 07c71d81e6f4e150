"""Quick reactions in the real bot on the emulator: a reaction reaches the
other pages of the table, and a member sending them as fast as they can is
refused past their allowance while the other member's moves are answered."""

from __future__ import annotations

import asyncio
import json
import time

from web.reactions import BURST

from .activity_pages import Participant, heads_up, launch_with_activity, open_page
from .conftest import LaunchBot, Server


def reactions(page: Participant, *, refused: bool = False) -> list[dict[str, object]]:
    return [f for f in page.frames if f["type"] == "reaction" and bool(f.get("refused")) == refused]


async def cheered(server: Server, launch: LaunchBot,
                  pages: list[Participant]) -> tuple[Participant, Participant, int]:
    """Ann (to move) and Bob at one table, each with the Activity open, and
    Bob's 🎉 on Ann's page; Bob's member id."""
    bot = await launch_with_activity(server, launch)
    first, second = await heads_up(server, bot)
    mover = await open_page(bot, server, first.actor, pages)
    cheerer = await open_page(bot, server, second.actor, pages)
    assert cheerer.ws is not None
    await cheerer.ws.send_str(json.dumps({"type": "react", "emote": "🎉"}))
    await mover.until(lambda: reactions(mover), "Bob's reaction on Ann's page")
    # Named as Discord named Bob at sign-in: Ann's page may not know him yet.
    assert reactions(mover) == [{"type": "reaction", "user": str(second.actor.id), "emote": "🎉",
                                 "name": second.actor.name}]
    await asyncio.sleep(0.5)  # the deal's own work (the chat's messages) settled
    return mover, cheerer, second.actor.id


async def a_turn(page: Participant) -> float:
    """Draw and discard; how long the two answers took (printed, not asserted)."""
    started = time.perf_counter()
    assert (await page.send("draw"))["type"] == "done"
    await page.until(lambda: page.state()["phase"] == "play", "the drawn card")
    card = page.state()["legal"]["discards"][0]
    assert (await page.send("discard", cards=[card]))["type"] == "done"
    return time.perf_counter() - started


async def test_a_reaction_shows_on_every_page_of_the_table_and_a_flood_is_refused(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    mover, cheerer, bob = await cheered(server, launch, pages)
    assert cheerer.ws is not None
    # One not in the table's handful is dropped, not shown.
    await cheerer.ws.send_str(json.dumps({"type": "react", "emote": "<b>"}))

    async def flood() -> int:
        sent = 0
        assert cheerer.ws is not None
        while not cheerer.ws.closed and sent < 200:
            await cheerer.ws.send_str(json.dumps({"type": "react", "emote": "🔥"}))
            sent += 1
            await asyncio.sleep(0)
        return sent

    flooding = asyncio.create_task(flood())
    took = await a_turn(mover)
    sent = await asyncio.wait_for(flooding, 10)
    await cheerer.until(lambda: reactions(cheerer, refused=True), "a refusal")
    # The burst (the 🎉 was its first) reached Ann's page; the rest were refused.
    await asyncio.sleep(0.2)
    shown = reactions(mover)
    assert len(shown) == BURST and {f["emote"] for f in shown[1:]} == {"🔥"}
    assert all(f.get("user") == str(bob) for f in shown)
    assert len(reactions(cheerer, refused=True)) >= 1
    # Ann's turn was played, and the table moved on to Bob.
    assert mover.state()["turn"] != mover.state()["you"]
    print(f"\nAnn's turn (draw and discard) beside Bob's flood of {sent} reactions: "
          f"{took * 1000:.1f} ms")


async def test_a_turn_alone_for_comparison(
    server: Server, launch: LaunchBot, pages: list[Participant]
) -> None:
    mover, _cheerer, _bob = await cheered(server, launch, pages)
    took = await a_turn(mover)
    assert mover.state()["turn"] != mover.state()["you"]
    print(f"\nAnn's turn (draw and discard) with nobody reacting: {took * 1000:.1f} ms")
