"""A player's hand message: the one place a player needs during a game.

It shows the hand as card faces (the card just drawn marked), whose turn it
is and until when, the discard pile and the stock, the melds on the table
(numbered, for lay-offs), what the others did since the player's last turn,
and any notice or refusal, edited in place. Its controls offer only what can
be done now: each card is a button that toggles it in the selection, and the
moves shown are the legal ones for the phase of the turn (Meld lights up only
for a selection that is a meld, Lay off only where it fits, Discard only for
one card that may go), so a plain turn is three clicks: Draw, a card, Discard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from engine import (
    Card,
    HandOutcome,
    Hints,
    Phase,
    TakeDiscard,
    sort_by_rank,
)
from game.seat_view import SeatView, Since, sorted_hand
from game.seat_words import headline, turn_sentences, waiting_text
from presentation import actions
from presentation.card_emoji import CardFaces
from presentation.explain import explain
from presentation.i18n import LANGUAGES, N_, _, card_text, label_on, n_, number
from presentation.labels import REMATCH_LABEL
from presentation.render import EVENT_LINES, log_text, piles_text
from tables import Table

from .components import DANGER, PRIMARY, SECONDARY, SUCCESS, Component, option, select
from .layouts import Layout, container, row, section, separator, text

# Accent colours of the message: your move; someone else's; the hand is over.
YOUR_TURN = 0x3BA55C
WAITING = 0x4F545C
OVER = 0xF1C40F
CARDS_PER_ROW = 5
DRAW_STOCK_LINE = EVENT_LINES["draw_stock"]
# Beside the face of the card just drawn (or taken): words in no language.
JUST_DRAWN = "🆕"


def _lit(style: discord.ButtonStyle, playable: bool) -> int:
    """A move's colour while it can be played; grey while it cannot, as a dim
    green beside a lit one is hard to tell apart, on a phone above all."""
    return style.value if playable else SECONDARY.value


def button(
    custom_id: str,
    label: str,
    style: int,
    *,
    disabled: bool = False,
    emoji: Mapping[str, object] | None = None,
) -> Component:
    item: Component = {"type": 2, "custom_id": custom_id, "style": style, "disabled": disabled}
    if label:
        item["label"] = label
    if emoji is not None:
        item["emoji"] = emoji  # shared, never changed: one per card, made once
    return item


class HandLayout:
    """Builds one player's hand message from the table as it is now."""

    def __init__(
        self, table: Table, key: str, faces: CardFaces, *, four_colour: bool = False
    ) -> None:
        match = table.match
        assert match is not None, "a hand message exists only once dealt"
        self.table = table
        self.key = key
        self.faces = faces
        self.four_colour = four_colour
        self.seat_view = SeatView.of(table, key)
        self.view = self.seat_view.view
        self.names = table.names()
        self.scope = actions.table_scope(table.channel_id, table.game_id)
        self.hand_number = table.hand_number

    def cards(self, cards: Sequence[Card]) -> str:
        return self.faces.row(cards, four_colour=self.four_colour)

    def card(self, card: Card) -> str:
        return self.faces.inline(card, four_colour=self.four_colour)

    def layout(self, note: str | None = None) -> Layout:
        view = self.view
        if view.outcome is not None:
            return self.result(view.outcome, note)
        my_turn = view.turn == self.key
        mode = self.table.sort_modes.get(self.key, "rank")
        hand = sorted_hand(view.hand, mode)
        selected_codes = set(self.table.selections.get(self.key, []))
        selected = [card for card in hand if card.code in selected_codes]
        playing = my_turn and view.phase is Phase.PLAY
        parts: list[Component | None] = [text(f"{self.heading()}\n{self.status()}")]
        if not playing:
            # The hand is shown once: as faces until the player may pick, then
            # as the buttons that pick. Greyed-out card buttons under the faces
            # doubled the hand and made the message taller than a phone screen.
            parts.append(text(self.cards(hand) if hand else _("*No cards left.*")))
        parts += [separator(), text(self.piles()), text(self.melds())]
        since = self.since_last_turn()
        # The whole log beside the latest of it, where a player reading the moves
        # looks for more; the row of tools then fits a phone. Before anyone else
        # has moved, it joins the tools once there is a move to read.
        log = button(actions.FULL_LOG.id(self.scope, str(self.hand_number)),
                     # Translators: a button that shows every move of the hand so far.
                     _("Log"), SECONDARY.value)
        if since:
            parts.append(section(since, log))
        if note:
            parts.append(text(f"> {note}"))
        if playing:
            parts += self.card_rows(hand, selected_codes)
        if my_turn:
            parts.append(row(self.moves(selected)))
            # A refusal just shown above says it already.
            why = self.why_not(selected) if playing and not note else None
            if why:
                parts.append(text(f"-# ✋ {why}"))
        tools = self.tools(mode)
        if not since and any(by is not None for by, _line in self.table.hand_log):
            tools.append(log)
        parts.append(row(tools))
        accent = YOUR_TURN if my_turn else WAITING
        return Layout(container(*parts, accent=accent))

    # --- the text ---------------------------------------------------------------------
    def heading(self) -> str:
        # One line: the hand's number is on the table, and Discord itself says
        # under the message that only its reader sees it.
        count = n_("{n} card", "{n} cards", len(self.view.hand))
        return "### " + _("Your hand · {count}", count=count)

    def status(self) -> str:
        """Whose turn it is and what to do, and the time left as Discord counts it down."""
        status = self.seat_view.status()
        if not status.mine:
            return "⏳ " + waiting_text(status, self.names)
        said = turn_sentences(status, self.card)
        if status.deadline is not None:
            said.append(_("Time runs out {when}.", when=f"<t:{int(status.deadline)}:R>"))
        return "🟢 " + " ".join(said)

    def piles(self) -> str:
        view = self.view
        top = self.card(view.discard_top) if view.discard_top is not None else None
        return piles_text(top, len(view.discard_pile), self.faces.back(), view.stock_size)

    def melds(self) -> str:
        if not self.view.melds:
            return _("**Melds** none yet")
        lines = [
            f"`{index}` {self.cards(meld.cards)} — {self.owners(meld.owners)}"
            for index, meld in enumerate(self.view.melds, 1)
        ]
        return _("**Melds**") + "\n" + "\n".join(lines)

    def owners(self, owners: Sequence[str]) -> str:
        seen: list[str] = []
        for owner in owners:
            name = self.names.get(owner, owner)
            if name not in seen:
                seen.append(name)
        return ", ".join(seen)

    def since_last_turn(self) -> str:
        """The others' latest moves (``SeatView.since``), each a small line."""
        since = self.seat_view.since()
        if not since:
            return ""
        heading = (_("**Since your last turn**") if since.since is Since.LAST_TURN
                   else _("**So far this hand**"))
        return heading + "\n" + "\n".join(f"-# {log_text(line)}" for line in since.lines)

    # --- the controls -----------------------------------------------------------------
    def card_rows(self, hand: Sequence[Card], selected: set[str]) -> list[Component | None]:
        fresh = self.table.fresh_cards.get(self.key)
        buttons = []
        for card in hand:
            emoji = self.faces.component_emoji(card, four_colour=self.four_colour)
            shown = "" if emoji is not None else card_text(card)
            if card.code == fresh:
                # Marked in its label, not by colour: the four button colours
                # are those of the four-colour deck's suits (green clubs, blue
                # diamonds, red hearts), so only grey tells no suit. One mark,
                # so the row still fits a phone (a tick on each pick did not).
                shown = f"{JUST_DRAWN} {shown}".rstrip()
            # Picked blue, the rest grey.
            style = PRIMARY if card.code in selected else SECONDARY
            buttons.append(
                button(
                    actions.PICK.id(self.scope, f"{self.hand_number}.{card.code}"),
                    shown,
                    style.value,
                    emoji=emoji,
                )
            )
        return [
            row(buttons[start : start + CARDS_PER_ROW])
            for start in range(0, len(buttons), CARDS_PER_ROW)
        ]

    def moves(self, selected: Sequence[Card]) -> list[Component]:
        view, arg = self.view, str(self.hand_number)
        legal = set(view.legal)
        if view.phase is Phase.DRAW:
            top = view.discard_top
            take_label = (
                _("Take {card}", card=card_text(top)) if top is not None else _("Take discard")
            )
            return [
                button(actions.DRAW.id(self.scope, arg), _("Draw from stock"), PRIMARY.value),
                button(
                    actions.TAKE.id(self.scope, arg),
                    take_label,
                    PRIMARY.value,
                    disabled=TakeDiscard() not in legal,
                ),
            ]
        choices = self.seat_view.choices(selected)
        moves = [
            button(
                actions.MELD.id(self.scope, arg),
                _("Meld"),
                _lit(SUCCESS, choices.meld is not None),
                disabled=choices.meld is None,
            )
        ]
        if choices.lay_offs:
            moves += [
                button(
                    actions.LAY_OFF.id(self.scope, f"{arg}.{lay_off.meld}"),
                    _("Lay off on {meld}", meld=number(lay_off.meld + 1)),
                    SUCCESS.value,
                )
                for lay_off in choices.lay_offs
            ]
        else:
            moves.append(
                button(actions.LAY_OFF.id(self.scope, f"{arg}.0"), _("Lay off"),
                       SECONDARY.value, disabled=True)
            )
        label = (
            _("Discard {card}", card=card_text(selected[0]))
            if choices.discard is not None
            else _("Discard")
        )
        moves.append(
            button(
                actions.DISCARD.id(self.scope, arg),
                label,
                _lit(DANGER, choices.discard is not None),
                disabled=choices.discard is None,
            )
        )
        return moves

    def why_not(self, selected: Sequence[Card]) -> str | None:
        """The line under dim moves: ``SeatView.why_not`` in the reader's language."""
        refused = self.seat_view.why_not(selected)
        return None if refused is None else explain(refused)

    def tools(self, mode: str) -> list[Component]:
        arg = str(self.hand_number)
        sort_label = _("Sort by suit") if mode == "rank" else _("Sort by rank")
        tools = [
            # No Refresh: the message follows the game by itself. Three tools fit
            # a row at phone width, where five wrapped.
            button(actions.SORT.id(self.scope, arg), sort_label, SECONDARY.value),
            button(actions.SETTINGS.id(self.scope, arg), "⚙", SECONDARY.value),
        ]
        autopilot = self.table.seat(self.key).autopilot
        if self.table.rules.hints is Hints.ON and self.view.turn == self.key and not autopilot:
            hint = "💡 " + _("Hint")
            tools.insert(0, button(actions.HINT.id(self.scope, arg), hint, SECONDARY.value))
        if autopilot:
            reclaim = _("Take my seat back")
            tools.append(button(actions.RECLAIM.id(self.scope), reclaim, SUCCESS.value))
        return tools

    # --- the end of the hand ----------------------------------------------------------
    def result(self, outcome: HandOutcome, note: str | None) -> Layout:
        match = self.table.match
        assert match is not None
        headline = self.headline(outcome)
        lines = []
        for seat in self.table.seats:
            left = outcome.remaining.get(seat.key, ())
            held = self.cards(sort_by_rank(left)) if left else _("no cards")
            score = number(outcome.scores.get(seat.key, 0))
            total = number(match.totals.get(seat.key, 0))
            if seat.key == self.key:
                line = _("**You** {cards} · scores **{score}**, {total} in all",
                         cards=held, score=score, total=total)
            else:
                line = _("**{name}** {cards} · scores **{score}**, {total} in all",
                         name=seat.shown_name, cards=held, score=score, total=total)
            lines.append(line)
        over = (
            _("The match is over: **{rematch}** on the table opens a new game with the same "
              "rules, which each player joins.",
              rematch=label_on(REMATCH_LABEL, self.table.language))
            if match.is_over
            else _("Next hand is on the table.")
        )
        heading = _("Hand {number} is over", number=number(self.hand_number))
        parts: list[Component | None] = [
            text(f"### {heading}\n{headline}"),
            text("\n".join(lines)),
            text(f"-# {over}"),
        ]
        if note:
            parts.append(text(f"> {note}"))
        return Layout(container(*parts, accent=OVER))

    def headline(self, outcome: HandOutcome) -> str:
        return headline(outcome, self.names, self.key)


