"""The hint: the strongest computer player's move for a player now, the same
whichever door asks, and worked out once for each position of each table.

A hint costs the expert's look-ahead, milliseconds of CPU. Asked again and
again (a member with many pages, or one who holds the button down), it was
worked out every time, under the table's lock, in a thread that took the
interpreter from every other table's clicks. Now:

- a position's hint is kept (``KEPT`` of them, the least recently asked
  forgotten first), and a second ask while it is being worked out waits for
  the same answer instead of starting another;
- what the expert reads is copied off the table at once, so the thinking needs
  no lock: the table's other players and the computers are never held up by it;
- hints are thought one at a time, in a thread of their own: however many
  tables ask at once, the event loop competes with one thinker at most.
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from engine import Action, HandView
from engine.ai import choose_action
from tables import Table
from tables.tapes import RecordSource, record_source

KEPT = 1024

# A position's hint: the game, where it stands, how many moves its log holds
# (the expert's dice are seeded with it) and whose hint.
HintKey = tuple[str, str, int, str]


def _think(view: HandView, source: RecordSource, seed: str) -> Action:
    return choose_action(view, "expert", random.Random(seed), source.record())


class HintBook:
    """The hints already worked out, and the one thread that works out more."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self.worked_out = 0  # hints thought, not recalled (the tests read it)
        self._known: OrderedDict[HintKey, asyncio.Future[Action]] = OrderedDict()
        self._thinker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hint")

    def ask(self, table: Table, key: str) -> asyncio.Future[Action]:
        """Seat ``key``'s hint now. Call it with the table settled (locked, or
        between two awaits): what the expert needs is copied before it returns.
        Await the answer with ``asyncio.shield``: others may be waiting for it."""
        position: HintKey = (table.game_id, table.position, len(table.hand_log), key)
        known = self._known.get(position)
        if known is not None and not (known.done() and (known.cancelled() or known.exception())):
            self._known.move_to_end(position)
            return known
        seed = f"{table.seed}:{table.hand_number}:{len(table.hand_log)}:{key}"
        loop = asyncio.get_running_loop()
        answer = loop.run_in_executor(
            self._thinker, _think, table.view_of(key), record_source(table), seed)
        self.worked_out += 1
        self._known[position] = answer
        while len(self._known) > self.kept:
            self._known.popitem(last=False)
        return answer

    def close(self) -> None:
        self._thinker.shutdown(wait=False, cancel_futures=True)
