"""Playing: the table's buttons, `/rummy hand`, and each player's private hand message."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import discord

from engine import (
    Action,
    Card,
    Discard,
    DrawStock,
    LayOff,
    MeldCards,
    Phase,
    RummyError,
    TakeDiscard,
    fits_meld,
    format_cards,
)
from presentation import actions, render
from presentation.actions import ComponentId
from presentation.components import lay_off_choice_controls
from presentation.hand_messages import HandMessages
from presentation.notify import Notifier
from presentation.payloads import hand_payload
from presentation.refresh import TableRefresher
from tables import HandMessage, Refusal, Stage, Table, TableWork
from transport import callbacks
from transport.handles import InteractionHandle
from transport.private import Interaction

from .moves import Moves
from .router import AfterLock, Handlers, refuse, seat_of, tell_closed_dms
from .tasks import Supervisor


@dataclass(frozen=True)
class HandOpening:
    """A hand message built under the table's lock, to be sent after it."""

    key: str
    embed: discord.Embed
    controls: discord.ui.View | None
    changes: int  # table.changes when it was built


def _require_current_hand(table: Table, parsed: ComponentId) -> None:
    if table.stage is Stage.HAND_OVER:
        raise Refusal("This hand is over: press Next hand on the table.")
    if table.stage is not Stage.PLAYING:
        raise Refusal("The game has not started yet.")
    if parsed.arg != str(table.hand_number):
        raise Refusal("This hand view is from an earlier hand: press Show hand for a fresh one.")


def _selected(table: Table, key: str) -> list[Card]:
    return [Card.parse(code) for code in table.selections.get(key, [])]


