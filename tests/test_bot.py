"""``python bot.py`` refusing to start: one line on stderr saying why, never a traceback.

Each test runs the real entry point as its own process with the fault in place.
LOG_LEVEL=WARNING keeps the bot's ordinary start-up notes off stderr, so what
is left there is the refusal and anything else that went wrong on the way out.
"""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.db.faults import (
    DROP_PRIVILEGES,
    build,
    damage_page,
    hand_over,
    pages,
    shared_folder,
)
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = (
    "DISCORD_TOKEN",
    "DISCORD_GUILD_ID",
    "DATABASE_PATH",
    "LOG_LEVEL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "COMPUTER_DELAY",
    "LOBBY_TIMEOUT",
    "IDLE_TABLE_TIMEOUT",
    "SWEEP_INTERVAL",
    "LOCAL_PLAY",
    "LOCAL_PLAY_HOST",
    "LOCAL_PLAY_PORT",
)


def run_bot(cwd: Path, settings: dict[str, str], *, prelude: str = "") -> tuple[int, str]:
    """Run bot.py with only ``settings`` set (over a token and a quiet log);
    its exit code and stderr. ``prelude`` runs first, after the imports."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env |= {
        "DISCORD_TOKEN": "not-a-real-token",
        "LOG_LEVEL": "WARNING",
        # Nowhere to connect to, unless a test says otherwise.
        "DISCORD_API_BASE": f"http://127.0.0.1:{free_port()}/api/v10",
        "DATABASE_PATH": str(cwd / "rummy.sqlite3"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env |= settings
    script = f"import os, sys\nsys.path.insert(0, {str(ROOT)!r})\nimport bot\n{prelude}\n"
    script += "sys.exit(bot.main())\n"
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=cwd,  # no .env there
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result.returncode, result.stderr


def assert_refused(code: int, stderr: str, expected_code: int, *words: str) -> str:
    """The process exited with ``expected_code`` after one line naming the problem."""
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: "), stderr
    for word in words:
        assert word in lines[0], stderr
    assert code == expected_code, stderr
    return lines[0]


# ----------------------------------------------------------------- settings


def test_no_token_where_local_play_is_off_is_one_line(tmp_path: Path) -> None:
    # The container image: it never plays locally.
    code, stderr = run_bot(tmp_path, {"DISCORD_TOKEN": "", "LOCAL_PLAY": "off"})
    assert_refused(code, stderr, 2, "DISCORD_TOKEN is not set")
    code, stderr = run_bot(tmp_path, {"DISCORD_TOKEN": "", "LOCAL_PLAY": "maybe"})
    assert_refused(code, stderr, 2, "LOCAL_PLAY", "'maybe'")


def test_local_play_refuses_a_bad_address_or_a_taken_port(tmp_path: Path) -> None:
    code, stderr = run_bot(tmp_path, {"DISCORD_TOKEN": "", "LOCAL_PLAY_PORT": "80a"})
    assert_refused(code, stderr, 2, "LOCAL_PLAY_PORT", "'80a'")
    code, stderr = run_bot(tmp_path, {"DISCORD_TOKEN": "", "LOCAL_PLAY_HOST": "my-laptop"})
    assert_refused(code, stderr, 2, "LOCAL_PLAY_HOST", "'my-laptop'")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        code, stderr = run_bot(tmp_path, {"DISCORD_TOKEN": "", "LOCAL_PLAY_PORT": port})
    assert_refused(code, stderr, 1, f"127.0.0.1:{port}", "LOCAL_PLAY_PORT")
    assert not (tmp_path / "rummy-local.sqlite3").exists()


def test_a_setting_out_of_range_is_refused_before_anything_starts(tmp_path: Path) -> None:
    code, stderr = run_bot(tmp_path, {"COMPUTER_DELAY": "nan"})
    assert_refused(code, stderr, 2, "COMPUTER_DELAY", "'nan'")
    assert not (tmp_path / "rummy.sqlite3").exists()


def test_an_api_base_that_is_not_a_url_is_refused(tmp_path: Path) -> None:
    code, stderr = run_bot(tmp_path, {"DISCORD_API_BASE": "not a url"})
    assert_refused(code, stderr, 2, "DISCORD_API_BASE", "'not a url'", "http://")


# ----------------------------------------------------------------- database


def test_a_database_folder_that_is_a_file_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    path = blocker / "rummy.sqlite3"
    code, stderr = run_bot(tmp_path, {"DATABASE_PATH": str(path)})
    assert_refused(code, stderr, 1, f"cannot create the folder {blocker}", str(path), "exists")


async def test_a_damaged_database_is_refused_before_discord_is_reached(tmp_path: Path) -> None:
    path = tmp_path / "rummy.sqlite3"
    await build(path)
    size, _, roots = pages(path)
    damage_page(path, roots["matches"], size)
    code, stderr = run_bot(tmp_path, {})
    line = assert_refused(code, stderr, 1, f"the database {path} is damaged", ".recover")
    assert "backup" in line and "reach Discord" not in line


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    with shared_folder() as folder:
        yield folder


async def test_a_database_the_bot_may_not_write_is_refused(shared_dir: Path) -> None:
    """As the finding had it: the bot's user may read the file but not write it."""
    path = shared_dir / "rummy.sqlite3"
    await build(path, matches=2)
    path.chmod(0o444)
    hand_over(shared_dir, [path.with_name(path.name + ".lock")])
    # The child imports the bot as root, then becomes the unprivileged user: the
    # interpreter may live where only root can read, so what the bot would
    # import later is imported first.
    prelude = f"import uvloop, concurrent.futures.thread\n{DROP_PRIVILEGES}"
    code, stderr = run_bot(shared_dir, {}, prelude=prelude)
    assert_refused(code, stderr, 1, f"cannot write to the database {path}", "permissions")


# ------------------------------------------------------------------ Discord


def test_discord_unreachable_is_one_line(tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{free_port()}/api/v10"
    code, stderr = run_bot(tmp_path, {"DISCORD_API_BASE": base})
    assert_refused(code, stderr, 1, "cannot reach Discord", base)


class NotDiscord(http.server.BaseHTTPRequestHandler):
    """A web server that is not Discord: every path is missing."""

    def do_GET(self) -> None:
        self.send_response(404)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<html>\n<body>\nNo such page\n</body>\n</html>\n")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def not_discord() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotDiscord)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    finally:
        server.shutdown()
        server.server_close()


def test_an_api_base_that_is_not_discord_is_one_line(tmp_path: Path, not_discord: str) -> None:
    code, stderr = run_bot(tmp_path, {"DISCORD_API_BASE": not_discord})
    assert_refused(code, stderr, 1, not_discord, "404")


def test_the_activitys_client_secret_never_reaches_the_log(tmp_path: Path) -> None:
    secret = "the-client-secret-of-this-test-123"
    # Whatever would log the secret after start-up (an error's text, a request body).
    prelude = (
        "import logging\n"
        "prepared = bot.prepare\n"
        "def prepare(settings):\n"
        "    prepared(settings)\n"
        "    logging.getLogger('web').warning('form: client_secret=%s', settings.activity"
        ".client_secret)\n"
        "bot.prepare = prepare\n"
    )
    _code, stderr = run_bot(tmp_path, {"DISCORD_CLIENT_SECRET": secret}, prelude=prelude)
    assert "form: client_secret=<redacted>" in stderr, stderr
    assert secret not in stderr
