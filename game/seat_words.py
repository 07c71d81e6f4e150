"""A seat's status (``game.seat_view.Status``) and a hand's end in words, as
both doors say them.

Each door writes the cards its own way (the chat as emoji faces, the Activity
as text) and adds its own marks around the sentences; the sentences are one,
so the two doors cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine import Card, HandOutcome, Phase
from presentation.i18n import _

from .seat_view import Status


def waiting_text(status: Status, names: Mapping[str, str]) -> str:
    """Whose turn it is, to a seat whose turn it is not (or a watcher)."""
    who = names.get(status.turn or "", "") or _("someone")
    return _("Waiting for **{who}** to play.", who=who)


def turn_sentences(status: Status, card: Callable[[Card], str]) -> list[str]:
    """What to do on the seat's own turn, a sentence each; ``card`` writes a card."""
    if status.phase is Phase.DRAW:
        top = status.discard_top
        if top is None:
            return [_("**Your turn**: draw from the stock.")]
        return [_("**Your turn**: draw from the stock or take {card}.", card=card(top))]
    drawn = status.drawn
    if drawn is None:
        said = [_("**Your turn**: Pick cards to meld or lay off, then one to discard.")]
    elif status.taken:
        said = [_("**Your turn**: You took {card}. Pick cards to meld or lay off, then one to "
                  "discard.", card=card(drawn))]
    else:
        said = [_("**Your turn**: You drew {card}. Pick cards to meld or lay off, then one to "
                  "discard.", card=card(drawn))]
    if status.may_not_discard is not None:
        said.append(_("It may not go straight back on the pile."))
    return said


def headline(outcome: HandOutcome, names: Mapping[str, str], reader: str | None) -> str:
    """Who went out (and how), in a sentence, to ``reader`` (None: a watcher)."""
    if outcome.went_out is None:
        if len(outcome.winners) > 1:
            return _("Nobody went out: the lowest count in hand wins (a tie: the winners "
                     "share the points, rounded down).")
        return _("Nobody went out: the lowest count in hand wins.")
    if outcome.went_out == reader:
        if outcome.rummy:
            return _("**You** went out with **rummy**.")
        return _("**You** went out.")
    who = names.get(outcome.went_out)
    if outcome.rummy:
        return _("**{who}** went out with **rummy**.", who=who)
    return _("**{who}** went out.", who=who)
