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
  files. One over it takes the place of the oldest connection that is idle
  (waiting for a request: a WebSocket never is), so that nobody can hold the
  server by reopening connections that ask nothing; only when every one is
  busy is it answered 503 and closed at once;
- any one address that is not a trusted proxy holds at most ``per_peer`` of
  them, by the same rule: past it, its own oldest idle connection goes.

Who sent a request is its peer's address, unless that peer is a trusted
reverse proxy (``TrustedProxies``): then it is the address that proxy says it
got the request from, in ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
from collections.abc import Iterable
from typing import cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)

# Seconds a connection has to send a whole request, and may stay idle between two.
REQUEST_WITHIN = 10.0
# The most connections one process serves at once: a page holds one WebSocket.
MAX_CONNECTIONS = 4096
# Descriptors never given to the Activity's visitors: the gateway, REST's pool of
# connections to Discord, the database and the logs fit well inside.
KEPT_FOR_DISCORD = 256
# Any one address that is not a trusted proxy holds at most this share of the
# connections (and never fewer than PER_PEER_LEAST): a household or an office
# behind one address needs a few each, a flood from one address no more.
PER_PEER_SHARE, PER_PEER_LEAST = 8, 16
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


# --- who is asking ---------------------------------------------------------------------------
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# A reverse proxy on this machine: the one kind a host need not name.
LOOPBACK: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.1/32"),
                                 ipaddress.ip_network("::1/128"))
# Proxies in front of proxies are few: a longer chain is a client's own invention.
MAX_HOPS = 8
# One IPv6 subscriber is given a /64 (at least) to pick addresses from at will.
IPV6_CLIENT_PREFIX = 64


def networks(text: str) -> tuple[Network, ...]:
    """Addresses and networks separated by commas or spaces (``10.0.0.0/8, ::1``);
    ValueError naming the first that is neither."""
    found = []
    for entry in text.replace(",", " ").split():
        try:
            found.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an address or a network") from None
    return tuple(found)


def address(text: str) -> Address | None:
    """The address in ``text`` as peers and proxies write it (``1.2.3.4``,
    ``1.2.3.4:5678``, ``[::1]:443``, ``::ffff:1.2.3.4``), or None."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        # A dual-stack socket's name for an IPv4 peer: the same client.
        return found.ipv4_mapped
    return found


def client_key(found: Address) -> str:
    """What one client is counted as: its address, or its IPv6 /64, since
    whoever holds one address of a /64 can use any other."""
    if isinstance(found, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{found}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(found)


class TrustedProxies:
    """The reverse proxies whose word on where a request came from is believed:
    the host's own, named in its settings. Anybody else can write anything in
    ``X-Forwarded-For``."""

    def __init__(self, trusted: Iterable[Network] = LOOPBACK) -> None:
        self.networks = tuple(trusted)

    def __contains__(self, found: Address | None) -> bool:
        return found is not None and any(found in network for network in self.networks)

    def client_of(self, peer: str | None, forwarded: str = "") -> str:
        """Who sent a request that came from ``peer`` with ``forwarded`` (its
        ``X-Forwarded-For``): each trusted proxy appends the address it got the
        request from, so the right-most address that is not a trusted proxy's
        is the client's; what stands left of it, the client wrote itself."""
        found = address(peer or "")
        if found is None:
            return (peer or "?")[:64]
        hops = forwarded.split(",")[-MAX_HOPS:] if forwarded else []
        while found in self and hops:
            said = address(hops.pop())
            if said is None:
                # Not an address: the last one a trusted proxy vouched for stands.
                break
            found = said
        return client_key(found)


# --- how many, from where -----------------------------------------------------------------------
def _idle(handler: RequestHandler) -> bool:
    """Whether a connection waits for a request, as aiohttp's own keep-alive
    check tells it: its handler waits for the next message, with none queued
    and none in progress. aiohttp's private parts: were they ever renamed, no
    connection would look idle, and the server would refuse rather than evict."""
    waiter = getattr(handler, "_waiter", None)
    return (handler.transport is not None and waiter is not None and not waiter.done()
            and not getattr(handler, "_request_in_progress", True)
            and not getattr(handler, "_messages", True))


