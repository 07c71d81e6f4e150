"""The optional HTTP port for whoever runs the bot: ``/healthz`` for a container
engine or load balancer, ``/metrics`` for Prometheus.

``/healthz`` answers 200 only while the gateway is connected and the database
answers a read; otherwise 503, with a JSON body saying which part is down. A
standby (``app.standby``) is healthy while the database answers: it is not
connected to Discord on purpose, and says so.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from aiohttp import web

from db import Database, StorageError

from .metrics import Metrics

log = logging.getLogger(__name__)

# A database slower than this to answer one read counts as down.
PING_TIMEOUT = 2.0


class Gateway(Protocol):
    def gateway_connected(self) -> bool: ...

    def standing_by(self) -> bool: ...


class HealthServer:
    """Serves ``/healthz`` and ``/metrics`` on ``host:port`` (port 0: any free one)."""

    def __init__(self, gateway: Gateway, database: Database, metrics: Metrics) -> None:
        self.gateway = gateway
        self.database = database
        self.metrics = metrics
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self, host: str, port: int) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.serve_metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("health and metrics on http://%s:%d/", host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, _: web.Request) -> web.Response:
        standing_by = self.gateway.standing_by()
        gateway = standing_by or self.gateway.gateway_connected()
        try:
            await asyncio.wait_for(self.database.ping(), PING_TIMEOUT)
            database = True
        except (StorageError, TimeoutError):
            database = False
        body = {
            "gateway": "standing by" if standing_by else "connected" if gateway else "down",
            "database": "ok" if database else "down",
        }
        return web.json_response(body, status=200 if gateway and database else 503)

    async def serve_metrics(self, _: web.Request) -> web.Response:
        return web.Response(
            body=self.metrics.exposition(),
            headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"},
        )
