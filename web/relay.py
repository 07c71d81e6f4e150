"""A page relayed to the process that serves its server.

Discord maps one address to the Activity, but a bot sharded over several
processes plays each server's tables in the process holding its shard's lease.
A page that reaches another process says hello there as anywhere (its session
is good in every process: they share the client secret it is signed with);
that process then opens its own WebSocket to the serving one, says the same
hello, and carries frames both ways until either end closes, passing the close
code on. The serving process never relays again (``RELAYED``): a lease that
moved meanwhile shows the page an empty table, and the page's next connection
finds the new holder. While nobody serves the server (a takeover under way),
the page is told to try again, rather than shown an empty table to start a
game on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import aiohttp
from aiohttp import WSMsgType, web

log = logging.getLogger(__name__)

# Marks a connection one process opened to another for a page.
RELAYED = "X-Rummy-Relayed"
# Codes a closing frame may not carry (RFC 6455, 7.4.1): they say how the
# connection ended without one.
NOT_SENDABLE = frozenset({1005, 1006, 1015})
# A frame from the serving process: its pictures of the table are a few KiB.
MAX_PICTURE = 1 << 20
# Seconds to reach the serving process and hear its handshake.
CONNECT_WITHIN = 5.0
# The serving process cannot be reached: the page tries again a moment later.
TRY_AGAIN = 1013

# Where another process serves a server's tables: None here, "" nowhere yet (a
# takeover under way), else that process's address.
Locate = Callable[[int], Awaitable[str | None]]


class Relays:
    """This process's side of relayed pages: where each server is served, and
    the connections to the other processes."""

    def __init__(self, locate: Locate) -> None:
        self.locate = locate
        self._http: aiohttp.ClientSession | None = None

    async def connect(self, peer: str) -> aiohttp.ClientWebSocketResponse:
        if self._http is None:
            # A holder that does not answer within CONNECT_WITHIN is as good as
            # gone: the page is told to try again rather than left waiting.
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(
                total=None, connect=CONNECT_WITHIN))
        # No heartbeat of its own: the page's pings come through it.
        return await self._http.ws_connect(
            peer.rstrip("/") + "/ws", headers={RELAYED: "1"}, max_msg_size=MAX_PICTURE,
            autoping=True, timeout=aiohttp.ClientWSTimeout(ws_close=2.0))

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None


def relayed(request: web.Request) -> bool:
    """Whether another process of the bot opened this connection for a page."""
    return request.headers.get(RELAYED) == "1"


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
        # The serving process died or was cut off: its successor, once it has
        # taken the shard over, is found by the page's next connection.
        await page.close(code=TRY_AGAIN, message=b"the table's server went away: reconnecting")
    else:
        await page.close(code=code)
