"""What the Activity's server asks Discord: who a player is (the OAuth2 code
their client authorised, traded with the client secret) and which channel and
members an Activity instance has (with the bot's token).

Both go to the API base discord.py uses (``Route.BASE``), so a bot pointed at
another host (a proxy, the stand-in of local play and the tests) asks there.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.http import Route

log = logging.getLogger(__name__)

# Seconds Discord gets to answer a handshake's requests before the page is told to retry.
TIMEOUT = 10.0


class NotAuthorised(Exception):
    """Discord did not accept the code or token: the player's client must ask again."""


class Misconfigured(Exception):
    """Discord refused the bot's own credentials (a wrong client secret or id):
    nobody can sign in until the host mends the settings."""


class DiscordUnavailable(Exception):
    """Discord could not be asked (down, slow, or refused the bot): try again later."""


class DiscordBusy(DiscordUnavailable):
    """Discord asked for a wait (a rate limit, 429): ask again after ``retry_after`` seconds."""

    def __init__(self, what: str, retry_after: float) -> None:
        super().__init__(f"{what} asked to wait {retry_after:.1f} s")
        self.retry_after = retry_after


def _busy(status: int, body: Any, what: str) -> None:
    """Raise ``DiscordBusy`` for Discord's rate limit, with the wait it names."""
    if status != 429:
        return
    wait = body.get("retry_after") if isinstance(body, dict) else None
    raise DiscordBusy(what, float(wait) if isinstance(wait, int | float) and wait > 0 else 1.0)


@dataclass(frozen=True)
class ActivityInstance:
    """An Activity's instance as Discord knows it: where it runs and who is in it."""

    instance_id: str
    guild_id: int | None
    channel_id: int | None
    users: frozenset[int]


class ActivityApi:
    """Discord's answers about Activity players, for one application."""

    def __init__(self, client: discord.Client, client_id: int, client_secret: str) -> None:
        self.client = client
        self.client_id = client_id
        self._secret = client_secret
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=TIMEOUT)
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _ask(self, method: str, path: str, **options: Any) -> tuple[int, Any]:
        """Discord's status and JSON answer; ``DiscordUnavailable`` if none came."""
        try:
            async with self._http().request(method, f"{Route.BASE}{path}", **options) as answer:
                return answer.status, await answer.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise DiscordUnavailable(f"{path} did not answer: {error!r}") from None

    async def exchange_code(self, code: str) -> tuple[str, int]:
        """Trade the code a player's client authorised for an access token and
        its lifetime in seconds."""
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        status, body = await self._ask("POST", "/oauth2/token", data=form)
        _busy(status, body, "the token endpoint")
        said = body.get("error", status) if isinstance(body, dict) else status
        if said == "invalid_client":
            raise Misconfigured(
                f"Discord refused client id {self.client_id} with the client secret given "
                "(invalid_client): set DISCORD_CLIENT_SECRET to the secret of the bot's own "
                "application (Developer Portal, OAuth2)")
        if status in (400, 401):
            raise NotAuthorised(str(said))
        if status != 200 or not isinstance(body, dict) or "access_token" not in body:
            raise DiscordUnavailable(f"the token endpoint answered {status}")
        return str(body["access_token"]), int(body.get("expires_in", 0))

    async def user_of(self, access_token: str) -> tuple[int, str]:
        """The id and shown name of the user an access token was issued to."""
        headers = {"Authorization": f"Bearer {access_token}"}
        status, body = await self._ask("GET", "/users/@me", headers=headers)
        _busy(status, body, "/users/@me")
        if status == 401:
            raise NotAuthorised("the access token was refused")
        if status != 200 or not isinstance(body, dict) or "id" not in body:
            raise DiscordUnavailable(f"/users/@me answered {status}")
        name = body.get("global_name") or body.get("username") or ""
        return int(body["id"]), str(name)

    async def name_in_server(self, guild_id: int, user_id: int, fallback: str) -> str:
        """The name a member goes by in a server (their nickname there), as the
        chat shows them: from the bot's cache, else asked of Discord; their
        Discord name when neither knows."""
        guild = self.client.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        if guild is None and self._would_know(guild_id):
            # A server the bot is not in (a member's own install launched it
            # there): Discord would refuse the bot's question.
            return fallback
        try:
            body: Any = await self.client.http.get_member(guild_id, user_id)
        except discord.HTTPException:
            return fallback
        return str(body.get("nick") or fallback)

    def _would_know(self, guild_id: int) -> bool:
        """Whether this process's cache holds the server if the bot is in it:
        the cache is complete and the server's shard is one of this process's."""
        if not self.client.is_ready():
            return False
        count = self.client.shard_count or 1
        mine = getattr(self.client, "shard_ids", None)
        return mine is None or (guild_id >> 22) % count in mine

    async def instance(self, instance_id: str) -> ActivityInstance | None:
        """The instance as Discord has it now; None when it has no such instance."""
        route = Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self.client_id,
            instance_id=instance_id,
        )
        try:
            body: Any = await self.client.http.request(route)
        except discord.NotFound:
            return None
        except discord.HTTPException as error:
            raise DiscordUnavailable(f"the activity instance lookup failed: {error}") from None
        location = body.get("location") or {}
        return ActivityInstance(
            instance_id=str(body.get("instance_id", instance_id)),
            guild_id=_snowflake(location.get("guild_id")),
            channel_id=_snowflake(location.get("channel_id")),
            users=frozenset(int(user) for user in body.get("users", ())),
        )


def _snowflake(value: object) -> int | None:
    if isinstance(value, int | str) and str(value).isdigit():
        return int(value)
    return None
