"""Quick reactions at the table: an emote a member sends shows on their seat
on every page of the channel's table.

A reaction is a cheer, not a move: it never touches the game's lock, its
saves or the database, and it is lost if nobody is looking. It is handed to
each page of the channel as it comes (each page sends it on its own, so one
slow reader holds up nobody else), and each member may send ``BURST`` in a
row, then one every ``1 / RATE`` seconds, whatever number of pages they
have open: past that a reaction is refused, and only its sender is told. The
frames themselves already count against the page's and member's allowance
(``web.socket``), so a flood ends in the page being closed as any flood does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .limits import KeyedBuckets
from .page_protocol import EMOTES, REACTION

BURST = 3
RATE = 0.5  # one every two seconds, once the burst is spent

# Hands one frame to one page, without waiting for it to be sent.
Listener = Callable[[dict[str, Any]], None]

class Reactions:
    def __init__(self, burst: float = BURST, rate: float = RATE) -> None:
        self._listeners: dict[int, set[Listener]] = {}
        self._allowances: KeyedBuckets[int] = KeyedBuckets(burst, rate)

    def listen(self, channel_id: int, listener: Listener) -> None:
        self._listeners.setdefault(channel_id, set()).add(listener)

    def unlisten(self, channel_id: int, listener: Listener) -> None:
        listeners = self._listeners.get(channel_id)
        if listeners is None:
            return
        listeners.discard(listener)
        if not listeners:
            del self._listeners[channel_id]

    def send(self, channel_id: int, user_id: int, emote: object, name: str = "") -> bool | None:
        """Show ``emote`` from ``user_id`` (called ``name``, for a page that
        does not know them yet) on every page of the channel. None:
        not one of the table's emotes (a page of another version, or made up);
        False: refused, the member has sent too many just now."""
        if not isinstance(emote, str) or emote not in EMOTES:
            return None
        if not self._allowances.take(user_id):
            return False
        frame = {"type": REACTION, "user": str(user_id), "emote": emote, "name": name}
        for listener in list(self._listeners.get(channel_id, ())):
            listener(frame)
        return True

    def listening(self, channel_id: int) -> int:
        return len(self._listeners.get(channel_id, ()))
