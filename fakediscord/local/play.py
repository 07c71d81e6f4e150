"""Local play: a Discord stand-in with one server, its channels and four
members, their DMs and group DMs without the bot, and a page in the browser
that shows it as any of them.

``python bot.py`` with no token runs the unchanged bot against this stand-in
(see ``bot.py``): the bot cannot tell it from Discord, and a person plays it
in the page at http://127.0.0.1:8765/ as Ann, Bob, Cat or Dan. Nothing here
is imported by the bot itself.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from pathlib import Path

from ..core.history import Limits
from ..core.server import FakeDiscord
from ..core.world import World
from .cast import Cast, find_the_cast, seat_the_cast
from .page import WebClient
from .snapshot import load_world, save_world

log = logging.getLogger(__name__)

BOT_NAME = "Rummy"

# Changes to the world are saved this long after the first of them, together:
# a kill loses at most this much of the stand-in's side (the bot's database
# has every move regardless).
SAVE_AFTER = 0.2


class LocalPlay:
    """The stand-in and its page, for one ``python bot.py`` session. With a
    ``snapshot`` path the stand-in's world is kept there between runs."""

    def __init__(self, *, host: str, port: int, snapshot: Path | None = None,
                 activity_port: int = 0) -> None:
        self.host = host
        self.port = port
        # Where the bot serves its Activity (on this machine only): the page frames
        # it through its own proxy, as Discord does. 0: a free port.
        self.activity_port = activity_port or _free_port()
        self.snapshot = snapshot
        self.emu = self._stand_in(None)
        self.cast: Cast | None = None
        self.page: WebClient | None = None
        # Set by whoever runs the bot: stops it, for Reset to start afresh.
        self.on_reset: Callable[[], None] = lambda: None
        self.reset_requested = False
        self._save: asyncio.TimerHandle | None = None
        # A saved world was there and could not be read: the bot's database holds
        # games in channels of that world, which the fresh one does not have.
        self.world_set_aside = False

    @staticmethod
    def _stand_in(world: World | None) -> FakeDiscord:
        # A token of this session's own: the bot logs in with it, as with Discord's.
        # Nothing is kept of the traffic, and only the recent past of the rest
        # (``history``): a session may run for hours.
        emu = FakeDiscord(token=f"local.{secrets.token_urlsafe(24)}", bot_name=BOT_NAME,
                          record=False, world=world)
        emu.world.limits = Limits()
        return emu

    async def start(self) -> LocalPlay:
        saved = self.snapshot is not None and self.snapshot.exists()
        kept = load_world(self.snapshot) if self.snapshot is not None else None
        self.world_set_aside = saved and kept is None
        if kept is not None:
            self.emu = self._stand_in(kept)
        await self.emu.start()
        self.cast = (find_the_cast(self.emu) if kept is not None else None) or seat_the_cast(
            self.emu)
        self.emu.world.listeners.append(self._changed)
        # Saved as found or made: what the cast added to an older snapshot (its
        # conversations, say) is the world's from now on, changed or not.
        self._changed()
        # The stand-in's application has its Activity turned on, as in the portal.
        self.emu.world.enable_activities()
        self.page = WebClient(self.emu, self.cast, on_reset=self._reset,
                              activity=f"http://127.0.0.1:{self.activity_port}")
        await self.page.start(self.host, self.port)
        self.port = self.page.port
        return self

    async def restart(self) -> None:
        """A fresh server with nobody's messages in it, on the same page address."""
        await self.close()
        if self.snapshot is not None:
            self.snapshot.unlink(missing_ok=True)
        self.emu = self._stand_in(None)
        self.reset_requested = False
        await self.start()

    async def close(self) -> None:
        if self.page is not None:
            await self.page.close()
            self.page = None
        if self._save is not None:
            self._save.cancel()
            self._save_now()
        await self.emu.stop()

    def _changed(self) -> None:
        if self._save is None and self.snapshot is not None:
            self._save = asyncio.get_running_loop().call_later(SAVE_AFTER, self._save_now)

    def _save_now(self) -> None:
        self._save = None
        if self.snapshot is not None and not self.reset_requested:
            save_world(self.emu.world, self.snapshot)

    async def _reset(self) -> None:
        self.reset_requested = True
        self.on_reset()

    @property
    def url(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "localhost") else self.host
        return f"http://{shown}:{self.port}/"

    def bot_environment(self, database: Path) -> dict[str, str]:
        """What the bot is told instead of Discord's addresses and a real token:
        the stand-in's, and a database of local play's own. After a world that
        could not be read, that database is set aside first (``_orphaned``)."""
        if self.world_set_aside:
            _orphaned(database)
            self.world_set_aside = False
        return {
            "DISCORD_TOKEN": self.emu.token,
            "DISCORD_API_BASE": self.emu.api_base,
            "DISCORD_GATEWAY_URL": self.emu.gateway_url,
            "DATABASE_PATH": str(database),
            # The Activity: the stand-in's OAuth2 client, served on this machine only.
            "DISCORD_CLIENT_ID": str(self.emu.world.application_id),
            "DISCORD_CLIENT_SECRET": self.emu.world.client_secret,
            "WEB_HOST": "127.0.0.1",
            "WEB_PORT": str(self.activity_port),
        }


def _orphaned(database: Path) -> None:
    """Sets aside the bot's database of a world that could not be read, as
    Reset wipes it with its world: its live tables are in channels nobody can
    reach any more, and would stay live for good. It is kept beside, with
    SQLite's files, for whoever wants the games in it."""
    aside = database.with_name(database.name + ".orphaned")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{database}{suffix}")
        if source.exists():
            os.replace(source, Path(f"{aside}{suffix}"))
            os.chmod(Path(f"{aside}{suffix}"), 0o600)
    log.warning("local play's saved server could not be read, so its games cannot go on: "
                "the bot starts with an empty database; the old one is kept as %s", aside)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
