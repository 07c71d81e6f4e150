"""Message components as the client draws them: legacy action rows of buttons and
selects, Components V2 layouts (containers, sections, text displays, media,
files, separators), and uploads no component shows.

Drawn for eyes and for a live page's script alike: a button carries its
``data-custom-id`` (a link button its ``data-url``), a disabled one the
``disabled`` class; a select shows itself closed, as in a photograph, and
keeps its options, bounds and custom id in attributes and a ``hidden`` list
that a script can open as a menu.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.components import (
    ACTION_ROW,
    BUTTON,
    CONTAINER,
    FILE,
    MEDIA_GALLERY,
    SECTION,
    SEPARATOR,
    STRING_SELECT,
    TEXT_DISPLAY,
    THUMBNAIL,
)
from ..core.world import Message, MessageFlag
from .markdown import markdown
from .page import (
    IMAGE_TYPE,
    Page,
    channel_mention,
    css_colour,
    data_uri,
    emoji_html,
    esc,
    image_html,
    int_or_none,
    role_name,
    user_name,
    walk,
)

BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link",
                 6: "premium"}
ENTITY_SELECTS = {5: "users", 6: "roles", 7: "mentionables", 8: "channels"}
# The addresses a link button may have on Discord.
LINK_URL = re.compile(r"(?:https?|discord)://", re.IGNORECASE)
LINK_ARROW = ("<svg class=\"arrow\" width=\"16\" height=\"16\" viewBox=\"0 0 24 24\">"
              "<path fill=\"currentColor\" d=\"M10 5V3H5.375C4.06 3 3 4.06 3 5.375v13.25C3 "
              "19.94 4.06 21 5.375 21h13.25C19.94 21 21 19.94 21 18.625V14h-2v4.625c0 .207-.168"
              ".375-.375.375H5.375A.375.375 0 0 1 5 18.625V5.375C5 5.168 5.168 5 5.375 5H10zm"
              "4-2v2h3.586l-7.293 7.293 1.414 1.414L19 6.414V10h2V3h-7z\"/></svg>")
CHEVRON = ("<svg class=\"chevron\" width=\"24\" height=\"24\" viewBox=\"0 0 24 24\">"
           "<path fill=\"currentColor\" d=\"M16.59 8.59 12 13.17 7.41 8.59 6 10l6 6 6-6z\"/>"
           "</svg>")
FILE_ICON = ("<svg class=\"file-icon\" width=\"30\" height=\"40\" viewBox=\"0 0 30 40\">"
             "<path fill=\"#f2f3f5\" d=\"M2 0h18l10 10v28a2 2 0 0 1-2 2H2a2 2 0 0 1-2-2V2a2"
             " 2 0 0 1 2-2z\"/><path fill=\"#c4c9ce\" d=\"M20 0l10 10h-8a2 2 0 0 1-2-2z\"/>"
             "<path fill=\"#5865f2\" d=\"M6 18h18v2H6zm0 5h18v2H6zm0 5h12v2H6z\"/></svg>")


def components_html(page: Page, message: Message) -> str:
    """Legacy action rows, or a Components V2 layout when the message has the flag."""
    v2 = bool(message.flags & MessageFlag.IS_COMPONENTS_V2)
    inner = "".join(_component(page, message, c) for c in message.components
                    if isinstance(c, dict))
    return f"<div class=\"{'v2' if v2 else 'components'}\">{inner}</div>"


def _component(page: Page, message: Message, component: dict[str, Any]) -> str:
    kind = component.get("type")
    draw = {
        ACTION_ROW: _action_row, BUTTON: _button_in, SECTION: _section,
        TEXT_DISPLAY: _text_display, THUMBNAIL: _thumbnail, MEDIA_GALLERY: _gallery,
        FILE: _file, SEPARATOR: _separator, CONTAINER: _container,
    }.get(kind if isinstance(kind, int) else -1)
    if draw is not None:
        return draw(page, message, component)
    if kind == STRING_SELECT or kind in ENTITY_SELECTS:
        return _select(page, component)
    return f"<div class=\"unknown\">[component type {esc(str(kind))}]</div>"


def _action_row(page: Page, message: Message, row: dict[str, Any]) -> str:
    items = "".join(_component(page, message, c) for c in row.get("components") or []
                    if isinstance(c, dict))
    return f"<div class=\"row\">{items}</div>"


def _button_in(page: Page, message: Message, button: dict[str, Any]) -> str:
    return _button(page, button)


def _button(page: Page, button: dict[str, Any]) -> str:
    """A button in its style's colour; a link button carries the external-link arrow
    and its address (``data-url``), a disabled one the ``disabled`` class."""
    style = BUTTON_STYLES.get(int_or_none(button.get("style")) or 2, "secondary")
    classes = f"btn {style}" + (" disabled" if button.get("disabled") else "")
    label = button.get("label")
    if style == "premium" and not label:
        label = "Premium"
    parts = [emoji_html(page, button.get("emoji"))]
    if label:
        parts.append(f"<span class=\"label\">{esc(str(label))}</span>")
    if style == "link":
        parts.append(LINK_ARROW)
    only_emoji = " icon-only" if not label and button.get("emoji") else ""
    custom_id = esc(str(button.get("custom_id") or ""))
    url = str(button.get("url") or "")
    # A script may open it: only the kinds of address Discord lets a link button have.
    link = f" data-url=\"{esc(url)}\"" if style == "link" and LINK_URL.match(url) else ""
    # A real button: a tab stop, named by its label, pressed with Enter or Space.
    # Disabled stays focusable and says so, as Discord's own dimmed buttons do.
    dimmed = " aria-disabled=\"true\"" if button.get("disabled") else ""
    named = "" if label else f" aria-label=\"{_emoji_name(button.get('emoji'))}\""
    return (f"<button type=\"button\" class=\"{classes}{only_emoji}\" "
            f"data-custom-id=\"{custom_id}\"{link}{dimmed}{named}>{''.join(parts)}</button>")


def _emoji_name(emoji: Any) -> str:
    """What an emoji-only button is called: its emoji's name, or the character."""
    if not isinstance(emoji, dict):
        return "button"
    return esc(str(emoji.get("name") or "button"))


