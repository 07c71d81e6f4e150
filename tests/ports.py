"""Loopback ports for the servers and processes the tests start."""

from __future__ import annotations

import random
import socket
from pathlib import Path

# Linux's default range for the ports it gives outgoing connections and
# bind(0); read from the machine where it says.
EPHEMERAL = (32768, 60999)
RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def _ephemeral() -> tuple[int, int]:
    try:
        low, high = (int(part) for part in RANGE_FILE.read_text().split())
    except (OSError, ValueError):
        return EPHEMERAL
    return low, high


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on, for a server to take next (or
    for a client to find closed). Picked below the range the kernel hands out
    to outgoing connections: a port from that range, let go, can be taken by
    any connection made before the server binds it (a browser's, the bot's
    own), and the server then fails to start."""
    low, _high = _ephemeral()
    for _ in range(200):
        port = random.randrange(max(1024, low - 12000), low)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:  # a crowded machine: any free one
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
