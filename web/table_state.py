"""The table as one participant of the Activity may see it, as plain JSON.

The graphical table draws exactly this and nothing else: it holds no rule.
What a seated player receives comes from the engine's ``HandView`` of their
seat (their own cards, the others' counts); a spectator's, from the view of
nobody, which holds no hand at all. The moves the player may make are sent as
the engine's own legal actions, so the page lights a button only when the
picked cards are one of them, as the hand message does.

Words come in the reader's language, from the same catalogues as the chat:
the page shows them as text with ``**bold**`` the only markup it reads.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine import Card, HandOutcome, HandView, Hints, Phase, sort_by_rank
from engine.cards import RANK_NAMES
from engine.rules import RummyBonus
from game.seat_view import Legal, SeatView, Status, sorted_hand
from game.seat_words import headline, turn_sentences, waiting_text
from presentation.chart_layout import running_totals
from presentation.colours import SEAT_COLOURS
from presentation.i18n import LANGUAGES, N_, _, card_text, current, n_, number
from presentation.labels import JOIN_LABEL, NEXT_HAND_LABEL, REMATCH_LABEL
from presentation.render import LEVELS, log_text, rule_setting, rules_summary, winners_text
from tables import MAX_SEATS, Seat, Stage, Table
from tables.names import plain_name

from .lobby_state import lobby_state
from .page_protocol import VERSION, page_words

# A computer's level in a word; the chat's own words, and the expert's.
LEVEL_WORDS = {**LEVELS, "expert": N_("expert")}


def _colour(index: int) -> str:
    return f"#{SEAT_COLOURS[index % len(SEAT_COLOURS)][1]:06x}"


def _codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


def _seats(table: Table, view: HandView | None, viewer: str | None) -> list[dict[str, Any]]:
    totals = table.match.totals if table.match is not None else {}
    seats = []
    for index, seat in enumerate(table.seats):
        seats.append(
            {
                "key": seat.key,
                # Discord's id of the member (none for a computer): the page tells
                # the watching participants from the seated ones by it.
                "user": None if seat.user_id is None else str(seat.user_id),
                "name": plain_name(seat.name),
                "colour": _colour(index),
                "computer": seat.is_computer,
                "autopilot": seat.autopilot,
                "you": seat.key == viewer,
                "cards": None if view is None else view.card_counts.get(seat.key, 0),
                "turn": view is not None and view.turn == seat.key and view.outcome is None,
                "total": totals.get(seat.key, 0),
                "level": seat.level if seat.is_computer else None,
                # A computer's name with its level, as the chat shows it.
                "named": _("{name} ({level})", name=plain_name(seat.name),
                           level=_(LEVEL_WORDS.get(seat.level or "easy", "easy")))
                if seat.is_computer else plain_name(seat.name),
            }
        )
    return seats


def _legal(legal: Legal) -> dict[str, Any]:
    """The viewer's legal moves now, as card codes: what the page may light."""
    return {
        "draw": legal.draw,
        "take": legal.take,
        "melds": [_codes(meld.cards) for meld in legal.melds],
        # The meld's number, from 1, as the page shows it and names it back.
        "lay_offs": [{"cards": _codes(lay_off.cards), "meld": lay_off.meld + 1}
                     for lay_off in legal.lay_offs],
        "discards": [discard.card.code for discard in legal.discards],
    }


