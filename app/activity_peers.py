"""The Activity across the bot's processes: where each process says it serves
the Activity (on its shard leases), and where a page of a server another
process plays is relayed to (``web.relay``)."""

from __future__ import annotations

import logging
import socket

from db.errors import StorageError
from db.leases import ShardLeases
from web.relay import Relays

from .settings import ActivitySettings

log = logging.getLogger(__name__)

# How long a page's hello waits to learn where its server is played.
LOCATE_WITHIN = 2.0
# Addresses that mean "every interface": no peer can connect to them as such.
EVERY_INTERFACE = {"", "0.0.0.0", "::"}


def peer_url(settings: ActivitySettings, port: int) -> str:
    """Where the other processes reach this one's Activity server."""
    if settings.peer_url is not None:
        return settings.peer_url
    host = socket.gethostname() if settings.host in EVERY_INTERFACE else settings.host
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}"


def relays_for(leases: ShardLeases) -> Relays:
    """Pages are relayed to the process holding their server's shard lease."""

    async def served_at(guild_id: int) -> str | None:
        try:
            return await leases.served_at(guild_id, LOCATE_WITHIN)
        except StorageError as error:
            # Nobody to ask: the page is told to try again, as while a takeover
            # is under way.
            log.warning("cannot tell which process serves server %s: %s", guild_id, error)
            return ""

    return Relays(served_at)


async def announce(leases: ShardLeases, url: str) -> None:
    """Say on this process's leases where it serves the Activity, now rather
    than at the next renewal; a failure leaves it to that renewal."""
    leases.web_url = url
    try:
        await leases.renew(LOCATE_WITHIN)
    except StorageError as error:
        log.warning("could not yet say where the Activity is served: %s", error)
