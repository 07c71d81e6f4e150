"""How the bot reaches a PostgreSQL server: the connection settings its pool
and its shard leases share, and the server's name as logs may show it."""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit, urlunsplit

# A click waits on a save: a server that does not answer must fail it in time
# for the "not saved" answer, not hang it.
CONNECT_TIMEOUT: Final = 5.0
COMMAND_TIMEOUT: Final = 10.0
POOL_SIZE: Final = 10
# Dead peers (a host that lost power) are noticed within about 20 seconds, so
# their shard leases (``db.leases``) come free for a standby.
KEEPALIVES: Final = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "2",
}


def shown_url(url: str) -> str:
    """The URL without its password, as logs and errors may show it."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    user = parts.username
    netloc = f"{user}@{host}" if user else host
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
