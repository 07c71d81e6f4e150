"""The bot as a separate process: start, watch, stop.

Tests of what only a whole process shows (shards, a standby, stopping on a
signal, the container's commands) and the benchmarks alike run the real
``python bot.py`` pointed at the emulator, so the bot's CPU and memory are its
own, as on a real host, and read from ``/proc``:
peak resident memory is ``VmHWM`` of ``/proc/<pid>/status``, CPU time is
``utime + stime`` of ``/proc/<pid>/stat`` (all threads, the SQLite worker
included).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from fakediscord.core.server import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py colours its log lines


class BotProcess:
    """``python bot.py`` started on the emulator with a database of its own."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: Path,
                 started: float) -> None:
        self.process = process
        self.log_path = log_path
        self.started = started  # perf_counter() just before the process was spawned

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    async def start(cls, emu: FakeDiscord, database: Path, log_path: Path, *,
                    log_level: str = "WARNING", extra_env: dict[str, str] | None = None,
                    profile: Path | None = None, root: Path | None = None,
                    open_files: int | None = None) -> BotProcess:
        """``profile``: run the bot under cProfile, its statistics written there at exit;
        ``root``: the checkout whose bot runs (by default this one); ``open_files``:
        its limit on open files, soft and hard alike (as systemd's LimitNOFILE)."""
        root = (root or ROOT).resolve()
        env = dict(os.environ)
        # Every setting is given explicitly: a developer's .env must not point the
        # benchmark at another database or a real server (dotenv never overrides).
        env.update({
            "DISCORD_TOKEN": emu.token,
            "DISCORD_GUILD_ID": "",
            "DATABASE_PATH": str(database),
            "LOG_LEVEL": log_level,
            "DISCORD_API_BASE": emu.api_base,
            "DISCORD_GATEWAY_URL": emu.gateway_url,
            "COMPUTER_DELAY": "0",
            "PYTHONUNBUFFERED": "1",
        })
        env.update(extra_env or {})
        log = log_path.open("wb")
        started = time.perf_counter()
        try:
            runner = [sys.executable] + (["-m", "cProfile", "-o", str(profile)] if profile else [])
            process = await asyncio.create_subprocess_exec(
                *runner, str(root / "bot.py"), cwd=str(root), env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=asyncio.subprocess.STDOUT,
                preexec_fn=None if open_files is None else _limit_open_files(open_files))
        finally:
            log.close()
        return cls(process, log_path, started)

    async def wait_connected(self, emu: FakeDiscord, timeout: float = 60.0) -> float:  # noqa: ASYNC109
        """Wait until the bot holds a gateway session (set-up done: database open,
        tables restored, commands synced); returns seconds since the spawn."""
        deadline = time.monotonic() + timeout

        def connected() -> bool:
            # A session a stopped bot left resumable has no connection.
            return any(s.connection is not None for s in emu.gateway.sessions.values())

        while not connected():
            if self.process.returncode is not None:
                raise RuntimeError(f"the bot exited with {self.process.returncode}:\n"
                                   + self.log_tail())
            if time.monotonic() > deadline:
                raise RuntimeError(f"the bot did not connect within {timeout} s:\n"
                                   + self.log_tail())
            await emu._wait_until(connected, 0.05)
        return time.perf_counter() - self.started

    def _status(self) -> dict[str, str]:
        fields: dict[str, str] = {}
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        return fields

    def memory_kb(self) -> tuple[int, int]:
        """(current RSS, peak RSS) in KiB."""
        status = self._status()
        return _kb(status.get("VmRSS")), _kb(status.get("VmHWM"))

    def cpu_seconds(self) -> float:
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except OSError:
            return 0.0
        # The command name (field 2) may hold spaces: count fields after its ")".
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def log_counts(self) -> tuple[int, int]:
        """(error lines, warning lines) the bot logged."""
        try:
            text = ANSI.sub("", self.log_path.read_text(errors="replace"))
        except OSError:
            return 0, 0
        lines = text.splitlines()
        # A traceback belongs to the record above it (often a warning): not counted.
        errors = sum(1 for line in lines if " ERROR " in line or " CRITICAL " in line)
        warnings = sum(1 for line in lines if " WARNING " in line)
        return errors, warnings

    async def stop(self, timeout: float = 15.0) -> int | None:  # noqa: ASYNC109
        """Ask the bot to shut down as Ctrl-C does; kill it if it hangs."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
                await self.process.wait()
        return self.process.returncode


def _limit_open_files(limit: int) -> Callable[[], None]:
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    return limited


def _kb(value: str | None) -> int:
    if not value:
        return 0
    return int(value.split()[0])
