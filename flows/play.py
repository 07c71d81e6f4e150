"""Playing: the table's buttons, `/rummy hand`, and each player's private hand message."""

from __future__ import annotations

import asyncio
import functools
import time
from dataclasses import asdict, dataclass

from engine import (
    Action,
    Card,
    Discard,
    DrawStock,
    Hints,
    LayOff,
    MeldCards,
    Phase,
    TakeDiscard,
)
from presentation import actions, render
from presentation.actions import ComponentId
from presentation.card_emoji import CardFaces
from presentation.hand_message import CLIENT_LANGUAGE, Choices, hand_layout, settings_layout
from presentation.hand_messages import HandMessages
from presentation.i18n import LANGUAGES, N_, _, current, label_on, speaking, use
from presentation.labels import NEXT_HAND_LABEL
from presentation.layouts import Layout
from presentation.notify import Notifier
from presentation.refresh import TableRefresher
from presentation.table_message import result_layout
from tables import HandMessage, NotSaved, Refusal, Stage, Table, TableWork
from transport import callbacks
from transport.handles import InteractionHandle
from transport.private import Interaction

from .automation import cards_of
from .hints import HintBook
from .moves import Moves
from .prefs import PREF_NAMES, PlayerPrefs
from .router import AfterLock, Handlers, refusal_text, refuse, seat_of, tell_closed_dms
from .tasks import Supervisor

OUT_OF_DATE = N_("That was out of date: here is your hand as it is now.")
NOT_STARTED = N_("The game has not started yet.")
NOT_YOUR_TURN = N_("Not your turn yet: {who} is playing.")
DRAW_FIRST = N_("Draw first: from the stock, or take the top of the discard pile.")


class OutOfDate(Refusal):
    """A click on a hand message from an earlier hand: its answer is the hand now."""

    def __init__(self) -> None:
        super().__init__(_(OUT_OF_DATE))


@dataclass(frozen=True)
class HandOpening:
    """A hand message built under the table's lock, to be sent after it."""

    key: str
    layout: Layout
    changes: int  # table.changes when it was built


def _hand_of_arg(parsed: ComponentId) -> str:
    """The hand number a hand control was made for (its argument's first part)."""
    return (parsed.arg or "").partition(".")[0]


def _require_current_hand(table: Table, parsed: ComponentId) -> None:
    if table.stage is Stage.HAND_OVER:
        raise Refusal(_("This hand is over: press **{next_hand}** on the table.",
                        next_hand=label_on(NEXT_HAND_LABEL, table.language)))
    if table.stage is not Stage.PLAYING:
        raise Refusal(_(NOT_STARTED))
    if _hand_of_arg(parsed) != str(table.hand_number):
        raise OutOfDate()


