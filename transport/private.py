"""Every use of discord.py's private parts, in one place.

The bot leans on a few of discord.py's internals to answer clicks with less
work than the public API does (see ``transport.callbacks``), to parse less of
each click (``transport.events``) and to talk to a proxy or the test emulator
instead of Discord. None of them is a promise discord.py makes, so each is
reached only through a function here, and ``missing_private_parts`` lists the
ones the installed discord.py lacks: the bot refuses to start on such a
version (``app.bot``), and a test runs the same check against the pinned one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import discord.state
import discord.webhook.async_ as webhook_async
import yarl

Interaction = discord.Interaction[Any]
Parser = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class PrivatePart:
    """One internal the bot relies on: where it lives and what it is for."""

    owner: object
    attribute: str
    used_for: str

    def present(self) -> bool:
        return hasattr(self.owner, self.attribute)

    def __str__(self) -> str:
        owner = getattr(self.owner, "__qualname__", None) or getattr(self.owner, "__name__", "?")
        return f"{owner}.{self.attribute} ({self.used_for})"


PRIVATE_PARTS = (
    PrivatePart(discord.Interaction, "_session", "the HTTP session an answer is sent on"),
    PrivatePart(discord.Interaction, "_cs_response", "the response slot freed after a click"),
    PrivatePart(
        discord.InteractionResponse, "_response_type", "recording that a click was answered"
    ),
    PrivatePart(webhook_async, "async_context", "discord.py's webhook adapter for answers"),
    PrivatePart(discord.http.Route, "BASE", "sending REST calls to a proxy"),
    PrivatePart(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", "a gateway proxy"),
    PrivatePart(discord.state.ConnectionState, "parse_interaction_create", "the click parser"),
    PrivatePart(
        discord.app_commands.CommandTree, "_get_all_commands",
        "the commands a sync sends, kept beside the Activity's Entry Point",
    ),
)


def missing_private_parts(client: discord.Client | None = None) -> list[str]:
    """The internals this discord.py lacks, described; empty when all are there.

    With a ``client``, also what only an instance has (its connection state)."""
    missing = [str(part) for part in PRIVATE_PARTS if not part.present()]
    if client is not None and not isinstance(
        getattr(getattr(client, "_connection", None), "parsers", None), dict
    ):
        missing.append("Client._connection.parsers (the gateway's event parsers)")
    return missing


# --- commands ----------------------------------------------------------------------
def global_commands(tree: discord.app_commands.CommandTree[Any]) -> list[Any]:
    """The tree's global commands, as ``CommandTree.sync`` sends them."""
    commands: list[Any] = tree._get_all_commands(guild=None)
    return commands


# --- interactions ------------------------------------------------------------------
def session_of(interaction: Interaction) -> aiohttp.ClientSession:
    """The HTTP session discord.py answers this interaction on."""
    session: aiohttp.ClientSession = interaction._session
    return session


def mark_answered(interaction: Interaction, kind: discord.InteractionResponseType) -> None:
    """Record an answer sent around ``interaction.response``, as it records its own,
    so that ``is_done()`` and the follow-up webhook know the click is answered."""
    interaction.response._response_type = kind


def forget_response(interaction: Interaction) -> None:
    """Drop discord.py's cached ``interaction.response`` (see ``transport.events``)."""
    with contextlib.suppress(AttributeError):  # never read, so never cached
        delattr(interaction, "_cs_response")


async def webhook_request(
    route: discord.http.Route,
    session: aiohttp.ClientSession,
    payload: dict[str, Any],
    params: dict[str, str] | None = None,
) -> Any:
    """Send a request through discord.py's webhook adapter, which handles rate
    limits, retries and errors exactly as ``interaction.response`` does."""
    return await webhook_async.async_context.get().request(
        route, session, payload=payload, params=params
    )


# --- the gateway's parsers ------------------------------------------------------------
def event_parsers(client: discord.Client) -> dict[str, Parser]:
    """discord.py's table of gateway event parsers, by event name."""
    parsers: dict[str, Parser] = client._connection.parsers
    return parsers


# --- where Discord is -------------------------------------------------------------------
def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST and gateway traffic to a proxy (or the test emulator) instead of Discord."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
