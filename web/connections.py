"""The Activity's listening socket, with a ceiling on what strangers can hold open.

Anybody on the internet can open connections to the Activity's port before
signing in. Left alone, each would stay open for aiohttp's keep-alive of an
hour, and a few thousand of them would use up the process's file descriptors,
which it needs for Discord itself (the gateway, REST, the database). So:

- a connection that has not sent a whole request within ``REQUEST_WITHIN``
  seconds is closed, whether it sent nothing (idle) or dribbles its headers
  (slowloris); so is one idle that long between requests;
- at most ``limit`` connections are open at once, and that limit leaves
  ``KEPT_FOR_DISCORD`` descriptors free under the process's limit on open
  files; one over it is answered 503 and closed at once.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from typing import cast

from aiohttp import web

log = logging.getLogger(__name__)

# Seconds a connection has to send a whole request, and may stay idle between two.
REQUEST_WITHIN = 10.0
# The most connections one process serves at once: a page holds one WebSocket.
MAX_CONNECTIONS = 4096
# Descriptors never given to the Activity's visitors: the gateway, REST's pool of
# connections to Discord, the database and the logs fit well inside.
KEPT_FOR_DISCORD = 256
FULL_ANSWER = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\n"
               b"Content-Length: 0\r\nConnection: close\r\n\r\n")


def raise_open_files_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (many
    systems start a service at 1,024 however high the hard limit is); the soft
    limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as error:
            log.warning("could not raise the limit on open files from %d: %s", soft, error)
    return soft


def connection_limit(open_files: int | None = None) -> int:
    """How many connections the Activity may hold, leaving Discord its descriptors."""
    soft = open_files if open_files is not None else resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - KEPT_FOR_DISCORD))


class _Full(asyncio.Protocol):
    """A connection past the limit: told to come back later, and closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport, though uvloop's is no subclass of asyncio's.
        stream = cast(asyncio.Transport, transport)
        stream.write(FULL_ANSWER)
        stream.close()


class CappedListener:
    """Listens for ``server`` (an aiohttp low-level server: the app runner's),
    handing it at most ``limit`` connections at once."""

    def __init__(self, server: web.Server, limit: int) -> None:
        self.server = server
        self.limit = limit
        self.turned_away = 0
        self._listening: asyncio.Server | None = None

    def _protocol(self) -> asyncio.BaseProtocol:
        if len(self.server.connections) >= self.limit:
            self.turned_away += 1
            if self.turned_away == 1 or self.turned_away % 1000 == 0:
                log.warning("the Activity's server is full (%d connections): %d turned away "
                            "so far", self.limit, self.turned_away)
            return _Full()
        return self.server()

    async def start(self, host: str, port: int) -> int:
        """Listen; the port listened on (``port`` 0: a free one)."""
        loop = asyncio.get_running_loop()
        self._listening = await loop.create_server(self._protocol, host, port, backlog=512)
        return int(self._listening.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._listening is not None:
            self._listening.close()
            await self._listening.wait_closed()
            self._listening = None