def _selected(table: Table, key: str) -> list[Card]:
    held = table.match.hand.hand_of(key) if table.match is not None else ()
    codes = set(table.selections.get(key, []))
    return [card for card in held if card.code in codes]


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
        faces: CardFaces,
        prefs: PlayerPrefs,
        hints: HintBook,
    ) -> None:
        self.hints = hints
        self.faces = faces
        self.prefs = prefs
        self.work = work
        self.tables = work.tables
        self.moves = moves
        self.tasks = tasks
        self.refresher = refresher
        self.notifier = notifier
        self.hand_messages = hand_messages

    def bind(self, handlers: Handlers) -> None:
        handlers.hand_in_place = self.show_in_place
        handlers.at_table.update(
            {
                actions.SHOW_HAND: self.show_hand,
                actions.RULES: self.rules,
                actions.OPEN_TABLE: self.open_table,
                actions.NEXT_HAND: self.next_hand,
                actions.PICK: self.pick,
                actions.SELECT_CARDS: self.refresh,
                actions.LAY_OFF_ONTO: self.refresh,
                actions.SORT: self.sort,
                actions.REFRESH: self.refresh,
                actions.DRAW: self.draw,
                actions.TAKE: self.take,
                actions.MELD: self.meld,
                actions.LAY_OFF: self.lay_off,
                actions.DISCARD: self.discard,
                actions.RECLAIM: self.reclaim,
                actions.SETTINGS: self.settings,
                actions.TOGGLE: self.toggle,
                actions.LANGUAGE: self.choose_language,
                actions.HINT: self.hint,
                actions.FULL_LOG: self.full_log,
            }
        )

    # --- the member's language -----------------------------------------------------------
    async def language_command(self, interaction: Interaction, code: str | None) -> None:
        """`/rummy language`: read the bot in ``code`` from now on, anywhere (None:
        as the Discord app)."""
        try:
            await self.prefs.choose_language(interaction.user.id, code)
        except NotSaved as not_saved:
            await refuse(interaction, refusal_text(not_saved))
            return
        use(self.prefs.language(interaction.user.id, interaction.locale))
        name = LANGUAGES[current().code]
        if code is None:
            text = _("I'll follow your Discord app's language: {language}.", language=name)
        else:
            text = _("I'll speak {language} to you from now on.", language=name)
        await callbacks.send_message(interaction, text, ephemeral=True)

    # --- opening a hand message ----------------------------------------------------------
    async def show_hand_command(self, interaction: Interaction) -> None:
        """`/rummy hand`: the same private message as the table's Show hand button."""
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            await refuse(interaction, _("There is no game in this channel."))
            return
        async with table.lock:
            try:
                opening = self.prepare_hand(interaction, table)
            except Refusal as refusal:
                await refuse(interaction, refusal_text(refusal))
                return
        await self.send_hand(interaction, table, opening)
        await tell_closed_dms(interaction, table)

    async def show_hand(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
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
            raise Refusal(_(NOT_STARTED))
        four_colour = self.prefs.of(interaction.user.id).four_colour
        layout = hand_layout(table, seat.key, self.faces, four_colour=four_colour)
        return HandOpening(seat.key, layout, table.changes)

    async def send_hand(self, interaction: Interaction, table: Table, opening: HandOpening) -> None:
        """Send a prepared hand message; safe without the lock (see flows.router)."""
        message_id = await callbacks.open_message(
            interaction, controls=opening.layout, ephemeral=True
        )
        older = table.hand_messages.get(opening.key)
        table.hand_messages[opening.key] = HandMessage(
            InteractionHandle(interaction), time.time(), message_id, shows=opening.changes
        )
        if older is not None:
            # The older message would look live but stop following the game.
            self.tasks.spawn(self.hand_messages.retire(table, older), "hand-retire")
        if table.changes != opening.changes:
            # The game moved on while the message was on its way: its turn may
            # have come, and that turn's refresh found no message to edit.
            self.tasks.spawn(self.hand_messages.refresh(table, opening.key), "hand-refresh")

    # --- table buttons --------------------------------------------------------------------
    async def rules(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        await callbacks.send_message(interaction, render.rules_text(table.rules), ephemeral=True)

    async def open_table(
        self, interaction: Interaction, _table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        """Open the graphical table inside Discord: the same game, for the member
        who pressed it (a spectator watches, with no hand)."""
        await callbacks.launch_activity(interaction)

    async def next_hand(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        message = interaction.message
        if (
            table.stage is not Stage.HAND_OVER
            or parsed.arg != str(table.hand_number)
            or (message is not None and message.id != table.message_id)
        ):
            raise Refusal(
                _("That button is from an earlier hand; the next hand is already dealt.")
            )
        match = table.match
        assert match is not None and match.hand.outcome is not None
        with speaking(table.language):  # the public table
            finished = result_layout(table, match.hand.outcome, self.faces, dealt_on=True)
        async with self.work.change(table, refresh=False) as change:
            self.moves.deal_next_hand(table)
            await change.save()
            # The answer only takes the button off the finished hand's message,
            # which keeps its result; the new hand goes on a fresh message that
            # the refresher posts after it, so the click is not answered late
            # behind a channel message that waits on rate limits.
            try:
                await callbacks.update_message(interaction, controls=finished)
            finally:
                self.refresher.move(table)
                self.notifier.dealt(table)

    # --- hand message: private, no game change ------------------------------------------
    async def show_in_place(
        self, interaction: Interaction, table: Table, note: str | None = None
    ) -> None:
        """Answer a click on a hand message by drawing it anew, with ``note``: refusals
        and notices are shown in the message itself, never as a new one."""
        seat = seat_of(interaction, table)
        if table.match is None:
            await refuse(interaction, note or _(NOT_STARTED))
            return
        four_colour = self.prefs.of(interaction.user.id).four_colour
        layout = hand_layout(table, seat.key, self.faces, note=note, four_colour=four_colour)
        shows = table.changes
        table.answering(seat.key)
        await callbacks.update_message(interaction, controls=layout)
        clicked = interaction.message.id if interaction.message is not None else None
        older = table.hand_messages.get(seat.key)
        table.hand_messages[seat.key] = HandMessage(
            InteractionHandle(interaction), time.time(), clicked, shows=shows
        )
        if older is not None and None not in (older.message_id, clicked) and (
            older.message_id != clicked
        ):
            # An older hand message brought back: the one that was following the
            # game would look live but stop following it.
            self.tasks.spawn(self.hand_messages.retire(table, older), "hand-retire")

    async def pick(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        """Put a card in the selection, or take it out again."""
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        assert table.match is not None
        hand = table.match.hand  # a pick only needs the turn and the cards, not a view
        if hand.turn != seat.key:
            raise Refusal(_(NOT_YOUR_TURN, who=table.name_of(hand.turn)))
        if hand.phase is not Phase.PLAY:
            raise Refusal(_(DRAW_FIRST))
        code = (parsed.arg or "").partition(".")[2]
        if code not in {card.code for card in hand.hand_of(seat.key)}:
            raise Refusal(_("That card is no longer in your hand."))
        chosen = table.selections.setdefault(seat.key, [])
        if code in chosen:
            chosen.remove(code)
        else:
            chosen.append(code)
        await self.show_in_place(interaction, table)

    async def settings(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        """Show the player's own settings in place of their hand."""
        await self._show_settings(interaction, table)

    async def toggle(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        """Switch one of the player's own settings; remembered wherever they play."""
        seat_of(interaction, table)
        name = parsed.arg or ""
        if name not in PREF_NAMES:
            raise Refusal(_("That setting is not one I know."))
        await self.prefs.toggle(interaction.user.id, name)
        await self._show_settings(interaction, table, _("Saved."))

    async def choose_language(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, values: list[str]
    ) -> None:
        """Read the bot in another language from now on (or the client's again)."""
        seat = seat_of(interaction, table)
        chosen = values[0] if values else ""
        code = None if chosen == CLIENT_LANGUAGE else chosen
        if code is not None and code not in LANGUAGES:
            raise Refusal(_("That language is not one I speak."))
        await self.prefs.choose_language(interaction.user.id, code)
        use(self.prefs.language(interaction.user.id, interaction.locale))
        seat.language = current().code
        await self._show_settings(interaction, table, _("Saved."))

    async def _show_settings(
        self, interaction: Interaction, table: Table, note: str | None = None
    ) -> None:
        seat = seat_of(interaction, table)
        choices = asdict(self.prefs.of(interaction.user.id))
        clicked = interaction.message.id if interaction.message is not None else None
        following = table.hand_messages.get(seat.key)
        mine = following is not None and following.message_id in (clicked, None)
        if following is not None and mine:
            following.on_hand = False  # before the answer: no edit may follow it with the hand
        table.answering(seat.key)
        await callbacks.update_message(
            interaction, controls=settings_layout(table, choices, note)
        )
        if mine:
            # The message that follows the game shows the settings now: the
            # game moving on leaves them be, until the player goes back.
            table.hand_messages[seat.key] = HandMessage(
                InteractionHandle(interaction), time.time(), clicked, on_hand=False
            )

    async def hint(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        """The strongest computer player's next move, shown and its cards picked,
        never played: the player still presses the move."""
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        if table.rules.hints is Hints.OFF:
            raise Refusal(_("This table plays without hints."))
        assert table.match is not None
        view = table.view_of(seat.key)
        if view.turn != seat.key:
            raise Refusal(_("Hints are for your own turn."))
        position = table.position
        advice = await asyncio.shield(self.hints.ask(table, seat.key))
        await table.lock.settled()
        if table.position != position:
            # A move by the other door while the expert thought: the hint is for a
            # table that is gone.
            raise OutOfDate()
        table.selections[seat.key] = [card.code for card in cards_of(advice)]
        hint = _("💡 Hint: {advice}", advice=render.advice(advice, view))
        await self.show_in_place(interaction, table, hint)

    async def full_log(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        """Every move of the hand so far, in a message of its own."""
        seat_of(interaction, table)
        await callbacks.send_message(interaction, render.hand_log_text(table), ephemeral=True)

    async def sort(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        mode = table.sort_modes.get(seat.key, "rank")
        table.sort_modes[seat.key] = "suit" if mode == "rank" else "rank"
        await self.show_in_place(interaction, table)

    async def refresh(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        """Bring the hand message up to date (any control of an older one does too)."""
        await self.show_in_place(interaction, table)

    # --- hand message: game actions ---------------------------------------------------------
    async def _act(
        self, interaction: Interaction, table: Table, parsed: ComponentId, action: Action
    ) -> None:
        """Play one engine action for the clicking player: apply, save, answer;
        the table and the next player follow once it is saved."""
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        if seat.autopilot:
            raise Refusal(_("A computer is playing your seat: press Take my seat back first."))
        async with self.work.change(table) as change:
            self.moves.apply(table, seat.key, [action], by_human=True)
            await change.save()
            await self.show_in_place(interaction, table)

    def _choices(self, interaction: Interaction, table: Table, parsed: ComponentId) -> Choices:
        seat = seat_of(interaction, table)
        _require_current_hand(table, parsed)
        assert table.match is not None
        view = table.view_of(seat.key)
        if view.turn != seat.key:
            raise Refusal(_(NOT_YOUR_TURN, who=table.name_of(view.turn)))
        if view.phase is not Phase.PLAY:
            raise Refusal(_(DRAW_FIRST))
        return Choices.of(view, _selected(table, seat.key))

    async def draw(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        await self._act(interaction, table, parsed, DrawStock())

    async def take(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        await self._act(interaction, table, parsed, TakeDiscard())

    async def meld(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        choices = self._choices(interaction, table, parsed)
        picked = tuple(_selected(table, seat_of(interaction, table).key))
        if len(picked) < 3:
            raise Refusal(_("Pick at least 3 cards to meld: 3 or 4 of one rank, or a run."))
        # Not a legal meld: the engine says why, in its own words.
        await self._act(interaction, table, parsed, choices.meld or MeldCards(picked))

    async def lay_off(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        choices = self._choices(interaction, table, parsed)
        meld = (parsed.arg or "").partition(".")[2]
        fitting = [lay_off for lay_off in choices.lay_offs if str(lay_off.meld) == meld]
        picked = tuple(_selected(table, seat_of(interaction, table).key))
        if not picked:
            raise Refusal(_("Pick the cards to lay off first."))
        if not fitting and not meld.isdigit():
            raise Refusal(_("There is no such meld on the table."))
        # Not a legal lay-off: the engine says why, in its own words.
        action = fitting[0] if fitting else LayOff(picked, int(meld))
        await self._act(interaction, table, parsed, action)

    async def discard(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        choices = self._choices(interaction, table, parsed)
        picked = _selected(table, seat_of(interaction, table).key)
        if len(picked) != 1:
            raise Refusal(_("Pick exactly one card to discard."))
        # Not a legal discard: the engine says why, in its own words.
        await self._act(interaction, table, parsed, choices.discard or Discard(picked[0]))

    async def reclaim(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        seat = seat_of(interaction, table)
        if not seat.autopilot:
            raise Refusal(_("Your seat is already yours."))
        async with self.work.change(table) as change:
            self.moves.give_back(table, seat)
            await change.save()
            await self.show_in_place(interaction, table, _("Your seat is yours again."))
