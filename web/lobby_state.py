"""The Activity's picture of a lobby, and of a channel with no game: who sits,
what each participant may do there, and the house rules a new game would
start with, as a form. Words from the chat's own catalogue entries: the
lobby's buttons and the slash command's options and choices.
"""

from __future__ import annotations

from typing import Any

from engine import HouseRules
from engine.rules import RULE_OPTIONS
from presentation.i18n import N_, _, number
from presentation.render import CHOICE_LABELS, changed_rules, rule_setting
from tables import MAX_SEATS, MIN_SEATS, Seat, Table
from tables.names import plain_name

# What the form offers for the match's length and the turn's clock (the slash
# command takes any number; a page offers the usual ones, and the current).
LENGTHS = (("hands", 1), ("hands", 3), ("hands", 5), ("target", 100), ("target", 250),
           ("target", 500))
TURN_TIMES = (0, 30, 60, 120, 300)
# Each house rule's name over its menu in the form: a few words of a heading,
# not the slash command's description of its option (which says how to fill
# it in, and "0 = no timer" over named choices).
FORM_LABELS = {
    "length": N_("Length of the match"),
    "turn_timeout": N_("Time for each turn"),
    "ace": N_("Aces"),
    "melds_per_turn": N_("Melds a turn"),
    "go_out": N_("Going out"),
    "rummy_bonus": N_("Going rummy"),
    "empty_stock": N_("Empty stock"),
    "hints": N_("Hints"),
}
ADD_COMPUTER_LABELS = {
    "easy": N_("Add computer (easy)"),
    "hard": N_("Add computer (hard)"),
    "expert": N_("Add computer (expert)"),
}


def lobby_state(table: Table, seat: Seat | None, user_id: int | None,
                earlier: Table | None = None) -> dict[str, Any]:
    """What a participant may do in ``table``'s lobby; ``earlier``: the match a
    rematch's players are awaited from (their names at it)."""
    host = table.seat_of_user(table.host_id)
    seated = seat is not None
    hosting = user_id is not None and user_id == table.host_id
    joined = {s.user_id for s in table.seats}
    awaited = [user for user in table.invited if user not in joined]
    names = {s.user_id: s.name for s in earlier.seats} if earlier is not None else {}
    state: dict[str, Any] = {
        "host": hosting,
        "host_name": plain_name(host.name) if host is not None else "",
        "can_join": not seated and len(table.seats) < MAX_SEATS,
        "can_leave": seated and not hosting,
        "can_start": hosting and len(table.seats) >= MIN_SEATS,
        "can_add": hosting and len(table.seats) < MAX_SEATS,
        "can_remove": hosting and any(s.is_computer for s in table.seats),
        "levels": [{"value": level, "label": _(label)}
                   for level, label in ADD_COMPUTER_LABELS.items()],
        "seats_text": _("**Seats** ({seated}/{most})", seated=number(len(table.seats)),
                        most=number(MAX_SEATS)),
        # Each rule in a few words, all of them: the Activity has no Rules button.
        "rules": changed_rules(table.rules, None),
        "labels": {
            "heading": _("Rummy: a new game is forming"),
            "join": _("Join"),
            "leave": _("Leave"),
            "start": _("Start"),
            "cancel": _("Cancel"),
            "remove_computer": _("Remove computer"),
            "rules": _("**House rules**"),
            "waiting": _("Waiting for the host to start the game."),
        },
    }
    if awaited:
        who = ", ".join(plain_name(names.get(user, "?")) for user in awaited)
        state["awaited"] = _("**Rematch**: waiting for {who} to press **Join**; "
                             "the game starts once all have.", who=who)
    return state


def new_game_form(rules: HouseRules, *, again: bool = False) -> dict[str, Any]:
    """The house rules a game started here now would have (the server's), as
    choices a host may change before the lobby opens; ``again``: offered
    where a game has just stopped."""
    options: list[dict[str, Any]] = []
    length = ("hands", rules.hands) if rules.hands is not None else ("target", rules.target)
    lengths = list(dict.fromkeys([*LENGTHS, length]))
    options.append({
        "name": "length",
        "label": _(FORM_LABELS.get("length", "")),
        "value": f"{length[0]}:{length[1]}",
        "choices": [{"value": f"{kind}:{count}", "label": rule_setting(kind, count)}
                    for kind, count in lengths if count is not None],
    })
    times = sorted({*TURN_TIMES, rules.turn_timeout})
    options.append({
        "name": "turn_timeout",
        "label": _(FORM_LABELS.get("turn_timeout", "")),
        "value": str(rules.turn_timeout),
        "choices": [{"value": str(seconds), "label": rule_setting("turn_timeout", seconds)}
                    for seconds in times],
    })
    for option in RULE_OPTIONS:
        if option.choices is None:
            continue
        options.append({
            "name": option.name,
            "label": _(FORM_LABELS.get(option.name, option.description)),
            "value": str(getattr(getattr(rules, option.name), "value", "")),
            "choices": [{"value": value, "label": _(CHOICE_LABELS[option.name][value])}
                        for value in option.choices],
        })
    return {
        "options": options,
        "labels": {
            "intro": _("Start a new one: you host it, and everyone here can join.") if again
            else _("There is no game in this channel yet. Start one: you host it, and "
                   "everyone here can join."),
            "start_game": _("Start a game"),
            "rules": _("**House rules**"),
        },
    }
