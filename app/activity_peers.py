"""The Activity across the bot's processes: where each process says it serves
the Activity (on its shard leases), and where a page of a server another
process plays is relayed to (``web.relay``)."""

from __future__ import annotations

import asyncio
import logging
import socket
import time

from db.errors import StorageError
from db.leases import ShardLeases
from web.relay import Relays

from .settings import ActivitySettings

log = logging.getLogger(__name__)

# How long a page's hello waits to learn where its server is played.
LOCATE_WITHIN = 2.0
# How long the answer for a shard is taken as still true. Pages come in
# bursts (a restarted bot's, a group opening together, one member's reconnect
# loop), and each asked the database alone; a lease changes hands far less
# often, and a page sent to a holder that has just stepped down is closed
# and finds the successor on its next connection.
LOCATED_FOR = 1.0
# A database that cannot say where shards are served is reported this often at
# most, with how many lookups failed meanwhile.
WARN_EVERY = 30.0
# Addresses that mean "every interface": no peer can connect to them as such.
EVERY_INTERFACE = {"", "0.0.0.0", "::"}


def peer_url(settings: ActivitySettings, port: int) -> str:
    """Where the other processes reach this one's Activity server."""
    if settings.peer_url is not None:
        return settings.peer_url
    host = socket.gethostname() if settings.host in EVERY_INTERFACE else settings.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}"


class ShardLocator:
    """Where each shard's server is played, by the leases: asked of the database
    at most once per ``LOCATED_FOR`` a shard, however many pages ask at once
    (they share the one lookup in flight)."""

    def __init__(self, leases: ShardLeases, located_for: float = LOCATED_FOR) -> None:
        self.leases = leases
        self.located_for = located_for
        self.lookups = 0  # asked of the database
        self._known: dict[int, tuple[float, str | None]] = {}
        self._asking: dict[int, asyncio.Future[str | None]] = {}
        self._failed = 0
        self._warned_at = -WARN_EVERY

    async def served_at(self, guild_id: int) -> str | None:
        """None: this process plays the server; "": nobody does now (a takeover
        under way, or the database cannot say); else the serving process's address."""
        shard = self.leases.shard_of(guild_id)
        if shard in self.leases.epochs:
            return None
        known = self._known.get(shard)
        if known is not None and time.monotonic() - known[0] < self.located_for:
            return known[1]
        asking = self._asking.get(shard)
        if asking is None:
            asking = asyncio.ensure_future(self._ask(guild_id, shard))
            self._asking[shard] = asking
            asking.add_done_callback(lambda _done: self._asking.pop(shard, None))
        # A page that leaves while the lookup runs must not cancel it for the others.
        return await asyncio.shield(asking)

    async def _ask(self, guild_id: int, shard: int) -> str | None:
        self.lookups += 1
        try:
            found = await self.leases.served_at(guild_id, LOCATE_WITHIN)
        except StorageError as error:
            # Nobody to ask: the page is told to try again, as while a takeover
            # is under way; the answer is kept like any other, so a database
            # in trouble is not asked again by every page meanwhile.
            self._warn(shard, error)
            found = ""
        self._known[shard] = (time.monotonic(), found)
        return found

    def _warn(self, shard: int, error: StorageError) -> None:
        self._failed += 1
        now = time.monotonic()
        if now - self._warned_at >= WARN_EVERY:
            log.warning("cannot tell which process serves shard %s (%d lookups failed since "
                        "the last warning): %s", shard, self._failed, error)
            self._warned_at, self._failed = now, 0


def relays_for(leases: ShardLeases, client_secret: str) -> Relays:
    """Pages are relayed to the process holding their server's shard lease;
    processes vouch for each other with a key from the client secret they share."""
    return Relays(ShardLocator(leases).served_at, client_secret)


async def announce(leases: ShardLeases, url: str) -> None:
    """Say on this process's leases where it serves the Activity, now rather
    than at the next renewal; a failure leaves it to that renewal."""
    leases.web_url = url
    try:
        await leases.renew(LOCATE_WITHIN)
    except StorageError as error:
        log.warning("could not yet say where the Activity is served: %s", error)
