"""The bot's settings, read from the environment (and a ``.env`` file)."""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from game.config import GameConfig
from web.connections import LOOPBACK, Network, networks


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says how to fix it."""


WEEK = 7 * 24 * 3600
# Bounds that keep the bot working rather than bounds of taste: a computer that
# waits minutes looks hung, a sweep under a second keeps a core busy, and a
# timeout of zero would close every lobby and table at the next sweep. The
# upper ends only catch a slip (a zero too many, minutes taken for seconds).
SECONDS_RANGES: dict[str, tuple[float, float]] = {
    "COMPUTER_DELAY": (0, 60),
    "LOBBY_TIMEOUT": (1, WEEK),
    "IDLE_TABLE_TIMEOUT": (1, WEEK),
    "SWEEP_INTERVAL": (1, 3600),
}
# Discord allows a bot 50 requests a second; the bot's paced calls stay below
# it, leaving room for the ones it cannot pace.
REST_RATE_RANGE = (1.0, 45.0)
LOG_FORMATS = ("text", "json")
MAX_PORT = 65535
# Far past any bot's needs (Discord asks for one shard per 1,000 to 2,500 servers).
MAX_SHARDS = 4096
# Largest Discord id: snowflakes are unsigned 64-bit, and Discord keeps them under 2**63.
MAX_SNOWFLAKE = 2**63 - 1


@dataclass(frozen=True)
class Settings:
    """Everything the bot is told from outside: its token, where Discord and
    its database are, how loudly it logs, and the game's timings."""

    token: str
    guild_id: int | None = None
    database_path: Path = Path("rummy.sqlite3")
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    game: GameConfig = field(default_factory=GameConfig)
    # The health and metrics endpoint: off unless a port is given (0 picks a free one).
    health_port: int | None = None
    health_host: str = "127.0.0.1"
    log_format: str = "text"
    # Sharding: how many shards the bot has in all (None: Discord's recommended
    # count), and which of them this process runs (None: all).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # PostgreSQL instead of the SQLite file, for several processes.
    database_url: str | None = None
    # A standby serves the shards nobody serves (on PostgreSQL), checking this often.
    standby: bool = False
    lease_check: float = 2.0
    # How long a shard lease lasts without a renewal (db.leases): a process cut
    # off from the database stops serving within 80% of it, and a process that
    # died is taken over once it has run out.
    lease_ttl: float = 15.0
    # The Activity (the graphical table inside Discord): off without a client secret.
    activity: ActivitySettings | None = None

    @property
    def database(self) -> str | Path:
        """What the database is opened from: DATABASE_URL if set, else DATABASE_PATH."""
        return self.database_url or self.database_path

    @property
    def kept_results(self) -> Path | None:
        """Where results the database refused are kept: beside an SQLite file
        (the store's default), or beside DATABASE_PATH's folder for PostgreSQL."""
        if self.database_url is None:
            return None
        return self.database_path.parent / "rummy-results.unrecorded"

    def serves(self, guild_id: int) -> bool:
        """Whether this process runs the shard of server ``guild_id``."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ) if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put it in .env (copy .env.example) or the "
                "environment; get it from https://discord.com/developers/applications -> "
                "your application -> Bot -> Reset Token."
            )
        guild = env.get("DISCORD_GUILD_ID", "").strip()
        if guild and not (guild.isascii() and guild.isdigit() and 0 < int(guild) <= MAX_SNOWFLAKE):
            raise SettingsError(f"DISCORD_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in logging.getLevelNamesMapping():
            raise SettingsError(f"LOG_LEVEL {level!r} is not a logging level (try INFO).")
        shard_count = _shard_count(env)
        database_url = _database_url(env)
        standby = _yes_no(env, "STANDBY")
        if standby and (database_url is None or shard_count is None):
            raise SettingsError(
                "STANDBY needs DATABASE_URL and SHARD_COUNT: a standby takes over the shards "
                "another process served, and only PostgreSQL is shared between processes."
            )
        lease_check = _number(env, "LEASE_CHECK", 2.0, (0.05, 60.0), "a number of seconds")
        lease_ttl = _number(env, "LEASE_TTL", 15.0, (0.5, 600.0), "a number of seconds")
        if lease_ttl < 4 * lease_check:
            raise SettingsError(
                f"LEASE_TTL ({lease_ttl:g}) must be at least 4 times LEASE_CHECK "
                f"({lease_check:g}): a lease is renewed every LEASE_CHECK seconds, and a few "
                "renewals must be able to fail before a process stops serving."
            )
        log_format = env.get("LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in LOG_FORMATS:
            raise SettingsError(f"LOG_FORMAT must be text or json, not {log_format!r}.")
        activity = _activity(env)
        return cls(
            token=token,
            guild_id=int(guild) if guild else None,
            database_path=Path(env.get("DATABASE_PATH", "").strip() or "rummy.sqlite3"),
            log_level=level,
            api_base=_url(env, "DISCORD_API_BASE", ("http", "https"), "https://discord.com/api/v10"),
            gateway_url=_url(env, "DISCORD_GATEWAY_URL", ("ws", "wss"), "wss://gateway.discord.gg/"),
            health_port=_port(env, "HEALTH_PORT"),
            shard_count=shard_count,
            shard_ids=_shard_ids(env, shard_count),
            health_host=env.get("HEALTH_HOST", "").strip() or "127.0.0.1",
            database_url=database_url,
            standby=standby,
            lease_check=lease_check,
            lease_ttl=lease_ttl,
            log_format=log_format,
            activity=activity,
            game=GameConfig(
                activity=activity is not None,
                computer_delay=_seconds(env, "COMPUTER_DELAY", GameConfig.computer_delay),
                lobby_timeout=_seconds(env, "LOBBY_TIMEOUT", GameConfig.lobby_timeout),
                idle_timeout=_seconds(env, "IDLE_TABLE_TIMEOUT", GameConfig.idle_timeout),
                sweep_interval=_seconds(env, "SWEEP_INTERVAL", GameConfig.sweep_interval),
                request_rate=_number(
                    env,
                    "REST_RATE",
                    GameConfig.request_rate,
                    REST_RATE_RANGE,
                    "a number of requests a second",
                ),
            ),
        )


@dataclass(frozen=True)
class ActivitySettings:
    """Where the Activity's page and API listen, and the OAuth2 credentials that
    let its server learn who a player is. The secret never leaves the server."""

    client_secret: str
    # None: the bot's own application id, which is the OAuth2 client id.
    client_id: int | None = None
    host: str = "127.0.0.1"
    port: int = 8081  # beside the health port's usual 8080
    # Where the bot's other processes reach this one's Activity server, to relay
    # pages of the servers it serves (None: http://host:port).
    peer_url: str | None = None
    # The reverse proxies in front of the port, whose X-Forwarded-For is believed.
    trusted_proxies: tuple[Network, ...] = LOOPBACK

    def __repr__(self) -> str:
        # Settings are logged and shown in tracebacks: the secret must not be.
        proxies = ", ".join(str(network) for network in self.trusted_proxies)
        return (f"ActivitySettings(client_id={self.client_id}, host={self.host!r}, "
                f"port={self.port}, peer_url={self.peer_url!r}, "
                f"trusted_proxies=({proxies}), client_secret='***')")


def _activity(env: dict[str, str]) -> ActivitySettings | None:
    secret = env.get("DISCORD_CLIENT_SECRET", "").strip()
    client = env.get("DISCORD_CLIENT_ID", "").strip()
    if client and not (client.isascii() and client.isdigit() and 0 < int(client) <= MAX_SNOWFLAKE):
        raise SettingsError(
            f"DISCORD_CLIENT_ID must be an application id (digits), not {client!r}."
        )
    port = _port(env, "WEB_PORT")
    if not secret:
        return None
    return ActivitySettings(
        client_secret=secret,
        client_id=int(client) if client else None,
        host=env.get("WEB_HOST", "").strip() or "127.0.0.1",
        port=ActivitySettings.port if port is None else port,
        peer_url=_url(env, "WEB_PEER_URL", ("http", "https"), "http://10.0.0.2:8081"),
        trusted_proxies=_trusted_proxies(env),
    )


def _trusted_proxies(env: dict[str, str]) -> tuple[Network, ...]:
    raw = env.get("WEB_TRUSTED_PROXIES", "").strip()
    if not raw:
        return LOOPBACK
    try:
        return networks(raw)
    except ValueError as error:
        raise SettingsError(
            f"WEB_TRUSTED_PROXIES must be the addresses or networks of your reverse proxies, "
            f"separated by commas (like 127.0.0.1, 172.16.0.0/12): {error}.") from None


def _shard_count(env: dict[str, str]) -> int | None:
    raw = env.get("SHARD_COUNT", "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and 0 < int(raw) <= MAX_SHARDS):
        raise SettingsError(f"SHARD_COUNT must be a number of shards from 1 to {MAX_SHARDS}, "
                            f"not {raw!r}.")
    return int(raw)


def _shard_ids(env: dict[str, str], count: int | None) -> tuple[int, ...] | None:
    raw = env.get("SHARD_IDS", "").strip()
    if not raw:
        return None
    if count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT: how many shards the bot has in all.")
    parts = [part.strip() for part in raw.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise SettingsError(f"SHARD_IDS must be shard numbers separated by commas, not {raw!r}.")
    ids = tuple(sorted({int(part) for part in parts}))
    outside = [shard for shard in ids if shard >= count]
    if outside:
        raise SettingsError(
            f"SHARD_IDS {outside} are outside SHARD_COUNT {count}: shards are numbered "
            f"0 to {count - 1}."
        )
    return ids


def _database_url(env: dict[str, str]) -> str | None:
    raw = env.get("DATABASE_URL", "").strip()
    if not raw:
        return None
    if not raw.startswith(("postgresql://", "postgres://")):
        shown = raw.split("://", 1)[0] + "://..." if "://" in raw else repr(raw)
        raise SettingsError(
            f"DATABASE_URL must be a postgresql:// URL (like postgresql://rummy:secret@db/rummy), "
            f"not {shown}; leave it empty to use the SQLite file in DATABASE_PATH."
        )
    return raw


def _yes_no(env: dict[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise SettingsError(f"{name} must be true or false, not {raw!r}.")


def _port(env: dict[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and 0 < int(raw) <= MAX_PORT):
        raise SettingsError(f"{name} must be a TCP port from 1 to {MAX_PORT}, not {raw!r}.")
    return int(raw)


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    return _number(env, name, default, SECONDS_RANGES[name], "a number of seconds")


def _number(
    env: dict[str, str], name: str, default: float, bounds: tuple[float, float], kind: str
) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    low, high = bounds
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    # Written so that nan, which compares false with everything, is refused too.
    if not low <= value <= high:
        raise SettingsError(f"{name} must be {kind} from {low:g} to {high:g}, not {raw!r}.")
    return value


def _url(env: dict[str, str], name: str, schemes: tuple[str, ...], example: str) -> str | None:
    """An absolute URL with one of ``schemes`` and a host, or None when unset."""
    raw = env.get(name, "").strip()
    if not raw:
        return None
    kinds = " or ".join(f"{scheme}://" for scheme in schemes)
    fix = f"{name} must be an absolute {kinds} URL (like {example}), not {raw!r}."
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 (reading it checks the port)
    except ValueError:
        raise SettingsError(fix) from None
    if parts.scheme.lower() not in schemes or not parts.hostname or any(c.isspace() for c in raw):
        raise SettingsError(fix)
    return raw
