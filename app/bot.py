"""The bot process: a ``commands.Bot`` that builds everything in ``setup_hook``."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any, Final

import discord
from discord.ext import commands

from app.game import Game
from chat.emoji_sync import sync_card_emoji
from chat.restore import restore_tables
from cogs.rummy import RummyCog
from db import Database
from db.leases import ShardLeases
from transport.activity_api import ActivityApi
from transport.command_sync import sync_global_commands
from transport.events import ignore_message_traffic, slim_clicked_messages
from transport.handles import InteractionHandle
from web.server import ActivityServer
from web.sessions import Sessions

from .activity_peers import announce, peer_url, relays_for
from .commands_text import CatalogueTranslator
from .health import HealthServer
from .metrics import Metrics
from .settings import Settings, SettingsError
from .wiring import build_game

log = logging.getLogger("rummy")

# How long stepping down may wait for the gateway to close (the lease's
# margin, db.leases.STEP_DOWN, must cover it).
GATEWAY_CLOSE_LIMIT: Final = 2.0


def _shards(settings: Settings) -> dict[str, Any]:
    """The sharding options the settings ask for; none: Discord's recommendation."""
    chosen: dict[str, Any] = {}
    if settings.shard_count is not None:
        chosen["shard_count"] = settings.shard_count
    if settings.shard_ids is not None:
        chosen["shard_ids"] = list(settings.shard_ids)
    return chosen


