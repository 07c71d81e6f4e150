"""Rich embeds as the client draws them: a card with a colour bar, author, title,
description, fields on a grid, image, thumbnail and footer."""

from __future__ import annotations

import contextlib
from typing import Any

from ..core.world import Message
from .markdown import inline, link, markdown
from .page import Page, clock, css_colour, esc, image_html, when


def embed_html(page: Page, message: Message, embed: dict[str, Any]) -> str:
    """A rich embed: colour bar, author, title, description, fields, images, footer."""
    colour = css_colour(embed.get("color"))
    style = f" style=\"border-left-color:{colour}\"" if colour else ""
    main = "".join([
        _embed_author(page, message, embed.get("author") or {}),
        _embed_title(page, embed),
        _embed_description(page, embed.get("description")),
        _embed_fields(page, embed.get("fields") or [], narrow=bool(embed.get("thumbnail"))),
        _embed_image(page, message, embed.get("image") or {}),
        _embed_footer(page, message, embed),
    ])
    thumbnail = _embed_thumbnail(page, message, embed.get("thumbnail") or {})
    return (f"<div class=\"embed\"{style}><div class=\"embed-main\">{main}</div>"
            f"{thumbnail}</div>")


def _embed_author(page: Page, message: Message, author: dict[str, Any]) -> str:
    if not author.get("name"):
        return ""
    icon = image_html(page, message, author.get("icon_url"), "embed-author-icon")
    return (f"<div class=\"embed-author\">{icon}<span>{esc(str(author['name']))}"
            f"</span></div>")


def _embed_title(page: Page, embed: dict[str, Any]) -> str:
    title = embed.get("title")
    if not title:
        return ""
    inner = inline(page, str(title))
    if embed.get("url"):
        inner = link(str(embed["url"]), inner)
    return f"<div class=\"embed-title\">{inner}</div>"


def _embed_description(page: Page, description: Any) -> str:
    if not description:
        return ""
    return f"<div class=\"embed-description\">{markdown(page, str(description))}</div>"


def _embed_fields(page: Page, fields: list[dict[str, Any]], *, narrow: bool) -> str:
    """Fields on Discord's 12-column grid: up to three inline fields share a row (two
    beside a thumbnail); a field that is not inline takes a row of its own."""
    if not fields:
        return ""
    per_row = 2 if narrow else 3
    rows: list[list[dict[str, Any]]] = []
    for item in fields:
        if item.get("inline") and rows and rows[-1][0].get("inline") and len(rows[-1]) < per_row:
            rows[-1].append(item)
        else:
            rows.append([item])
    cells = []
    for row in rows:
        span = 12 // len(row)
        for position, item in enumerate(row):
            column = f"{1 + position * span} / {1 + (position + 1) * span}"
            cells.append(
                f"<div class=\"embed-field\" style=\"grid-column:{column}\">"
                f"<div class=\"embed-field-name\">{inline(page, str(item.get('name', '')))}</div>"
                f"<div class=\"embed-field-value\">{markdown(page, str(item.get('value', '')))}"
                "</div></div>")
    return f"<div class=\"embed-fields\">{''.join(cells)}</div>"


def _embed_image(page: Page, message: Message, image: dict[str, Any]) -> str:
    if not image.get("url"):
        return ""
    return f"<div class=\"embed-image\">{image_html(page, message, image['url'], 'media')}</div>"


def _embed_thumbnail(page: Page, message: Message, thumbnail: dict[str, Any]) -> str:
    if not thumbnail.get("url"):
        return ""
    return (f"<div class=\"embed-thumbnail\">"
            f"{image_html(page, message, thumbnail['url'], 'media')}</div>")


def _embed_footer(page: Page, message: Message, embed: dict[str, Any]) -> str:
    footer = embed.get("footer") or {}
    parts = [str(footer["text"])] if footer.get("text") else []
    if embed.get("timestamp"):
        with contextlib.suppress(ValueError):
            parts.append(clock(page, when(str(embed["timestamp"]))))
    if not parts:
        return ""
    icon = image_html(page, message, footer.get("icon_url"), "embed-footer-icon")
    return f"<div class=\"embed-footer\">{icon}<span>{esc(' • '.join(parts))}</span></div>"
