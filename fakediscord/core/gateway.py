"""The gateway websocket: HELLO, IDENTIFY/READY, heartbeats, RESUME, dispatches.

Frames go out as TEXT frames of plain JSON: discord.py inflates only binary
frames, so ``compress=zlib-stream`` in the URL can be ignored. Every dispatch
is numbered and kept per session until the client's heartbeat says it has
it (``REPLAY_BUFFER`` at most), so a client that lost its connection can
RESUME and receive exactly what it missed, as on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson
from aiohttp import web

from . import payloads
from .traffic import TrafficLog
from .world import World

HEARTBEAT_INTERVAL_MS = 41250
# Discord's acknowledgement of a heartbeat crosses the internet: tens of
# milliseconds at least. One sent back at once can beat discord.py's keep-alive
# thread to noting when it sent the beat, and the client then reads the whole
# interval as its latency ("Can't keep up, ... 41.3s behind"). Real Discord
# never answers that fast; the stand-in waits a short round trip too.
HEARTBEAT_ROUND_TRIP = 0.03
# Dispatches kept per session for a RESUME. Frames the client's heartbeat says
# it has are dropped at once (it resumes from a later sequence), so this bounds
# only what can go out between two heartbeats: a table's edits carry its whole
# layout, and 10,000 of them held tens of megabytes. A client that missed more
# cannot resume, and is told so (INVALID_SESSION), as by Discord.
REPLAY_BUFFER = 2_000

# Opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Intents that decide who receives what
GUILDS, GUILD_MEMBERS, GUILD_PRESENCES = 1 << 0, 1 << 1, 1 << 8
GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 9, 1 << 12, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Close codes a client may see
UNKNOWN_OPCODE, DECODE_ERROR, NOT_AUTHENTICATED, AUTHENTICATION_FAILED = 4001, 4002, 4003, 4004
ALREADY_AUTHENTICATED, DISALLOWED_INTENTS = 4005, 4014
# Discord's close code for a shard it will not take (out of range, or already served).
INVALID_SHARD = 4010


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    session: Session | None = None


@dataclass(eq=False)
class Session:
    id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    # (sequence, frame as sent): kept as its text, a few times smaller than the
    # frame's objects, since a frame is replayed far more rarely than it is kept.
    buffer: deque[tuple[int, bytes]] = field(
        default_factory=lambda: deque(maxlen=REPLAY_BUFFER))
    connection: Connection | None = None
    resumes: int = 0

    def owns(self, guild_id: int | None) -> bool:
        """Discord's shard formula; DMs always go to shard 0."""
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id


