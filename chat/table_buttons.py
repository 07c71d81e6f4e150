"""Playing in the chat: the table's buttons, `/rummy hand`, and each player's
private hand message. The chat's own part is its form: opening hand messages,
picking cards one click at a time, the settings view, answering in place.
What a player's move does, its checks and refusals included, is
``game.seat_moves``'s, the same for the Activity's page."""

from __future__ import annotations

import functools
import time
from dataclasses import asdict, dataclass, replace

from chat.messages.hand_layout import CLIENT_LANGUAGE, hand_layout, settings_layout
from chat.messages.layouts import Layout
from chat.messages.table_layout import result_layout
from engine import Phase
from game.prefs import PREF_NAMES, PlayerPrefs
from game.seat_moves import (
    DRAW_FIRST,
    EARLIER_HAND,
    NOT_STARTED,
    Ask,
    Done,
    SeatMoves,
    on_turn,
    picked,
)
from game.tasks import Supervisor
from presentation import actions
from presentation.actions import ComponentId
from presentation.card_emoji import CardFaces
from presentation.i18n import LANGUAGES, N_, _, current, speaking
from presentation.labels import PLAY_LABEL
from presentation.render import rules_text
from tables import NotSaved, Refusal, Stage, Table, TableWork
from transport import callbacks
from transport.handles import InteractionHandle
from transport.private import Interaction

from .activity_lobby import launch_controls
from .follow_ups import CHAT
from .hand_messages import HandMessages
from .router import AfterLock, Handlers, refusal_text, refuse, seat_of, tell_closed_dms
from .table_side import HandMessage, chat_side

NO_ACTIVITIES_HERE = N_(
    "This channel does not let you use Activities, so the table cannot open here: a "
    "server admin can allow **Use Activities**. The buttons play the same game.")


HAND_IN_THE_ACTIVITY = N_(
    "This game is played in the Activity, where your cards are: press **{play}** to "
    "open it.")


@dataclass(frozen=True)
class HandOpening:
    """A hand message built under the table's lock, to be sent after it."""

    key: str
    layout: Layout
    changes: int  # table.changes when it was built


def _hand_of(parsed: ComponentId) -> int:
    """The hand a hand message's control was made for (its argument's first
    part); -1, an earlier hand, for a control that names none."""
    number = (parsed.arg or "").partition(".")[0]
    return int(number) if number.isdigit() else -1


def _selected(table: Table, key: str) -> tuple[str, ...]:
    return tuple(table.selections.get(key, ()))