# A person's own choices, as the settings panel names them.
PREF_LABELS = {
    "deal_dm": N_("DM me my cards at each deal"),
    "turn_dm": N_("DM me when my turn waits for me"),
    "four_colour": N_("Four-colour cards (♣ green, ♦ blue)"),
}


# The language choice that follows the member's Discord client.
CLIENT_LANGUAGE = "auto"


def language_menu(scope: str, chosen: object) -> Component:
    """Which language the member reads the bot in: their client's, or one named."""
    options = [option(_("Same as my Discord app"), CLIENT_LANGUAGE, default=chosen is None)]
    # Each language by its own name, so that anyone finds theirs.
    options += [option(name, code, default=chosen == code) for code, name in LANGUAGES.items()]
    return select(actions.LANGUAGE.id(scope), _("Language"), options)


def settings_layout(
    table: Table, choices: Mapping[str, object], note: str | None = None
) -> Layout:
    """A player's own settings, in place of their hand until they go back to it;
    each button switches one choice on or off (remembered wherever they play)."""
    scope = actions.table_scope(table.channel_id, table.game_id)
    toggles = [
        button(
            actions.TOGGLE.id(scope, name),
            (_("{setting}: on", setting=_(label)) if choices.get(name)
             else _("{setting}: off", setting=_(label))),
            (SUCCESS if choices.get(name) else SECONDARY).value,
        )
        for name, label in PREF_LABELS.items()
    ]
    back = button(
        actions.REFRESH.id(scope, str(table.hand_number)), _("Back to my hand"), PRIMARY.value
    )
    parts: list[Component | None] = [
        text(
            "### " + _("My settings") + "\n"
            + _("The hand message shows whose turn it is; these decide what else reaches you. "
                "They apply wherever you play.")
        ),
        *(row([toggle]) for toggle in toggles),
        row([language_menu(scope, choices.get("language"))]),
    ]
    if note:
        parts.append(text(f"> {note}"))
    parts.append(row([back]))
    return Layout(container(*parts, accent=WAITING))


