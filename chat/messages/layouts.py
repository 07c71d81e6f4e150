"""Components V2 layouts, written as Discord's payload.

A V2 message is nothing but components: containers with an accent colour,
text displays (markdown, custom emoji included), separators, and action rows
of buttons and selects. Like ``Controls``, a ``Layout`` is sent as it is and
discord.py keeps nothing of it; it only tells discord.py to set the message's
V2 flag. Discord's limits for one message: 40 components in all (nested ones
counted) and 4,000 characters of text (``count_components``, ``text_length``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .components import Component, Controls

MAX_COMPONENTS = 40
MAX_TEXT = 4000

CONTAINER, TEXT, SEPARATOR, ACTION_ROW, SECTION = 17, 10, 14, 1, 9


class Layout:
    """Top-level V2 components, sent as they are through the bot's own answers
    (``transport.callbacks``): no ``discord.ui.View`` to build for each one."""

    def __init__(self, *items: Component | None) -> None:
        self.items = [item for item in items if item]

    def to_components(self) -> list[dict[str, Any]]:
        return self.items

    def has_components_v2(self) -> bool:
        return True


class SentLayout(Controls):
    """A layout in the shape discord.py's own message calls take (a channel
    message: the public table); answers to clicks send ``Layout`` as it is."""

    def __init__(self, layout: Layout) -> None:
        super().__init__()
        self.layout = layout

    def to_components(self) -> list[dict[str, Any]]:
        return self.layout.items

    def has_components_v2(self) -> bool:
        return True


def container(*children: Component | None, accent: int | None = None) -> Component:
    item: Component = {"type": CONTAINER, "components": [c for c in children if c]}
    if accent is not None:
        item["accent_color"] = accent
    return item


def text(content: str) -> Component:
    return {"type": TEXT, "content": content}


def section(content: str, accessory: Component) -> Component:
    """Text with a button (or a picture) beside it, on its right."""
    return {"type": SECTION, "components": [text(content)], "accessory": accessory}


def separator(*, divider: bool = True, large: bool = False) -> Component:
    return {"type": SEPARATOR, "divider": divider, "spacing": 2 if large else 1}


def row(items: Iterable[Component]) -> Component | None:
    """An action row of up to 5 buttons (or one select); None when empty."""
    components = list(items)
    return {"type": ACTION_ROW, "components": components} if components else None


def _walk(components: Iterable[Component]) -> Iterator[Component]:
    for component in components:
        yield component
        yield from _walk(component.get("components", ()))
        accessory = component.get("accessory")
        if accessory is not None:
            yield accessory


def count_components(layout: Layout) -> int:
    """Every component of the message, nested ones included, as Discord counts."""
    return sum(1 for _ in _walk(layout.items))


def text_length(layout: Layout) -> int:
    """The characters of text the message shows, as Discord counts them."""
    return sum(len(c.get("content", "")) for c in _walk(layout.items) if c["type"] == TEXT)
