"""One participant's WebSocket: intents in, their own picture of the table out.

The page says hello with its session, then sends intents numbered by ``seq``.
It gets its full picture at once, again after each of its intents, and
whenever the table changes by any door (coalesced: a page that is slow to
read gets the latest picture, never a queue of old ones). The change its own
intent made reaches it once, after the intent's answer: the picture that
follows the answer is the one the change's push would have sent. An intent whose
``seq`` the session has already seen is not played again: a page that lost
its connection sends its last intent again and learns what became of it.

Every frame counts against the page's allowance and its member's (pings and
pongs too: aiohttp would answer pings by itself, unseen and unlimited). A
page that has not said hello within ``HELLO_WITHIN`` seconds of connecting is
closed, however it keeps the line busy. A page that sends too much, too fast
or what is not JSON is closed with a reason, sent first as a ``closing``
frame, since Discord's proxy may not pass a close code on; a well-formed
intent the game refuses is answered with the reason in the player's language
and changes nothing. A member's hellos are limited too, before anything is
asked of Discord or the database: reconnecting in a loop buys nothing.
A quick reaction (``web.reactions``) goes beside the game, not through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from .limits import Bucket
from .page_protocol import (
    CLOSE_CODES,
    CLOSING,
    DUPLICATE,
    ERROR,
    HELLO,
    INTENT,
    LOOKS,
    PARTICIPANTS,
    REACT,
    REACTION,
    Answer,
    Intent,
    answer_frame,
    changes_table,
)
from .pages import OpenPages
from .reactions import Reactions
from .relay import TRY_AGAIN, Relays, carry_down
from .sessions import Session, SessionRefused, Sessions
from .table_door import TableDoor
from .watchers import TableWatchers

log = logging.getLogger(__name__)

# The largest frame a page may send: an intent is a few dozen bytes.
MAX_FRAME = 2048
# A page may send this many frames in a burst, then RATE a second.
BURST = 20
RATE = 8.0
# A page that has not said hello by then is closed.
HELLO_WITHIN = 10.0

SESSION_REFUSED = CLOSE_CODES["session_refused"]
NOT_IN_INSTANCE = CLOSE_CODES["not_in_instance"]
OPENED_ELSEWHERE = CLOSE_CODES["opened_elsewhere"]
TOO_FAST = CLOSE_CODES["too_fast"]
BAD_FRAME = CLOSE_CODES["bad_frame"]

# Whether the session's member is in its instance, by Discord's word at most
# ``max_age`` seconds old.
InInstance = Callable[[Session, float], Awaitable[bool]]
# Told that a page saw its instance's participants change.
ParticipantsChanged = Callable[[Session], None]
# How fresh Discord's word on the instance must be: to open a page, and to move.
HELLO_FRESH = 2.0
MOVE_FRESH = 5.0


class SeenIntents:
    """The highest ``seq`` played for each session (a page numbers its intents
    from 1; a session is one page's), forgotten once the session has expired."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[int, float]] = {}
        self._prune_at = 1024

    def fresh(self, session: Session, seq: int) -> bool:
        return seq > self._seen.get(session.nonce, (0, 0.0))[0]

    def played(self, session: Session, seq: int) -> None:
        before = self._seen.get(session.nonce, (0, 0.0))[0]
        self._seen[session.nonce] = (max(seq, before), session.expires)
        if len(self._seen) >= self._prune_at:
            now = time.time()
            self._seen = {nonce: seen for nonce, seen in self._seen.items() if seen[1] > now}
            self._prune_at = max(1024, 2 * len(self._seen))

    def __len__(self) -> int:
        return len(self._seen)


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
        pages: OpenPages,
        participants_changed: ParticipantsChanged,
        reactions: Reactions,
        relays: Relays | None = None,
    ) -> None:
        self.ws = ws
        self.door = door
        self.watchers = watchers
        self.sessions = sessions
        self.seen = seen
        self.in_instance = in_instance
        self.pages = pages
        self.participants_changed = participants_changed
        # None: this page's server is played here, or the page came relayed.
        self.relays = relays
        self.reactions = reactions
        self._telling: set[asyncio.Task[None]] = set()  # reactions on their way out
        self.bucket = Bucket(BURST, RATE)
        self.shared: Bucket | None = None  # the member's, once known
        self.session: Session | None = None
        self._token = ""  # the session as the page sent it, to say hello onwards
        self._changed = asyncio.Event()
        self._lock = asyncio.Lock()  # one intent at a time, in order
        # Held while a picture is sent on purpose (the first, an answer's): a push
        # woken meanwhile waits, and sends nothing if that picture was the latest.
        self._answering = asyncio.Lock()

    @property
    def user_id(self) -> int:
        return self.session.user_id if self.session is not None else 0

    @property
    def instance_id(self) -> str:
        return self.session.instance_id if self.session is not None else ""

    async def run(self) -> None:
        try:
            async with asyncio.timeout(HELLO_WITHIN):
                self.session = await self._hello()
        except TimeoutError:
            await self.end(BAD_FRAME, "say hello first")
            return
        except _Closing as closing:
            await self.end(closing.code, closing.reason)
            return
        self.shared = self.pages.allowance(self.session.user_id)
        for older in self.pages.opened(self):
            await older.end(OPENED_ELSEWHERE, "the table is open in another window")
        peer = None if self.relays is None else await self.relays.locate(self.session.guild_id)
        if peer == "":
            self.pages.closed(self)
            await self.end(TRY_AGAIN, "the table's server is changing hands: reconnecting")
            return
        if peer is not None:
            try:
                await self._relay(peer)
            finally:
                self.pages.closed(self)
            return
        channel = self.session.channel_id
        self.watchers.watch(channel, self._table_changed)
        self.reactions.listen(channel, self._tell)
        pusher = asyncio.create_task(self._push_changes())
        try:
            async with self._answering:
                await self._send_state()
            await self._read_intents()
        except _Closing as closing:
            await self.end(closing.code, closing.reason)
        finally:
            self.pages.closed(self)
            self.watchers.unwatch(channel, self._table_changed)
            self.reactions.unlisten(channel, self._tell)
            pusher.cancel()
            await asyncio.gather(pusher, return_exceptions=True)

    async def end(self, code: int, reason: str) -> None:
        """Close the page, saying why in a frame first: Discord's proxy may hand
        the page a bare 1005 or 1006 instead of our code."""
        if self.ws.closed:
            return
        with contextlib.suppress(ConnectionError):
            await self._send({"type": CLOSING, "code": code, "reason": reason})
        await self.ws.close(code=code, message=reason.encode()[:120])

    # --- in --------------------------------------------------------------------------
    def _allowed(self) -> bool:
        page = self.bucket.take()
        member = self.shared.take() if self.shared is not None else True
        return page and member

    async def _receive(self) -> dict[str, Any] | None:
        while True:
            message = await self.ws.receive()
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return None
            if message.type is WSMsgType.ERROR:
                # aiohttp closes a frame over MAX_FRAME itself, with 1009.
                return None
            if not self._allowed():
                raise _Closing(TOO_FAST, "too many messages: slow down and reconnect")
            if message.type is WSMsgType.PING:
                await self.ws.pong(message.data)
                continue
            if message.type is WSMsgType.PONG:
                continue  # the answer to the heartbeat's ping
            if message.type is not WSMsgType.TEXT:
                raise _Closing(BAD_FRAME, "frames are JSON text")
            try:
                data = json.loads(message.data)
            except (ValueError, RecursionError):
                # RecursionError: nested deeper than the parser goes, in 2 KiB.
                raise _Closing(BAD_FRAME, "frames are JSON text") from None
            if not isinstance(data, dict):
                raise _Closing(BAD_FRAME, "a frame is a JSON object")
            return data

    async def _hello(self) -> Session:
        data = await self._receive()
        if data is None:
            raise _Closing(1000, "closed")
        if data.get("type") != HELLO:
            raise _Closing(BAD_FRAME, "say hello first")
        self._token = str(data.get("session"))
        try:
            session = self.sessions.read(data.get("session"))
        except SessionRefused as refused:
            raise _Closing(SESSION_REFUSED, str(refused)) from None
        if not self.pages.hello_allowed(session.user_id):
            raise _Closing(TOO_FAST, "too many connections: wait a moment")
        if not await self._in_instance(session, HELLO_FRESH):
            raise _Closing(NOT_IN_INSTANCE, "you are not in this activity")
        return session

    async def _in_instance(self, session: Session, fresh: float) -> bool:
        """Whether the member is in the session's instance, by Discord's word at
        most ``fresh`` seconds old; a member missing from a list older than
        their sign-in (which found them there) is asked about again, since
        another process may have signed them in a moment ago while this one
        still holds the list from before they came."""
        if await self.in_instance(session, fresh):
            return True
        signed_in_ago = time.time() - (session.expires - self.sessions.lifetime)
        if signed_in_ago >= fresh:
            return False
        return await self.in_instance(session, max(0.0, signed_in_ago))

    async def _read_intents(self) -> None:
        session = self.session
        assert session is not None
        while True:
            data = await self._receive()
            if data is None:
                return
            if session.expires < time.time():
                raise _Closing(SESSION_REFUSED, "the session has run out")
            if data.get("type") == PARTICIPANTS:
                # The page saw someone come or go: Discord is asked who is left.
                self.participants_changed(session)
                continue
            if data.get("type") == REACT:
                # Beside the game, not through it: no lock, no save, no seq.
                sent = self.reactions.send(session.channel_id, session.user_id, data.get("emote"),
                                           session.name)
                if sent is False:
                    await self._send({"type": REACTION, "refused": True})
                continue
            if data.get("type") != INTENT:
                await self._send({"type": ERROR, "text": "unknown frame type"})
                continue
            seq = data.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
                await self._send({"type": ERROR, "text": "an intent needs a positive seq"})
                continue
            try:
                intent = Intent.parse(data)
            except ValueError as error:
                await self._send({"type": ERROR, "seq": seq, "text": str(error)})
                continue
            async with self._lock:
                if not self.seen.fresh(session, seq):
                    # Sent again after a reconnect: it was played (or refused) once.
                    async with self._answering:
                        await self._send({"type": DUPLICATE, "seq": seq})
                        await self._send_state()
                    continue
                if not await self._in_instance(session, MOVE_FRESH):
                    raise _Closing(NOT_IN_INSTANCE, "you are not in this activity")
                self.seen.played(session, seq)
                await self._play(session, intent, seq)

    async def _play(self, session: Session, intent: Intent, seq: int) -> None:
        if changes_table(intent.op):
            # The change is saved (and its push woken) before the answer is
            # made: the push waits for the answer, whose picture shows it.
            async with self._answering:
                answer = await self.door.act(session.user_id, session.place, intent,
                                             name=session.name)
                await self._answer(answer, seq)
            return
        # A look changes nothing: the others' moves go on reaching the page
        # while it is worked out (a hint waits on the expert's thinking).
        answer = await self.door.act(session.user_id, session.place, intent, name=session.name)
        async with self._answering:
            await self._answer(answer, seq)

    async def _relay(self, peer: str) -> None:
        """Carry the page to the process serving its server (``web.relay``):
        its frames up, within this page's allowance, and the pictures down.
        The page is read from the start: one that leaves (or is closed for
        another of its member's pages) while the handshake runs takes the
        handshake with it, and what it sent meanwhile goes up after the hello."""
        assert self.relays is not None
        up: asyncio.Queue[dict[str, Any] | _Closing | None] = asyncio.Queue()
        reader = asyncio.create_task(self._read_into(up))
        reaching = asyncio.create_task(self.relays.connect(peer))
        try:
            await asyncio.wait({reaching, reader}, return_when=asyncio.FIRST_COMPLETED)
            if not reaching.done():
                reaching.cancel()
                await asyncio.gather(reaching, return_exceptions=True)
                await self._stop_relaying(up)
                return
            try:
                upstream = reaching.result()
            except (aiohttp.ClientError, OSError, TimeoutError) as error:
                self.relays.failed(peer, error)
                await self.end(TRY_AGAIN, "the table's server cannot be reached: reconnecting")
                return
            await self._carry_up(upstream, up)
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    async def _read_into(self, up: asyncio.Queue[dict[str, Any] | _Closing | None]) -> None:
        """The page's frames, in order, ending with None (it closed) or the
        reason it is to be closed."""
        try:
            while (data := await self._receive()) is not None:
                up.put_nowait(data)
        except _Closing as closing:
            up.put_nowait(closing)
            return
        up.put_nowait(None)

    async def _carry_up(self, upstream: aiohttp.ClientWebSocketResponse,
                        up: asyncio.Queue[dict[str, Any] | _Closing | None]) -> None:
        down = asyncio.create_task(carry_down(upstream, self.ws))
        try:
            await upstream.send_str(json.dumps({"type": HELLO, "session": self._token}))
            while not upstream.closed:
                data = await up.get()
                if not isinstance(data, dict):
                    up.put_nowait(data)
                    await self._stop_relaying(up)
                    break
                await upstream.send_str(json.dumps(data, separators=(",", ":")))
        except ConnectionError:
            pass  # the serving process went: carry_down tells the page
        finally:
            await upstream.close()
            await asyncio.gather(down, return_exceptions=True)

    async def _stop_relaying(self, up: asyncio.Queue[dict[str, Any] | _Closing | None]) -> None:
        """The page's reading ended: close it with its reason, if it broke a rule."""
        while not up.empty():
            last = up.get_nowait()
            if isinstance(last, _Closing):
                await self.end(last.code, last.reason)

    async def _answer(self, answer: Answer, seq: int) -> None:
        await self._send(answer_frame(answer, seq))
        if answer.kind not in LOOKS:
            await self._send_state()

    # --- out -------------------------------------------------------------------------
    def _tell(self, frame: dict[str, Any]) -> None:
        """A reaction for this page, sent on its own: the sender's loop goes on
        at once, whatever this page's connection is like."""
        task = asyncio.get_running_loop().create_task(self._send_quietly(frame))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _send_quietly(self, frame: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionError):
            await self._send(frame)

    def _table_changed(self, _channel_id: int) -> None:
        self._changed.set()

    async def _push_changes(self) -> None:
        while not self.ws.closed:
            await self._changed.wait()
            async with self._answering:
                if not self._changed.is_set():
                    continue  # the picture sent meanwhile shows the change
                try:
                    await self._send_state()
                except ConnectionError:
                    return

    async def _send_state(self) -> None:
        session = self.session
        assert session is not None
        self._changed.clear()  # what is sent now is the latest
        await self._send(self.door.state_for(session.user_id, session.place))

    async def _send(self, frame: dict[str, Any]) -> None:
        if self.ws.closed:
            return
        await self.ws.send_str(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))


class _Closing(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
