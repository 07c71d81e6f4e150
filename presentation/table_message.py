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
from tables import MAX_SEATS, Seat, Stage, Table

from .card_emoji import CardFaces
from .colours import SEAT_COLOURS
from .components import Component, Controls, lobby_controls, table_controls
from .layouts import MAX_TEXT, Layout, container, row, separator, text, text_length
from .render import TEXT_CARDS, describe_meld, rules_summary, seat_label
from .words import plural

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
    if text_length(layout) > MAX_TEXT and faces is not TEXT_CARDS:
        layout = draw(TEXT_CARDS)
    return layout


# --- the lobby -----------------------------------------------------------------------
def lobby_layout(table: Table) -> Layout:
    seats = "\n".join(
        f"{SEAT_COLOURS[i][0]} {seat_label(seat)}" for i, seat in enumerate(table.seats)
    )
    parts: list[Component | None] = [
        text(
            "### 🃏 Rummy: a new game is forming\n"
            f"Host: <@{table.host_id}>. Press **Join** to take a seat. The host starts "
            f"when 2 to {MAX_SEATS} players are seated."
        ),
        separator(),
        text(f"**Seats** ({len(table.seats)}/{MAX_SEATS})\n{seats or 'nobody yet'}"),
    ]
    if table.invited:
        waiting = ", ".join(f"<@{user_id}>" for user_id in table.invited)
        parts.append(
            text(f"**Rematch**: waiting for {waiting} to press **Join**; "
                 "the game starts once all have.")
        )
    parts.append(text(f"**House rules**\n{rules_summary(table.rules)}"))
    return _framed(parts, lobby_controls(table), LOBBY)


# --- the hand in play ------------------------------------------------------------------
def playing_layout(table: Table, faces: CardFaces = TEXT_CARDS) -> Layout:
    return fitted(lambda shown: _playing(table, shown), faces)


def _playing(table: Table, faces: CardFaces) -> Layout:
    match = table.match
    assert match is not None, "a table is drawn only once dealt"
    view = match.hand.view_for(None)
    names = table.names()
    parts: list[Component | None] = [text(_heading(table, view, names)), separator()]
    parts += [text(_seat_block(table, index, seat, view, faces))
              for index, seat in enumerate(table.seats)]
    parts += [separator(), text(_piles(view, faces)), text(_melds(view, names, faces))]
    if table.log:
        parts.append(text("\n".join(f"-# {line}" for line in table.log)))
    colour = seat_colour(table, view.turn)
    accent = colour[1] if colour is not None else ENDED
    return _framed(parts, table_controls(table), accent)


def _heading(table: Table, view: HandView, names: Mapping[str, str]) -> str:
    of = f" of {table.rules.hands}" if table.rules.hands is not None else ""
    goal = (
        f"first to {table.rules.target} points"
        if table.rules.target is not None
        else plural(table.rules.hands or 0, "hand")
    )
    dealer = names.get(view.dealer or "", "")
    return f"### 🃏 Rummy — hand {table.hand_number}{of}\n-# Playing {goal} · {dealer} dealt"


def _seat_block(
    table: Table, index: int, seat: Seat, view: HandView, faces: CardFaces
) -> str:
    marker = SEAT_COLOURS[index % len(SEAT_COLOURS)][0]
    match = table.match
    assert match is not None
    count = plural(view.card_counts.get(seat.key, 0), "card")
    total = plural(match.totals.get(seat.key, 0), "point")
    if view.turn != seat.key:
        return f"{marker} {seat_label(seat)} · {count} · {total}"
    return f"{marker} **{seat_label(seat)}** · {count} · {total}\n▶️ {_turn(table, view, faces)}"


def _turn(table: Table, view: HandView, faces: CardFaces) -> str:
    if view.phase is Phase.DRAW:
        doing = "to draw from the stock"
        if view.discard_top is not None:
            doing += f" or take {faces.inline(view.discard_top)}"
    else:
        doing = "may meld or lay off, then must discard"
    deadline = table.turn_deadline
    clock = f" · time runs out <t:{int(deadline)}:R>" if deadline is not None else ""
    return f"{doing}{clock}"


def _piles(view: HandView, faces: CardFaces) -> str:
    top = faces.inline(view.discard_top) if view.discard_top is not None else "empty"
    pile = plural(len(view.discard_pile), "card")
    stock = plural(view.stock_size, "card")
    return f"**Discard** {top} ({pile})  ·  **Stock** {faces.back()} {stock}"