def _labels(view: HandView | None, mode: str) -> dict[str, str]:
    """The page's words, in the reader's language (the chat's own, where the
    chat has the same control)."""
    top = view.discard_top if view is not None else None
    return {
        "draw": _("Draw from stock"),
        "take": _("Take {card}", card=card_text(top)) if top is not None else _("Take discard"),
        "meld": _("Meld"),
        "lay_off": _("Lay off"),
        "discard": _("Discard"),
        "sort": _("Sort by suit") if mode == "rank" else _("Sort by rank"),
        "hint": "💡 " + _("Hint"),
        "log": _("Log"),
        "next_hand": _(NEXT_HAND_LABEL),
        "rematch": _(REMATCH_LABEL),
        "join": _(JOIN_LABEL),
        "melds": _("Melds"),
        "stock": _("Stock"),
        "discard_pile": _("Discard pile"),
        "spectating": _("You are watching: only players see their cards."),
        "language": _("Language"),
        "invite": _("Invite"),
        "sound_on": _("Sounds on"),
        "sound_off": _("Sounds off"),
        "lay_off_none": _("None of the melds on the table takes the cards you picked."),
        "lay_off_which": _("These cards fit more than one meld: tap the meld to lay them off on."),
        "drawn": _("New"),
        "your_turn": _("Your turn!"),
        "reactions": _("Reactions"),
        "reaction_refused": _("Not so fast: one reaction every 2 seconds."),
        "new_game": _("Start a game"),
        "cards_in_hand": _("Cards in hand"),
        "total": _("Total"),
        "close": _("Close"),
        # The match's result, put aside to look at the final table, and back.
        "see_table": _("See the table"),
        "see_result": _("See the result"),
        # Signing in and the connection: the words protocol.js holds too.
        **page_words(),
    }


def _since(seat: SeatView) -> list[str]:
    """The latest moves (``SeatView.since``), as plain lines."""
    return [log_text(line) for line in seat.since().lines]


def _outcome(table: Table, outcome: HandOutcome, viewer: str | None) -> dict[str, Any]:
    match = table.match
    assert match is not None
    rows = []
    for index, seat in enumerate(table.seats):
        left = outcome.remaining.get(seat.key, ())
        held = outcome.counts.get(seat.key, 0)
        rows.append(
            {
                "name": plain_name(seat.name),
                "user": None if seat.user_id is None else str(seat.user_id),
                "colour": _colour(index),
                "you": seat.key == viewer,
                "cards": _codes(sort_by_rank(left)),
                # What the cards left in hand count, as the chat's result says it.
                "held": n_("{n} point", "{n} points", held) if left else _("No cards left"),
                "score": outcome.scores.get(seat.key, 0),
                "total": match.totals.get(seat.key, 0),
                "winner": seat.key in outcome.winners,
            }
        )
    shown: dict[str, Any] = {
        "heading": _("Hand {number} is over", number=number(table.hand_number)),
        "headline": headline(outcome, table.names(), viewer),
        "explained": _scoring(table, outcome),
        "rows": rows,
        "match_over": match.is_over,
        "score": _("Score"),
        "total": _("Total"),
        "hands": _("Hands"),
    }
    if match.is_over:
        shown["winners"] = winners_text(table)
        keys = [seat.key for seat in table.seats]
        lines = running_totals([dict(done.scores) for done in match.history], keys)
        shown["chart"] = [
            {"name": plain_name(seat.name), "colour": _colour(index), "totals": line}
            for index, (seat, line) in enumerate(zip(table.seats, lines, strict=True))
        ]
        if viewer is not None:
            # Said beside the page's own Rematch, in the page's words: only a
            # player of the match has the button.
            shown["next"] = _("The match is over: **{rematch}** opens a new game with the "
                              "same rules, which each player joins.", rematch=_(REMATCH_LABEL))
    return shown


def _scoring(table: Table, outcome: HandOutcome) -> list[str]:
    """Why the winner scored what they did: the points the others held, doubled
    for rummy where the house rules say so."""
    lines = []
    if outcome.went_out is not None:
        held = sum(points for key, points in outcome.counts.items() if key != outcome.went_out)
        lines.append(_("**{who}** scores the points the others still held: {points}.",
                       who=table.name_of(outcome.went_out),
                       points=n_("{n} point", "{n} points", held)))
    if outcome.rummy and table.rules.rummy_bonus is RummyBonus.DOUBLE:
        lines.append(_("Rummy: going out in one turn, with nothing melded or laid off "
                       "before, doubles the hand's score."))
    return lines


def match_line(table: Table) -> str:
    """Where the match stands, for the top of the page: the hand, and how long it goes on."""
    rules = table.rules
    if rules.hands is not None:
        return _("Rummy — hand {number} of {hands}", number=number(table.hand_number),
                 hands=number(rules.hands))
    heading = _("Rummy — hand {number}", number=number(table.hand_number))
    if rules.target is None:
        return heading
    return f"{heading} · {rule_setting('target', rules.target)}"


