"""The public record of a hand: what every seat at the table saw happen.

A computer player that remembers must remember only what a person at the table could:
which cards were taken from the discard pile and by whom, what was discarded, melded
and laid off, when the stock was rebuilt. ``PublicRecord`` keeps the hand's events
(``engine.state.Event``, which already never carry a card drawn from the stock) and
strips anything private again on the way in, so the record cannot hold a secret even
if it is handed one. The match's running totals are public too: they come along so a
computer can play for the match rather than for the hand.

Events are stored as plain JSON data by whoever keeps the table (``events_to_data``
and ``events_from_data``), so the memory survives a restart. Where the moves of the
hand are kept instead (a replay file, a taped hand), ``record_of_moves`` plays them
again from the deal and keeps only what the table saw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.cards import Card
from engine.errors import RummyError
from engine.hand import Hand
from engine.state import Event

__all__ = [
    "PUBLIC_KINDS",
    "PublicRecord",
    "events_from_data",
    "events_to_data",
    "record_of_moves",
]

# Event kinds whose cards everybody sees; the other kinds are kept without cards.
_CARDS_SHOWN = frozenset({"deal", "take_discard", "meld", "lay_off", "discard"})
_NO_CARDS = frozenset({"draw_stock", "reshuffle", "turn_over", "went_out", "hand_over"})
PUBLIC_KINDS: frozenset[str] = _CARDS_SHOWN | _NO_CARDS
"""Every event kind a record keeps."""


def _public(event: Event) -> Event:
    if event.kind in _CARDS_SHOWN:
        return event
    # A stock draw names no card: whatever a caller put there stays out of memory.
    return Event(event.kind, event.player, (), event.meld)


@dataclass(frozen=True, slots=True)
class PublicRecord:
    """The public events of the current hand, oldest first, and the match so far.

    ``totals`` are the players' match totals before this hand and ``hand_number`` its
    number (from 1): with the house rules in the view they tell how near the match is
    to its end. An empty record is a valid one: the player then knows only its view.
    """

    events: tuple[Event, ...] = ()
    totals: Mapping[str, int] = field(default_factory=dict)
    hand_number: int = 1

    @classmethod
    def of(
        cls,
        events: Iterable[Event],
        totals: Mapping[str, int] | None = None,
        hand_number: int = 1,
    ) -> PublicRecord:
        """A record of these events, each cut down to what every player saw."""
        kept = tuple(_public(e) for e in events if e.kind in PUBLIC_KINDS)
        return cls(kept, dict(totals or {}), hand_number)


def events_to_data(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Events as plain JSON data (public cards only), for a saved table."""
    data: list[dict[str, Any]] = []
    for event in events:
        public = _public(event)
        item: dict[str, Any] = {"kind": public.kind, "player": public.player}
        if public.cards:
            item["cards"] = [str(c) for c in public.cards]
        if public.meld is not None:
            item["meld"] = public.meld
        data.append(item)
    return data


def events_from_data(data: object) -> list[Event]:
    """Read ``events_to_data`` output back; ``RummyError`` when it is malformed."""
    if not isinstance(data, list):
        raise RummyError("events must be a list")
    events: list[Event] = []
    for item in data:
        if not isinstance(item, dict):
            raise RummyError("an event must be an object")
        kind = item.get("kind")
        player = item.get("player")
        meld = item.get("meld")
        codes = item.get("cards", [])
        if kind not in PUBLIC_KINDS:
            raise RummyError(f"unknown event kind {kind!r}")
        if player is not None and not isinstance(player, str):
            raise RummyError("an event's player must be a name")
        if meld is not None and (not isinstance(meld, int) or isinstance(meld, bool)):
            raise RummyError("an event's meld must be a meld number")
        if not isinstance(codes, list):
            raise RummyError("an event's cards must be a list of card codes")
        events.append(_public(Event(kind, player, tuple(Card.parse(c) for c in codes), meld)))
    return events


def record_of_moves(
    dealt: Hand,
    moves: Iterable[tuple[str, Action]],
    totals: Mapping[str, int] | None = None,
    hand_number: int = 1,
) -> PublicRecord:
    """The public record of a hand given as dealt and the moves made since.

    The moves are played again on a copy of ``dealt`` (which is left as it was), and
    only what every player saw is kept: the card turned up at the deal and the events
    of the moves, each cut down as ``PublicRecord.of`` cuts it. Raises like
    ``Hand.apply`` on a move the hand refuses.
    """
    hand = dealt.copy()
    events = [Event("deal", hand.players[hand.dealer], hand.discard_pile)]
    for player, action in moves:
        events += hand.apply(player, action)
    return PublicRecord.of(events, totals, hand_number)
