"""The store a benchmark's bot runs on, and what its commits cost.

``--store sqlite`` (the default) gives the bot a fresh file in the run's
folder; ``--store postgresql`` starts a real PostgreSQL server for the run
(``tests.postgres_server``) with a fresh database. With ``--commits`` the
bot's metrics port is on, and the run reads its commit-time histogram at the
end (the metrics cost the bot some CPU: off by default, so that runs compare
with earlier ones).
"""

from __future__ import annotations

import contextlib
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.ports import free_port

STORES = ("sqlite", "postgresql")
COMMITS = "rummy_db_commit_seconds"



@dataclass
class BenchStore:
    """Where the bot's database is and the settings that point it there."""

    kind: str
    target: str | Path
    env: dict[str, str] = field(default_factory=dict)

    async def size_kb(self) -> int:
        """The PostgreSQL database's size on disk."""
        import asyncpg

        conn = await asyncpg.connect(str(self.target))
        try:
            size = await conn.fetchval("SELECT pg_database_size(current_database())")
        finally:
            await conn.close()
        return int(size) // 1024

    @property
    def metrics_url(self) -> str | None:
        port = self.env.get("HEALTH_PORT")
        return None if port is None else f"http://127.0.0.1:{port}/metrics"


@contextlib.contextmanager
def bench_store(kind: str, workdir: Path, *, metrics: bool = False) -> Iterator[BenchStore]:
    env = {"HEALTH_PORT": str(free_port())} if metrics else {}
    if kind == "sqlite":
        yield BenchStore(kind, workdir / "rummy.sqlite3", env)
        return
    from tests.postgres_server import PostgresServer

    server = PostgresServer()
    try:
        server.start()
        url = server.new_database()
        yield BenchStore(kind, url, {**env, "DATABASE_URL": url})
    finally:
        server.remove()


@dataclass(frozen=True)
class Commits:
    """The bot's commit times, from its histogram: how many, and the upper
    bound of the bucket holding each quantile (seconds)."""

    count: int
    p50: float
    p99: float

    @classmethod
    def read(cls, url: str) -> Commits | None:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                text = answer.read().decode()
        except OSError:
            return None
        buckets: list[tuple[float, float]] = []
        for line in text.splitlines():
            if line.startswith(f"{COMMITS}_bucket{{"):
                bound = line.split('le="', 1)[1].split('"', 1)[0]
                buckets.append((float(bound), float(line.rsplit(" ", 1)[1])))
        if not buckets or buckets[-1][1] == 0:
            return None
        total = buckets[-1][1]

        def quantile(q: float) -> float:
            return next(bound for bound, seen in buckets if seen >= q * total)

        return cls(int(total), quantile(0.5), quantile(0.99))

    def describe(self) -> str:
        return (f"{self.count} commits of live-table saves: p50 <= {self.p50 * 1000:g} ms, "
                f"p99 <= {self.p99 * 1000:g} ms (histogram buckets)")
