"""Local play's world as the release before JSON saved it: a pickle of the
stand-in's ``World`` (``pickle.HIGHEST_PROTOCOL``, the world's attributes but
who was waiting or listening). Upgrading must not lose the game in progress,
so such a file is read once, into the JSON document the stand-in saves now.

Reading it builds nothing but inert records: every class the pickle names
goes through ``find_class``, which answers only the stand-in's own classes
that the old world held, and answers each with a stand-in of its own that
keeps the pickled state and runs no code of the class. What it cannot read
(another class, another shape) is ``NotAnOldWorld``, a ``ValueError`` as a
damaged JSON file's is.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import pickle
from typing import Any

from ..core.models import (
    ActivityInstance,
    AppEmoji,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    OAuthCode,
    OAuthToken,
    Role,
    User,
)
from ..core.oauth import new_secret

# What the old release pickled, by the module and name the pickle gives: the
# records, still the stand-in's own, and the three classes around them. The
# modules are named as that release named them, before the core moved into
# ``fakediscord.core``: the names are what old files hold, not where the classes are.
RECORDS: dict[str, type] = {kind.__name__: kind for kind in (
    User, Role, Member, Channel, Guild, AppEmoji, Message, Interaction, ActivityInstance,
    OAuthCode, OAuthToken)}
CLASSES = ({("fakediscord.models", name) for name in RECORDS}
           | {("fakediscord.world", "World"), ("fakediscord.world", "SnowflakeFactory"),
              ("fakediscord.oauth", "OAuthGrants")})
# A message's flags were pickled as the IntFlag they were made with: the pickle
# calls the class with the number, which is all a saved world keeps of it.
FLAGS = ("fakediscord.models", "MessageFlag")
# How a pickle starts: the PROTO opcode (protocol 2 and later); JSON never does.
PICKLE_START = b"\x80"


class NotAnOldWorld(ValueError):
    """An old world this version cannot take."""


class _Pickled:
    """An object of the old world: its class's name and the state it was
    pickled with, never an instance of the class itself."""

    kind = ""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}

    def __setstate__(self, state: Any) -> None:
        if not isinstance(state, dict):
            raise NotAnOldWorld(f"a {self.kind} was saved as {type(state).__name__}")
        self.state = state


def _flags(value: object) -> int:
    if type(value) is not int:
        raise NotAnOldWorld(f"message flags of {value!r}")
    return value


class _OnlyTheWorld(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == FLAGS:
            return _flags
        if (module, name) in CLASSES:
            return type(name, (_Pickled,), {"kind": name})
        raise NotAnOldWorld(f"{module}.{name} is not part of a saved world")


def old_world(data: bytes) -> dict[str, Any]:
    """The old release's pickled world as the ``world`` of a JSON document
    (``snapshot.FORMAT``); ``NotAnOldWorld`` if it is not one."""
    try:
        return _saved_world(_state(_OnlyTheWorld(io.BytesIO(data)).load(), "World"))
    except NotAnOldWorld:
        raise
    # The file holds any bytes at all: whatever a damaged pickle raises (or one
    # nested past the recursion limit), it is a file this version cannot read.
    except Exception as error:
        raise NotAnOldWorld(f"not a pickled world ({type(error).__name__}: {error})") from None


def _state(value: Any, kind: str) -> dict[str, Any]:
    if not isinstance(value, _Pickled) or value.kind != kind:
        raise NotAnOldWorld(f"a {kind} was expected, not {type(value).__name__}")
    return value.state


def _saved_world(world: dict[str, Any]) -> dict[str, Any]:
    """``snapshot._SavedWorld``'s fields, from the old world's attributes.
    Those added after some old worlds were saved start as the old release
    started them when reading such a world."""
    try:
        oauth = _state(world["oauth"], "OAuthGrants") if "oauth" in world else {}
        saved = {
            "last_id": _state(world["ids"], "SnowflakeFactory")["_last"],
            "command_ids": [[*key, value] for key, value in world["_command_ids"].items()],
            "dm_of_user": world["_dm_of_user"],
            "bot_id": _state(world["bot"], "User")["id"],
            "owner_id": _state(world["owner"], "User")["id"],
            "client_secret": world.get("client_secret") or new_secret(),
            "oauth_codes": list(oauth.get("codes", {}).values()),
            "oauth_tokens": list(oauth.get("tokens", {}).values()),
            "oauth_clock_offset": oauth.get("clock_offset", 0.0),
            "activities_enabled": world.get("activities_enabled", False),
            "activity_instances": world.get("activity_instances", {}),
            "activity_launches": world.get("activity_launches", []),
        }
        for name in ("users", "guilds", "channels", "messages", "channel_log", "interactions",
                     "commands", "tokens_issued", "bot_writes", "copy_bodies",
                     "application_emojis", "max_application_emojis", "application_id"):
            saved[name] = world[name]
    except (KeyError, TypeError, AttributeError) as error:
        raise NotAnOldWorld(f"an old world without {error}") from None
    return {name: _json(value) for name, value in saved.items()}


def _json(value: Any) -> Any:
    """``value`` as the JSON snapshot writes it: records as objects of the
    fields their class declares now (one dropped since is left out; one added
    since takes its default), bytes as base64, keys as text."""
    if isinstance(value, _Pickled):
        record = RECORDS.get(value.kind)
        if record is None:
            raise NotAnOldWorld(f"a {value.kind} inside a record")
        declared = {f.name for f in dataclasses.fields(record)}
        return {name: _json(item) for name, item in value.state.items() if name in declared}
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, dict):
        return {("" if key is None else str(key)): _json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json(item) for item in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise NotAnOldWorld(f"{type(value).__name__} is not part of a saved world")