def _melds(view: HandView, names: Mapping[str, str], faces: CardFaces) -> str:
    if not view.melds:
        return "**Melds** none yet"
    lines = [
        f"`{number}` {describe_meld(meld, names, faces)}"
        for number, meld in enumerate(view.melds, 1)
    ]
    return "**Melds**\n" + "\n".join(lines)


# --- the end of a hand -----------------------------------------------------------------
def result_layout(
    table: Table, outcome: HandOutcome, faces: CardFaces = TEXT_CARDS, *, dealt_on: bool = False
) -> Layout:
    """What everyone still held, who went out, the totals, and the match's end.
    ``dealt_on``: the next hand is being dealt on a fresh message below, so this
    one keeps the result but no controls."""
    return fitted(lambda shown: _result(table, outcome, shown, dealt_on), faces)


def _result(table: Table, outcome: HandOutcome, faces: CardFaces, dealt_on: bool) -> Layout:
    match = table.match
    assert match is not None
    parts: list[Component | None] = [
        text(f"### 🃏 Rummy — hand {table.hand_number} is over\n{_headline(table, outcome)}."),
        separator(),
    ]
    for index, seat in enumerate(table.seats):
        left = outcome.remaining.get(seat.key, ())
        in_hand = plural(outcome.counts.get(seat.key, 0), "point")
        held = f"Held {faces.row(sort_by_rank(left))} ({in_hand})" if left else "No cards left"
        parts.append(
            text(
                f"{SEAT_COLOURS[index % len(SEAT_COLOURS)][0]} {seat_label(seat)} · scores "
                f"**{outcome.scores.get(seat.key, 0)}** · {match.totals.get(seat.key, 0)} "
                f"in all\n{held}"
            )
        )
    parts.append(separator())
    if match.is_over:
        parts.append(text(f"**Match over**\n{winners_text(table)}"))
        parts.append(text("-# Thanks for playing. **Rematch** deals again to the same seats."))
    elif dealt_on:
        parts.append(text("-# The next hand is dealt below."))
    else:
        parts.append(text("-# A seated player presses **Next hand** to deal again."))
    return _framed(parts, None if dealt_on else table_controls(table), OVER)


def _headline(table: Table, outcome: HandOutcome) -> str:
    names = table.names()
    if outcome.went_out is None:
        headline = "Nobody went out: the lowest count wins the hand"
        if len(outcome.winners) > 1:
            headline += " (a tie: the winners share the points, rounded down)"
        return headline
    headline = f"**{names.get(outcome.went_out)}** went out"
    if outcome.rummy:
        headline += " — **rummy!**"
        if table.rules.rummy_bonus is RummyBonus.DOUBLE:
            headline += " (points doubled)"
    return headline


def totals_text(table: Table) -> str:
    match = table.match
    assert match is not None
    ranked = sorted(table.seats, key=lambda s: -match.totals.get(s.key, 0))
    return "\n".join(f"{seat_label(s)}: {match.totals.get(s.key, 0)}" for s in ranked)


def winners_text(table: Table) -> str:
    match = table.match
    assert match is not None and match.outcome is not None
    names = [table.name_of(key) for key in match.outcome.winners]
    if len(names) == 1:
        return f"🏆 **{names[0]}** wins the match."
    return "🏆 Shared win: " + ", ".join(f"**{n}**" for n in names) + "."


# --- no game (any more) -------------------------------------------------------------------
def ended_layout(table: Table, who: str) -> Layout:
    parts: list[Component | None] = [
        text(f"### 🃏 Rummy — game ended\n{who} ended this game. "
             "The channel is free for a new one.")
    ]
    if table.match is not None:
        parts += [separator(), text(f"**Totals when it stopped**\n{totals_text(table)}")]
    return _framed(parts, None, ENDED)


def cancelled_layout(reason: str) -> Layout:
    return _framed([text(f"### 🃏 Rummy: no game\n{reason}")], None, ENDED)


# --- which one ------------------------------------------------------------------------------
def public_layout(table: Table, faces: CardFaces) -> Layout:
    """The public table message for the table as it stands."""
    if table.stage is Stage.LOBBY:
        return lobby_layout(table)
    assert table.match is not None
    outcome = table.match.hand.outcome
    if table.stage in (Stage.HAND_OVER, Stage.FINISHED) and outcome is not None:
        return result_layout(table, outcome, faces)
    return playing_layout(table, faces)
