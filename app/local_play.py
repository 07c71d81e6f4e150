"""Local play's settings and words: whether to play locally, where the page
listens, what the bot is told instead of Discord's addresses, and what the
terminal says. The stand-in itself (``fakediscord.local``) is loaded by
``bot.py`` alone, and only to play locally: nothing here imports it.
"""

from __future__ import annotations

import ipaddress
import os
import sys
import webbrowser
from pathlib import Path

from .settings import SettingsError

LOCAL_HOST = "127.0.0.1"
LOCAL_PORT = 8765
LOCAL_DATABASE = Path("rummy-local.sqlite3")
# The stand-in's server, messages and DMs, kept between runs beside the database.
LOCAL_WORLD = Path("rummy-local.world")
# Settings that would send the bot elsewhere than the stand-in, or past one process.
NOT_FOR_LOCAL_PLAY = ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "STANDBY", "DISCORD_GUILD_ID")


def wants_local_play(env: dict[str, str]) -> bool:
    """No token, and local play not turned off (the container image turns it off)."""
    choice = env.get("LOCAL_PLAY", "").strip().lower() or "auto"
    if choice not in ("auto", "off"):
        raise SettingsError(f"LOCAL_PLAY must be auto or off, not {choice!r}.")
    return not env.get("DISCORD_TOKEN", "").strip() and choice == "auto"


def local_address(env: dict[str, str]) -> tuple[str, int]:
    """Where the local page listens: this machine alone unless LOCAL_PLAY_HOST says otherwise."""
    host = env.get("LOCAL_PLAY_HOST", "").strip() or LOCAL_HOST
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if host != "localhost":
            raise SettingsError(
                f"LOCAL_PLAY_HOST must be an IP address (127.0.0.1, 0.0.0.0), not {host!r}."
            ) from None
    port = env.get("LOCAL_PLAY_PORT", "").strip() or str(LOCAL_PORT)
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise SettingsError(f"LOCAL_PLAY_PORT must be a port number (1-65535), not {port!r}.")
    return host, int(port)


def is_loopback(host: str) -> bool:
    return host == "localhost" or ipaddress.ip_address(host).is_loopback


def local_environment(env: dict[str, str], stand_in: dict[str, str]) -> dict[str, str]:
    """The bot's settings in local play: the user's own, pointed at the stand-in."""
    kept = {name: value for name, value in env.items() if name not in NOT_FOR_LOCAL_PLAY}
    # The page is where a person looks: the terminal keeps to what needs them.
    kept.setdefault("LOG_LEVEL", "WARNING")
    return kept | stand_in


def activity_port(env: dict[str, str], page_port: int) -> int:
    """Where local play's bot serves the Activity: WEB_PORT, else the port after
    the page's (0: a free one)."""
    raw = env.get("WEB_PORT", "").strip()
    if raw.isascii() and raw.isdigit() and 0 < int(raw) < 65536:
        return int(raw)
    return page_port + 1 if 0 < page_port < 65535 else 0


def announce(url: str, host: str, *, open_browser: bool) -> None:
    print(f"Local play: the bot runs on a stand-in for Discord on this machine. "
          f"Open {url} to play (as Ann; {url}?as=bob plays as Bob).", flush=True)
    print("To run it on Discord instead, set DISCORD_TOKEN (see .env.example).", flush=True)
    if not is_loopback(host):
        print(f"warning: the local page listens on {host}, with no password: anyone who can "
              "reach this machine can read every player's cards, post and play as any member, "
              "get the Activity's sign-in codes for them, and reach the bot's Activity server "
              "through the page's proxy (although that server itself listens on 127.0.0.1 "
              "only). Keep LOCAL_PLAY_HOST at 127.0.0.1 unless this network is yours alone.",
              file=sys.stderr, flush=True)
    # Without a display, Python's browser of last resort is a text one that
    # would take over this terminal.
    graphical = sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if open_browser and graphical:
        webbrowser.open(url)


def wipe(database: Path) -> None:
    """Local play's database and SQLite's files beside it."""
    for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        path.unlink(missing_ok=True)
