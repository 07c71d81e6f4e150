"""Reading message components the way a person looks at a message.

Components nest (action rows, and in "components v2" containers, sections
with accessories, labels), so every lookup walks the whole tree instead of
assuming ``rows -> items``. The limits of legacy messages live here too;
those of Components V2 layouts are in ``layouts.py``.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator
from typing import Any

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
LINK_STYLE = 5
PREMIUM_STYLE = 6

# Discord's documented message limits (see GUIDE.md, "Discord facts").
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_CHARS = 6000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100

# A field error: a message (Discord's generic code), or Discord's (code, message).
Reason = str | tuple[str, str]
INVALID_EMOJI: tuple[str, str] = ("BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")
CUSTOM_EMOJI_TEXT = re.compile(r"<(a?):(\w+):(\d+)>")


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in the tree, depth first, in display order."""
    for component in components:
        yield component
        if isinstance(component.get("components"), list):
            yield from walk(component["components"])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk([component[key]])


def walk_paths(components: list[dict[str, Any]],
               path: str = "components") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every component with its place in the body, as Discord names it in errors
    (``components.0.components.1``, ``components.2.accessory``), in ``walk`` order."""
    for i, component in enumerate(components):
        yield from _walk_one(component, f"{path}.{i}")


def _walk_one(component: dict[str, Any], here: str) -> Iterator[tuple[str, dict[str, Any]]]:
    yield here, component
    if isinstance(component.get("components"), list):
        yield from walk_paths(component["components"], f"{here}.components")
    for key in ("accessory", "component"):
        if isinstance(component.get(key), dict):
            yield from _walk_one(component[key], f"{here}.{key}")


def buttons(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buttons as a person sees them: label, custom_id, disabled, style, emoji (the name),
    emoji_id (a custom emoji's id as a string, else None), url, and id (the
    component's number in the message, if it has one)."""
    found = []
    for c in walk(components):
        if c.get("type") == BUTTON:
            emoji = c.get("emoji") or {}
            found.append({
                "label": c.get("label"),
                "custom_id": c.get("custom_id"),
                "disabled": bool(c.get("disabled", False)),
                "style": c.get("style"),
                "emoji": emoji.get("name"),
                "emoji_id": str(emoji["id"]) if emoji.get("id") else None,
                "url": c.get("url"),
                "id": c.get("id"),
            })
    return found


def emoji_matches(button: dict[str, Any], wanted: str) -> bool:
    """Whether a button (as ``buttons`` lists it) shows ``wanted``: its name, a custom
    emoji's id, or the custom emoji written as in text (``<:name:id>``)."""
    written = CUSTOM_EMOJI_TEXT.fullmatch(wanted)
    if written is not None:
        return (button["emoji"], button["emoji_id"]) == (written[2], written[3])
    return wanted in (button["emoji"], button["emoji_id"])


def selects(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Select menus with their options (values) and bounds."""
    found = []
    for c in walk(components):
        if c.get("type") in SELECT_TYPES:
            found.append({
                "type": c["type"],
                "custom_id": c.get("custom_id"),
                "placeholder": c.get("placeholder"),
                "options": [dict(o) for o in c.get("options", [])],
                "min_values": c.get("min_values", 1),
                "max_values": c.get("max_values", 1),
                "disabled": bool(c.get("disabled", False)),
                "id": c.get("id"),
            })
    return found


def texts(components: list[dict[str, Any]]) -> list[str]:
    """The text of "components v2" text displays (sections' included), in reading order."""
    return [c.get("content", "") for c in walk(components) if c.get("type") == TEXT_DISPLAY]


def accent_colors(components: list[dict[str, Any]]) -> list[int | None]:
    """The accent colour of each container, in order (None: a container without one)."""
    return [c.get("accent_color") for c in walk(components) if c.get("type") == CONTAINER]


def media_urls(components: list[dict[str, Any]]) -> list[str]:
    """The URLs a layout shows: thumbnails, media gallery items and files, in order."""
    urls = []
    for c in walk(components):
        if c.get("type") == THUMBNAIL:
            urls.append(c.get("media", {}).get("url", ""))
        elif c.get("type") == MEDIA_GALLERY:
            urls += [item.get("media", {}).get("url", "") for item in c.get("items", [])]
        elif c.get("type") == FILE:
            urls.append(c.get("file", {}).get("url", ""))
    return urls


def custom_emojis(components: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every custom emoji on buttons and select options, with its place in the body."""
    for path, c in walk_paths(components):
        emoji = c.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is not None:
            yield f"{path}.emoji", emoji
        for i, option in enumerate(c.get("options") or []):
            emoji = option.get("emoji") if isinstance(option, dict) else None
            if isinstance(emoji, dict) and emoji.get("id") is not None:
                yield f"{path}.options.{i}.emoji", emoji


def emoji_errors(components: list[dict[str, Any]], known_ids: Container[int]) -> dict[str, Reason]:
    """Custom emoji Discord does not know: it refuses a button or option whose emoji is
    neither the application's nor one of a server's, legacy message or not."""
    errors: dict[str, Reason] = {}
    for path, emoji in custom_emojis(components):
        emoji_id = str(emoji["id"])
        if not emoji_id.isdigit() or int(emoji_id) not in known_ids:
            errors[f"{path}.id"] = INVALID_EMOJI
    return errors


def embed_texts(embeds: list[dict[str, Any]]) -> list[str]:
    """Every piece of text in embeds, in reading order."""
    out: list[str] = []
    for e in embeds:
        out += [e.get("author", {}).get("name", ""), e.get("title", ""), e.get("description", "")]
        for f in e.get("fields", []):
            out += [f.get("name", ""), f.get("value", "")]
        out.append(e.get("footer", {}).get("text", ""))
    return [t for t in out if t]


def limit_errors(body: dict[str, Any]) -> dict[str, Reason]:
    """Limits Discord enforces on a legacy (not Components V2) message beyond the
    OpenAPI schema, as ``{field: reason}``.

    The spec allows 4000 characters of content (a Nitro limit); bots get 2000.
    """
    errors: dict[str, Reason] = {}
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors["content"] = f"Must be {MAX_CONTENT} or fewer in length."
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors["embeds"] = f"Must be {MAX_EMBEDS} or fewer in length."
    if sum(len(t) for t in embed_texts(embeds)) > MAX_EMBED_CHARS:
        errors["embeds"] = f"Embed size exceeds maximum size of {MAX_EMBED_CHARS}"
    components = body.get("components") or []
    if len(components) > MAX_ROWS:
        errors["components"] = f"Must be {MAX_ROWS} or fewer in length."
    for i, row in enumerate(components):
        items = row.get("components") if row.get("type") == 1 else None
        if items and sum(1 for c in items if c.get("type") == BUTTON) > MAX_ROW_BUTTONS:
            errors[f"components.{i}.components"] = f"Must be {MAX_ROW_BUTTONS} or fewer in length."
    for path, c in walk_paths(components):
        if len(c.get("options") or []) > MAX_SELECT_OPTIONS:
            errors[f"{path}.options"] = f"Must be {MAX_SELECT_OPTIONS} or fewer in length."
        if len(c.get("custom_id") or "") > MAX_CUSTOM_ID:
            errors[f"{path}.custom_id"] = f"Must be {MAX_CUSTOM_ID} or fewer in length."
    return errors