class Play:
    """Answers the buttons of the public table and of the hand messages."""

    def __init__(
        self,
        work: TableWork,
        seat_moves: SeatMoves,
        tasks: Supervisor,
        faces: CardFaces,
        prefs: PlayerPrefs,
        hand_messages: HandMessages,
    ) -> None:
        self.work = work
        self.tables = work.tables
        self.seat_moves = seat_moves
        self.hand_messages = hand_messages
        self.tasks = tasks
        self.faces = faces
        self.prefs = prefs

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
                actions.WHY: self.refresh,
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

    def _ask(self, interaction: Interaction, parsed: ComponentId | None = None, *,
             answered: bool = False, note: str | None = None) -> Ask:
        """The click as the shared flow reads it. ``answered``: the move's answer
        is this hand message drawn anew (with ``note``, or the flow's own)."""
        user = interaction.user
        table = self.tables.get(interaction.channel_id or 0)
        seat = table.seat_of_user(user.id) if table is not None else None

        async def in_place(done: Done) -> None:
            assert table is not None
            await self.show_in_place(interaction, table, note or done.note or None)

        return Ask(
            user.id, CHAT, table_labels=True,
            hand=_hand_of(parsed) if parsed is not None else None,
            cards=_selected(table, seat.key) if table is not None and seat is not None else (),
            answer=in_place if answered else None,
        )

    # --- the member's language -----------------------------------------------------------
    async def language_command(self, interaction: Interaction, code: str | None) -> None:
        """`/rummy language`: read the bot in ``code`` from now on, anywhere (None:
        as the Discord app)."""
        table = self.tables.get(interaction.channel_id or 0)
        try:
            await self.seat_moves.choose_language(table, self._ask(interaction), code,
                                                  str(interaction.locale))
        except NotSaved as not_saved:
            await refuse(interaction, refusal_text(not_saved))
            return
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
        if table.activity_only:
            # No hand message could follow the game here: the cards are in the Activity.
            await callbacks.send_message(
                interaction, _(HAND_IN_THE_ACTIVITY, play=_(PLAY_LABEL)),
                controls=launch_controls(table), ephemeral=True)
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
        """Send a prepared hand message; safe without the lock (see chat.router)."""
        message_id = await callbacks.open_message(
            interaction, controls=opening.layout, ephemeral=True
        )
        hands = chat_side(table).hand_messages
        older = hands.get(opening.key)
        hands[opening.key] = HandMessage(
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
        await callbacks.send_message(interaction, rules_text(table.rules), ephemeral=True)

    async def open_table(
        self, interaction: Interaction, _table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        """Open the graphical table inside Discord: the same game, for the member
        who pressed it (a spectator watches, with no hand)."""
        # In a DM or group DM there are no permissions to deny it.
        if interaction.guild_id is not None and not interaction.permissions.use_embedded_activities:
            # The channel's permissions keep Activities from this member: say so,
            # rather than launch what Discord will not open for them.
            raise Refusal(_(NO_ACTIVITIES_HERE))
        await callbacks.launch_activity(interaction)

    async def next_hand(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        message = interaction.message
        if message is not None and message.id != chat_side(table).message_id:
            raise Refusal(_(EARLIER_HAND))  # a finished hand's message, from before

        finished = None
        if table.match is not None and table.match.hand.outcome is not None:
            with speaking(table.language):  # the public table
                finished = result_layout(table, table.match.hand.outcome, self.faces,
                                         dealt_on=True)

        async def take_the_button_off(_done: Done) -> None:
            assert finished is not None  # the hand was over, or the deal was refused
            await callbacks.update_message(interaction, controls=finished)

        number = parsed.arg or ""
        ask = Ask(interaction.user.id, CHAT, table_labels=True,
                  hand=int(number) if number.isdigit() else -1, answer=take_the_button_off)
        await self.seat_moves.next_hand(table, ask)

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
        side = chat_side(table)
        side.answering(seat.key)
        await callbacks.update_message(interaction, controls=layout)
        clicked = interaction.message.id if interaction.message is not None else None
        older = side.hand_messages.get(seat.key)
        side.hand_messages[seat.key] = HandMessage(
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
        ask = self._ask(interaction, parsed)
        seat = on_turn(table, ask)
        assert table.match is not None
        if table.match.hand.phase is not Phase.PLAY:
            raise Refusal(_(DRAW_FIRST))
        code = (parsed.arg or "").partition(".")[2]
        picked(table, seat, (code,))  # still in the hand
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
        seat_of(interaction, table)  # the settings are on a player's hand message
        chosen = values[0] if values else ""
        code = None if chosen == CLIENT_LANGUAGE else chosen
        done = await self.seat_moves.choose_language(table, self._ask(interaction), code,
                                                     str(interaction.locale))
        await self._show_settings(interaction, table, done.note)

    async def _show_settings(
        self, interaction: Interaction, table: Table, note: str | None = None
    ) -> None:
        seat = seat_of(interaction, table)
        choices = asdict(self.prefs.of(interaction.user.id))
        clicked = interaction.message.id if interaction.message is not None else None
        side = chat_side(table)
        following = side.hand_messages.get(seat.key)
        mine = following is not None and following.message_id in (clicked, None)
        if following is not None and mine:
            following.on_hand = False  # before the answer: no edit may follow it with the hand
        side.answering(seat.key)
        await callbacks.update_message(
            interaction, controls=settings_layout(table, choices, note)
        )
        if mine:
            # The message that follows the game shows the settings now: the
            # game moving on leaves them be, until the player goes back.
            side.hand_messages[seat.key] = HandMessage(
                InteractionHandle(interaction), time.time(), clicked, on_hand=False
            )

    async def hint(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        """The strongest computer player's next move, shown and its cards picked,
        never played: the player still presses the move."""
        done = await self.seat_moves.hint(table, self._ask(interaction, parsed))
        seat = seat_of(interaction, table)
        table.selections[seat.key] = list(done.cards)
        await self.show_in_place(interaction, table, done.note)

    async def full_log(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        """Every move of the hand so far, in a message of its own."""
        done = self.seat_moves.log(table)
        await callbacks.send_message(interaction, "\n".join(done.lines), ephemeral=True)

    async def sort(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        self.seat_moves.sort(table, self._ask(interaction, parsed))
        await self.show_in_place(interaction, table)

    async def refresh(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        """Bring the hand message up to date (any control of an older one does too)."""
        await self.show_in_place(interaction, table)

    # --- hand message: game actions ---------------------------------------------------------
    async def _play(self, interaction: Interaction, table: Table, parsed: ComponentId,
                    op: str, meld: int | None = None) -> None:
        """One move of the turn with the picked cards, answered in place once saved."""
        ask = self._ask(interaction, parsed, answered=True)
        if meld is not None:
            ask = replace(ask, meld=meld)
        await self.seat_moves.play(table, ask, op)

    async def draw(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        await self._play(interaction, table, parsed, "draw")

    async def take(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        await self._play(interaction, table, parsed, "take")

    async def meld(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        await self._play(interaction, table, parsed, "meld")

    async def lay_off(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        meld = (parsed.arg or "").partition(".")[2]
        await self._play(interaction, table, parsed, "lay_off",
                         int(meld) if meld.isdigit() else None)

    async def discard(
        self, interaction: Interaction, table: Table, parsed: ComponentId, _values: list[str]
    ) -> None:
        await self._play(interaction, table, parsed, "discard")

    async def reclaim(
        self, interaction: Interaction, table: Table, _parsed: ComponentId, _values: list[str]
    ) -> None:
        await self.seat_moves.reclaim(table, self._ask(interaction, answered=True))
