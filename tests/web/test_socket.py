"""What a page's WebSocket remembers between frames: the intents it played,
per session, forgotten once the session has run out."""

from __future__ import annotations

import time

from web.sessions import Session
from web.socket import SeenIntents


def session(nonce: str, expires: float) -> Session:
    return Session(1, "i-1", 2, 3, expires, nonce)


def test_an_intent_is_played_once_per_session() -> None:
    seen = SeenIntents()
    live = session("a", time.time() + 60)
    assert seen.fresh(live, 1)
    seen.played(live, 1)
    assert not seen.fresh(live, 1) and seen.fresh(live, 2)
    assert seen.fresh(session("b", time.time() + 60), 1)


def test_sessions_that_ran_out_are_forgotten() -> None:
    seen = SeenIntents()
    for number in range(1023):
        seen.played(session(f"old-{number}", time.time() - 1), 5)
    live = session("live", time.time() + 60)
    seen.played(live, 7)  # the 1,024th: time to prune
    assert len(seen) == 1 and not seen.fresh(live, 7)
