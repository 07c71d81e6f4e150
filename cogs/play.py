"""The table's buttons and each player's private hand view."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

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

from . import answer, render
from .game import NOT_SAVED, Interaction, Refusal
from .handles import InteractionHandle
from .ids import ComponentId
from .lobby import AfterLock, Handler
from .table import HandViewToken, Seat, Stage, Table
from .views import hand_view, lay_off_choice_view

if TYPE_CHECKING:
    from .game import GameService


def hand_payload(
    table: Table, key: str, note: str | None = None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The private hand view of one player, in its current state."""
    match = table.match
    assert match is not None
    outcome = match.hand.outcome
    if outcome is not None:
        return render.hand_result_embed(table, outcome), None
    view = match.hand.view_for(key)
    cards = render.sorted_hand(view.hand, table.sort_modes.get(key, "rank"))
    return render.hand_embed(table, key, note, view), hand_view(table, key, cards, view)


@dataclass(frozen=True)
class HandOpening:
    """A hand view built under the table's lock, to be sent after it."""

    key: str
    embed: discord.Embed
    view: discord.ui.View | None
    changes: int  # table.changes when it was built


class PlayHandlers:
    def __init__(self, game: GameService) -> None:
        self.game = game
        self.handlers: dict[str, Handler] = {
            "hand": self.show_hand,
            "rules": self.rules,
            "next": self.next_hand,
            "cards": self.select_cards,
            "sort": self.sort,
            "refresh": self.refresh,
            "draw": self.draw,
            "take": self.take,
            "meld": self.meld,
            "layoff": self.lay_off,
            "onto": self.lay_off_onto,
            "discard": self.discard,
            "reclaim": self.reclaim,
        }

    # --- guards ---------------------------------------------------------------------
    @staticmethod
    def _seat(interaction: Interaction, table: Table) -> Seat:
        seat = table.seat_of_user(interaction.user.id)
        if seat is None:
            raise Refusal("You are not playing at this table.")
        return seat

    @staticmethod
    def _require_current_hand(table: Table, parsed: ComponentId) -> None:
        if table.stage is Stage.HAND_OVER:
            raise Refusal("This hand is over: press Next hand on the table.")
        if table.stage is not Stage.PLAYING:
            raise Refusal("The game has not started yet.")
        if parsed.arg != str(table.hand_number):
            raise Refusal(
                "This hand view is from an earlier hand: press Show hand for a fresh one."
            )

    def _selected(self, table: Table, key: str) -> list[Card]:
        codes = table.selections.get(key, [])
        return [Card.parse(code) for code in codes]

    # --- table buttons --------------------------------------------------------------
    async def show_hand(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> AfterLock:
        # Sent after the lock is let go: opening a hand changes nothing, and when
        # a hand is dealt the whole table opens theirs at once. Holding the lock
        # over each answer's round trip made the last of them wait for the others.
        opening = self.prepare_hand(interaction, table)
        return functools.partial(self.send_hand, interaction, table, opening)

    def prepare_hand(self, interaction: Interaction, table: Table) -> HandOpening:
        """The private hand view to open for this player; needs the table's lock."""
        seat = self._seat(interaction, table)
        if table.stage is Stage.LOBBY or table.match is None:
            raise Refusal("The game has not started yet.")
        embed, view = hand_payload(table, seat.key)
        return HandOpening(seat.key, embed, view, table.changes)

    async def send_hand(self, interaction: Interaction, table: Table, opening: HandOpening) -> None:
        """Send a prepared hand view; safe without the lock (see GameService._on_component)."""
        await answer.send_message(
            interaction, embed=opening.embed, view=opening.view, ephemeral=True
        )
        if opening.view is None:
            return
        table.hand_views[opening.key] = HandViewToken(InteractionHandle(interaction), time.time())
        if table.changes != opening.changes:
            # The game moved on while the view was on its way: its turn may
            # have come, and that turn's refresh found no view to edit.
            self.game.spawn(self.game.refresh_hand_view(table, opening.key), "hand-view-refresh")

    async def rules(
        self, interaction: Interaction, table: Table, _: ComponentId, __: list[str]
    ) -> None:
        await interaction.response.send_message(render.rules_text(table.rules), ephemeral=True)

    async def next_hand(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        self._seat(interaction, table)
        message = interaction.message
        if (
            table.stage is not Stage.HAND_OVER
            or parsed.arg != str(table.hand_number)
            or (message is not None and message.id != table.message_id)
        ):
            raise Refusal("That button is from an earlier hand; the next hand is already dealt.")
        match = table.match
        assert match is not None
        snapshot = table.to_dict()
        match.next_hand()
        table.stage = Stage.PLAYING
        table.log.clear()
        dealer = table.name_of(match.hand.view_for(None).dealer)
        table.log.append(f"Hand {match.hand_number}: {dealer} dealt")
        table.last_human_action = time.time()
        self.game.start_turn_clock(table)
        if not await self.game.commit(table, snapshot):
            raise Refusal(NOT_SAVED)
        # The answer only takes the button off the finished hand's message,
        # which keeps its result; the new hand goes on a fresh message that the
        # refresher posts after it. Answering only once that message was out
        # (a channel message waits on rate limits) took most of a second on a
        # busy bot.
        try:
            await answer.update_message(interaction, view=None)
        finally:
            self.game.refresher.move(table)
            self.game.notifier.dealt(table)
            self.game.after_change(table, refresh=False)

    # --- hand view: private, no game change ------------------------------------------
    async def _respond_hand(
        self, interaction: Interaction, table: Table, key: str, note: str | None = None
    ) -> None:
        embed, view = hand_payload(table, key, note)
        await answer.update_message(interaction, embed=embed, view=view)
        if view is not None:
            table.hand_views[key] = HandViewToken(InteractionHandle(interaction), time.time())

    async def select_cards(
        self, interaction: Interaction, table: Table, parsed: ComponentId, values: list[str]
    ) -> None:
        seat = self._seat(interaction, table)
        self._require_current_hand(table, parsed)
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
        seat = self._seat(interaction, table)
        self._require_current_hand(table, parsed)
        mode = table.sort_modes.get(seat.key, "rank")
        table.sort_modes[seat.key] = "suit" if mode == "rank" else "rank"
        await self._respond_hand(interaction, table, seat.key)

    async def refresh(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        seat = self._seat(interaction, table)
        self._require_current_hand(table, parsed)
        await self._respond_hand(interaction, table, seat.key)

    # --- hand view: game actions ---------------------------------------------------------
    async def _act(
        self,
        interaction: Interaction,
        table: Table,
        parsed: ComponentId,
        action: Action,
    ) -> None:
        """Play one engine action for the clicking player, on the one path:
        validate, apply, save, answer, then refresh the table."""
        seat = self._seat(interaction, table)
        self._require_current_hand(table, parsed)
        if seat.autopilot:
            raise Refusal("A computer is playing your seat: press Take my seat back first.")
        assert table.match is not None
        snapshot = table.to_dict()
        turn_before = table.match.hand.turn
        await self.game.apply(table, seat.key, [action], by_human=True)
        if not await self.game.commit(table, snapshot):
            raise Refusal(NOT_SAVED)
        # Once saved, the move has happened: the table, DMs and the next player's
        # clock must follow even if answering this click fails (a late answer).
        try:
            await self._respond_hand(interaction, table, seat.key)
        finally:
            turn_after = table.match.hand.turn if table.match is not None else None
            self.game.after_change(table, turn_changed=turn_after != turn_before)

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
        seat = self._seat(interaction, table)
        cards = self._selected(table, seat.key)
        if len(cards) < 3:
            raise Refusal("Select at least 3 cards to meld.")
        await self._act(interaction, table, parsed, MeldCards(tuple(cards)))

    async def discard(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        seat = self._seat(interaction, table)
        cards = self._selected(table, seat.key)
        if len(cards) != 1:
            raise Refusal("Select exactly one card to discard.")
        await self._act(interaction, table, parsed, Discard(cards[0]))

    async def lay_off(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _: list[str]
    ) -> None:
        seat = self._seat(interaction, table)
        self._require_current_hand(table, parsed)
        match = table.match
        assert match is not None
        cards = self._selected(table, seat.key)
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
        embed, _view = hand_payload(
            table, seat.key, note="Those cards fit more than one meld: choose where they go."
        )
        await answer.update_message(
            interaction, embed=embed, view=lay_off_choice_view(table, fits)
        )

    async def lay_off_onto(
        self, interaction: Interaction, table: Table, parsed: ComponentId, values: list[str]
    ) -> None:
        seat = self._seat(interaction, table)
        cards = self._selected(table, seat.key)
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
        seat = self._seat(interaction, table)
        if not seat.autopilot:
            raise Refusal("Your seat is already yours.")
        snapshot = table.to_dict()
        seat.autopilot = False
        seat.missed_turns = 0
        table.last_human_action = time.time()
        table.log.append(f"{seat.name} took their seat back")
        if table.current_seat is seat:
            self.game.start_turn_clock(table)
        if not await self.game.commit(table, snapshot):
            raise Refusal(NOT_SAVED)
        try:
            await self._respond_hand(interaction, table, seat.key)
        finally:
            self.game.after_change(table, turn_changed=False)
