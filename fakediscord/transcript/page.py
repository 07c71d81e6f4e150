"""The page a transcript is drawn on, and what every part of the drawing needs.

A ``Page`` holds the world (to turn ids into names), the person looking and
their clock (relative times, highlighted mentions), and the application's
emojis (drawn from their stored images). The helpers here are shared by the
messages (``transcript``), their text (``transcript_markdown``), embeds
(``transcript_embeds``) and components (``transcript_components``): names,
times, emoji, images that need no network, and escaping.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, Protocol

from ..core.components import TEXT_DISPLAY
from ..core.world import Channel, Message, World

IMAGE_TYPE = re.compile(r"image/(png|jpeg|gif|webp)")
CDN_EMOJI = re.compile(r"https://(?:cdn|media)\.discordapp\.(?:com|net)/emojis/(\d+)\.\w+")
# Drawn where an image would need the network: the layout keeps its place.
IMAGE_ICON = ("<svg width=\"32\" height=\"32\" viewBox=\"0 0 24 24\"><path fill=\"currentColor\""
              " d=\"M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2zM8.5"
              " 13.5l2.5 3 3.5-4.5 4.5 6H5l3.5-4.5z\"/></svg>")


class EmojiImage(Protocol):
    """An application emoji as the emulator stores it (``World.application_emojis``)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def image(self) -> bytes: ...

    @property
    def content_type(self) -> str: ...


@dataclass
class Page:
    """What every drawing function needs: the world to resolve ids, and the viewer's
    clock and identity (for relative times and highlighted mentions)."""

    world: World
    viewer_id: int | None
    now: float
    tz: tzinfo
    emojis: Mapping[int, EmojiImage]
    # The server whose nicknames names are shown by.
    guild_id: int | None = None
    _data_uris: dict[int, str | None] = field(default_factory=dict)

    def emoji_uri(self, emoji_id: int) -> str | None:
        """The emoji's image as a data: URI (encoded once per page), None if unknown."""
        if emoji_id not in self._data_uris:
            emoji = self.emojis.get(emoji_id)
            self._data_uris[emoji_id] = (
                None if emoji is None else data_uri(emoji.image, emoji.content_type))
        return self._data_uris[emoji_id]


# -- names ---------------------------------------------------------------------------------


def user_name(page: Page, user_id: int) -> str:
    """The server nickname where there is one, else the user's name."""
    guild = page.world.guilds.get(page.guild_id or 0)
    member = guild.members.get(user_id) if guild is not None else None
    if member is not None and member.nick:
        return member.nick
    user = page.world.users.get(user_id)
    return user.name if user is not None else "unknown-user"


def dm_partner(page: Page, channel: Channel) -> str:
    """Whom a DM is with, seen by the person: the bot, unless the bot is looking."""
    if page.viewer_id == page.world.bot.id and channel.recipient_id is not None:
        return user_name(page, channel.recipient_id)
    return page.world.bot.name


def role_name(page: Page, role_id: int) -> str:
    for guild in page.world.guilds.values():
        role = guild.roles.get(role_id)
        if role is not None:
            return role.name.lstrip("@")
    return "deleted-role"


def channel_mention(page: Page, channel_id: int) -> str:
    channel = page.world.channels.get(channel_id)
    if channel is None:
        return "#unknown"
    return f"@{dm_partner(page, channel)}" if channel.is_dm else f"#{channel.name}"


# -- times ---------------------------------------------------------------------------------


def when(iso: str) -> datetime:
    stamp = datetime.fromisoformat(iso)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def clock(page: Page, moment: datetime) -> str:
    """The message header's time: "Today at 09:44", as the client writes it."""
    local = moment.astimezone(page.tz)
    today = datetime.fromtimestamp(page.now, page.tz).date()
    if local.date() == today:
        return f"Today at {local:%H:%M}"
    if local.date() == today - timedelta(days=1):
        return f"Yesterday at {local:%H:%M}"
    return f"{local:%d/%m/%Y %H:%M}"


# -- components' text ----------------------------------------------------------------------


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in the tree, accessories included; anything not a component
    (a drawing never trusts a stored body) is skipped."""
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        yield from walk(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def text_displays(components: list[dict[str, Any]]) -> Iterator[str]:
    for component in walk(components):
        if component.get("type") == TEXT_DISPLAY:
            yield str(component.get("content") or "")


# -- emoji and images ----------------------------------------------------------------------


def emoji_html(page: Page, emoji: Mapping[str, Any] | None) -> str:
    """A custom emoji as its image (from the application's emojis), a unicode one as
    text; a custom emoji the emulator does not know stays ``:name:``, as in the client
    when an emoji was deleted."""
    if not emoji:
        return ""
    name = str(emoji.get("name") or "")
    emoji_id = int_or_none(emoji.get("id"))
    if emoji_id is None:
        return f"<span class=\"uemoji\">{esc(name)}</span>"
    uri = page.emoji_uri(emoji_id)
    if uri is None:
        return f"<span class=\"emoji-missing\">:{esc(name)}:</span>"
    return (f"<img class=\"emoji\" src=\"{uri}\" alt=\":{esc(name)}:\" "
            f"title=\":{esc(name)}:\" data-emoji-id=\"{emoji_id}\">")


def image_html(page: Page, message: Message, url: Any, css_class: str, *,
               alt: Any = None) -> str:
    """An image the page can show without the network: an upload of this message
    (``attachment://`` or its CDN address) or an application emoji's CDN address.
    Anything else is drawn as an empty frame, so the layout keeps its place."""
    if not url:
        return ""
    source = media_source(page, message, str(url))
    label = esc(str(alt or url))
    if source is None:
        return f"<span class=\"{css_class} missing-media\" title=\"{label}\">{IMAGE_ICON}</span>"
    return f"<img class=\"{css_class}\" src=\"{source}\" alt=\"{label}\">"


def media_source(page: Page, message: Message, url: str) -> str | None:
    emoji = CDN_EMOJI.fullmatch(url.split("?", 1)[0])
    if emoji:
        return page.emoji_uri(int(emoji.group(1)))
    for attachment in message.attachments:
        name = str(attachment.get("filename", ""))
        if url in (f"attachment://{name}", attachment.get("url"), attachment.get("proxy_url")):
            data = message.file_data.get(name)
            content_type = str(attachment.get("content_type") or "")
            if data is not None and IMAGE_TYPE.fullmatch(content_type):
                return data_uri(data, content_type)
    return None


def data_uri(data: bytes, content_type: str) -> str | None:
    """Only raster image types: anything else could carry markup of its own."""
    if not IMAGE_TYPE.fullmatch(content_type):
        return None
    return f"data:{content_type};base64,{base64.b64encode(data).decode('ascii')}"


# -- small helpers -------------------------------------------------------------------------


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def css_colour(value: Any) -> str | None:
    """``#rrggbb`` from Discord's integer colours; None for none (or nonsense)."""
    number = int_or_none(value)
    if number is None or isinstance(value, bool):
        return None
    return f"#{number & 0xFFFFFF:06x}"
