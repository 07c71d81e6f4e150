"""Reading message components the way a person looks at a message.

Components nest (action rows, and in "components v2" containers, sections
with accessories, labels), so every lookup walks the whole tree instead of
assuming ``rows -> items``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel
TEXT_DISPLAY = 10
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


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in the tree, depth first, in display order."""
    for component in components:
        yield component
        if isinstance(component.get("components"), list):
            yield from walk(component["components"])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk([component[key]])


def buttons(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buttons as a person sees them: label, custom_id, disabled, style, emoji, url."""
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
                "url": c.get("url"),
            })
    return found


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
            })
    return found


def texts(components: list[dict[str, Any]]) -> list[str]:
    """The text of "components v2" text displays."""
    return [c.get("content", "") for c in walk(components) if c.get("type") == TEXT_DISPLAY]


def embed_texts(embeds: list[dict[str, Any]]) -> list[str]:
    """Every piece of text in embeds, in reading order."""
    out: list[str] = []
    for e in embeds:
        out += [e.get("author", {}).get("name", ""), e.get("title", ""), e.get("description", "")]
        for f in e.get("fields", []):
            out += [f.get("name", ""), f.get("value", "")]
        out.append(e.get("footer", {}).get("text", ""))
    return [t for t in out if t]


def limit_errors(body: dict[str, Any]) -> dict[str, str]:
    """Limits Discord enforces beyond the OpenAPI schema, as ``{field: reason}``.

    The spec allows 4000 characters of content (a Nitro limit); bots get 2000.
    """
    errors: dict[str, str] = {}
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors["content"] = f"Must be {MAX_CONTENT} or fewer in length."
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors["embeds"] = f"Must be {MAX_EMBEDS} or fewer in length."
    if sum(len(t) for t in embed_texts(embeds)) > MAX_EMBED_CHARS:
        errors["embeds"] = f"Embed size exceeds maximum size of {MAX_EMBED_CHARS}"
    components = body.get("components") or []
    is_v2 = bool((body.get("flags") or 0) & (1 << 15))
    if not is_v2 and len(components) > MAX_ROWS:
        errors["components"] = f"Must be {MAX_ROWS} or fewer in length."
    for i, row in enumerate(components):
        items = row.get("components") if row.get("type") == 1 else None
        if items and sum(1 for c in items if c.get("type") == BUTTON) > MAX_ROW_BUTTONS:
            errors[f"components.{i}.components"] = f"Must be {MAX_ROW_BUTTONS} or fewer in length."
    for c in walk(components):
        if len(c.get("options") or []) > MAX_SELECT_OPTIONS:
            errors["components.options"] = f"Must be {MAX_SELECT_OPTIONS} or fewer in length."
        if len(c.get("custom_id") or "") > MAX_CUSTOM_ID:
            errors["components.custom_id"] = f"Must be {MAX_CUSTOM_ID} or fewer in length."
    return errors
