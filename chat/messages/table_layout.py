"""The public table message, as a Components V2 layout: the lobby, the hand in
play, a hand's result, and the word that the game has ended.

Everyone in the channel reads it, so it is drawn from the engine's *spectator*
view, which holds no hand: a hand cannot leak into it. It reads like a card
table: each seat its own block with its colour, the container lit in the colour
of the player whose turn it is, the discard and the melds as card faces, and the
controls inside the same frame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine import HandOutcome, HandView, Phase, sort_by_rank
from engine.rules import RummyBonus
from presentation.card_emoji import CardFaces
from presentation.colours import SEAT_COLOURS
from presentation.i18n import _, n_, number
from presentation.render import (
    TEXT_CARDS,
    describe_meld,
    log_text,
    piles_text,
    rules_summary,
    seat_label,
    winners_text,
)
from tables import MAX_SEATS, Seat, Stage, Table

from .components import Component, Controls, lobby_controls, table_controls
from .layouts import MAX_TEXT, Layout, container, row, separator, text, text_length

LOBBY = 0x5865F2
OVER = 0xF1C40F
ENDED = 0x4F545C

assert len(SEAT_COLOURS) >= MAX_SEATS


def seat_colour(table: Table, key: str | None) -> tuple[str, int] | None:
    for index, seat in enumerate(table.seats):
        if seat.key == key:
            return SEAT_COLOURS[index % len(SEAT_COLOURS)]
    return None


def _framed(parts: list[Component | None], controls: Controls | None, accent: int) -> Layout:
    rows = [row(items) for items in controls.rows] if controls is not None else []
    return Layout(container(*parts, *rows, accent=accent))


def fitted(draw: Callable[[CardFaces], Layout], faces: CardFaces) -> Layout:
    """The layout with card faces, or with text cards if the faces' longer
    markup would pass Discord's 4,000 characters (a crowded end of a hand)."""
    layout = draw(faces)
    if faces is not TEXT_CARDS and text_length(layout) > MAX_TEXT:
        layout = draw(TEXT_CARDS)
    return layout


# --- the lobby -----------------------------------------------------------------------
def lobby_layout(table: Table) -> Layout:
    heading = _("Rummy: a new game is forming")
    host = f"<@{table.host_id}>"
    welcome = _(
        "Host: {host}. Press **Join** to take a seat. The host starts when 2 to {most} "
        "players are seated.",
        host=host,
        most=number(MAX_SEATS),
    )
    # Said in public so that the host finds their controls again, by name,
    # and the others know why they see no Start.
    controls = _(
        "{host}: your controls (computer players, **Start**, **Cancel**) are in a "
        "message only you can see; **Rules** brings it back.",
        host=host,
    )
    parts: list[Component | None] = [
        text(f"### 🃏 {heading}\n{welcome}\n-# {controls}"),
        separator(),
        *lobby_seats(table),
        text(_("**House rules**") + "\n" + rules_summary(table.rules)),
    ]
    return _framed(parts, lobby_controls(table), LOBBY)


def lobby_seats(table: Table) -> list[Component]:
    """Who is seated, and in a rematch's lobby who is still awaited."""
    seats = "\n".join(
        f"{SEAT_COLOURS[i][0]} {seat_label(seat)}" for i, seat in enumerate(table.seats)
    )
    seated = _("**Seats** ({seated}/{most})", seated=number(len(table.seats)),
               most=number(MAX_SEATS))
    parts = [text(seated + "\n" + (seats or _("nobody yet")))]
    joined = {seat.user_id for seat in table.seats}
    pending = [user_id for user_id in table.invited if user_id not in joined]
    if pending:
        waiting = ", ".join(f"<@{user_id}>" for user_id in pending)
        parts.append(
            text(_("**Rematch**: waiting for {who} to press **Join**; "
                   "the game starts once all have.", who=waiting))
        )
    return parts


# --- the hand in play ------------------------------------------------------------------
def playing_layout(
    table: Table, faces: CardFaces = TEXT_CARDS, *, activity: bool = False
) -> Layout:
    """The hand in play; ``activity``: the bot serves the graphical table, so the
    controls offer to open it."""
    return fitted(lambda shown: _playing(table, shown, activity), faces)