class Play:
    """Answers the buttons of the public table and of the hand messages."""

    def __init__(
        self,
        work: TableWork,
        moves: Moves,
        tasks: Supervisor,
        refresher: TableRefresher,
        notifier: Notifier,
        hand_messages: HandMessages,
    ) -> None:
        self.work = work
        self.tables = work.tables
        self.moves = moves
        self.tasks = tasks
        self.refresher = refresher
        self.notifier = notifier
        self.hand_messages = hand_messages

    def bind(self, handlers: Handlers) -> None:
        handlers.at_table.update(
            {
                actions.SHOW_HAND: self.show_hand,
                actions.RULES: self.rules,
                actions.NEXT_HAND: self.next_hand,
                actions.SELECT_CARDS: self.select_cards,
                actions.SORT: self.sort,
                actions.REFRESH: self.refresh,
                actions.DRAW: self.draw,
                actions.TAKE: self.take,
                actions.MELD: self.meld,
                actions.LAY_OFF: self.lay_off,
                actions.LAY_OFF_ONTO: self.lay_off_onto,
                actions.DISCARD: self.discard,
                actions.RECLAIM: self.reclaim,
            }
        )

    # --- opening a hand message ----------------------------------------------------------
    async def show_hand_command(self, interaction: Interaction) -> None:
        """`/rummy hand`: the same private message as the table's Show hand button."""
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            await refuse(interaction, "There is no game in this channel.")
            return
        async with table.lock:
            try:
                opening = self.prepare_hand(interaction, table)
            except Refusal as refusal:
                await refuse(interaction, str(refusal))
                return
        await self.send_hand(interaction, table, opening)
        await tell_closed_dms(interaction, table)

    async def show_hand(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> AfterLock:
        # Sent after the lock is let go: opening a hand changes nothing, and when
        # a hand is dealt the whole table opens theirs at once. Holding the lock
        # over each answer's round trip made the last of them wait for the others.
        opening = self.prepare_hand(interaction, table)
        return functools.partial(self.send_hand, interaction, table, opening)

    def prepare_hand(self, interaction: Interaction, table: Table) -> HandOpening:
        """The private hand message to open for this player; needs the table settled."""
        seat = seat_of(interaction, table)
        if table.stage is Stage.LOBBY or table.match is None:
            raise Refusal("The game has not started yet.")
        embed, controls = hand_payload(table, seat.key)
        return HandOpening(seat.key, embed, controls, table.changes)

    async def send_hand(self, interaction: Interaction, table: Table, opening: HandOpening) -> None:
        """Send a prepared hand message; safe without the lock (see flows.router)."""
        await callbacks.send_message(
            interaction, embed=opening.embed, controls=opening.controls, ephemeral=True
        )
        if opening.controls is None:
            return
        table.hand_messages[opening.key] = HandMessage(InteractionHandle(interaction), time.time())
        if table.changes != opening.changes:
            # The game moved on while the message was on its way: its turn may
            # have come, and that turn's refresh found no message to edit.
            self.tasks.spawn(self.hand_messages.refresh(table, opening.key), "hand-refresh")

    # --- table buttons --------------------------------------------------------------------
    async def rules(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        await callbacks.send_message(interaction, render.rules_text(table.rules), ephemeral=True)

    async def next_hand(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        message = interaction.message
        if (
            table.stage is not Stage.HAND_OVER
            or parsed.arg != str(table.hand_number)
            or (message is not None and message.id != table.message_id)
        ):
            raise Refusal("That button is from an earlier hand; the next hand is already dealt.")
        match = table.match
        assert match is not None
        async with self.work.change(table, refresh=False) as change:
            match.next_hand()
            table.stage = Stage.PLAYING
            table.log.clear()
            dealer = table.name_of(match.hand.view_for(None).dealer)
            table.log.append(f"Hand {match.hand_number}: {dealer} dealt")
            table.last_human_action = time.time()
            self.moves.start_clock(table)
            await change.save()
            # The answer only takes the button off the finished hand's message,
            # which keeps its result; the new hand goes on a fresh message that
            # the refresher posts after it, so the click is not answered late
            # behind a channel message that waits on rate limits.
            try:
                await callbacks.update_message(interaction, controls=None)
            finally:
                self.refresher.move(table)
                self.notifier.dealt(table)

    # --- hand message: private, no game change --------------------------------------------
    async def _respond_hand(
        self, interaction: Interaction, table: Table, key: str, note: str | None = None
    ) -> None:
        embed, controls = hand_payload(table, key, note)
        await callbacks.update_message(interaction, embed=embed, controls=controls)
        if controls is not None:
            table.hand_messages[key] = HandMessage(InteractionHandle(interaction), time.time())

    async def select_cards(
        self, interaction: Interaction, table: Table, parsed: ComponentId, values: list[str]
    ) -> None:
        """Remember the player's selection (kept in memory and saved with the next
        change: losing it loses nothing of the game)."""
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        assert table.match is not None
        held = {str(card) for card in table.match.hand.hand_of(seat.key)}
        gone = [Card.parse(code).display for code in values if code not in held]
        if gone:
            raise Refusal(
                f"{' '.join(gone)} {'is' if len(gone) == 1 else 'are'} no longer in your hand: "
                "press Refresh to see your cards."
            )
        table.selections[seat.key] = list(values)
        await self._respond_hand(interaction, table, seat.key)

    async def sort(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        mode = table.sort_modes.get(seat.key, "rank")
        table.sort_modes[seat.key] = "suit" if mode == "rank" else "rank"
        await self._respond_hand(interaction, table, seat.key)

    async def refresh(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        await self._respond_hand(interaction, table, seat.key)

    # --- hand message: game actions ---------------------------------------------------------
    async def _act(
        self, interaction: Interaction, table: Table, parsed: ComponentId, action: Action
    ) -> None:
        """Play one engine action for the clicking player: apply, save, answer;
        the table and the next player follow once it is saved."""
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        if seat.autopilot:
            raise Refusal("A computer is playing your seat: press Take my seat back first.")
        async with self.work.change(table) as change:
            self.moves.apply(table, seat.key, [action], by_human=True)
            await change.save()
            await self._respond_hand(interaction, table, seat.key)

    async def draw(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        await self._act(interaction, table, parsed, DrawStock())

    async def take(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        await self._act(interaction, table, parsed, TakeDiscard())

    async def meld(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        cards = _selected(table, seat_of(interaction, table).key)
        if len(cards) < 3:
            raise Refusal("Select at least 3 cards to meld.")
        await self._act(interaction, table, parsed, MeldCards(tuple(cards)))

    async def discard(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        cards = _selected(table, seat_of(interaction, table).key)
        if len(cards) != 1:
            raise Refusal("Select exactly one card to discard.")
        await self._act(interaction, table, parsed, Discard(cards[0]))

    async def lay_off(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        match = table.match
        assert match is not None
        cards = _selected(table, seat.key)
        if not cards:
            raise Refusal("Select the cards to lay off first.")
        view = match.hand.view_for(seat.key)
        if view.turn != seat.key:
            raise Refusal("It is not your turn.")
        if view.phase is not Phase.PLAY:
            raise Refusal("You must draw before you lay off.")
        fits = [i for i, m in enumerate(view.melds) if fits_meld(m.meld, cards, table.rules)]
        if not fits:
            raise Refusal(f"{format_cards(cards)} cannot be laid off on any meld on the table.")
        if len(fits) == 1:
            await self._act(interaction, table, parsed, LayOff(tuple(cards), fits[0]))
            return
        embed, _controls = hand_payload(
            table, seat.key, note="Those cards fit more than one meld: choose where they go."
        )
        await callbacks.update_message(
            interaction, embed=embed, controls=lay_off_choice_controls(table, fits)
        )

    async def lay_off_onto(
        self, interaction: Interaction, table: Table, parsed: ComponentId, values: list[str]
    ) -> None:
        cards = _selected(table, seat_of(interaction, table).key)
        if not cards or not values:
            raise Refusal("Select the cards to lay off first.")
        try:
            meld = int(values[0])
        except ValueError as error:
            raise RummyError("There is no such meld on the table.") from error
        await self._act(interaction, table, parsed, LayOff(tuple(cards), meld))

    async def reclaim(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        seat = seat_of(interaction, table)
        if not seat.autopilot:
            raise Refusal("Your seat is already yours.")
        async with self.work.change(table) as change:
            seat.autopilot = False
            seat.missed_turns = 0
            table.last_human_action = time.time()
            table.log.append(f"{seat.name} took their seat back")
            if table.current_seat is seat:
                self.moves.start_clock(table)
            await change.save()
            await self._respond_hand(interaction, table, seat.key)