class Gateway:
    def __init__(self, world: World, traffic: TrafficLog, token: str, problems: list[str],
                 url: Callable[[], str], privileged_intents: int = PRIVILEGED) -> None:
        self.world = world
        # Seconds between a client's heartbeats, as HELLO tells them (a test may
        # shorten it to see many beats).
        self.heartbeat_interval = HEARTBEAT_INTERVAL_MS / 1000
        self.traffic = traffic
        self.token = token
        self.problems = problems
        self.url = url
        self.privileged_intents = privileged_intents
        self.sessions: dict[str, Session] = {}
        # Shards a second IDENTIFY was refused for, in order (for tests to read).
        self.refused_shards: list[int] = []
        self.connections: set[Connection] = set()
        self.changed: Callable[[], None] = lambda: None
        # Called with each frame once it is written to the client's socket.
        self.on_sent: Callable[[dict[str, Any]], None] | None = None

    # -- sending ---------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any], *, guild_id: int | None = None) -> int:
        """Send a DISPATCH to every session that should see it; returns how many did.
        A server that never installed the app sends its bot nothing but the
        interactions of its members' own installs."""
        guild = self.world.guilds.get(guild_id) if guild_id is not None else None
        if guild is not None and self.world.bot.id not in guild.members and (
                event != "INTERACTION_CREATE"):
            return 0
        count = 0
        for session in list(self.sessions.values()):
            if not session.owns(guild_id):
                continue
            visible = _filter_for_intents(session.intents, event, data, guild_id, self.world)
            if visible is not None:
                self._dispatch_to(session, event, visible)
                count += 1
        return count

    def dispatch_lazy(self, event: str, build: Callable[[], dict[str, Any]], *,
                      guild_id: int | None = None) -> int:
        """``dispatch`` for a payload worth building only if some session receives the
        event (a bot without message intents never sees MESSAGE_UPDATE: under load,
        rendering every table edit for nobody was most of the emulator's work)."""
        if not any(s.owns(guild_id) and _receives(s.intents, event, guild_id)
                   for s in self.sessions.values()):
            return 0
        return self.dispatch(event, build(), guild_id=guild_id)

    def has_session_for(self, guild_id: int | None) -> bool:
        return any(s.owns(guild_id) for s in self.sessions.values())

    def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.buffer.append((session.seq, orjson.dumps(frame)))
        if session.connection is not None:
            session.connection.queue.put_nowait(frame)

    async def _writer(self, conn: Connection) -> None:
        """One writer per connection keeps frames in sequence order."""
        while True:
            frame = await conn.queue.get()
            if conn.ws.closed:
                return
            try:
                await conn.ws.send_str(orjson.dumps(frame).decode())
            except (ConnectionResetError, RuntimeError, aiohttp.ClientError):
                return
            if self.on_sent is not None:
                self.on_sent(frame)
            self.traffic.gateway("send", frame)

    # -- the connection ------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        writer = asyncio.create_task(self._writer(conn), name="fakediscord-gateway-writer")
        conn.queue.put_nowait({"op": HELLO,
                               "d": {"heartbeat_interval": round(self.heartbeat_interval * 1000)},
                               "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await self._close(conn, DECODE_ERROR, "Decode error")
                    break
                self.traffic.gateway("recv", frame)
                await self._receive(conn, frame)
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            self.connections.discard(conn)
            self._detach(conn, ws.close_code)
        return ws

    def _detach(self, conn: Connection, close_code: int | None) -> None:
        session = conn.session
        if session is None or session.connection is not conn:
            return
        session.connection = None
        # A client closing with 1000/1001 ends its session (discord.py does on close());
        # any other close keeps it resumable, as on Discord.
        if close_code in (1000, 1001):
            self.sessions.pop(session.id, None)
        self.changed()

    async def _close(self, conn: Connection, code: int, reason: str) -> None:
        await conn.ws.close(code=code, message=reason.encode())

    async def _receive(self, conn: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            if conn.session is not None and isinstance(data, int):
                _forget_up_to(conn.session, data)
            ack = {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None}
            asyncio.get_running_loop().call_later(HEARTBEAT_ROUND_TRIP, conn.queue.put_nowait, ack)
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            self.problems.append(f"gateway: op {op} sent before IDENTIFY")
            await self._close(conn, NOT_AUTHENTICATED, "Not authenticated.")
        elif op == REQUEST_MEMBERS:
            self._request_members(conn.session, data or {})
        elif op in (PRESENCE, VOICE_STATE):
            pass  # accepted and ignored: nothing in a test depends on presence
        else:
            self.problems.append(f"gateway: unknown opcode {op}")
            await self._close(conn, UNKNOWN_OPCODE, "Unknown opcode.")

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await self._close(conn, ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if data.get("token") != self.token:
            await self._close(conn, AUTHENTICATION_FAILED, "Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED & ~self.privileged_intents:
            await self._close(conn, DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        shard_id, shard_count = data.get("shard") or [0, 1]
        if not 0 <= shard_id < shard_count:
            await self._close(conn, INVALID_SHARD, "Invalid shard.")
            return
        # A shard whose session is connected is refused to a second IDENTIFY:
        # two processes must never both serve a shard. A session whose
        # connection is gone (its process died) is replaced, so a restarted
        # bot never shares events with its dead predecessor.
        same = [s for s in self.sessions.values() if s.shard_id == shard_id]
        if any(s.connection is not None for s in same):
            self.refused_shards.append(shard_id)
            await self._close(conn, INVALID_SHARD, "Invalid shard.")
            return
        for old in same:
            self.sessions.pop(old.id)
        session = Session(secrets.token_hex(16), shard_id, shard_count, intents)
        self.sessions[session.id] = session
        session.connection = conn
        conn.session = session
        guilds = [g for g in self.world.guilds.values()
                  if self.world.bot.id in g.members and session.owns(g.id)]
        self._dispatch_to(session, "READY", {
            "v": 10, "user": payloads.user(self.world.bot), "session_type": "normal",
            "session_id": session.id, "resume_gateway_url": self.url(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "private_channels": [], "relationships": [], "presences": [],
            "guild_join_requests": [], "geo_ordered_rtc_regions": [], "user_settings": {},
            "shard": [shard_id, shard_count], "auth": {}, "current_location": ["guild"],
            "application": {"id": str(self.world.application_id), "flags": 0},
        })
        for g in guilds:
            payload = payloads.guild(self.world, g, intents=intents)
            self._dispatch_to(session, "GUILD_CREATE", payload)
        self.changed()

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.token:
            # d=false: the session cannot be resumed, the client must IDENTIFY anew.
            conn.queue.put_nowait({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        last_seen = int(data.get("seq") or 0)
        if session.buffer and session.buffer[0][0] > last_seen + 1:
            # What it missed is no longer kept: it must IDENTIFY anew.
            conn.queue.put_nowait({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        if session.connection is not None and session.connection is not conn:
            session.connection.session = None
        session.connection = conn
        conn.session = session
        for seq, text in session.buffer:
            if seq > last_seen:
                conn.queue.put_nowait(orjson.loads(text))
        session.resumes += 1
        self._dispatch_to(session, "RESUMED", {})
        self.changed()

    def _request_members(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [m for m in guild.members.values()
                   if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id), "members": [payloads.member(m) for m in members],
            "chunk_index": 0, "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        if wanted:
            chunk["not_found"] = [str(u) for u in wanted - {m.user.id for m in members}]
        self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    # -- faults ---------------------------------------------------------------------

    async def drop(self, code: int = 4000) -> int:
        """Close every live connection with ``code`` (resumable unless 1000/4004/401x)."""
        live = [s.connection for s in self.sessions.values() if s.connection is not None]
        for conn in live:
            if conn.session is not None:
                conn.session.connection = None  # events from now on wait in the buffer
            await self._close(conn, code, "Dropped by the test.")
        return len(live)

    def resumes(self) -> int:
        return sum(s.resumes for s in self.sessions.values())

    async def close_all(self) -> None:
        for conn in list(self.connections):
            await self._close(conn, 1001, "Emulator stopping.")


def _forget_up_to(session: Session, seq: int) -> None:
    """Drops the frames a client's heartbeat says it has received."""
    while session.buffer and session.buffer[0][0] <= seq:
        session.buffer.popleft()


def _receives(intents: int, event: str, guild_id: int | None) -> bool:
    """Whether a session with these intents receives the event at all."""
    if event.startswith("GUILD_MEMBER") and not intents & GUILD_MEMBERS:
        return False
    if event.startswith(("GUILD_", "CHANNEL_")) and not intents & GUILDS:
        return False
    return not (event.startswith("MESSAGE_")
                and not intents & (GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES))


def _filter_for_intents(intents: int, event: str, data: dict[str, Any], guild_id: int | None,
                        world: World) -> dict[str, Any] | None:
    """What a session with these intents receives of an event (None: nothing)."""
    if not _receives(intents, event, guild_id):
        return None
    if event.startswith("MESSAGE_"):
        author = data.get("author", {}).get("id")
        mentions_bot = any(m.get("id") == str(world.bot.id) for m in data.get("mentions", []))
        if (guild_id is not None and not intents & MESSAGE_CONTENT and author is not None
                and author != str(world.bot.id) and not mentions_bot):
            # Without MESSAGE_CONTENT Discord blanks what others wrote in servers.
            return {**data, "content": "", "embeds": [], "attachments": [], "components": []}
    return data
