"""Loopback ports for the servers and processes the tests start."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on: bound, noted and let go, for a
    server to take next (or for a client to find closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
