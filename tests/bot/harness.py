"""Playing Rummy through Discord the way a person does, for end-to-end tests.

A ``TablePlayer`` only uses what its person can see: the public table message,
their own ephemeral hand view (card codes are the select's option values) and
their DMs. Rigging a deal is the one test-only shortcut: it swaps the dealt
hand for a laid-out position so a scenario (rummy, an empty stock) is reached
in a few clicks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot import RummyBot
from chat.table_side import saved_beside
from engine import Card, Hand, Match, RummyError, fits_meld, full_deck, hand_points, parse_cards
from engine.melds import meld_options
from fakediscord import Actor, FakeDiscord
from fakediscord.core.actors import Reply
from fakediscord.core.world import Channel, Message
from presentation.actions import (
    DISCARD,
    DRAW,
    FULL_LOG,
    HINT,
    LAY_OFF,
    MELD,
    PICK,
    RECLAIM,
    REFRESH,
    SETTINGS,
    SHOW_HAND,
    SORT,
    TAKE,
)
from presentation.card_faces import emoji_name
from presentation.i18n import rank_letters
from tables import Table
from tables.records import live_table


def is_table(message: Message) -> bool:
    shown = message.text_displays()
    if shown:
        # Every table heading starts with the card emoji, in every language.
        return "🃏" in shown[0].split("\n", 1)[0]
    # A table the previous version of the bot drew as an embed.
    return any(
        str(embed.get("title", "")).startswith(("Rummy —", "Rummy:")) for embed in message.embeds
    )


def table_message(emu: FakeDiscord, channel: Channel) -> Message:
    """The current public table (or lobby, or final result): the newest public
    message whose heading names Rummy."""
    for message in reversed(emu.messages(channel)):
        if is_table(message):
            return message
    raise AssertionError("no table message in the channel")


PICKED_STYLE = 1  # a picked card's button is blurple (primary)
# The hand view's buttons by the English words the tests press them by, as the
# action in their custom ids: a player reading another language finds the same.
ACTION_OF_LABEL = {
    "Draw from stock": DRAW.name,
    "Take": TAKE.name,
    "Meld": MELD.name,
    "Lay off": LAY_OFF.name,
    "Discard": DISCARD.name,
    "Refresh": REFRESH.name,
    "⚙": SETTINGS.name,
    "💡 Hint": HINT.name,
    "Log": FULL_LOG.name,
    "Take my seat back": RECLAIM.name,
}


# A card face in a message's text, by its emoji's name (any deck the bot draws).
CARD_OF_EMOJI = {
    emoji_name(card, four_colour=four, letter=letter): card.code
    for card in full_deck()
    for four in (False, True)
    for letter in (None, *rank_letters().get(card.rank, ()))
}


def card_in_text(token: str) -> str | None:
    """The card code a word of a message stands for: a card face (``<:name:id>``)
    or a card written out (``10♥``); None for any other word."""
    if token.startswith("<:") and token.endswith(">"):
        return CARD_OF_EMOJI.get(token[2:].split(":", 1)[0])
    try:
        return Card.parse(token).code
    except RummyError:
        return None


def card_of_pick(button: dict[str, Any]) -> str:
    """The card code a card button stands for (its custom id ends with hand.code)."""
    return str(button["custom_id"]).rsplit(".", 1)[1]


# What a hand message says once a newer one shows the hand.
RETIRED = "Your hand is shown in another message now"


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
        table = table_message(self.emu, self.channel)
        show = next(b for b in table.buttons() if f":{SHOW_HAND.name}:" in b["custom_id"])
        reply = await self.actor.click(table, custom_id=show["custom_id"])
        self.last = reply
        if reply.ephemeral and reply.message is not None and reply.message.components:
            self.view = reply.message
        return reply

    def _hand_view(self) -> Message:
        if self.view is None or self.emu.message(self.channel, self.view.id) is None:
            raise AssertionError(f"{self.actor.name} has no hand view open")
        current = self.emu.message(self.channel, self.view.id)
        assert current is not None
        if RETIRED in current.text():
            # As a person does: the old message says the hand is shown in another
            # one now, and the newest of theirs below it is that one.
            newer = [m for m in self.actor.visible_messages(self.channel)
                     if m.ephemeral and m.id > current.id and "Your hand" in m.text()
                     and RETIRED not in m.text()]
            if newer:
                self.view = current = newer[-1]
        return current

    def _picks(self) -> list[dict[str, Any]]:
        """The card buttons of the hand view, in the order shown."""
        return [b for b in self._hand_view().buttons() if ":pick:" in (b["custom_id"] or "")]

    def meld_choice(self) -> list[str] | None:
        """The meld numbers offered when a lay-off fits several melds, else None."""
        offered = [
            str(int(b["label"].rsplit(" ", 1)[1]) - 1)
            for b in self._hand_view().buttons()
            if (b["label"] or "").startswith("Lay off on ") and not b["disabled"]
        ]
        return offered if len(offered) > 1 else None

    def _shown_hand(self) -> list[str] | None:
        """The card codes the hand view shows as the player's hand, in order: its
        card buttons while picking, else the row of faces under the heading."""
        picks = self._picks()
        if picks:
            return [card_of_pick(b) for b in picks]
        shown = self._hand_view().text_displays()
        if len(shown) < 2:
            return None
        codes = [card_in_text(token) for token in shown[1].split()]
        if not codes or None in codes:
            return None
        return [code for code in codes if code is not None]

    def has_hand_view(self) -> bool:
        """False once the view shows the hand's result instead of cards."""
        return self._shown_hand() is not None

    def hand(self) -> list[str]:
        """Card codes shown in the hand view, in their order."""
        codes = self._shown_hand()
        assert codes, "the hand view shows no cards"
        return codes

    def pick_id(self, code: str) -> str:
        """The custom id of the card button for ``code``: the view's own while the
        player picks, else the one a view of a moment ago showed (a stale click)."""
        for button in self._picks():
            if card_of_pick(button) == code:
                return str(button["custom_id"])
        sort = next(b for b in self._hand_view().buttons() if f":{SORT.name}:" in b["custom_id"])
        return str(sort["custom_id"]).replace(f":{SORT.name}:", f":{PICK.name}:") + f".{code}"

    def picked(self) -> list[str]:
        return [card_of_pick(b) for b in self._picks() if b["style"] == PICKED_STYLE]

    def view_text(self) -> str:
        return self._hand_view().text()

    def _button(self, label: str) -> dict[str, Any]:
        """A button of the hand view by its English label, or the start of it
        ("Discard 7♥"); in another language, by the action the label names."""
        buttons = self._hand_view().buttons()
        found = [b for b in buttons if b["label"] == label] or [
            b for b in buttons if (b["label"] or "").startswith(label)
        ]
        action = ACTION_OF_LABEL.get(label)
        if not found and action is not None:
            found = [b for b in buttons if f":{action}:" in (b["custom_id"] or "")]
        assert found, f"no button {label!r} on the hand view: {[b['label'] for b in buttons]}"
        return found[0]

    def button_enabled(self, label: str) -> bool:
        return not self._button(label).get("disabled", False)

    async def press(self, label: str, *, force: bool = False) -> Reply:
        """Click a button of the hand view; ``force``: even a disabled one, as a
        stale view or a modified client can."""
        await self._look()
        button = self._button(label)
        self.last = await self.actor.click(
            self._hand_view(), custom_id=button["custom_id"], allow_disabled=force
        )
        return self.last

    def others_messages(self) -> int:
        """How many messages this player sees in the channel (ephemeral ones too)."""
        return len(self.actor.visible_messages(self.channel))

    async def choose(self, codes: Sequence[str]) -> Reply:
        """Pick exactly ``codes`` on the hand view, one card button at a time."""
        await self._look()
        wanted = set(codes)
        reply = self.last
        for code in [*self.picked(), *codes]:
            if (code in self.picked()) == (code in wanted):
                continue
            button = next(b for b in self._picks() if card_of_pick(b) == code)
            reply = await self.actor.click(
                self._hand_view(), custom_id=button["custom_id"], allow_disabled=True
            )
            self.last = reply
            if not reply.answered or "⚠️" in reply.text():
                break
        assert reply is not None, "nothing to pick"
        return reply

    async def draw(self) -> Reply:
        return await self.press("Draw from stock")

    async def take(self) -> Reply:
        return await self.press("Take")

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
        await bot.db.save_live_table(live_table(table, saved_beside(table)))
    return table


def cards_text(codes: Sequence[str]) -> list[str]:
    return [Card.parse(code).display for code in codes]