def _playing(table: Table, faces: CardFaces, activity: bool) -> Layout:
    match = table.match
    assert match is not None, "a table is drawn only once dealt"
    view = match.hand.view_for(None)
    names = table.names()
    parts: list[Component | None] = [text(_heading(table, view, names)), separator()]
    parts += [text(_seat_block(table, index, seat, view, faces))
              for index, seat in enumerate(table.seats)]
    parts += [separator(), text(_piles(view, faces)), text(_melds(view, names, faces))]
    if table.log:
        parts.append(text("\n".join(f"-# {log_text(line)}" for line in table.log)))
    colour = seat_colour(table, view.turn)
    accent = colour[1] if colour is not None else ENDED
    return _framed(parts, table_controls(table, activity=activity), accent)


def _heading(table: Table, view: HandView, names: Mapping[str, str]) -> str:
    hand = number(table.hand_number)
    if table.rules.hands is not None:
        heading = _("Rummy — hand {number} of {hands}", number=hand,
                    hands=number(table.rules.hands))
    else:
        heading = _("Rummy — hand {number}", number=hand)
    goal = (
        n_("first to {n} point", "first to {n} points", table.rules.target)
        if table.rules.target is not None
        else n_("{n} hand", "{n} hands", table.rules.hands or 0)
    )
    dealer = names.get(view.dealer or "", "")
    playing = _("Playing {goal} · {dealer} dealt", goal=goal, dealer=dealer)
    return f"### 🃏 {heading}\n-# {playing}"


def _seat_block(
    table: Table, index: int, seat: Seat, view: HandView, faces: CardFaces
) -> str:
    marker = SEAT_COLOURS[index % len(SEAT_COLOURS)][0]
    match = table.match
    assert match is not None
    count = n_("{n} card", "{n} cards", view.card_counts.get(seat.key, 0))
    total = n_("{n} point", "{n} points", match.totals.get(seat.key, 0))
    if view.turn != seat.key:
        return f"{marker} {seat_label(seat)} · {count} · {total}"
    return f"{marker} **{seat_label(seat)}** · {count} · {total}\n▶️ {_turn(table, view, faces)}"


def _turn(table: Table, view: HandView, faces: CardFaces) -> str:
    if view.phase is Phase.DRAW:
        if view.discard_top is not None:
            # Translators: under the name of the player whose turn it is (▶️ ...).
            doing = _("to draw from the stock or take {card}", card=faces.inline(view.discard_top))
        else:
            # Translators: under the name of the player whose turn it is (▶️ ...).
            doing = _("to draw from the stock")
    else:
        # Translators: under the name of the player whose turn it is (▶️ ...).
        doing = _("may meld or lay off, then must discard")
    deadline = table.turn_deadline
    if deadline is None:
        return doing
    return f"{doing} · " + _("time runs out {when}", when=f"<t:{int(deadline)}:R>")


def _piles(view: HandView, faces: CardFaces) -> str:
    top = faces.inline(view.discard_top) if view.discard_top is not None else None
    return piles_text(top, len(view.discard_pile), faces.back(), view.stock_size)


def _melds(view: HandView, names: Mapping[str, str], faces: CardFaces) -> str:
    if not view.melds:
        return _("**Melds** none yet")
    lines = [
        f"`{index}` {describe_meld(meld, names, faces)}"
        for index, meld in enumerate(view.melds, 1)
    ]
    return _("**Melds**") + "\n" + "\n".join(lines)


# --- the end of a hand -----------------------------------------------------------------
def result_layout(
    table: Table,
    outcome: HandOutcome,
    faces: CardFaces = TEXT_CARDS,
    *,
    dealt_on: bool = False,
    activity: bool = False,
    hand_number: int | None = None,
) -> Layout:
    """What everyone still held, who went out, the totals, and the match's end.
    ``dealt_on``: the next hand is being dealt on a fresh message below, so this
    one keeps the result but no controls; ``hand_number``: the hand it was
    (the table's own, unless the next one is dealt already)."""
    played = table.hand_number if hand_number is None else hand_number
    return fitted(lambda shown: _result(table, outcome, shown, dealt_on, activity, played),
                  faces)