def _select(page: Page, select: dict[str, Any]) -> str:
    """A closed select menu: the options chosen by default, else its placeholder.

    The menu's options follow in a ``hidden`` list (a photograph shows the menu
    closed; a live page's script opens it), its bounds in ``data-min-values`` and
    ``data-max-values``, and its kind in ``data-select-type`` (a user, role,
    mentionable or channel select lists no options: Discord's client fills those in)."""
    options = [o for o in select.get("options") or [] if isinstance(o, dict)]
    chosen = [o for o in options if o.get("default")]
    if chosen:
        shown = ", ".join(
            emoji_html(page, o.get("emoji")) + esc(str(o.get("label", ""))) for o in chosen)
        value = f"<span class=\"select-value\">{shown}</span>"
    else:
        defaults = [_default_value(page, d) for d in select.get("default_values") or []]
        if defaults:
            value = f"<span class=\"select-value\">{esc(', '.join(defaults))}</span>"
        else:
            placeholder = select.get("placeholder") or "Make a selection"
            value = f"<span class=\"select-placeholder\">{esc(str(placeholder))}</span>"
    classes = "select" + (" disabled" if select.get("disabled") else "")
    custom_id = esc(str(select.get("custom_id", "")))
    kind = ENTITY_SELECTS.get(int_or_none(select.get("type")) or STRING_SELECT, "string")
    bounds = (f" data-min-values=\"{_bound(select.get('min_values'))}\""
              f" data-max-values=\"{_bound(select.get('max_values'))}\"")
    menu = "".join(_select_option(page, o) for o in options)
    # A tab stop that opens its list with Enter or Space, as Discord's menus do.
    access = (" tabindex=\"0\" role=\"button\" aria-haspopup=\"listbox\""
              + (" aria-disabled=\"true\"" if select.get("disabled") else ""))
    return (f"<div class=\"{classes}\" data-custom-id=\"{custom_id}\" data-select-type=\"{kind}\""
            f"{bounds}{access}>{value}{CHEVRON}<div class=\"select-options\" hidden>{menu}</div>"
            "</div>")


def _bound(value: Any) -> int:
    """A select's ``min_values`` or ``max_values``; Discord's default for both is 1."""
    number = int_or_none(value)
    return 1 if number is None or isinstance(value, bool) else number


def _select_option(page: Page, option: dict[str, Any]) -> str:
    """One entry of the open menu: emoji, label and description; ``default`` if chosen."""
    classes = "select-option" + (" default" if option.get("default") else "")
    value = esc(str(option.get("value", "")))
    description = option.get("description")
    about = (f"<span class=\"select-option-description\">{esc(str(description))}</span>"
             if description else "")
    return (f"<div class=\"{classes}\" data-value=\"{value}\">"
            f"{emoji_html(page, option.get('emoji'))}<span class=\"select-option-text\">"
            f"<span class=\"select-option-label\">{esc(str(option.get('label', '')))}</span>"
            f"{about}</span></div>")


def _default_value(page: Page, value: Any) -> str:
    """A default of a user/role/channel select, by name."""
    if not isinstance(value, dict):
        return ""
    target = int_or_none(value.get("id")) or 0
    kind = value.get("type")
    if kind == "role":
        return "@" + role_name(page, target)
    if kind == "channel":
        return channel_mention(page, target)
    return "@" + user_name(page, target)


