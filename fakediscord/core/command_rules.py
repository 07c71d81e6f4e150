"""The checks Discord makes on a command it is asked to register, beyond the
OpenAPI description's field shapes: localisation keys that are Discord
locales, names that are one lower-case word in every language, no two options
of a command sharing a name in any language, the 8,000 characters a
command may hold in each language (its name, description, and its options'
and choices' names, descriptions and values), and the Entry Point command's
rules (``entry_point_errors``)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from .components import Reason
from .models import PRIMARY_ENTRY_POINT
from .spec import load_spec

MAX_COMMAND_TEXT = 8000
MAX_NAME = 32
MAX_DESCRIPTION = 100
BAD_NAME = ("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
TOO_LONG = ("APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
DUPLICATE = ("APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", "Option names must be unique")
BAD_LOCALE = ("ENUM_TYPE_COERCE", "Value is not a valid enum value.")


@cache
def discord_locales() -> frozenset[str]:
    schema = load_spec()["components"]["schemas"]["AvailableLocalesEnum"]
    # The loaded spec states the locales as an enum (the file as one-of consts).
    if "enum" in schema:
        return frozenset(schema["enum"])
    return frozenset(choice["const"] for choice in schema["oneOf"])


def valid_name(name: Any) -> bool:
    return (isinstance(name, str) and 0 < len(name) <= MAX_NAME and name == name.lower()
            and all(char.isalnum() or char in "-_" for char in name))


def command_errors(body: dict[str, Any]) -> dict[str, Reason]:
    errors: dict[str, Reason] = {}
    for path, item in _items(body, ""):
        for field in ("name_localizations", "description_localizations"):
            for locale in (item.get(field) or {}):
                if locale not in discord_locales():
                    errors[f"{path}{field}.{locale}"] = BAD_LOCALE
        names = [item.get("name"), *(item.get("name_localizations") or {}).values()]
        if "value" not in item and not all(valid_name(name) for name in names):
            errors[f"{path}name"] = BAD_NAME
        for locale, description in (item.get("description_localizations") or {}).items():
            if not 0 < len(description) <= MAX_DESCRIPTION:
                errors[f"{path}description_localizations.{locale}"] = (
                    "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_DESCRIPTION} in length.")
        options = item.get("options") or []
        for locale in (None, *discord_locales()):
            shown = [_in(option, "name", locale) for option in options]
            if len(shown) != len(set(shown)):
                errors[f"{path}options"] = DUPLICATE
    for locale in (None, *discord_locales()):
        if _length(body, locale) > MAX_COMMAND_TEXT:
            errors[""] = TOO_LONG  # the whole command
    return errors


def _items(item: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    yield path, item
    for index, option in enumerate(item.get("options") or []):
        yield from _items(option, f"{path}options.{index}.")
    for index, choice in enumerate(item.get("choices") or []):
        yield f"{path}choices.{index}.", choice


def _in(item: dict[str, Any], field: str, locale: str | None) -> str:
    localised = (item.get(f"{field}_localizations") or {}).get(locale or "")
    return str(localised or item.get(field) or "")


def _length(item: dict[str, Any], locale: str | None) -> int:
    total = len(_in(item, "name", locale)) + len(_in(item, "description", locale))
    if "value" in item:
        total += len(str(item["value"]))
    for child in (*(item.get("options") or []), *(item.get("choices") or [])):
        total += _length(child, locale)
    return total


def entry_point_errors(bodies: list[dict[str, Any]], *, global_scope: bool,
                       activities_enabled: bool, kept: str | None) -> dict[str, Reason]:
    """Discord's rules for the Entry Point command (type 4, PRIMARY_ENTRY_POINT):
    only an application with Activities has one, only one, only global, and only
    it has a ``handler``. ``kept``: the name of the Entry Point command the
    request leaves in place beside ``bodies`` (a create keeps the others, a bulk
    overwrite none)."""
    errors: dict[str, Reason] = {}
    names = {kept} if kept is not None else set()
    for index, body in enumerate(bodies):
        if int(body.get("type") or 1) != PRIMARY_ENTRY_POINT:
            if body.get("handler") is not None:
                errors[f"{index}.handler"] = (
                    "Only an Entry Point command (type 4) can have a handler.")
            continue
        if not activities_enabled:
            errors[f"{index}.type"] = (
                "Entry Point commands need an application with Activities enabled.")
        elif not global_scope:
            errors[f"{index}.type"] = "An Entry Point command can only be a global command."
        names.add(str(body.get("name")))
        if len(names) > 1:
            errors[f"{index}.type"] = "An application can have only one Entry Point command."
    return errors
