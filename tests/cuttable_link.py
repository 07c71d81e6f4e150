"""A TCP link to a server that a test can cut the way a network partition does.

A process reaches the server through :class:`CuttableLink` instead of
directly. :meth:`CuttableLink.cut` stops every byte in both directions but
closes nothing: the process sees silence, never an error, exactly as when a
cable or a firewall drops packets. :meth:`CuttableLink.drop_server_side` then
closes the link's connections to the server, as the server does once its
keepalives give up on a client that went silent (here at once, the worst case
for whoever relies on that). :meth:`CuttableLink.heal` lets bytes through
again; connections whose server side was dropped are reset, as the server's
TCP stack answers a retransmission it no longer knows.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field


@dataclass(eq=False)
class _Pair:
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter | None = None
    dropped: bool = False
    pumps: list[asyncio.Task[None]] = field(default_factory=list)


class CuttableLink:
    """Forwards 127.0.0.1:``port`` to ``host``:``target_port`` until cut."""

    def __init__(self, host: str, target_port: int) -> None:
        self._host = host
        self._target_port = target_port
        self._open = asyncio.Event()
        self._open.set()
        self._pairs: set[_Pair] = set()
        self._server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> CuttableLink:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def url(self, database_url: str) -> str:
        """``database_url`` with its host and port replaced by this link's."""
        return database_url.replace(f"127.0.0.1:{self._target_port}", f"127.0.0.1:{self.port}")

    @property
    def connections(self) -> int:
        return len(self._pairs)

    def cut(self) -> None:
        self._open.clear()

    def drop_server_side(self) -> None:
        for pair in self._pairs:
            pair.dropped = True
            if pair.server is not None:
                pair.server.transport.abort()

    def heal(self) -> None:
        for pair in list(self._pairs):
            if pair.dropped:
                pair.client.transport.abort()
        self._open.set()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for pair in list(self._pairs):
            pair.client.transport.abort()
            if pair.server is not None:
                pair.server.transport.abort()
            for pump in pair.pumps:
                pump.cancel()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pair = _Pair(writer)
        self._pairs.add(pair)
        try:
            await self._open.wait()  # a connection made during a cut waits, unanswered
            if pair.dropped:
                return
            try:
                up_reader, up_writer = await asyncio.open_connection(self._host, self._target_port)
            except OSError:
                return
            pair.server = up_writer
            pair.pumps = [
                asyncio.create_task(self._pump(reader, up_writer, pair)),
                asyncio.create_task(self._pump(up_reader, writer, pair)),
            ]
            await asyncio.gather(*pair.pumps, return_exceptions=True)
            if pair.dropped:
                await self._open.wait()  # silence for the client until healed
        finally:
            self._pairs.discard(pair)
            writer.transport.abort()
            if pair.server is not None:
                pair.server.transport.abort()

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, pair: _Pair
    ) -> None:
        try:
            while data := await source.read(65536):
                # Held while cut, delivered when healed: TCP retransmits.
                await self._open.wait()
                if pair.dropped:
                    return
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            return
        finally:
            for pump in pair.pumps:
                if pump is not asyncio.current_task():
                    pump.cancel()