def retired_layout(table: Table) -> Layout:
    """What an older hand message says once a newer one shows the hand."""
    scope = actions.table_scope(table.channel_id, table.game_id)
    refresh = button(
        actions.REFRESH.id(scope, str(table.hand_number)), _("Show my hand here"), SECONDARY.value
    )
    return Layout(
        container(
            text("### " + _("Your hand") + "\n"
                 + _("Your hand is shown in another message now: that one follows the game.")),
            row([refresh]),
            accent=WAITING,
        )
    )


def stopped_layout(
    table: Table, key: str, faces: CardFaces, *, four_colour: bool = False
) -> Layout:
    """What a player's hand message shows once the game was stopped before its
    end (``/rummy end``, the idle sweep, a channel gone): the cards they held,
    and no move left to make."""
    assert table.match is not None
    held = sort_by_rank(table.match.hand.hand_of(key))
    cards = faces.row(held, four_colour=four_colour) if held else _("*No cards left.*")
    said = _("This game has ended: nothing more is played here. `/rummy start` opens a new one.")
    return Layout(
        container(
            text("### " + _("Your hand") + "\n⏹️ " + said),
            text(cards),
            accent=OVER,
        )
    )


def paused_layout(table: Table) -> Layout:
    """What a hand message says once the bot can no longer update it: Discord lets
    an answer be edited for 15 minutes. One click brings it back, up to date."""
    scope = actions.table_scope(table.channel_id, table.game_id)
    refresh = button(
        actions.REFRESH.id(scope, str(table.hand_number)), _("Show my hand again"), PRIMARY.value
    )
    return Layout(
        container(
            text(
                "### " + _("Your hand") + "\n⏸️ "
                + _("This view has stopped updating: Discord lets the bot keep it up to date "
                    "for 15 minutes. Press the button to bring it back.")
            ),
            row([refresh]),
            accent=WAITING,
        )
    )


def hand_layout(
    table: Table,
    key: str,
    faces: CardFaces,
    *,
    note: str | None = None,
    four_colour: bool = False,
) -> Layout:
    """The hand message of player ``key``, as the table stands now."""
    return HandLayout(table, key, faces, four_colour=four_colour).layout(note)

