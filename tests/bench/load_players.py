"""Simulated people for the load benchmark: they play Rummy by looking and clicking.

A ``LoadPlayer`` uses only what its person sees in Discord: the public table
message of its channel, its own ephemeral hand view (each card is a button,
its code the end of the button's custom id; the melds on the table are listed
in the view, as card emojis or text) and nothing of the bot's memory, which
lives in another process. Like a person, it opens its hand view once a hand,
waits until the view says it is its turn, draws, picks and melds what it can,
lays off what fits, and picks and discards its highest card.
If the view has not caught up while the table already shows its turn, it
presses Refresh, as a person would.

Waiting is woken by changes in the player's own channel only
(``World.watch_channel``), so thousands of idle players cost nothing.
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine import HouseRules, Meld, fits_meld, full_deck, hand_points, make_meld, parse_cards
from engine.melds import meld_options
from fakediscord.core.actors import Actor, Reply
from fakediscord.core.components import buttons
from fakediscord.core.server import FakeDiscord
from fakediscord.core.world import Channel, Message
from presentation.card_faces import emoji_name

T = TypeVar("T")

# The load tables play the default house rules (only the number of hands is set).
RULES = HouseRules(target=None, hands=1)
LOOK_INTERVAL = 1.0  # seconds between looks when nothing in the channel changes
STALE_VIEW_AFTER = 10.0  # the table shows my turn but my view does not: press Refresh
MAX_PLAYS_PER_TURN = 8  # melds and lay-offs; a guard against a confused player
DISPLAY_TO_CODE = {card.display: str(card) for card in full_deck()}
# Cards as the hand view writes them: text, or the bot's card emojis.
SHOWN_AS = {
    **{card.display: card for card in full_deck()},
    **{f":{emoji_name(card)}:": card for card in full_deck()},
    **{f":{emoji_name(card, four_colour=True)}:": card for card in full_deck()},
}
EMOJI = re.compile(r"<(:[a-z0-9_]+:)\d+>")
PICKED_STYLE = 1
HAND_TITLE = re.compile(r"^(?:### )?🃏 Rummy — hand (\d+)(?: of \d+)?(?P<over> is over)?$")


@dataclass
class TableSight:
    """What anyone sees of the public table message."""

    message: Message
    stage: str  # "lobby", "playing", "over" (a hand's result), "ended"
    hand: int = 0
    match_over: bool = False
    turn_text: str = ""


def public_table(emu: FakeDiscord, channel: Channel) -> TableSight | None:
    """The newest public Rummy message of the channel, read as a person reads it."""
    world = emu.world
    for message_id in reversed(world.channel_log.get(channel.id, ())):
        message = world.messages[message_id]
        if message.visible_to is not None or message.author_id != world.bot.id:
            continue
        shown = message.text_displays()
        title = shown[0].split("\n", 1)[0] if shown else ""
        if "Rummy" not in title:
            continue
        # Read once per version of the message: every change in the channel
        # wakes all its players, and each of them looks at the table.
        seen = _SIGHTS.get(message.id)
        if seen is None or seen[0] != message.edits:
            seen = _SIGHTS[message.id] = (message.edits, read_table(message, title))
        return seen[1]
    return None


_SIGHTS: dict[int, tuple[int, TableSight]] = {}

# When each channel's last turn ended (a discard answered), for the hand-off time.
_TURN_PASSED: dict[int, float] = {}


def read_table(message: Message, title: str) -> TableSight:
    found = HAND_TITLE.match(title)
    if "Rummy: a new game" in title:
        return TableSight(message, "lobby")
    if found is None:
        return TableSight(message, "ended", match_over=True)
    hand = int(found.group(1))
    if found.group("over"):
        return TableSight(message, "over", hand, match_over="**Match over**" in message.text())
    # The seat whose turn it is: its block carries the ▶️ and what they must do.
    turn = next((block for block in message.text_displays() if "▶️" in block), "")
    return TableSight(message, "playing", hand, turn_text=turn)


@dataclass
class PlayerCounts:
    """What one player did and met, summed up for the report."""

    refusals: int = 0  # the bot said no (an ephemeral reason): stale sight, a lost race
    unanswered: int = 0
    confused: int = 0  # the player wanted a control that was not there
    refreshes: int = 0
    hands: int = 0


@dataclass
class LoadPlayer:
    emu: FakeDiscord
    actor: Actor
    channel: Channel
    think: float
    rng: random.Random
    deadline: float | None = None  # time.monotonic(); None: play the match out
    host: bool = False
    view_id: int | None = None
    counts: PlayerCounts = field(default_factory=PlayerCounts)
    last_action: float = field(default_factory=time.monotonic)
    # Seconds from the previous player's discard being answered until this
    # player's view showed its turn: how long the bot took to hand the turn on.
    handoffs: list[float] = field(default_factory=list)
    _stale_since: float | None = None

    # --- looking ---------------------------------------------------------------------
    def table(self) -> TableSight | None:
        return public_table(self.emu, self.channel)

    def view(self) -> Message | None:
        return self.emu.world.messages.get(self.view_id or 0)

    def time_is_up(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    async def until(self, look: Callable[[], T]) -> T | None:
        """Look until ``look()`` is truthy; None once the run's time is up."""
        while True:
            if self.time_is_up():
                return None
            seen = look()
            if seen:
                return seen
            change = self.emu.world.watch_channel(self.channel.id)
            await asyncio.wait([change], timeout=LOOK_INTERVAL)

    async def pause(self) -> None:
        """Think before a click; 0 still lets everyone else run."""
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        else:
            await asyncio.sleep(0)

    def describe(self) -> str:
        """One line on what this player sees, for a stalled run's diagnosis."""
        view = self.view()
        if view is None:
            return f"{self.actor.name}: no hand view"
        now = view.text().splitlines()[2] if len(view.text().splitlines()) > 2 else ""
        draw = "draw enabled" if _enabled(view, "Draw from stock") else "draw disabled"
        return f"{self.actor.name}: {draw}; view says {now!r}; {self.counts}"

    # --- acting -----------------------------------------------------------------------
    async def act(self, action: Callable[[], Any]) -> Reply | None:
        """Think, then click; None if there was no answer (or the run is over)."""
        await self.pause()
        if self.time_is_up():
            return None  # a --duration run ends: no click starts after it
        self.last_action = time.monotonic()
        try:
            reply: Reply = await action()
        except AssertionError:
            # The control was gone or disabled by the time the player clicked
            # (the bot changed the message meanwhile): look again.
            self.counts.confused += 1
            return None
        if not reply.answered:
            self.counts.unanswered += 1
            return None
        if reply.type == 4 and reply.ephemeral and not _is_hand_view(reply.message):
            self.counts.refusals += 1  # the bot said no, with a reason only we see
        return reply

    async def press(self, label: str) -> Reply | None:
        view = self.view()
        if view is None or not _enabled(view, label):
            self.counts.confused += 1
            return None
        return await self.act(lambda: self.actor.click(view, label=label))

    async def choose(self, codes: list[str]) -> Reply | None:
        """Pick exactly ``codes``, one card button at a time; None if a click failed."""
        reply: Reply | None = None
        for _ in range(len(codes) + 12):
            view = self.view()
            if view is None:
                return None
            picks = _controls(view).picks
            wrong = [code for code, (_, picked) in picks.items() if picked != (code in codes)]
            if not wrong:
                return reply
            custom_id = picks[wrong[0]][0]
            reply = await self.act(functools.partial(self.actor.click, view, custom_id=custom_id))
            if reply is None:
                return None
        return None

    # --- a whole match ------------------------------------------------------------------
    async def play(self) -> None:
        """Play hand after hand until the match is over (or the run's time is up)."""
        hand_seen = 0
        while True:
            sight = await self.until(functools.partial(self._next_hand, hand_seen))
            if sight is None or sight.stage != "playing":
                return
            hand_seen = sight.hand
            if not await self.open_hand(hand_seen):
                continue
            self.counts.hands += 1
            await self.play_hand(hand_seen)
            if self.host and not await self.deal_next(hand_seen):
                return

    def _next_hand(self, hand_seen: int) -> TableSight | None:
        sight = self.table()
        if sight is None:
            return None
        if sight.stage == "playing" and sight.hand > hand_seen:
            return sight
        if sight.stage == "ended" or (sight.stage == "over" and sight.match_over):
            return sight
        return None

    async def open_hand(self, hand: int) -> bool:
        """Press Show hand on the table; keep the ephemeral hand view it opens."""
        for _ in range(5):
            sight = self.table()
            if sight is None or sight.stage != "playing" or sight.hand != hand:
                return False
            if not _enabled(sight.message, "Show hand"):
                return False
            message = sight.message
            reply = await self.act(functools.partial(self.actor.click, message, label="Show hand"))
            if reply is not None and _is_hand_view(reply.message):
                assert reply.message is not None
                self.view_id = reply.message.id
                return True
            if self.time_is_up():
                return False
        return False

    async def play_hand(self, hand: int) -> None:
        while True:
            state = await self.until(lambda: self._turn_state(hand))
            if state is None or state == "over":
                return
            if state == "stale":
                self.counts.refreshes += 1
                self._stale_since = None
                await self.press("Refresh")
                continue
            passed = _TURN_PASSED.pop(self.channel.id, None)
            if passed is not None:
                self.handoffs.append(time.monotonic() - passed)
            await self.take_turn()

    def _turn_state(self, hand: int) -> str:
        """"mine", "over", "stale" (the table says it is my turn, my view does not yet),
        or "" (someone else's turn: keep waiting)."""
        view = self.view()
        if view is None or not _is_hand_view(view):
            return "over"
        sight = self.table()
        if sight is None or sight.stage != "playing" or sight.hand != hand:
            return "over"
        if _enabled(view, "Draw from stock"):
            self._stale_since = None
            return "mine"
        if f"**{self.actor.name}**" in sight.turn_text and "▶️ to draw" in sight.turn_text:
            now = time.monotonic()
            if self._stale_since is None:
                self._stale_since = now
            elif now - self._stale_since >= STALE_VIEW_AFTER:
                return "stale"
        else:
            self._stale_since = None
        return ""

    async def take_turn(self) -> None:
        """Draw, meld and lay off what the view allows, discard the highest card."""
        if await self.press("Draw from stock") is None:
            return
        for _ in range(MAX_PLAYS_PER_TURN):
            view = self.view()
            if view is None or not _is_hand_view(view):
                return  # the hand ended
            cards = parse_cards(list(_controls(view).picks))
            groups = [g for g in meld_options(cards, RULES) if len(g) < len(cards)]
            if groups:
                best = max(groups, key=len)
                if await self.choose([str(c) for c in best]) is None:
                    break
                if await self.press("Meld") is None:
                    break
                continue
            melds = _table_melds(view)
            fits = [c for c in cards if any(fits_meld(m, [c], RULES) for m in melds)]
            if not fits or len(cards) < 2:
                break
            if await self.choose([str(fits[0])]) is None:
                break
            view = self.view()
            lay_offs = [label for label, on in _controls(view).enabled.items()
                        if on and label.startswith("Lay off on ")] if view is not None else []
            if not lay_offs or await self.press(lay_offs[0]) is None:
                break
        view = self.view()
        if view is None or not _is_hand_view(view):
            return
        cards = parse_cards(list(_controls(view).picks))
        if not cards:
            return  # nothing left to discard: the melds went out (or the view shows no picks)
        highest = max(cards, key=lambda c: (hand_points([c], RULES), c.rank))
        if await self.choose([str(highest)]) is not None:
            view = self.view()
            discard = next((label for label, on in _controls(view).enabled.items()
                            if on and label.startswith("Discard")), "Discard") if view else ""
            reply = await self.press(discard)
            # Played, and the hand goes on (a hand's last discard hands on nothing).
            if reply is not None and reply.type == 7 and _is_hand_view(reply.message):
                _TURN_PASSED[self.channel.id] = time.monotonic()

    async def deal_next(self, hand: int) -> bool:
        """The host deals the next hand from the result; False when the match is over."""
        sight = await self.until(lambda: self._result_of(hand))
        if sight is None or sight.match_over or sight.stage != "over":
            return False
        message = sight.message
        for _ in range(5):
            if not _enabled(message, "Next hand"):
                return False
            reply = await self.act(functools.partial(self.actor.click, message, label="Next hand"))
            if reply is not None:
                return True
            if self.time_is_up():
                return False
        return False

    def _result_of(self, hand: int) -> TableSight | None:
        sight = self.table()
        if sight is None:
            return None
        if sight.stage in ("over", "ended") and (sight.hand >= hand or sight.match_over):
            return sight
        if sight.stage == "playing" and sight.hand > hand:
            return sight  # someone else dealt already
        return None


