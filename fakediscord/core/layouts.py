"""Components V2 messages (flag ``IS_COMPONENTS_V2``): the checks Discord makes, and
the shape it stores and sends back.

With the flag a message is a layout: containers, sections, text displays,
separators, media, files and action rows, and nothing else. ``content``,
``embeds``, ``poll`` and ``sticker_ids`` are refused, the flag can never be
removed again, and the whole tree is limited (40 components, nested ones
counted; 4,000 characters across its text displays). The OpenAPI description
checks each component's own fields; what it cannot express (totals, the
nesting rules, unique custom ids, a flag that sticks) is checked here and
answered with Discord's 400 "Invalid Form Body" and the path of each fault.

Discord answers with every component numbered (``id``, unique in the message,
counting up from 1 around the ids the bot chose) and every optional field
filled in; ``render`` produces that, so the message discord.py reads back
(REST, gateway, the ``message`` of a click) is the one Discord would send.
"""

from __future__ import annotations

import itertools
import mimetypes
from collections.abc import Callable, Iterator
from typing import Any

from .components import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    FILE,
    MEDIA_GALLERY,
    SECTION,
    SELECT_TYPES,
    SEPARATOR,
    STRING_SELECT,
    TEXT_DISPLAY,
    THUMBNAIL,
    Reason,
    walk,
    walk_paths,
)

IS_COMPONENTS_V2 = 1 << 15
TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR,
                       CONTAINER})
IN_CONTAINER = TOP_LEVEL - {CONTAINER}
ACCESSORIES = frozenset({BUTTON, THUMBNAIL})
IN_ROW = frozenset({BUTTON, *SELECT_TYPES})

# Discord's documented limits of a Components V2 message.
MAX_COMPONENTS = 40  # every component, nested ones included
MAX_TEXT = 4000  # characters across every text display
MAX_SECTION_TEXTS = 3
MAX_ROW_BUTTONS = 5
MAX_LABEL = 80
MAX_CUSTOM_ID = 100
MAX_PLACEHOLDER = 150
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100  # an option's label, value and description

LEGACY_FIELDS = ("content", "embeds", "poll", "sticker_ids")
LEGACY_FIELD_CODE = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
REMOVE_FLAG_CODE = "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"


def is_v2(flags: int | None) -> bool:
    return bool((flags or 0) & IS_COMPONENTS_V2)


def message_errors(body: dict[str, Any], *, was_v2: bool = False,
                   stored: dict[str, Any] | None = None) -> dict[str, Reason]:
    """Why Discord refuses ``body`` as (or as an edit of) a Components V2 message.

    ``was_v2``: the message being edited already has the flag. ``stored``: the
    legacy fields it keeps when an edit does not send them (``content``,
    ``embeds``): an edit that turns a legacy message into a layout must clear them.
    """
    flags = body.get("flags")
    if was_v2 and flags is not None and not is_v2(flags):
        return {"flags": (REMOVE_FLAG_CODE,
                          "The IS_COMPONENTS_V2 flag cannot be removed from a message")}
    errors: dict[str, Reason] = {}
    for name in LEGACY_FIELDS:
        value = body[name] if name in body else (stored or {}).get(name)
        if value:
            errors[name] = (LEGACY_FIELD_CODE, f"The '{name}' field cannot be used when using "
                                               "MessageFlags.IS_COMPONENTS_V2")
    components = body.get("components")
    if isinstance(components, list):
        errors |= layout_errors(components)
    return errors


def layout_errors(components: list[dict[str, Any]]) -> dict[str, Reason]:
    """The nesting rules, totals and per-component limits of a layout."""
    errors: dict[str, Reason] = {}
    _check_children(components, "components", TOP_LEVEL, errors)
    for path, component in walk_paths(components):
        _check_fields(component, path, errors)
    _check_unique(components, errors)
    total = sum(1 for _ in walk(components))
    if total > MAX_COMPONENTS:
        errors["components"] = ("MAX_COMPONENTS_EXCEEDED",
                                f"Must be {MAX_COMPONENTS} or fewer in total, nested components "
                                f"included (got {total}).")
    text = sum(len(c.get("content") or "") for c in walk(components)
               if c.get("type") == TEXT_DISPLAY)
    if text > MAX_TEXT:
        errors["components"] = ("MAX_TEXT_LENGTH_EXCEEDED",
                                f"The text of all text displays must be {MAX_TEXT} or fewer "
                                f"characters in total (got {text}).")
    return errors


