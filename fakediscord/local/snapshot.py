"""Local play's stand-in kept between runs: stop or kill ``python bot.py``,
start it again, and the open page shows the same server, messages and DMs,
with the game going on where the bot's own database left it.

The world is written beside local play's database as JSON (``FORMAT``), and
read back by the declared types of the stand-in's own records: reading the
file builds users, channels and messages, and can do nothing else. It holds
the application's client secret, so only its owner may read it (mode 0600).
A world the release before saved (a pickle) is read once, safely
(``old_world``), and saved again as JSON in its place: the game in progress
goes on. A file from another format, or one damaged, is set aside, readable
by its owner alone (it may hold the secret), with one line, and local play
starts afresh.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import logging
import os
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any

from ..core.installs import GUILD_INSTALL
from ..core.models import (
    ActivityInstance,
    AppEmoji,
    Channel,
    Guild,
    Interaction,
    Message,
    OAuthCode,
    OAuthToken,
    User,
)
from ..core.oauth import OAuthGrants
from ..core.world import SnowflakeFactory, World
from .old_world import PICKLE_START, old_world

log = logging.getLogger(__name__)

FORMAT = "fakediscord-world/1"


class Unreadable(ValueError):
    """A saved world this version cannot take."""


# --- any record, by its declared types ------------------------------------------------------
def plain(value: Any) -> Any:
    """``value`` as JSON: records as objects, bytes as base64, keys as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, dict):
        return {("" if key is None else str(key)): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"{type(value).__name__} is not part of a saved world")


@cache
def _hints(record: type) -> dict[str, Any]:
    return typing.get_type_hints(record)


def read_as(hint: Any, value: Any) -> Any:
    """``value`` read back as ``hint`` says; ``Unreadable`` if it is not one."""
    if hint is Any:
        return value
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        (kind,) = [arg for arg in args if arg is not type(None)]
        return read_as(kind, value)
    if origin is list:
        return [read_as(args[0], item) for item in _of(list, value)]
    if origin is tuple:
        items = _of(list, value)
        kinds = [args[0]] * len(items) if args[-1] is Ellipsis else list(args)
        if len(kinds) != len(items):
            raise Unreadable(f"{hint} needs {len(kinds)} items, not {len(items)}")
        return tuple(read_as(kind, item) for kind, item in zip(kinds, items, strict=True))
    if origin is dict:
        return {_key(args[0], key): read_as(args[1], item)
                for key, item in _of(dict, value).items()}
    if hint is bytes:
        return base64.b64decode(_of(str, value), validate=True)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _record(hint, _of(dict, value))
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint in (int, str, bool, float):
        if type(value) is not hint:
            raise Unreadable(f"{value!r} is not a {hint.__name__}")
        return value
    raise Unreadable(f"{hint} is not part of a saved world")


def _of(kind: type, value: Any) -> Any:
    if not isinstance(value, kind):
        raise Unreadable(f"a {kind.__name__} was expected, not {type(value).__name__}")
    return value


def _key(hint: Any, key: str) -> Any:
    if key == "" and type(None) in typing.get_args(hint):
        return None
    kind = [arg for arg in typing.get_args(hint) if arg is not type(None)] or [hint]
    if kind[0] is int:
        try:
            return int(key)
        except ValueError:
            raise Unreadable(f"{key!r} is not a number") from None
    return key


def _record(kind: type, fields: dict[str, Any]) -> Any:
    declared = {f.name for f in dataclasses.fields(kind)}
    unknown = set(fields) - declared
    if unknown:
        raise Unreadable(f"{kind.__name__} has no {sorted(unknown)}")
    hints = _hints(kind)
    try:
        return kind(**{name: read_as(hints[name], value) for name, value in fields.items()})
    except TypeError as error:  # a field it needs is missing
        raise Unreadable(f"{kind.__name__}: {error}") from None


# --- the world ----------------------------------------------------------------------------
@dataclasses.dataclass
class _SavedWorld:
    """Everything of a world that outlives the process, as declared types."""

    last_id: int
    users: dict[int, User]
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    messages: dict[int, Message]
    channel_log: dict[int, list[int]]
    interactions: dict[int, Interaction]
    commands: dict[int | None, dict[str, dict[str, Any]]]
    command_ids: list[tuple[int | None, str, int, int]]
    dm_of_user: dict[int, int]
    tokens_issued: int
    bot_writes: int
    copy_bodies: bool
    application_emojis: dict[int, AppEmoji]
    max_application_emojis: int
    bot_id: int
    application_id: int
    owner_id: int
    client_secret: str
    oauth_codes: list[OAuthCode]
    oauth_tokens: list[OAuthToken]
    oauth_clock_offset: float
    activities_enabled: bool
    activity_instances: dict[str, ActivityInstance]
    activity_launches: list[tuple[int, str]]
    # Where the app is installed. A world saved before installs were kept has
    # neither: the app then was a server's install alone, as these defaults say.
    installation_contexts: list[int] = dataclasses.field(
        default_factory=lambda: [GUILD_INSTALL])
    user_installs: list[int] = dataclasses.field(default_factory=list)