def _result(
    table: Table, outcome: HandOutcome, faces: CardFaces, dealt_on: bool, activity: bool,
    played: int,
) -> Layout:
    match = table.match
    assert match is not None
    heading = _("Rummy — hand {number} is over", number=number(played))
    parts: list[Component | None] = [
        text(f"### 🃏 {heading}\n{_headline(table, outcome)}"),
        separator(),
    ]
    for index, seat in enumerate(table.seats):
        left = outcome.remaining.get(seat.key, ())
        if left:
            in_hand = n_("{n} point", "{n} points", outcome.counts.get(seat.key, 0))
            held = _("Held {cards} ({points})", cards=faces.row(sort_by_rank(left)),
                     points=in_hand)
        else:
            held = _("No cards left")
        scored = _(
            "{player} · scores **{score}** · {total} in all",
            player=seat_label(seat),
            score=number(outcome.scores.get(seat.key, 0)),
            total=number(match.totals.get(seat.key, 0)),
        )
        parts.append(text(f"{SEAT_COLOURS[index % len(SEAT_COLOURS)][0]} {scored}\n{held}"))
    parts.append(separator())
    if match.is_over:
        parts.append(text(_("**Match over**") + "\n" + winners_text(table)))
        parts.append(
            text("-# " + _("Thanks for playing. **Rematch** opens a new game with the same "
                           "rules: each player presses **Join** to play again."))
        )
    elif dealt_on:
        parts.append(text("-# " + _("The next hand is dealt below.")))
    else:
        parts.append(text("-# " + _("A seated player presses **Next hand** to deal again.")))
    controls = None if dealt_on else table_controls(table, activity=activity)
    return _framed(parts, controls, OVER)


def _headline(table: Table, outcome: HandOutcome) -> str:
    """The hand's end in a sentence."""
    if outcome.went_out is None:
        if len(outcome.winners) > 1:
            return _("Nobody went out: the lowest count wins the hand (a tie: the winners "
                     "share the points, rounded down).")
        return _("Nobody went out: the lowest count wins the hand.")
    who = table.names().get(outcome.went_out)
    if not outcome.rummy:
        return _("**{who}** went out.", who=who)
    if table.rules.rummy_bonus is RummyBonus.DOUBLE:
        return _("**{who}** went out — **rummy!** (points doubled).", who=who)
    return _("**{who}** went out — **rummy!**.", who=who)


def totals_text(table: Table) -> str:
    match = table.match
    assert match is not None
    ranked = sorted(table.seats, key=lambda s: -match.totals.get(s.key, 0))
    return "\n".join(f"{seat_label(s)}: {number(match.totals.get(s.key, 0))}" for s in ranked)


# --- no game (any more) -------------------------------------------------------------------
def ended_layout(table: Table, who: str) -> Layout:
    heading = _("Rummy — game ended")
    ended = _("{who} ended this game. The channel is free for a new one.", who=who)
    parts: list[Component | None] = [text(f"### 🃏 {heading}\n{ended}")]
    if table.match is not None:
        totals = _("**Totals when it stopped**")
        parts += [separator(), text(f"{totals}\n{totals_text(table)}")]
    return _framed(parts, None, ENDED)


def cancelled_layout(reason: str) -> Layout:
    """``reason``: already in the table's language (the caller's)."""
    return _framed([text("### 🃏 " + _("Rummy: no game") + "\n" + reason)], None, ENDED)


# --- which one ------------------------------------------------------------------------------
def public_layout(table: Table, faces: CardFaces, *, activity: bool = False) -> Layout:
    """The public table message for the table as it stands."""
    if table.stage is Stage.LOBBY:
        return lobby_layout(table)
    assert table.match is not None
    outcome = table.match.hand.outcome
    if table.stage in (Stage.HAND_OVER, Stage.FINISHED) and outcome is not None:
        return result_layout(table, outcome, faces, activity=activity)
    return playing_layout(table, faces, activity=activity)