def _type_error(allowed: frozenset[int]) -> Reason:
    choices = ", ".join(str(t) for t in sorted(allowed))
    return ("UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({choices}).')


def _check_children(items: list[Any], path: str, allowed: frozenset[int],
                    errors: dict[str, Reason]) -> None:
    """Each item is of a type its parent may hold, and holds what it may in turn."""
    for i, item in enumerate(items):
        here = f"{path}.{i}"
        kind = item.get("type") if isinstance(item, dict) else None
        if kind not in allowed:
            errors[f"{here}.type"] = _type_error(allowed)
        elif kind == CONTAINER:
            _check_children(item.get("components") or [], f"{here}.components", IN_CONTAINER,
                            errors)
        elif kind == SECTION:
            _check_section(item, here, errors)
        elif kind == ACTION_ROW:
            _check_row(item, here, errors)


def _check_section(section: dict[str, Any], here: str, errors: dict[str, Reason]) -> None:
    texts = section.get("components") or []
    if not 1 <= len(texts) <= MAX_SECTION_TEXTS:
        errors[f"{here}.components"] = ("BASE_TYPE_BAD_LENGTH",
                                        f"Must be between 1 and {MAX_SECTION_TEXTS} in length.")
    _check_children(texts, f"{here}.components", frozenset({TEXT_DISPLAY}), errors)
    accessory = section.get("accessory")
    if not isinstance(accessory, dict):
        errors[f"{here}.accessory"] = ("BASE_TYPE_REQUIRED", "This field is required")
    elif accessory.get("type") not in ACCESSORIES:
        errors[f"{here}.accessory.type"] = _type_error(ACCESSORIES)


def _check_row(row: dict[str, Any], here: str, errors: dict[str, Reason]) -> None:
    """Up to 5 buttons, or exactly one select."""
    items = row.get("components") or []
    _check_children(items, f"{here}.components", IN_ROW, errors)
    selects = sum(1 for c in items if isinstance(c, dict) and c.get("type") in SELECT_TYPES)
    if selects and len(items) > 1:
        errors[f"{here}.components"] = ("COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                        "The specified component exceeds the maximum width")
    elif not 1 <= len(items) <= MAX_ROW_BUTTONS:
        errors[f"{here}.components"] = ("BASE_TYPE_BAD_LENGTH",
                                        f"Must be between 1 and {MAX_ROW_BUTTONS} in length.")


def _too_long(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) > limit


def _max_length(limit: int) -> Reason:
    return ("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_fields(component: dict[str, Any], path: str, errors: dict[str, Reason]) -> None:
    """Lengths of what a person reads on buttons and selects."""
    if _too_long(component.get("custom_id"), MAX_CUSTOM_ID):
        errors[f"{path}.custom_id"] = _max_length(MAX_CUSTOM_ID)
    if component.get("type") == BUTTON and _too_long(component.get("label"), MAX_LABEL):
        errors[f"{path}.label"] = _max_length(MAX_LABEL)
    if component.get("type") not in SELECT_TYPES:
        return
    if _too_long(component.get("placeholder"), MAX_PLACEHOLDER):
        errors[f"{path}.placeholder"] = _max_length(MAX_PLACEHOLDER)
    options = component.get("options") or []
    if component.get("type") == STRING_SELECT and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        errors[f"{path}.options"] = ("BASE_TYPE_BAD_LENGTH",
                                     f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.")
    for i, option in enumerate(options):
        for key in ("label", "value", "description"):
            if _too_long(option.get(key), MAX_OPTION_TEXT):
                errors[f"{path}.options.{i}.{key}"] = _max_length(MAX_OPTION_TEXT)


def _check_unique(components: list[dict[str, Any]], errors: dict[str, Reason]) -> None:
    """Custom ids, and the numeric ids the bot chose, are unique in the message."""
    custom_ids: set[str] = set()
    ids: set[int] = set()
    for path, component in walk_paths(components):
        custom_id = component.get("custom_id")
        if custom_id:
            if custom_id in custom_ids:
                errors[f"{path}.custom_id"] = ("COMPONENT_CUSTOM_ID_DUPLICATED",
                                               "Component custom id cannot be duplicated")
            custom_ids.add(custom_id)
        number = component.get("id")
        if isinstance(number, int) and number:
            if number in ids:
                errors[f"{path}.id"] = ("COMPONENT_ID_DUPLICATED",
                                        "Component id cannot be duplicated")
            ids.add(number)


# -- the stored and answered shape ------------------------------------------------------


class _Numbering:
    """Discord's ids: the bot's own kept, the others counted up from 1 around them."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        self.taken = {c["id"] for c in walk(components) if isinstance(c.get("id"), int)
                      and c["id"]}
        self._counter = itertools.count(1)

    def id_for(self, component: dict[str, Any]) -> int:
        given = component.get("id")
        if isinstance(given, int) and given:
            return given
        number = next(self._counter)
        while number in self.taken:
            number = next(self._counter)
        return number


Snowflake = Callable[[], int]


def render(components: list[dict[str, Any]], attachments: list[dict[str, Any]],
           snowflake: Snowflake) -> list[dict[str, Any]]:
    """The layout as Discord stores and sends it back: numbered, defaults filled in,
    media unfurled (``attachment://name`` pointing at the uploaded file)."""
    numbering = _Numbering(components)
    files = {a["filename"]: a for a in attachments}
    return [_render(c, numbering, files, snowflake) for c in components]


def _render(component: dict[str, Any], numbering: _Numbering,
            files: dict[str, dict[str, Any]], snowflake: Snowflake) -> dict[str, Any]:
    out = dict(component)
    out["id"] = numbering.id_for(component)  # before the children: walk order
    kind = component.get("type")
    if isinstance(component.get("components"), list):
        out["components"] = [_render(c, numbering, files, snowflake)
                             for c in component["components"]]
    if isinstance(component.get("accessory"), dict):
        out["accessory"] = _render(component["accessory"], numbering, files, snowflake)
    for key, value in _defaults(kind, component, files, snowflake):
        out[key] = value
    return out


def _defaults(kind: Any, c: dict[str, Any], files: dict[str, dict[str, Any]],
              snowflake: Snowflake) -> Iterator[tuple[str, Any]]:
    """The fields Discord always answers with, for one component kind."""
    if kind == CONTAINER:
        yield "accent_color", c.get("accent_color")
        yield "spoiler", bool(c.get("spoiler"))
    elif kind == SEPARATOR:
        yield "spacing", c.get("spacing") or 1
        yield "divider", True if c.get("divider") is None else bool(c["divider"])
    elif kind == THUMBNAIL:
        yield "media", _media(c.get("media") or {}, files, snowflake)
        yield "description", c.get("description")
        yield "spoiler", bool(c.get("spoiler"))
    elif kind == MEDIA_GALLERY:
        yield "items", [{"media": _media(item.get("media") or {}, files, snowflake),
                         "description": item.get("description"),
                         "spoiler": bool(item.get("spoiler"))} for item in c.get("items") or []]
    elif kind == FILE:
        media = _media(c.get("file") or {}, files, snowflake)
        attachment = files.get(_attachment_name(c.get("file") or {}) or "")
        yield "file", media
        yield "name", attachment["filename"] if attachment else None
        yield "size", attachment["size"] if attachment else None
        yield "spoiler", bool(c.get("spoiler"))
    elif kind == BUTTON and c.get("emoji"):
        yield "emoji", _emoji(c["emoji"])
    elif kind in SELECT_TYPES:
        yield "min_values", 1 if c.get("min_values") is None else c["min_values"]
        yield "max_values", 1 if c.get("max_values") is None else c["max_values"]
        if c.get("options"):
            yield "options", [_option(o) for o in c["options"]]


def _attachment_name(media: dict[str, Any]) -> str | None:
    url = str(media.get("url", ""))
    return url.removeprefix("attachment://") if url.startswith("attachment://") else None


def _media(media: dict[str, Any], files: dict[str, dict[str, Any]],
           snowflake: Snowflake) -> dict[str, Any]:
    """An unfurled media item as Discord answers it."""
    url = str(media.get("url", ""))
    attachment = files.get(_attachment_name(media) or "")
    if attachment is not None:
        return {"id": str(snowflake()), "url": attachment["url"],
                "proxy_url": attachment["proxy_url"], "width": None, "height": None,
                "content_type": attachment["content_type"], "attachment_id": attachment["id"]}
    return {"id": str(snowflake()), "url": url, "proxy_url": url, "width": None, "height": None,
            "content_type": mimetypes.guess_type(url)[0]}


def _emoji(emoji: dict[str, Any]) -> dict[str, Any]:
    """A component's emoji as Discord answers it: ids as strings, unicode ones by name."""
    if emoji.get("id") is None:
        return {"name": emoji.get("name")}
    return {"id": str(emoji["id"]), "name": emoji.get("name"),
            "animated": bool(emoji.get("animated"))}


def _option(option: dict[str, Any]) -> dict[str, Any]:
    out = dict(option)
    if option.get("emoji"):
        out["emoji"] = _emoji(option["emoji"])
    return out
