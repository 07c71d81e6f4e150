"""A page relayed to the process that serves its server.

Discord maps one address to the Activity, but a bot sharded over several
processes plays each server's tables in the process holding its shard's lease.
A page that reaches another process says hello there as anywhere (its session
is good in every process: they share the client secret it is signed with);
that process then opens its own WebSocket to the serving one, says the same
hello, and carries frames both ways until either end closes, passing the close
code on. The serving process never relays again: a lease that moved meanwhile
shows the page an empty table, and the page's next connection finds the new
holder. While nobody serves the server (a takeover under way), the page is
told to try again, rather than shown an empty table to start a game on.

A holder that does not answer is as good as gone, whatever the way it fails
to: the whole handshake has ``CONNECT_WITHIN`` seconds, an open relay pings
the holder and gives up when no answer comes, and a page that leaves takes its
connection to the holder with it. No peer has more than ``PENDING_PER_PEER``
handshakes under way at once (the others wait their turn, within the same
``CONNECT_WITHIN``), so one that swallows connections holds that many
descriptors at most, and a healthy one's burst of pages is served in turn.

A connection says it was relayed with a header only the bot's processes can
sign (a key derived from the client secret they share): anybody else's claim
is ignored, so nobody can make a process show a page an empty table while
the real game plays elsewhere.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable

import aiohttp
from aiohttp import WSMsgType, web

from .connections import connection_limit

log = logging.getLogger(__name__)

# Marks a connection one process opened to another for a page.
RELAYED = "X-Rummy-Relayed"
# A relay's signature is good this long either side of its moment: clocks of a
# bot's machines agree far better than that.
VOUCH_WITHIN = 60.0
# Codes a closing frame may not carry (RFC 6455, 7.4.1): they say how the
# connection ended without one.
NOT_SENDABLE = frozenset({1005, 1006, 1015})
# A frame from the serving process: its pictures of the table are a few KiB.
MAX_PICTURE = 1 << 20
# Seconds to reach the serving process and hear its whole handshake.
CONNECT_WITHIN = 5.0
# An open relay pings the serving process this often, and gives up on it when
# no answer came within half of it: a frozen holder closes its pages' relays.
HEARTBEAT = 5.0
# Handshakes under way to one peer at once.
PENDING_PER_PEER = 32
# Pages that could not be relayed to a peer are logged this often at most.
WARN_EVERY = 30.0
# The serving process cannot be reached: the page tries again a moment later.
TRY_AGAIN = 1013

# Where another process serves a server's tables: None here, "" nowhere yet (a
# takeover under way), else that process's address.
Locate = Callable[[int], Awaitable[str | None]]


class Relays:
    """This process's side of relayed pages: where each server is served, and
    the connections to the other processes."""

    def __init__(self, locate: Locate, client_secret: str) -> None:
        self.locate = locate
        self._key = hmac.new(client_secret.encode(), b"rummy activity relays",
                             hashlib.sha256).digest()
        self._http: aiohttp.ClientSession | None = None
        self._handshakes: dict[str, asyncio.Semaphore] = {}
        self._failures: Counter[str] = Counter()
        self._warned_at: dict[str, float] = {}

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None:
            # As many relays as the server takes pages: aiohttp's default of 100
            # would turn away the 101st page of a busy process.
            limit = connection_limit()
            self._http = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=limit, limit_per_host=limit),
                timeout=aiohttp.ClientTimeout(total=None, connect=CONNECT_WITHIN))
        return self._http

    async def connect(self, peer: str) -> aiohttp.ClientWebSocketResponse:
        """A WebSocket to ``peer``, handshake done; TimeoutError or aiohttp's
        errors if it cannot be had within ``CONNECT_WITHIN`` seconds."""
        turn = self._handshakes.get(peer)
        if turn is None:
            if len(self._handshakes) > 256:
                # Peers come and go with takeovers: those nobody waits on go.
                self._handshakes = {p: t for p, t in self._handshakes.items() if t.locked()}
            turn = self._handshakes[peer] = asyncio.Semaphore(PENDING_PER_PEER)
        async with asyncio.timeout(CONNECT_WITHIN), turn:
            return await self._session().ws_connect(
                peer.rstrip("/") + "/ws", headers={RELAYED: self.vouch()},
                max_msg_size=MAX_PICTURE, autoping=True, heartbeat=HEARTBEAT,
                timeout=aiohttp.ClientWSTimeout(ws_close=2.0))

    def failed(self, peer: str, error: BaseException) -> None:
        """A page could not be relayed to ``peer``: said in the log once per
        ``WARN_EVERY`` a peer, with how many failed meanwhile, since a peer
        that is down fails every page that comes."""
        self._failures[peer] += 1
        now = time.monotonic()
        if now - self._warned_at.get(peer, -WARN_EVERY) >= WARN_EVERY:
            log.warning("could not relay %d page(s) to %s: %s", self._failures.pop(peer), peer,
                        error or type(error).__name__)
            self._warned_at[peer] = now

    def vouch(self, at: float | None = None) -> str:
        """The header that says this process relays the connection."""
        moment = str(int(time.time() if at is None else at))
        return f"{moment}.{self._sign(moment)}"

    def vouched(self, request: web.Request) -> bool:
        """Whether another process of the bot opened this connection for a page."""
        claim = request.headers.get(RELAYED, "")
        moment, _, signature = claim.partition(".")
        if not moment.isdigit() or len(moment) > 12 or not signature.isascii():
            return False
        if abs(time.time() - int(moment)) > VOUCH_WITHIN:
            return False
        return hmac.compare_digest(signature.encode(), self._sign(moment).encode())

    def _sign(self, moment: str) -> str:
        return hmac.new(self._key, moment.encode(), hashlib.sha256).hexdigest()

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None


async def carry_down(upstream: aiohttp.ClientWebSocketResponse,
                     page: web.WebSocketResponse) -> None:
    """Pass the serving process's frames to the page until it closes, then
    close the page with its code (its reason came first, in a closing frame)."""
    async for message in upstream:
        if message.type is WSMsgType.TEXT and not page.closed:
            await page.send_str(message.data)
        elif message.type is WSMsgType.ERROR:
            break
    if page.closed:
        return
    code = upstream.close_code
    if code is None or code in NOT_SENDABLE:
        # The serving process died, froze or was cut off: its successor, once it
        # has taken the shard over, is found by the page's next connection.
        await page.close(code=TRY_AGAIN, message=b"the table's server went away: reconnecting")
    else:
        await page.close(code=code)
