"""``FakeDiscord``: the emulator a test talks to.

It owns the world, serves REST and the gateway on one random local port,
runs interactions for actors, and collects every problem (unknown routes,
spec violations, 400 answers, unanswered interactions) for ``check()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from aiohttp import web

from . import emojis, installs, payloads
from .actors import Actor, Reply
from .gateway import PRIVILEGED, Gateway
from .rest.faults import Fault, FaultInjector
from .rest.ratelimits import RateLimits
from .rest.routes import API_PREFIX, RestApi
from .traffic import RecordedRequest, TrafficLog
from .world import (
    BOT_PERMISSIONS,
    AppEmoji,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    Message,
    User,
    World,
    permission_value,
)

T = TypeVar("T")
DEFAULT_TOKEN = "fakediscord.bot.token"
CONNECTION_BACKLOG = 4096  # the kernel caps it at net.core.somaxconn


class FakeDiscord:
    """A local Discord for one test. See the package docstring for a tour."""

    def __init__(self, *, token: str = DEFAULT_TOKEN, bot_name: str = "TestBot",
                 interaction_timeout: float = 3.0, deferred_timeout: float = 3.0,
                 validate: bool = True, privileged_intents: int = PRIVILEGED,
                 traffic_path: str | os.PathLike[str] | None = None, record: bool = True,
                 rate_limits: RateLimits | None = None, world: World | None = None) -> None:
        """``world``: one kept from an earlier run (local play's snapshot), else a new one."""
        self.token = token
        self.interaction_timeout = interaction_timeout
        self.deferred_timeout = deferred_timeout
        self.world = world or World(bot_name)
        self.world.copy_bodies = record
        self.problems: list[str] = []
        self.traffic = TrafficLog(traffic_path, keep=record)
        self.faults = FaultInjector()
        self.rate_limits = rate_limits
        self.gateway = Gateway(self.world, self.traffic, token, self.problems,
                               lambda: self.gateway_url, privileged_intents)
        self.gateway.on_sent = self._frame_sent
        self.rest = RestApi(self.world, self.gateway, self.traffic, self.faults, self.problems,
                            token, validate=validate, rate_limits=rate_limits)
        self._changed = asyncio.Event()
        self.world.listeners.append(self._notify)
        self.gateway.changed = self._notify
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self.rest.entry)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        # Discord never turns a connection away; with the default backlog of 128,
        # a bot opening hundreds of connections at once (a load run's first
        # second) lost SYNs and waited a whole second for the kernel's retry.
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=CONNECTION_BACKLOG)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.traffic.close()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be (and READY's resume URL)."""
        return f"ws://127.0.0.1:{self.port}/"

    # -- building the world ------------------------------------------------------------

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def create_guild(self, name: str, *,
                     bot_permissions: int | discord.Permissions = BOT_PERMISSIONS,
                     installed: bool = True) -> Guild:
        """A server; ``installed=False``: it never installed the app (no bot), so only
        its members' own installs of the app work there."""
        guild = self.world.create_guild(name, bot_permissions=permission_value(bot_permissions, {}),
                                        installed=installed)
        # The bot hears of a server it joined; of one it never joined, nothing.
        for session in self.gateway.sessions.values() if installed else ():
            if session.owns(guild.id):
                self.gateway.dispatch("GUILD_CREATE", payloads.guild(self.world, guild,
                                                                     intents=session.intents),
                                      guild_id=guild.id)
                break
        return guild

    def create_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = self.world.create_channel(guild, name)
        self.gateway.dispatch("CHANNEL_CREATE", payloads.channel(self.world, channel.id),
                              guild_id=guild.id)
        return channel

    def create_private_channel(self, people: list[Actor], *, name: str | None = None) -> Channel:
        """A DM between two people, or a group DM (a ``name``, or more than two), that
        the bot is no member of: it hears nothing of it but interactions."""
        return self.world.create_private_channel([p.user for p in people], name=name)

    def create_voice_channel(self, guild: Guild, name: str) -> Channel:
        """A voice channel and its text chat, where people launch Activities most."""
        channel = self.world.create_channel(guild, name, kind=ChannelType.GUILD_VOICE)
        self.gateway.dispatch("CHANNEL_CREATE", payloads.channel(self.world, channel.id),
                              guild_id=guild.id)
        return channel

    def create_user(self, name: str, *, guild: Guild | None = None,
                    permissions: int | discord.Permissions | None = None,
                    **permission_flags: bool) -> Actor:
        """A person; with ``guild``, a member with @everyone's permissions plus any given
        (``permissions=`` an int or discord.Permissions, or flags like ``manage_guild=True``)."""
        actor = Actor(self, self.world.create_user(name))
        if guild is not None:
            self.add_member(actor, guild, permissions=permissions, **permission_flags)
        return actor

    def add_member(self, actor: Actor, guild: Guild, *,
                   permissions: int | discord.Permissions | None = None,
                   **permission_flags: bool) -> None:
        roles_before = set(guild.roles)
        member = self.world.add_member(guild, actor.user,
                                       permissions=permission_value(permissions, permission_flags))
        for role_id in set(guild.roles) - roles_before:
            self.gateway.dispatch("GUILD_ROLE_CREATE", {
                "guild_id": str(guild.id), "role": payloads.role(guild.roles[role_id])},
                guild_id=guild.id)
        self.gateway.dispatch("GUILD_MEMBER_ADD", {**payloads.member(member),
                                                   "guild_id": str(guild.id)}, guild_id=guild.id)

    def set_permissions(self, channel: Channel, target: Actor | User | Guild, *,
                        allow: int = 0, deny: int = 0, **flags: bool) -> None:
        """A channel overwrite for a person (or the bot: ``emu.bot_user``) or, given the
        Guild, for @everyone; flags like ``send_messages=False`` deny, ``=True`` allow."""
        allow |= permission_value(None, {k: True for k, v in flags.items() if v})
        deny |= permission_value(None, {k: True for k, v in flags.items() if not v})
        if isinstance(target, Guild):
            channel.overwrites[target.id] = (0, allow, deny)
        else:
            user = target.user if isinstance(target, Actor) else target
            channel.overwrites[user.id] = (1, allow, deny)
        self.gateway.dispatch("CHANNEL_UPDATE", payloads.channel(self.world, channel.id),
                              guild_id=channel.guild_id)

    def delete_message(self, message: Message) -> None:
        """A member with Manage Messages deletes ``message`` (the bot hears MESSAGE_DELETE
        if it has the guild messages intent)."""
        self.world.delete_message(message)
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        self.gateway.dispatch("MESSAGE_DELETE", data, guild_id=message.guild_id)

    def delete_channel(self, channel: Channel) -> None:
        """An admin deletes ``channel``: CHANNEL_DELETE, and from then on every request
        about it answers 404 Unknown Channel."""
        payload = payloads.channel(self.world, channel.id)
        self.world.delete_channel(channel)
        self.gateway.dispatch("CHANNEL_DELETE", payload, guild_id=channel.guild_id)

    def post_user_message(self, user: User, channel: Channel, content: str) -> Message:
        message = self.world.add_message(channel, user.id, {"content": content})
        if not self.world.can_see_channel(self.world.bot.id, channel):
            return message  # a DM between people, or a server without the bot
        self.gateway.dispatch("MESSAGE_CREATE", payloads.message(self.world, message, gateway=True),
                              guild_id=channel.guild_id)
        return message

    # -- reading the store -------------------------------------------------------------------

    def message(self, channel: Channel | int, message_id: int) -> Message | None:
        """The current state of a message (any, ephemeral included); None if deleted."""
        channel_id = channel.id if isinstance(channel, Channel) else channel
        message = self.world.messages.get(message_id)
        return message if message is not None and message.channel_id == channel_id else None

    def messages(self, channel: Channel, *, include_ephemeral: bool = False) -> list[Message]:
        """Messages of a channel, oldest first, as a spectator sees them (no ephemerals,
        unless asked)."""
        return self.world.channel_messages(channel.id, include_ephemeral=include_ephemeral)

    def commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The application commands the bot synced, globally or for ``guild``."""
        return list(self.world.commands.get(guild.id if guild else None, {}).values())

    # -- application emojis ---------------------------------------------------------------

    def application_emojis(self) -> list[AppEmoji]:
        """The application's emojis, oldest first (``world.application_emojis`` by id)."""
        return list(self.world.application_emojis.values())

    def application_emoji(self, name: str) -> AppEmoji | None:
        """The application's emoji called ``name``, if there is one."""
        return next((e for e in self.world.application_emojis.values() if e.name == name), None)

    def add_application_emoji(self, name: str, image: bytes = emojis.TINY_PNG) -> AppEmoji:
        """An emoji uploaded in the Developer Portal (so it exists before the bot starts),
        under the same rules as the API's; ``image`` defaults to a 1x1 PNG."""
        taken = (e.name for e in self.world.application_emojis.values())
        refused = emojis.name_error(name, taken)
        assert refused is None, f"Discord would refuse the emoji name {name!r}: {refused}"
        content_type = emojis.sniff(image)
        assert content_type is not None, "not a PNG, JPEG, GIF, WEBP or AVIF image"
        assert len(image) <= emojis.MAX_IMAGE_BYTES, "an emoji image is at most 256 KiB"
        assert len(self.world.application_emojis) < self.world.max_application_emojis, (
            "the application has as many emojis as Discord allows")
        return self.world.add_application_emoji(
            name, image, content_type, animated=emojis.is_animated(image, content_type),
            user_id=self.world.owner.id)

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.traffic.requests

    @property
    def events(self) -> list[dict[str, Any]]:
        """Gateway frames, each ``{time, direction: send|recv, op, t, s, d}``."""
        return self.traffic.events

    def dispatched(self, event: str) -> list[dict[str, Any]]:
        """Payloads of the dispatches named ``event`` that were sent to the client."""
        return [e["d"] for e in self.traffic.events if e["direction"] == "send" and e["t"] == event]

    # The brief fixes this signature (like asyncio.wait_for), hence the noqa.
    async def wait_for(self, predicate: Callable[[], T], timeout: float = 2.0) -> T:  # noqa: ASYNC109
        """Wait until ``predicate()`` is truthy and return its value; AssertionError if not."""
        value = await self._wait_until(predicate, timeout)
        if not value:
            name = getattr(predicate, "__name__", repr(predicate))
            raise AssertionError(f"wait_for({name}) still false after {timeout} s")
        return value

    async def _wait_until(self, predicate: Callable[[], T], seconds: float) -> T:
        deadline = time.monotonic() + seconds
        while True:
            value = predicate()
            remaining = deadline - time.monotonic()
            if value or remaining <= 0:
                return value
            event = self._changed
            # Woken by every change of the world; the short cap also catches changes
            # made behind the emulator's back (a test editing a Message itself).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=min(remaining, 0.05))

    def _frame_sent(self, frame: dict[str, Any]) -> None:
        if frame.get("t") == "INTERACTION_CREATE":
            interaction = self.world.interactions.get(int(frame["d"]["id"]))
            if interaction is not None and interaction.sent_at is None:
                interaction.sent_at = time.perf_counter()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # -- interactions ------------------------------------------------------------------------

    async def run_interaction(self, interaction: Interaction) -> Reply:
        """Send INTERACTION_CREATE, wait for the callback (and a deferred's followup)."""
        assert self.gateway.has_session_for(interaction.guild_id), (
            "no bot is connected to the gateway: start one first (start_bot / run_client)")
        app_permissions = installs.app_permissions(self.world, interaction)
        payload = payloads.interaction(self.world, interaction, app_permissions=app_permissions)
        answer = self.world.wait_answer(interaction)
        interaction.dispatched_at = time.perf_counter()
        self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=interaction.guild_id)
        # Woken by this interaction's own callback: with hundreds of people waiting at
        # once, waking every one of them at every change of the world was quadratic.
        await asyncio.wait([answer], timeout=self.interaction_timeout)
        answered = interaction.answered
        if not answered:
            # Discord shows "This interaction failed" and the token can no longer answer.
            interaction.callback_closed = True
            self.problems.append(f"interaction {interaction.description} was not answered "
                                 f"within {self.interaction_timeout} s")
        elif interaction.response_type in (5, 6):
            await self._wait_until(lambda: self._deferred_done(interaction),
                                   self.deferred_timeout)
        return Reply(self, interaction)

    def _deferred_done(self, interaction: Interaction) -> bool:
        """A "thinking" message was filled in; after a deferred update, the bot wrote
        something (the edit may be of another message, e.g. a public table)."""
        if interaction.followup_ids:
            return True
        message = self.world.messages.get(interaction.original_message_id or 0)
        if message is None:
            return True  # deleted: nothing more will come
        if interaction.response_type == 5:
            return not message.loading
        return self.world.bot_writes > interaction.bot_writes_at_response

    # -- faults ----------------------------------------------------------------------------

    def fail_next(self, route_pattern: str, status: int = 429, *, retry_after: float = 0.05,
                  times: int = 1, code: int | None = None, message: str | None = None) -> Fault:
        """Answer the next ``times`` requests matching ``route_pattern`` with ``status``.

        The pattern is a glob over the path or route template, optionally preceded by a
        method: ``"POST /channels/*/messages"``, ``"/interactions/*"``. A 429 carries
        ``retry_after`` (and the Via header discord.py insists on); 5xx are plain errors.
        Returns the Fault, whose ``hits`` counts the answers it gave.
        """
        return self.faults.add(route_pattern, status=status, retry_after=retry_after,
                               times=times, code=code, message=message)

    def slow_down(self, route_pattern: str, seconds: float, *, times: int = 1) -> Fault:
        """Answer the next ``times`` requests matching ``route_pattern`` normally, but only
        after ``seconds``: a slow Discord. Returns the Fault, whose ``hits`` counts them."""
        return self.faults.add(route_pattern, status=0, retry_after=0.0, times=times,
                               code=None, message=None, delay=seconds)

    def expire_token(self, target: Reply | Interaction | str | None = None) -> None:
        """Expire one interaction token (a Reply, an Interaction or the token), or all.

        Afterwards webhook calls with it answer 404 code 10015 (Unknown Webhook) and a
        late callback answers 404 code 10062 (Unknown interaction), as on Discord after
        15 minutes.
        """
        for interaction in self.world.interactions.values():
            if (target is None
                    or (isinstance(target, Reply) and interaction is target.interaction)
                    or interaction is target or interaction.token == target):
                interaction.token_expired = True

    def expire_all_tokens(self) -> None:
        self.expire_token(None)

    async def drop_gateway(self, *, code: int = 4000, wait: bool = True,
                           timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Close the client's gateway connection; with ``wait``, return once it resumed.

        Events sent meanwhile are kept and replayed on RESUME, as Discord does.
        """
        before = self.gateway.resumes()
        dropped = await self.gateway.drop(code)
        assert dropped, "no gateway connection to drop"
        if wait:
            resumed = await self._wait_until(lambda: self.gateway.resumes() > before, timeout)
            assert resumed, f"the client did not RESUME within {timeout} s"

    # -- problems ---------------------------------------------------------------------------

    def take_problems(self) -> list[str]:
        """Return and forget the problems recorded so far (for tests that cause them)."""
        taken = list(self.problems)
        self.problems.clear()
        return taken

    def check(self) -> None:
        """Raise AssertionError listing every recorded problem, if any."""
        if self.problems:
            lines = "\n".join(f"  - {p}" for p in self.problems)
            raise AssertionError(f"FakeDiscord recorded {len(self.problems)} problem(s):\n{lines}")
