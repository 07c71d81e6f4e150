"""One participant's WebSocket: intents in, their own picture of the table out.

The page says hello with its session, then sends intents numbered by ``seq``.
It gets its full picture at once, again after each of its intents, and
whenever the table changes by any door (coalesced: a page that is slow to
read gets the latest picture, never a queue of old ones). An intent whose
``seq`` the session has already seen is not played again: a page that lost
its connection sends its last intent again and learns what became of it.

A page that sends too much, too fast or what is not JSON is closed with a
reason; a well-formed intent the game refuses is answered with the reason in
the player's language and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

from flows.intents import Answer, Intent, answer_frame
from flows.table_door import TableDoor
from flows.watchers import TableWatchers

from .sessions import Session, SessionRefused, Sessions

log = logging.getLogger(__name__)

# The largest frame a page may send: an intent is a few dozen bytes.
MAX_FRAME = 2048
# A page may send this many frames in a burst, then RATE a second.
BURST = 20
RATE = 8.0
# A page that has not said hello by then is closed.
HELLO_WITHIN = 10.0

# Close codes of our own (4000-4999 are the application's).
SESSION_REFUSED = 4401
NOT_IN_INSTANCE = 4403
TOO_FAST = 4429
BAD_FRAME = 4400

# Answers that change nothing: the picture the page has stays true.
LOOKS = frozenset({"why", "log", "hint"})

# Whether member ``user`` is in the instance (asked of Discord, briefly remembered).
InInstance = Callable[[Session], Awaitable[bool]]


class Bucket:
    """A token bucket: ``take`` is False once a page sends faster than allowed."""

    def __init__(self, burst: int = BURST, rate: float = RATE) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SeenIntents:
    """The highest ``seq`` played for each session (a page numbers its intents
    from 1; a session is one page's)."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def fresh(self, session: Session, seq: int) -> bool:
        return seq > self._seen.get(session.nonce, 0)

    def played(self, session: Session, seq: int) -> None:
        self._seen[session.nonce] = max(seq, self._seen.get(session.nonce, 0))


class Participant:
    """One open page."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        door: TableDoor,
        watchers: TableWatchers,
        sessions: Sessions,
        seen: SeenIntents,
        in_instance: InInstance,
    ) -> None:
        self.ws = ws
        self.door = door
        self.watchers = watchers
        self.sessions = sessions
        self.seen = seen
        self.in_instance = in_instance
        self.bucket = Bucket()
        self.session: Session | None = None
        self._changed = asyncio.Event()
        self._lock = asyncio.Lock()  # one intent at a time, in order

    async def run(self) -> None:
        try:
            self.session = await self._hello()
        except _Closing as closing:
            await self.ws.close(code=closing.code, message=closing.reason.encode()[:120])
            return
        channel = self.session.channel_id
        self.watchers.watch(channel, self._table_changed)
        pusher = asyncio.create_task(self._push_changes())
        try:
            await self._send_state()
            await self._read_intents()
        except _Closing as closing:
            await self.ws.close(code=closing.code, message=closing.reason.encode()[:120])
        finally:
            self.watchers.unwatch(channel, self._table_changed)
            pusher.cancel()
            await asyncio.gather(pusher, return_exceptions=True)

    # --- in --------------------------------------------------------------------------
    async def _receive(self, within: float | None = None) -> dict[str, Any] | None:
        message = await self.ws.receive(timeout=within)
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
            return None
        if message.type is WSMsgType.ERROR:
            # aiohttp closes a frame over MAX_FRAME itself, with 1009.
            return None
        if not self.bucket.take():
            raise _Closing(TOO_FAST, "too many messages: slow down and reconnect")
        if message.type is not WSMsgType.TEXT:
            raise _Closing(BAD_FRAME, "frames are JSON text")
        try:
            data = json.loads(message.data)
        except ValueError:
            raise _Closing(BAD_FRAME, "frames are JSON text") from None
        if not isinstance(data, dict):
            raise _Closing(BAD_FRAME, "a frame is a JSON object")
        return data

    async def _hello(self) -> Session:
        try:
            data = await self._receive(within=HELLO_WITHIN)
        except TimeoutError:
            raise _Closing(BAD_FRAME, "say hello first") from None
        if data is None:
            raise _Closing(1000, "closed")
        if data.get("type") != "hello":
            raise _Closing(BAD_FRAME, "say hello first")
        try:
            session = self.sessions.read(data.get("session"))
        except SessionRefused as refused:
            raise _Closing(SESSION_REFUSED, str(refused)) from None
        if not await self.in_instance(session):
            raise _Closing(NOT_IN_INSTANCE, "you are not in this activity")
        return session

    async def _read_intents(self) -> None:
        session = self.session
        assert session is not None
        while True:
            data = await self._receive()
            if data is None:
                return
            if session.expires < time.time():
                raise _Closing(SESSION_REFUSED, "the session has run out")
            if data.get("type") != "intent":
                await self._send({"type": "error", "text": "unknown frame type"})
                continue
            seq = data.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
                await self._send({"type": "error", "text": "an intent needs a positive seq"})
                continue
            try:
                intent = Intent.parse(data)
            except ValueError as error:
                await self._send({"type": "error", "seq": seq, "text": str(error)})
                continue
            async with self._lock:
                if not self.seen.fresh(session, seq):
                    # Sent again after a reconnect: it was played (or refused) once.
                    await self._send({"type": "duplicate", "seq": seq})
                    await self._send_state()
                    continue
                self.seen.played(session, seq)
                answer = await self.door.act(session.user_id, session.channel_id, intent,
                                             name=session.name)
                await self._answer(answer, seq)

    async def _answer(self, answer: Answer, seq: int) -> None:
        await self._send(answer_frame(answer, seq))
        if answer.kind not in LOOKS:
            await self._send_state()

    # --- out -------------------------------------------------------------------------
    def _table_changed(self, _channel_id: int) -> None:
        self._changed.set()

    async def _push_changes(self) -> None:
        while not self.ws.closed:
            await self._changed.wait()
            self._changed.clear()
            try:
                await self._send_state()
            except ConnectionError:
                return

    async def _send_state(self) -> None:
        session = self.session
        assert session is not None
        self._changed.clear()  # what is sent now is the latest
        await self._send(self.door.state_for(session.user_id, session.channel_id))

    async def _send(self, frame: dict[str, Any]) -> None:
        if self.ws.closed:
            return
        await self.ws.send_str(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))


class _Closing(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