def _status(table: Table, status: Status) -> str:
    """Whose turn it is and what to do, in the chat's words; the page draws
    its own clock, so the time left is not said."""
    if not status.mine:
        return waiting_text(status, table.names())
    return " ".join(turn_sentences(status, card_text))


# Why a table left play, when nothing recorded it (a channel the bot lost).
ENDED = N_("The game was ended.")


def closed_state(ended: Table) -> dict[str, Any]:
    """A channel whose game stopped before its match was over (ended, a lobby
    cancelled or forgotten): no table, and what happened to it."""
    state = table_state(None, None)
    why = log_text(ended.closed_why) if ended.closed_why is not None else _(ENDED)
    state["text"] = why
    state["closed"] = {"heading": _("Rummy: no game"), "text": why}
    return state


def _game(table: Table) -> dict[str, Any]:
    """The game's id (a link the page shares names it) and its party's size as
    Discord's rich presence shows it: the seats taken, of the most a game has."""
    return {"game_id": table.game_id, "party": [len(table.seats), MAX_SEATS]}


def table_state(table: Table | None, viewer: Seat | None, user_id: int | None = None,
                earlier: Table | None = None) -> dict[str, Any]:
    """What one participant's page shows now, in the current language.

    ``viewer`` is the participant's seat, None for a spectator (or a member
    who has no seat), and ``user_id`` the member. ``version`` is where the game
    stands (``Table.position``): a move sent from an older picture of the table
    is refused as out of date. ``earlier``: the channel's last match, whose
    players a rematch's lobby awaits.
    """
    code = current().code
    if table is None:
        return {
            "type": "state",
            "format": VERSION,
            "language": code,
            "languages": LANGUAGES,
            "stage": "none",
            "version": "",
            "labels": _labels(None, "rank"),
            "text": _("There is no game in this channel: start one with **/rummy start**."),
        }
    key = viewer.key if viewer is not None else None
    mode = table.sort_modes.get(key or "", "rank")
    state: dict[str, Any] = {
        "type": "state",
        "format": VERSION,
        "version": table.position,
        "language": code,
        "languages": LANGUAGES,
        "stage": table.stage.value,
        "you": key,
        **_game(table),
        "hand_number": table.hand_number,
        "rules": rules_summary(table.rules),
        # How this language writes the ranks that are letters: the page draws
        # the faces with them, as the chat's card faces are.
        "ranks": {RANK_NAMES[rank]: letter for rank, letter in current().letters.items()},
    }
    match = table.match
    if table.stage is Stage.LOBBY or match is None:
        state["seats"] = _seats(table, None, key)
        state["labels"] = _labels(None, mode)
        state["text"] = _("Waiting for the host to start the game.")
        if table.stage is Stage.LOBBY:
            state["lobby"] = lobby_state(table, viewer, user_id, earlier)
        return state
    seat = SeatView.of(table, key)
    view = seat.view
    deadline = table.turn_deadline
    state.update(
        {
            "seats": _seats(table, view, key),
            "labels": _labels(view, mode),
            "turn": view.turn,
            "phase": "draw" if view.phase is Phase.DRAW else "play",
            "deadline_in": None if deadline is None else max(0.0, deadline - time.time()),
            "stock": view.stock_size,
            "stock_text": n_("{n} card", "{n} cards", view.stock_size),
            "discard_top": None if view.discard_top is None else view.discard_top.code,
            "discard_count": len(view.discard_pile),
            "match_line": match_line(table),
            "melds": [
                {
                    "number": index,  # from 1, as the lay-offs name it
                    "cards": _codes(meld.cards),
                    "owners": sorted({plain_name(table.name_of(owner)) for owner in meld.owners}),
                }
                for index, meld in enumerate(view.melds, 1)
            ],
            "hand": _codes(sorted_hand(view.hand, mode)),
            "fresh": table.fresh_cards.get(key) if key is not None else None,
            "status": _status(table, seat.status()),
            "since": _since(seat),
            "hints": table.rules.hints is Hints.ON and key is not None and view.turn == key,
            "legal": _legal(seat.legal) if seat.my_turn else None,
            "outcome": None if view.outcome is None else _outcome(table, view.outcome, key),
        }
    )
    return state