# --- reading messages ---------------------------------------------------------------
@dataclass
class _Controls:
    """A message's buttons and selects, read once per version of the message."""

    enabled: dict[str, bool]  # button label -> can be pressed
    # The hand's cards as shown: code -> (the button's custom id, picked now)
    picks: dict[str, tuple[str, bool]]
    # A hand in play offers its tools (a finished hand's result does not); its
    # card buttons only while the player picks.
    in_play: bool


_CONTROLS: dict[int, tuple[int, _Controls]] = {}


def _controls(message: Message) -> _Controls:
    # Every player looks at its view each time its channel changes: reading the
    # component tree anew each time made the players, not the bot, the bottleneck.
    seen = _CONTROLS.get(message.id)
    if seen is None or seen[0] != message.edits:
        shown = buttons(message.components)
        enabled = {str(b["label"]): not b["disabled"] for b in shown if b["label"]}
        picks = {
            str(b["custom_id"]).rsplit(".", 1)[1]: (str(b["custom_id"]), b["style"] == PICKED_STYLE)
            for b in shown
            if ":pick:" in str(b["custom_id"] or "")
        }
        in_play = bool(picks) or any(":sort:" in str(b["custom_id"] or "") for b in shown)
        seen = _CONTROLS[message.id] = (message.edits, _Controls(enabled, picks, in_play))
    return seen[1]


def _enabled(message: Message, label: str) -> bool:
    return _controls(message).enabled.get(label, False)


def _is_hand_view(message: Message | None) -> bool:
    """A hand view of a hand in play (not its result)."""
    return message is not None and _controls(message).in_play


def _table_melds(view: Message) -> list[Meld]:
    """The melds on the table as the hand view lists them ("`1` 7♠ 8♠ 9♠ — Ann")."""
    melds: list[Meld] = []
    for line in view.text().splitlines():
        if not line.startswith("`"):
            continue
        shown = EMOJI.sub(lambda m: f" {m.group(1)} ", line.partition("` ")[2].split(" — ")[0])
        try:
            cards = [SHOWN_AS[part] for part in shown.split()]
            melds.append(make_meld(cards, RULES))
        except (KeyError, ValueError):
            continue  # a line this player cannot read: a person would not use it either
    return melds