def _peer_of(transport: asyncio.BaseTransport) -> Address | None:
    name = transport.get_extra_info("peername")
    return address(str(name[0])) if isinstance(name, tuple) and name else None


class _Full(asyncio.Protocol):
    """A connection past the limit: told to come back later, and closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport, though uvloop's is no subclass of asyncio's.
        stream = cast(asyncio.Transport, transport)
        stream.write(FULL_ANSWER)
        stream.close()


class _Door(asyncio.Protocol):
    """A new connection, until its peer's address is known: then it is handed
    to aiohttp's handler, or told the server is full."""

    def __init__(self, listener: CappedListener) -> None:
        self.listener = listener

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        handler = self.listener.admit(_peer_of(transport))
        if handler is None:
            _Full().connection_made(transport)
            return
        transport.set_protocol(handler)
        handler.connection_made(transport)


class CappedListener:
    """Listens for ``server`` (an aiohttp low-level server: the app runner's),
    handing it at most ``limit`` connections at once, at most ``per_peer`` of
    them from any one address but the ``trusted`` proxies'."""

    def __init__(self, server: web.Server, limit: int,
                 trusted: TrustedProxies | None = None, per_peer: int | None = None) -> None:
        self.server = server
        self.limit = limit
        self.trusted = trusted if trusted is not None else TrustedProxies()
        self.per_peer = per_peer or max(PER_PEER_LEAST, limit // PER_PEER_SHARE)
        self.turned_away = 0
        self.evicted = 0
        self._listening: asyncio.Server | None = None
        # Each untrusted address's connections, oldest first; closed ones are
        # dropped as the address is looked at again.
        self._of_peer: dict[str, list[RequestHandler]] = {}

    def admit(self, peer: Address | None) -> RequestHandler | None:
        """The handler for a new connection from ``peer``, room made for it by
        closing an idle connection if need be; None when there is no room."""
        key = None if peer is None or peer in self.trusted else client_key(peer)
        if key is not None:
            own = self._open_of(key)
            if len(own) >= self.per_peer and not self._evict(own):
                self._turn_away("from one address", self.per_peer)
                return None
        connections = self.server.connections
        open_now = sum(1 for handler in connections if handler.transport is not None)
        if open_now >= self.limit and not self._evict(connections):
            self._turn_away("in all", self.limit)
            return None
        handler = self.server()
        if key is not None:
            self._of_peer.setdefault(key, []).append(handler)
        return handler

    def _open_of(self, key: str) -> list[RequestHandler]:
        if len(self._of_peer) > 2 * self.limit:
            # Addresses that came once and left: forgotten now and then.
            self._of_peer = {k: [h for h in hs if h.transport is not None]
                             for k, hs in self._of_peer.items()}
            self._of_peer = {k: hs for k, hs in self._of_peer.items() if hs}
        own = [handler for handler in self._of_peer.get(key, ())
               if handler.transport is not None]
        self._of_peer[key] = own
        return own

    def _evict(self, oldest_first: list[RequestHandler]) -> bool:
        """Close the oldest idle connection of ``oldest_first``; whether there was one."""
        for handler in oldest_first:
            if _idle(handler):
                handler.force_close()
                self.evicted += 1
                if self.evicted == 1 or self.evicted % 1000 == 0:
                    log.warning("the Activity's server is full: %d idle connections closed "
                                "for new ones so far", self.evicted)
                return True
        return False

    def _turn_away(self, where: str, limit: int) -> None:
        self.turned_away += 1
        if self.turned_away == 1 or self.turned_away % 1000 == 0:
            log.warning("the Activity's server is full (%d connections %s, none idle): %d "
                        "turned away so far", limit, where, self.turned_away)

    def _protocol(self) -> asyncio.BaseProtocol:
        return _Door(self)

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
