"""Playing Rummy through Discord the way a person does, for end-to-end tests.

A ``TablePlayer`` only uses what its person can see: the public table message,
their own ephemeral hand view (card codes are the select's option values) and
their DMs. Rigging a deal is the one test-only shortcut: it swaps the dealt
hand for a laid-out position so a scenario (rummy, an empty stock) is reached
in a few clicks.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot import RummyBot
from engine import Card, Hand, Match, fits_meld, hand_points, parse_cards
from engine.melds import meld_options
from tables import Table
from tables.records import live_table
from tests.fakediscord import Actor, FakeDiscord
from tests.fakediscord.actors import Reply
from tests.fakediscord.world import Channel, Message


class BotErrors(logging.Handler):
    """Errors the bot's own modules logged: an end-to-end test fails on any."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def describe(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records]


def table_message(emu: FakeDiscord, channel: Channel) -> Message:
    """The current public table (or lobby, or final result): the newest public
    message whose embed is a Rummy table."""
    for message in reversed(emu.messages(channel)):
        titles = [str(embed.get("title", "")) for embed in message.embeds]
        if any(title.startswith("Rummy") for title in titles):
            return message
    raise AssertionError("no table message in the channel")


class TablePlayer:
    """One person at the table, acting through their hand view."""

    def __init__(self, emu: FakeDiscord, actor: Actor, channel: Channel) -> None:
        self.emu = emu
        self.actor = actor
        self.channel = channel
        self.view: Message | None = None
        self.last: Reply | None = None
        # Like a person who looks before clicking: let the bot finish what it
        # was doing (table refresh, hand view refresh, computer moves) first.
        self.settle: Callable[[], Awaitable[None]] | None = None

    async def _look(self) -> None:
        if self.settle is not None:
            await self.settle()

    @property
    def key(self) -> str:
        return str(self.actor.id)

    async def open_hand(self) -> Reply:
        await self._look()
        reply = await self.actor.click(table_message(self.emu, self.channel), label="Show hand")
        self.last = reply
        if reply.ephemeral and reply.message is not None and reply.message.selects():
            self.view = reply.message
        return reply

    def _hand_view(self) -> Message:
        if self.view is None or self.emu.message(self.channel, self.view.id) is None:
            raise AssertionError(f"{self.actor.name} has no hand view open")
        current = self.emu.message(self.channel, self.view.id)
        assert current is not None
        return current

    def meld_choice(self) -> list[str] | None:
        """The meld numbers offered when a lay-off fits several melds, else None."""
        for menu in self._hand_view().selects():
            if "onto" in menu.get("custom_id", ""):
                return [option["value"] for option in menu["options"]]
        return None

    def has_hand_view(self) -> bool:
        """False once the view shows the hand's result instead of cards."""
        return any("cards" in s.get("custom_id", "") for s in self._hand_view().selects())

    def hand(self) -> list[str]:
        """Card codes shown in the hand view's select."""
        selects = [s for s in self._hand_view().selects() if "cards" in s.get("custom_id", "")]
        assert selects, "the hand view has no card select"
        return [option["value"] for option in selects[0]["options"]]

    def view_text(self) -> str:
        return self._hand_view().text()

    def button_enabled(self, label: str) -> bool:
        return not self._hand_view().button(label).get("disabled", False)

    async def press(self, label: str) -> Reply:
        await self._look()
        self.last = await self.actor.click(self._hand_view(), label=label)
        return self.last

    async def choose(self, codes: Sequence[str]) -> Reply:
        await self._look()
        self.last = await self.actor.select(self._hand_view(), "cards", list(codes))
        return self.last

    async def draw(self) -> Reply:
        return await self.press("Draw from stock")

    async def take(self) -> Reply:
        return await self.press("Take discard")

    async def meld(self, codes: Sequence[str]) -> Reply:
        await self.choose(codes)
        return await self.press("Meld")

    async def lay_off(self, codes: Sequence[str]) -> Reply:
        await self.choose(codes)
        return await self.press("Lay off")

    async def discard(self, code: str) -> Reply:
        await self.choose([code])
        return await self.press("Discard")


async def play_simple_turn(player: TablePlayer, bot: RummyBot) -> Reply:
    """A plain strategy on what the player can see (their hand view and the public
    melds): draw, meld what melds, lay off what fits, discard the highest card."""
    await player.open_hand()
    drawn = await player.draw()
    if not player.has_hand_view():
        return drawn  # the draw ended the hand (the stock ran out for good)
    table = bot.game.tables.get(player.channel.id)
    assert table is not None and table.match is not None
    rules = table.rules
    reply = drawn
    while player.has_hand_view():
        cards = parse_cards(player.hand())
        options = [o for o in meld_options(cards, rules) if len(o) < len(cards)]
        melds = table.match.hand.melds
        fits = [c for c in cards if any(fits_meld(m.meld, [c], rules) for m in melds)]
        if options:
            reply = await player.meld([str(c) for c in max(options, key=len)])
        elif fits and len(cards) > 1:
            reply = await player.lay_off([str(fits[0])])
            choice = player.meld_choice()
            if choice is not None:  # the card fits several melds: take the first offered
                assert player.view is not None
                reply = await player.actor.select(player.view, "onto", [choice[0]])
        else:
            break
    if not player.has_hand_view():
        return reply
    cards = parse_cards(player.hand())
    highest = max(cards, key=lambda c: (hand_points([c], rules), c.rank))
    return await player.discard(str(highest))


async def rig_hand(
    bot: RummyBot,
    channel_id: int,
    hands: Mapping[str, Sequence[str]],
    stock: Sequence[str],
    discard: Sequence[str],
) -> Table:
    """Replace the current deal with a laid-out one (same players, same first player)."""
    table = bot.game.tables.get(channel_id)
    assert table is not None and table.match is not None
    async with table.lock:
        match = table.match
        first = match.hand.turn
        assert first is not None
        hand = Hand.from_position(
            match.players,
            match.rules,
            {p: parse_cards(hands[p]) for p in match.players},
            parse_cards(stock),
            parse_cards(discard),
            first,
            seed=match.hand.seed,
        )
        data: dict[str, Any] = match.to_dict()
        data["hand"] = hand.to_dict()
        table.match = Match.from_dict(data)
        assert bot.db is not None
        await bot.db.save_live_table(live_table(table))
    return table


def cards_text(codes: Sequence[str]) -> list[str]:
    return [Card.parse(code).display for code in codes]