def _saved(world: World) -> _SavedWorld:
    return _SavedWorld(
        last_id=world.ids._last, users=world.users, guilds=world.guilds,
        channels=world.channels, messages=world.messages, channel_log=world.channel_log,
        interactions=world.interactions, commands=world.commands,
        command_ids=[(*key, value) for key, value in world._command_ids.items()],
        dm_of_user=world._dm_of_user, tokens_issued=world.tokens_issued,
        bot_writes=world.bot_writes, copy_bodies=world.copy_bodies,
        application_emojis=world.application_emojis,
        max_application_emojis=world.max_application_emojis, bot_id=world.bot.id,
        application_id=world.application_id, owner_id=world.owner.id,
        client_secret=world.client_secret, oauth_codes=list(world.oauth.codes.values()),
        oauth_tokens=list(world.oauth.tokens.values()),
        oauth_clock_offset=world.oauth.clock_offset,
        activities_enabled=world.activities_enabled,
        activity_instances=world.activity_instances, activity_launches=world.activity_launches,
        installation_contexts=list(world.installation_contexts),
        user_installs=sorted(world.user_installs),
    )


def _world(saved: _SavedWorld) -> World:
    world = World()
    world.ids = SnowflakeFactory()
    world.ids._last = saved.last_id
    world.users = saved.users
    for guild in saved.guilds.values():
        for member in guild.members.values():
            # One person is one object, in the server's member list as everywhere.
            member.user = saved.users[member.user.id]
    world.guilds, world.channels, world.messages = saved.guilds, saved.channels, saved.messages
    world.channel_log, world.interactions = saved.channel_log, saved.interactions
    world._by_token = {i.token: i for i in saved.interactions.values()}
    world.commands = saved.commands
    world._command_ids = {(guild, name, kind): command_id
                          for guild, name, kind, command_id in saved.command_ids}
    world._dm_of_user = saved.dm_of_user
    world.tokens_issued, world.bot_writes = saved.tokens_issued, saved.bot_writes
    world.copy_bodies = saved.copy_bodies
    world.application_emojis = saved.application_emojis
    world.max_application_emojis = saved.max_application_emojis
    world.bot, world.owner = saved.users[saved.bot_id], saved.users[saved.owner_id]
    world.application_id = saved.application_id
    world.client_secret = saved.client_secret
    world.oauth = OAuthGrants()
    world.oauth.codes = {code.code: code for code in saved.oauth_codes}
    world.oauth.tokens = {token.access_token: token for token in saved.oauth_tokens}
    world.oauth.refresh_tokens = {token.refresh_token: token for token in saved.oauth_tokens}
    world.oauth.clock_offset = saved.oauth_clock_offset
    world.activities_enabled = saved.activities_enabled
    world.activity_instances = saved.activity_instances
    world.activity_launches = saved.activity_launches
    world.installation_contexts = saved.installation_contexts
    world.user_installs = set(saved.user_installs)
    return world


def save_world(world: World, path: Path) -> None:
    """Write ``world`` to ``path`` whole or not at all (a kill mid-write keeps
    the previous snapshot), readable by its owner alone."""
    text = json.dumps({"format": FORMAT, "world": plain(_saved(world))},
                      separators=(",", ":"), ensure_ascii=False)
    work = path.with_name(path.name + ".new")
    descriptor = os.open(work, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)
    os.chmod(work, 0o600)  # an older file of that name kept its mode
    os.replace(work, path)


def load_world(path: Path) -> World | None:
    """The world saved at ``path``; None when there is none, or it cannot be
    read (then it is set aside, and local play starts afresh)."""
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return None
    pickled = text.startswith(PICKLE_START)
    try:
        data = {"format": FORMAT, "world": old_world(text)} if pickled else json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else None
            raise Unreadable(f"it is not a {FORMAT} file (format {found!r})")
        world = _world(read_as(_SavedWorld, data.get("world")))
    except (ValueError, KeyError, TypeError) as error:
        aside = path.with_name(path.name + ".unreadable")
        os.replace(path, aside)
        os.chmod(aside, 0o600)  # an old pickle was its owner's and anyone's to read
        log.warning("local play's saved server could not be read (%s): starting afresh; "
                    "the file is kept as %s", str(error)[:200], aside)
        return None
    if pickled:
        # In its place at once: the pickle, readable by anyone, held the secret.
        save_world(world, path)
        log.info("local play's server saved by an earlier version was read and saved "
                    "again as %s", FORMAT)
    return world