class RummyBot(commands.AutoShardedBot):
    """One database, one game, one cog; the shards the settings give it (by
    default as many as Discord recommends, all in this process)."""

    game: Game

    def __init__(self, settings: Settings, **options: object) -> None:
        # No privileged intents (members, presences, message content): slash
        # commands and components need only the guilds intent; guild messages
        # tell the bot at once when a table message is deleted.
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        # Counted only for a host who asked for the metrics port.
        self.metrics = Metrics() if settings.health_port is not None else None
        if self.metrics is not None:
            options.setdefault("http_trace", self.metrics.trace())
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            # No message of the bot's pings anyone: players' names are shown in
            # public messages, and a name may hold @everyone or <@id>. A message
            # meant to ping would say so with its own allowed_mentions.
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            max_messages=None,  # no message cache: the bot reads no messages
            **_shards(settings),
            **options,  # type: ignore[arg-type]
        )
        slim_clicked_messages(self)
        ignore_message_traffic(self)
        self.settings = settings
        self.db: Database | None = None
        self.restored_tables = 0
        self.broken_tables = 0
        self.health: HealthServer | None = None
        # The Activity's web server, when the settings give a client secret.
        self.activity_server: ActivityServer | None = None
        self.waiting_for_shards = False
        # The leases of the shards served, on a database several processes share.
        self.leases: ShardLeases | None = None

    async def open_database(self) -> Database:
        """Open (and so check) the database, once; ``bot.py`` calls it before
        logging in, and ``setup_hook`` for a bot started any other way."""
        if self.db is None:
            self.db = await Database.open(
                self.settings.database, kept_results=self.settings.kept_results
            )
        return self.db

    def serve_shards(self, shards: tuple[int, ...] | None, leases: ShardLeases) -> None:
        """Run exactly ``shards`` (None: as the settings say), as the shard leases
        decided (``app.standby``): restored tables and gateway connections follow,
        and no click is taken once ``leases`` stop covering them."""
        self.leases = leases
        if shards is None:
            return
        self.shard_ids = list(shards)
        self.settings = dataclasses.replace(self.settings, shard_ids=shards)

    async def step_down(self) -> None:
        """Stop serving this process's shards at once, before another process may
        take them: refuse every click, stop the timers, close the gateway. The
        clicks in flight finish (a save the leases no longer cover is refused
        by the database); ``close`` follows."""
        if hasattr(self, "game"):
            self.game.tasks.stopping = True
            await self.game.automation.stop()
            await self.game.automation.close()
        shards = [shard.disconnect() for shard in self.shards.values()]
        try:
            await asyncio.wait_for(asyncio.gather(*shards), GATEWAY_CLOSE_LIMIT)
        except TimeoutError:
            log.error("the gateway did not close within %.0f s", GATEWAY_CLOSE_LIMIT)

    async def setup_hook(self) -> None:
        db = await self.open_database()
        self.game = build_game(self, db, self.settings.game)
        leases = self.leases
        if leases is not None:
            self.game.tasks.serving = lambda: leases.serving_for() > 0
        cog = RummyCog(self.game)
        await self.add_cog(cog)
        if self.metrics is not None:
            await self._serve_health(db, self.metrics, cog)
        await self.game.server_rules.load()
        await self.game.prefs.load()
        self.restored_tables, self.broken_tables = await restore_tables(
            db,
            self.game.tables,
            self.game.automation,
            self.game.notifier,
            self.game.refresher,
            self.game.tasks,
            serves=self.settings.serves,
            handle=lambda application_id, token: InteractionHandle.restored(
                self, application_id, token
            ),
        )
        log.info("restored %d live tables (%d set aside)", self.restored_tables, self.broken_tables)
        self.game.automation.start_sweeper()
        if self.settings.game.card_emoji:
            # Uploading the card faces the first time takes a while: the game
            # does not wait for it, and shows cards as text until they are there.
            self.game.tasks.spawn(
                sync_card_emoji(self, db, self.game.faces, self.game.budget), "card-emoji-sync"
            )
        await self._serve_activity()
        # Each member sees the commands in their client's language.
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.guild_id is not None:
            guild = discord.Object(id=self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await sync_global_commands(self.tree)

    async def _serve_activity(self) -> None:
        """Open the Activity's web server in this event loop, so that it plays the
        tables the buttons play; without a client secret, say once that it is off."""
        settings = self.settings.activity
        if settings is None:
            log.info("the Activity is off: set DISCORD_CLIENT_SECRET to serve the table page")
            return
        client_id = self.application_id
        assert client_id is not None, "setup_hook runs once logged in"
        if settings.client_id is not None and settings.client_id != client_id:
            # Discord answers an instance's lookup only to the bot of the Activity's
            # own application: with another id, every sign-in would fail.
            raise SettingsError(
                f"DISCORD_CLIENT_ID is {settings.client_id}, but DISCORD_TOKEN is the bot of "
                f"application {client_id}: an Activity is its bot's own application, so "
                "remove DISCORD_CLIENT_ID (or set it to that id).")
        api = ActivityApi(self, client_id, settings.client_secret)
        leases = self.leases
        relays = None if leases is None else relays_for(leases, settings.client_secret)
        server = ActivityServer(self.game.door, self.game.watchers, api,
                                Sessions(settings.client_secret), relays)
        await server.start(settings.host, settings.port, settings.trusted_proxies)
        self.activity_server = server
        if leases is not None and server.port is not None:
            await announce(leases, peer_url(settings, server.port))

    async def _serve_health(self, db: Database, metrics: Metrics, cog: RummyCog) -> None:
        def clicked(action: str, outcome: str, seconds: float) -> None:
            metrics.interaction("component", action, outcome, seconds)

        def commanded(command: str, outcome: str, seconds: float) -> None:
            metrics.interaction("command", command, outcome, seconds)

        self.game.router.observe = clicked
        cog.observe = commanded
        db.time_commits(metrics.commit)
        metrics.count_tables(lambda: len(self.game.tables))
        await self.serve_health()

    async def serve_health(self) -> None:
        """Open the health and metrics port, if the settings ask for one, once.
        ``bot.py`` opens it before the shards are claimed: a standby answers too."""
        if self.metrics is None or self.health is not None:
            return
        db = await self.open_database()
        self.health = HealthServer(self, db, self.metrics)
        assert self.settings.health_port is not None
        await self.health.start(self.settings.health_host, self.settings.health_port)

    def standing_by(self) -> bool:
        """Waiting for another process to let go of this process's shards."""
        return self.waiting_for_shards

    def gateway_connected(self) -> bool:
        """Logged in with every shard's gateway connection live (what ``/healthz``
        reports)."""
        shards = self.shards.values()
        return (
            self.is_ready()
            and not self.is_closed()
            and bool(shards)
            and not any(shard.is_closed() for shard in shards)
        )

    async def on_ready(self) -> None:
        log.info("logged in as %s; %d live tables", self.user, len(self.game.tables))

    async def close(self) -> None:
        if hasattr(self, "game"):
            self.game.tasks.stopping = True
            await self.game.automation.stop()
            await self.game.tasks.wait_idle(limit=5)
            await self.game.close()
        if self.activity_server is not None:
            await self.activity_server.stop()
            self.activity_server = None
        if self.db is not None:
            await self.db.close()
            self.db = None
        await super().close()
        if self.health is not None:
            await self.health.stop()
            self.health = None