def _container(page: Page, message: Message, container: dict[str, Any]) -> str:
    """A V2 container: a card with its accent colour as a bar on the left; a spoiler
    one is blurred behind a SPOILER label until clicked."""
    colour = css_colour(container.get("accent_color"))
    style = f" style=\"border-left:4px solid {colour}\"" if colour else ""
    inner = "".join(_component(page, message, c) for c in container.get("components") or []
                    if isinstance(c, dict))
    if container.get("spoiler"):
        inner = (f"<div class=\"spoiler-blur\">{inner}</div>"
                 "<span class=\"spoiler-label\">SPOILER</span>")
    return f"<div class=\"container\"{style}>{inner}</div>"


def _section(page: Page, message: Message, section: dict[str, Any]) -> str:
    """Texts on the left, the accessory (a button or a thumbnail) on the right."""
    texts = "".join(_component(page, message, c) for c in section.get("components") or []
                    if isinstance(c, dict))
    accessory = section.get("accessory")
    side = _component(page, message, accessory) if isinstance(accessory, dict) else ""
    return (f"<div class=\"section\"><div class=\"section-texts\">{texts}</div>"
            f"<div class=\"accessory\">{side}</div></div>")


def _text_display(page: Page, message: Message, text: dict[str, Any]) -> str:
    return f"<div class=\"text-display\">{markdown(page, str(text.get('content') or ''))}</div>"


def _thumbnail(page: Page, message: Message, thumbnail: dict[str, Any]) -> str:
    url = (thumbnail.get("media") or {}).get("url")
    img = image_html(page, message, url, "media", alt=thumbnail.get("description"))
    spoiler = " spoiler-media" if thumbnail.get("spoiler") else ""
    return f"<div class=\"thumbnail{spoiler}\">{img}</div>"


def _gallery(page: Page, message: Message, gallery: dict[str, Any]) -> str:
    """Up to ten images in a grid: one alone is shown whole, more share columns."""
    items = [i for i in gallery.get("items") or [] if isinstance(i, dict)]
    columns = 1 if len(items) == 1 else 2 if len(items) in (2, 4) else 3
    cells = "".join(_gallery_item(page, message, item) for item in items)
    return f"<div class=\"gallery cols-{columns}\">{cells}</div>"


def _gallery_item(page: Page, message: Message, item: dict[str, Any]) -> str:
    url = (item.get("media") or {}).get("url")
    spoiler = " spoiler-media" if item.get("spoiler") else ""
    image = image_html(page, message, url, "media", alt=item.get("description"))
    return f"<div class=\"gallery-item{spoiler}\">{image}</div>"


def _separator(page: Page, message: Message, separator: dict[str, Any]) -> str:
    divider = separator.get("divider", True)
    spacing = "large" if separator.get("spacing") == 2 else "small"
    return f"<div class=\"separator {spacing}{' divider' if divider else ''}\"></div>"


def _file(page: Page, message: Message, component: dict[str, Any]) -> str:
    url = str((component.get("file") or {}).get("url") or "")
    name = url.removeprefix("attachment://").rsplit("/", 1)[-1]
    attachment = next((a for a in message.attachments
                       if a.get("filename") == name or url in (a.get("url"), a.get("proxy_url"))),
                      None)
    size = attachment.get("size") if attachment else None
    return _file_box(name, size if isinstance(size, int) else None,
                     spoiler=bool(component.get("spoiler")))


def _file_box(name: str, size: int | None, *, spoiler: bool = False) -> str:
    shown_size = f"<div class=\"file-size\">{_size(size)}</div>" if size is not None else ""
    spoiler_class = " spoiler-media" if spoiler else ""
    return (f"<div class=\"file{spoiler_class}\">{FILE_ICON}<div class=\"file-meta\">"
            f"<div class=\"link file-name\">{esc(name)}</div>{shown_size}</div></div>")


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.2f} KB"
    return f"{size / (1024 * 1024):.2f} MB"


def attachment_html(page: Page, message: Message, attachment: dict[str, Any]) -> str:
    """An uploaded image is drawn inline; any other file as a file box."""
    name = str(attachment.get("filename", ""))
    data = message.file_data.get(name)
    content_type = str(attachment.get("content_type") or "")
    if data is not None and IMAGE_TYPE.fullmatch(content_type):
        return (f"<div class=\"attachment-image\"><img class=\"media\" "
                f"src=\"{data_uri(data, content_type)}\" alt=\"{esc(name)}\"></div>")
    size = attachment.get("size")
    return _file_box(name, size if isinstance(size, int) else None)


def used_by_components(message: Message, attachment: dict[str, Any]) -> bool:
    """An attachment a V2 component shows (``attachment://name``, or the upload's own
    address once Discord has unfurled it) is not listed again."""
    wanted = {f"attachment://{attachment.get('filename', '')}",
              attachment.get("url"), attachment.get("proxy_url")} - {None, ""}
    return any((c.get("media") or c.get("file") or {}).get("url") in wanted
               for c in walk(message.components) if c.get("type") in (THUMBNAIL, FILE)) or any(
        (item.get("media") or {}).get("url") in wanted
        for c in walk(message.components) if c.get("type") == MEDIA_GALLERY
        for item in c.get("items") or [])
