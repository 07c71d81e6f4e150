"""Typing a slash command the way Discord's client does it.

The client only offers what the bot registered: the command, its
subcommands, its options with their types, choices and bounds. So the
interaction is built from the *synced* command, and anything the client would
refuse (unknown option, missing required one, value out of range, a command
hidden by ``default_member_permissions``) fails the test at once.
"""

from __future__ import annotations

from typing import Any

from . import installs, payloads
from .world import ADMINISTRATOR, Channel, Role, User, World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


def as_user(value: Any) -> User | None:
    """An ``Actor`` or a ``User`` as the user it stands for."""
    candidate = getattr(value, "user", value)
    return candidate if isinstance(candidate, User) else None


def build_chat_input(world: World, user: User, channel: Channel, text: str,
                     options: dict[str, Any]) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND interaction for ``/text`` with ``options``."""
    words = text.strip().lstrip("/").split()
    assert words, "empty command"
    record = world.find_command(words[0], channel.guild_id)
    if record is None:
        available = sorted(n.split(":")[0] for scope in (channel.guild_id, None)
                           for n in world.commands.get(scope, {}))
        raise AssertionError(f"/{words[0]} is not a synced command; the client offers {available}")
    _check_available(world, user, channel, record)
    resolved: dict[str, dict[str, Any]] = {}
    definitions: list[dict[str, Any]] = record.get("options") or []
    top: list[dict[str, Any]] = []
    target = top
    for word in words[1:]:
        sub = next((o for o in definitions if o["name"] == word
                    and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if sub is None:
            names = [o["name"] for o in definitions
                     if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise AssertionError(f"/{text}: no subcommand {word!r}; there are {names}")
        entry: dict[str, Any] = {"type": sub["type"], "name": word, "options": []}
        target.append(entry)
        target = entry["options"]
        definitions = sub.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in definitions):
        raise AssertionError(f"/{text} needs a subcommand: {[o['name'] for o in definitions]}")
    target.extend(_values(world, channel, text, definitions, options, resolved))
    data: dict[str, Any] = {"id": record["id"], "name": record["name"], "type": 1, "options": top}
    if record.get("guild_id"):
        data["guild_id"] = record["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def integration_types_of(world: World, channel: Channel, text: str) -> list[int] | None:
    """The installation contexts of the command ``/text`` typed in ``channel``."""
    record = world.find_command(text.strip().lstrip("/").split()[0], channel.guild_id)
    return None if record is None else record.get("integration_types")


def _check_available(world: World, user: User, channel: Channel, record: dict[str, Any]) -> None:
    refusal = installs.command_refusal(world, user, channel, record)
    if refusal is not None:
        raise installs.UnavailableCommand(refusal)
    if channel.is_dm and record.get("dm_permission") is False:
        raise AssertionError(f"/{record['name']} is not offered in DMs")
    needed = record.get("default_member_permissions")
    # A server's command permissions govern its own install only (Application
    # Commands: contexts are apart from permissions).
    if needed is not None and channel.guild_id is not None and installs.guild_installed(
            world, channel):
        have = world.guilds[channel.guild_id].permissions_of(user.id)
        # "0" hides the command from everyone but administrators.
        required = int(needed) or ADMINISTRATOR
        if required & ~have:
            raise AssertionError(f"{user.name} cannot see /{record['name']}: it needs "
                                 f"permissions {needed}, they have {have}")


def _values(world: World, channel: Channel, text: str, definitions: list[dict[str, Any]],
            given: dict[str, Any], resolved: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    by_name = {o["name"]: o for o in definitions}
    unknown = set(given) - set(by_name)
    if unknown:
        raise AssertionError(f"/{text} has no option(s) {sorted(unknown)}; "
                             f"it has {sorted(by_name)}")
    missing = [o["name"] for o in definitions if o.get("required") and o["name"] not in given]
    if missing:
        raise AssertionError(f"/{text} requires option(s) {missing}")
    out = []
    for name, value in given.items():
        definition = by_name[name]
        wire = _convert(world, channel, text, definition, value, resolved)
        out.append({"name": name, "type": definition["type"], "value": wire})
    return out


def _convert(world: World, channel: Channel, text: str, definition: dict[str, Any], value: Any,
             resolved: dict[str, dict[str, Any]]) -> Any:
    kind, name = definition["type"], definition["name"]
    where = f"/{text} option {name!r}"
    if kind in (USER, MENTIONABLE) and as_user(value) is not None:
        user = as_user(value)
        assert user is not None
        add_resolved_user(world, channel, user, resolved)
        return str(user.id)
    if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value)
        return str(value.id)
    if kind == CHANNEL and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = {
            "id": str(value.id), "name": value.name, "type": value.type, "permissions": "0"}
        return str(value.id)
    if kind in (USER, MENTIONABLE, ROLE, CHANNEL):
        raise AssertionError(f"{where} takes a {_TYPE_NAMES[kind]}, got {value!r}")
    value = _choice(definition, value, where)
    if kind == STRING:
        assert isinstance(value, str), f"{where} takes a string, got {value!r}"
        lo, hi = definition.get("min_length") or 0, definition.get("max_length") or 6000
        assert lo <= len(value) <= hi, f"{where}: length must be in [{lo}, {hi}]"
    elif kind == INTEGER:
        assert isinstance(value, int) and not isinstance(value, bool), \
            f"{where} takes an integer, got {value!r}"
        _check_range(definition, value, where)
    elif kind == NUMBER:
        assert isinstance(value, int | float) and not isinstance(value, bool), \
            f"{where} takes a number, got {value!r}"
        _check_range(definition, value, where)
    elif kind == BOOLEAN:
        assert isinstance(value, bool), f"{where} takes a boolean, got {value!r}"
    return value


def _choice(definition: dict[str, Any], value: Any, where: str) -> Any:
    """With choices, a person picks one: by its value or by the name shown."""
    choices = definition.get("choices")
    if not choices:
        return value
    for choice in choices:
        if value == choice["value"] or value == choice["name"]:
            return choice["value"]
    raise AssertionError(f"{where}: {value!r} is not among the choices "
                         f"{[c['value'] for c in choices]}")


def _check_range(definition: dict[str, Any], value: float, where: str) -> None:
    lo, hi = definition.get("min_value"), definition.get("max_value")
    assert lo is None or value >= lo, f"{where}: {value} is below the minimum {lo}"
    assert hi is None or value <= hi, f"{where}: {value} is above the maximum {hi}"


def add_resolved_user(world: World, channel: Channel, user: User,
                      resolved: dict[str, dict[str, Any]]) -> None:
    """``data.resolved`` for a user; discord.py needs it to build the option's value."""
    resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
    if channel.guild_id is not None:
        guild = world.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is not None:
            resolved.setdefault("members", {})[str(user.id)] = payloads.member(
                member, with_user=False, permissions=guild.permissions_of(user.id))


_TYPE_NAMES = {USER: "user (an Actor)", MENTIONABLE: "user or role", ROLE: "Role",
               CHANNEL: "Channel"}
