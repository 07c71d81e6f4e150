"""What a person sees: stored messages drawn as a page in Discord's dark theme.

Assertions on ``Message.text()`` say what the bot wrote; they cannot say whether
it reads well, whether a row of buttons wraps on a phone, or whether a hand of
cards is legible. ``render`` turns messages the emulator stored into one
standalone HTML page (inline CSS, no scripts, nothing fetched from the network)
that looks like Discord's client, so a person can open it or photograph it
(``photograph.py``) and look::

    page = render(emu, alice.visible_messages(channel), viewer=alice, title="Lobby")
    photograph(page, Path("/tmp/lobby.png"), width=400)

It draws authors (a coloured circle with the initial, an APP tag for the bot),
the "alice used /rummy start" line or the reply preview above interaction
answers, Discord markdown, mentions, timestamps, custom emoji (from the
emulator's application emojis, as ``data:`` images), embeds, buttons and
selects, Components V2 layouts, attachments, and the "Only you can see this"
line under ephemeral messages. Every piece of text is HTML-escaped: what a bot
or a person writes can never become markup.

It is an approximation for eyes, not a pixel copy of the client: widths,
colours and spacing follow Discord's desktop dark theme closely enough to judge
a layout, and a narrow ``width`` (about 400 px) behaves like the phone app.
"""

from __future__ import annotations

import base64
import contextlib
import html
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any, Protocol

from .world import MENTION, Channel, Message, MessageFlag, User, World

if TYPE_CHECKING:
    from .actors import Actor
    from .server import FakeDiscord

# Discord's default avatar colours. The client picks one from the id's timestamp
# bits; the emulator makes everyone in the same millisecond, so the low bits pick
# here, and people on one page get different colours.
AVATAR_COLOURS = ("#5865f2", "#757e8a", "#3ba55c", "#faa61a", "#ed4245", "#eb459e")
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link",
                 6: "premium"}
GROUP_WINDOW = timedelta(minutes=7)  # the client folds a run of messages by one author
IMAGE_TYPE = re.compile(r"image/(png|jpeg|gif|webp)")
CDN_EMOJI = re.compile(r"https://(?:cdn|media)\.discordapp\.(?:com|net)/emojis/(\d+)\.\w+")
DISCORD_LINK = re.compile(
    r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/channels/(?:\d+|@me)/(\d+)(?:/(\d+))?/?")
JUMBO = re.compile(r"(?:\s*<a?:\w{2,32}:\d{1,20}>){1,27}\s*")

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9, 10, 11, 12, 13, 14, 17)
ENTITY_SELECTS = {5: "users", 6: "roles", 7: "mentionables", 8: "channels"}


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
class _Page:
    """What every drawing function needs: the world to resolve ids, and the viewer's
    clock and identity (for relative times and highlighted mentions)."""

    world: World
    viewer_id: int | None
    now: float
    tz: tzinfo
    emojis: Mapping[int, EmojiImage]
    guild_id: int | None = None
    _data_uris: dict[int, str | None] = field(default_factory=dict)

    def emoji_uri(self, emoji_id: int) -> str | None:
        """The emoji's image as a data: URI (encoded once per page), None if unknown."""
        if emoji_id not in self._data_uris:
            emoji = self.emojis.get(emoji_id)
            self._data_uris[emoji_id] = (
                None if emoji is None else _data_uri(emoji.image, emoji.content_type))
        return self._data_uris[emoji_id]


def render(emu: FakeDiscord, messages: Sequence[Message], *,
           viewer: User | Actor | None = None, title: str = "", width: int = 800,
           now: float | None = None, tz: tzinfo = UTC) -> str:
    """A whole HTML page drawing ``messages`` in order, as Discord's dark theme does.

    ``viewer`` is the person looking: ephemeral messages meant for someone else are
    left out (they would not see them) and messages mentioning them are
    highlighted. Deleted messages a test still holds are left out too. ``title``
    names the page and is shown as a caption above the conversation. ``width`` is
    the widest the conversation column gets (800 px is the desktop message column;
    the page also reads at phone width).
    ``now`` (Unix seconds, default the current time, the clock the emulator's
    snowflakes and timestamps use) is what "Today at" and ``<t:...:R>`` are
    relative to; times are shown in ``tz``.
    """
    viewer_user = getattr(viewer, "user", viewer)
    viewer_id = viewer_user.id if isinstance(viewer_user, User) else None
    world = emu.world
    page = _Page(world, viewer_id, time.time() if now is None else now, tz,
                 getattr(world, "application_emojis", None) or {})
    shown = [m for m in messages if not m.deleted
             and (viewer_id is None or m.visible_to in (None, viewer_id))]
    channel = world.channels.get(shown[0].channel_id) if shown else None
    page.guild_id = channel.guild_id if channel is not None else None
    body = "".join(_messages(page, shown))
    head_title = title or (_channel_title(page, channel) if channel else "Discord")
    return (
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{_esc(head_title)}</title><style>{_css(width)}</style></head>"
        f"<body><div class=\"page\">{_topbar(page, channel)}{_caption(title)}"
        f"<div class=\"log\">{body}</div></div></body></html>"
    )


# -- page frame ------------------------------------------------------------------------


def _channel_title(page: _Page, channel: Channel) -> str:
    return f"@{_dm_partner(page, channel)}" if channel.is_dm else f"#{channel.name}"


def _dm_partner(page: _Page, channel: Channel) -> str:
    """Whom a DM is with, seen by the person: the bot, unless the bot is looking."""
    if page.viewer_id == page.world.bot.id and channel.recipient_id is not None:
        return _user_name(page, channel.recipient_id)
    return page.world.bot.name


def _topbar(page: _Page, channel: Channel | None) -> str:
    """The channel header of the client: ``# name | Server`` or ``@ Bot`` for a DM."""
    if channel is None:
        return ""
    if channel.is_dm:
        icon, name, topic = "@", _dm_partner(page, channel), "Direct Message"
    else:
        guild = page.world.guilds.get(channel.guild_id or 0)
        icon, name, topic = "#", channel.name, guild.name if guild else ""
    topic_html = f"<span class=\"topic\">{_esc(topic)}</span>" if topic else ""
    return (f"<div class=\"topbar\"><span class=\"chan-icon\">{icon}</span>"
            f"<span class=\"chan-name\">{_esc(name)}</span>{topic_html}</div>")


def _caption(title: str) -> str:
    return f"<div class=\"caption\">{_esc(title)}</div>" if title else ""


# -- messages ----------------------------------------------------------------------------


def _messages(page: _Page, messages: Sequence[Message]) -> Iterator[str]:
    previous: Message | None = None
    for message in messages:
        yield _message(page, message, grouped=_grouped(previous, message))
        previous = message


def _grouped(previous: Message | None, message: Message) -> bool:
    """The client draws a message without avatar and name when it follows one by the
    same author within minutes and has no header line of its own."""
    if previous is None or previous.author_id != message.author_id:
        return False
    if message.interaction_id is not None or message.message_reference:
        return False
    gap = _when(message.created_at) - _when(previous.created_at)
    return timedelta(0) <= gap < GROUP_WINDOW


def _message(page: _Page, message: Message, *, grouped: bool) -> str:
    classes = ["msg"]
    if grouped:
        classes.append("grouped")
    if _mentions_viewer(page, message):
        classes.append("mentioned")
    top = _context_line(page, message)
    head = "" if grouped else _avatar(page, message.author_id) + _head(page, message)
    body = _body(page, message)
    note = _ephemeral_note() if message.ephemeral else ""
    return (f"<div class=\"{' '.join(classes)}\" data-message-id=\"{message.id}\">{top}"
            f"<div class=\"main\">{head}{body}{note}</div></div>")


def _mentions_viewer(page: _Page, message: Message) -> bool:
    """Discord highlights a message that pings the person looking at it."""
    if page.viewer_id is None or page.viewer_id == message.author_id:
        return False
    text = "\n".join([message.content, *_text_displays(message.components)])
    pinged = {int(i) for i in MENTION.findall(text)}
    return page.viewer_id in pinged or "@everyone" in text or "@here" in text


def _text_displays(components: list[dict[str, Any]]) -> Iterator[str]:
    for component in _walk(components):
        if component.get("type") == TEXT_DISPLAY:
            yield str(component.get("content") or "")


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        yield from _walk(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def _avatar(page: _Page, user_id: int, *, small: bool = False) -> str:
    name = _user_name(page, user_id)
    initial = name[:1].upper() or "?"
    colour = AVATAR_COLOURS[user_id % len(AVATAR_COLOURS)]
    kind = "avatar small" if small else "avatar"
    return f"<span class=\"{kind}\" style=\"background:{colour}\">{_esc(initial)}</span>"


def _head(page: _Page, message: Message) -> str:
    author = page.world.users.get(message.author_id)
    tag = "<span class=\"tag\">✓ APP</span>" if author is not None and author.bot else ""
    when = _clock(page, _when(message.created_at))
    return (f"<div class=\"head\"><span class=\"name\">{_esc(_user_name(page, message.author_id))}"
            f"</span>{tag}<span class=\"time\">{_esc(when)}</span></div>")


def _context_line(page: _Page, message: Message) -> str:
    """The line above an answer: who used which command, or the message it replies to
    (a button's answer refers to the message the button is on)."""
    interaction = page.world.interactions.get(message.interaction_id or 0)
    if interaction is not None and interaction.type == 2:
        command = _command_name(interaction.data)
        return (f"<div class=\"ref\">{_avatar(page, interaction.user_id, small=True)}"
                f"<span class=\"ref-name\">{_esc(_user_name(page, interaction.user_id))}</span>"
                f"<span class=\"ref-used\">used</span>"
                f"<span class=\"ref-command\">/{_esc(command)}</span></div>")
    referenced: int | None = None
    if interaction is not None:
        referenced = interaction.message_id
    elif message.message_reference:
        referenced = _int(message.message_reference.get("message_id"))
    if referenced is None:
        return ""
    return _reply_preview(page, referenced)


def _command_name(data: dict[str, Any]) -> str:
    """``rummy start`` from the command's data: its name and chosen subcommands."""
    words = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(str(options[0].get("name", "")))
        options = options[0].get("options") or []
    return " ".join(w for w in words if w)


def _reply_preview(page: _Page, message_id: int) -> str:
    target = page.world.messages.get(message_id)
    if target is None:
        return ("<div class=\"ref\"><span class=\"ref-missing\">Original message was deleted"
                "</span></div>")
    snippet = _snippet(target)
    text = (f"<span class=\"ref-text\">{_inline(page, snippet)}</span>" if snippet else
            "<span class=\"ref-text ref-attachment\">Click to see attachment</span>")
    return (f"<div class=\"ref\">{_avatar(page, target.author_id, small=True)}"
            f"<span class=\"ref-name\">@{_esc(_user_name(page, target.author_id))}</span>"
            f"{text}</div>")


# A heading, a subtext or a quote mark opening a line: the preview drops it.
_BLOCK_MARK = re.compile(r"^(?:#{1,3} |-# |>>> |> )")


def _snippet(message: Message) -> str:
    """The first line of what a message says, as the reply preview shows it:
    inline formatting kept, a line's block mark (heading, subtext, quote) not."""
    texts = [message.content, *_text_displays(message.components)]
    first = next((line for t in texts for line in t.splitlines() if line.strip()), "")
    line = " ".join(_BLOCK_MARK.sub("", first.strip()).split())
    return line[:120] + ("…" if len(line) > 120 else "")


def _body(page: _Page, message: Message) -> str:
    if message.loading:
        name = _esc(_user_name(page, message.author_id))
        return f"<div class=\"thinking\">{name} is thinking<span class=\"dots\">…</span></div>"
    parts = []
    if message.content:
        edited = "<span class=\"edited\">(edited)</span>" if message.edited_at else ""
        parts.append(_markdown(page, message.content, suffix=edited,
                               jumbo=bool(JUMBO.fullmatch(message.content))))
    parts += [_attachment(page, message, a) for a in message.attachments
              if not _used_by_components(message, a)]
    if not message.flags & MessageFlag.SUPPRESS_EMBEDS:
        parts += [_embed(page, message, e) for e in message.embeds]
    if message.components:
        parts.append(_components(page, message))
    return "".join(parts)


def _used_by_components(message: Message, attachment: dict[str, Any]) -> bool:
    """An attachment a V2 component shows (``attachment://name``, or the upload's own
    address once Discord has unfurled it) is not listed again."""
    wanted = {f"attachment://{attachment.get('filename', '')}",
              attachment.get("url"), attachment.get("proxy_url")} - {None, ""}
    return any((c.get("media") or c.get("file") or {}).get("url") in wanted
               for c in _walk(message.components) if c.get("type") in (THUMBNAIL, FILE)) or any(
        (item.get("media") or {}).get("url") in wanted
        for c in _walk(message.components) if c.get("type") == MEDIA_GALLERY
        for item in c.get("items") or [])


def _ephemeral_note() -> str:
    return ("<div class=\"eph\">" + _EYE + "<span>Only you can see this</span>"
            "<span class=\"eph-dot\">•</span><span class=\"link\">Dismiss message</span></div>")


# -- names and times -----------------------------------------------------------------------


def _user_name(page: _Page, user_id: int) -> str:
    """The server nickname where there is one, else the user's name."""
    guild = page.world.guilds.get(page.guild_id or 0)
    member = guild.members.get(user_id) if guild is not None else None
    if member is not None and member.nick:
        return member.nick
    user = page.world.users.get(user_id)
    return user.name if user is not None else "unknown-user"


def _when(iso: str) -> datetime:
    stamp = datetime.fromisoformat(iso)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def _clock(page: _Page, moment: datetime) -> str:
    """The message header's time: "Today at 09:44", as the client writes it."""
    local = moment.astimezone(page.tz)
    today = datetime.fromtimestamp(page.now, page.tz).date()
    if local.date() == today:
        return f"Today at {local:%H:%M}"
    if local.date() == today - timedelta(days=1):
        return f"Yesterday at {local:%H:%M}"
    return f"{local:%d/%m/%Y %H:%M}"


def _timestamp(page: _Page, unix: int, style: str) -> str:
    """``<t:unix:style>`` as the client shows it to the viewer."""
    if style == "R":
        return _relative(unix - page.now)
    try:
        moment = datetime.fromtimestamp(unix, page.tz)
    except (OverflowError, OSError, ValueError):
        return "Invalid Date"
    day = f"{moment.day} {moment:%B %Y}"
    shown = {"t": f"{moment:%H:%M}", "T": f"{moment:%H:%M:%S}", "d": f"{moment:%d/%m/%Y}",
             "D": day, "F": f"{moment:%A}, {day} {moment:%H:%M}"}
    return shown.get(style, f"{day} {moment:%H:%M}")


def _relative(seconds: float) -> str:
    """"in 2 minutes" / "3 hours ago", rounded the way the client rounds."""
    size = abs(seconds)
    units = ((60, 1, "second"), (3600, 60, "minute"), (86400, 3600, "hour"),
             (86400 * 30, 86400, "day"), (86400 * 365, 86400 * 30, "month"))
    count, unit = int(size / (86400 * 365) + 0.5), "year"
    for limit, length, name in units:
        if size < limit - length / 2:
            count, unit = int(size / length + 0.5), name
            break
    phrase = f"{count} {unit}{'' if count == 1 else 's'}"
    return f"in {phrase}" if seconds >= 0 else f"{phrase} ago"


# -- markdown ------------------------------------------------------------------------------

_FENCE = re.compile(r"```(?:([\w+#.-]{1,20})\n)?(.*?)```", re.S)
_HEADING = re.compile(r"(#{1,3}) +(\S.*)")
_SUBTEXT = re.compile(r"-# +(\S.*)")
_LIST_ITEM = re.compile(r"( *)([-*]|\d{1,9}\.) +(\S.*)")
_INLINE = re.compile(
    r"\\(?P<escaped>[^\sA-Za-z0-9])"
    r"|(?P<ticks>``?)(?P<code>[^`].*?)(?P=ticks)"
    r"|<(?P<animated>a?):(?P<ename>\w{2,32}):(?P<eid>\d{1,20})>"
    r"|<@!?(?P<uid>\d{1,20})>"
    r"|<@&(?P<rid>\d{1,20})>"
    r"|<#(?P<cid>\d{1,20})>"
    r"|</(?P<cmd>[\w -]{1,100}):(?P<cmdid>\d{1,20})>"
    r"|<t:(?P<ts>-?\d{1,13})(?::(?P<tstyle>[tTdDfFR]))?>"
    r"|(?P<everyone>@everyone|@here)\b"
    r"|\[(?P<ltext>[^\[\]]+)\]\(<?(?P<lurl>https?://[^\s()<>]+)>?\)"
    r"|<(?P<aurl>https?://[^\s<>]+)>"
    r"|(?P<url>https?://[^\s<]*[^\s<.,:;\"')\]!?*_~|])"
    r"|\*\*\*(?P<bi>\S(?:.*?\S)?)\*\*\*"
    r"|\*\*(?P<b>\S(?:.*?\S)?)\*\*"
    r"|__(?P<u>\S(?:.*?\S)?)__"
    r"|\*(?P<i>[^\s*](?:.*?[^\s*])?)\*(?!\*)"
    r"|(?<![A-Za-z0-9_])_(?P<i2>[^\s_](?:.*?[^\s_])?)_(?![A-Za-z0-9_])"
    r"|~~(?P<s>\S(?:.*?\S)?)~~"
    r"|\|\|(?P<sp>.+?)\|\|"
)


def _markdown(page: _Page, text: str, *, suffix: str = "", jumbo: bool = False,
              headings: bool = True) -> str:
    """Discord markdown as HTML: code blocks first (nothing inside them is markup),
    then block syntax line by line, then inline syntax within each line."""
    blocks: list[str] = []
    position = 0
    for fence in _FENCE.finditer(text):
        before = text[position:fence.start()]
        blocks += _lines(page, before.removesuffix("\n"), headings=headings)
        code = fence.group(2).strip("\n")
        blocks.append(f"<pre class=\"codeblock\"><code>{_esc(code)}</code></pre>")
        position = fence.end() + (1 if text[fence.end():].startswith("\n") else 0)
    blocks += _lines(page, text[position:], headings=headings)
    if suffix and blocks and blocks[-1].startswith("<div class=\"line\">"):
        blocks[-1] = blocks[-1].removesuffix("</div>") + suffix + "</div>"
    elif suffix:
        blocks.append(f"<div class=\"line\">{suffix}</div>")
    kind = "md jumbo" if jumbo else "md"
    return f"<div class=\"{kind}\">{''.join(blocks)}</div>"


def _lines(page: _Page, text: str, *, headings: bool = True, quoted: bool = False) -> list[str]:
    """Block syntax: quotes, headings, subtext, lists; any other line is a line."""
    if not text:
        return []
    lines = text.split("\n")
    blocks: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if not quoted and (line.startswith(">>> ") or line == ">>>"):
            rest = "\n".join([line[4:], *lines[index + 1:]])
            blocks.append(_quote(_lines(page, rest, headings=headings, quoted=True)))
            break
        if not quoted and (line.startswith("> ") or line == ">"):
            quoted_lines = []
            while index < len(lines) and (lines[index].startswith("> ") or lines[index] == ">"):
                quoted_lines.append(lines[index][2:])
                index += 1
            blocks.append(_quote(_lines(page, "\n".join(quoted_lines), headings=headings,
                                        quoted=True)))
            continue
        if _LIST_ITEM.fullmatch(line):
            items = []
            while index < len(lines) and _LIST_ITEM.fullmatch(lines[index]):
                items.append(_LIST_ITEM.fullmatch(lines[index]))
                index += 1
            blocks.append(_list(page, [i for i in items if i is not None]))
            continue
        blocks.append(_block_line(page, line, headings=headings))
        index += 1
    return blocks


def _block_line(page: _Page, line: str, *, headings: bool) -> str:
    heading = _HEADING.fullmatch(line) if headings else None
    if heading:
        level = len(heading.group(1))
        return f"<h{level}>{_inline(page, heading.group(2))}</h{level}>"
    subtext = _SUBTEXT.fullmatch(line)
    if subtext:
        return f"<div class=\"subtext\">{_inline(page, subtext.group(1))}</div>"
    return f"<div class=\"line\">{_inline(page, line) or '<br>'}</div>"


def _quote(blocks: list[str]) -> str:
    return f"<blockquote><div class=\"quote-bar\"></div><div>{''.join(blocks)}</div></blockquote>"


def _list(page: _Page, items: list[re.Match[str]]) -> str:
    """A run of list items; an ordered list keeps its first number, indents nest a level."""
    ordered = items[0].group(2)[0].isdigit()
    tag = "ol" if ordered else "ul"
    start = f" start=\"{int(items[0].group(2)[:-1])}\"" if ordered else ""
    entries = "".join(
        f"<li style=\"margin-left:{min(len(i.group(1)) // 2, 4) * 20}px\">"
        f"{_inline(page, i.group(3))}</li>" for i in items)
    return f"<{tag}{start}>{entries}</{tag}>"


def _inline(page: _Page, text: str) -> str:
    """Inline syntax, leftmost first; the text between tokens is escaped."""
    out: list[str] = []
    position = 0
    for token in _INLINE.finditer(text):
        out.append(_esc(text[position:token.start()]))
        out.append(_inline_token(page, token))
        position = token.end()
    out.append(_esc(text[position:]))
    return "".join(out)


_WRAPPERS = {"bi": ("<strong><em>", "</em></strong>"), "b": ("<strong>", "</strong>"),
             "u": ("<u>", "</u>"), "i": ("<em>", "</em>"), "i2": ("<em>", "</em>"),
             "s": ("<s>", "</s>"), "sp": ("<span class=\"spoiler\">", "</span>")}


def _inline_token(page: _Page, token: re.Match[str]) -> str:
    kind = token.lastgroup
    if kind == "ticks" or token.group("code") is not None:
        return f"<code class=\"inline\">{_esc(token.group('code'))}</code>"
    if kind in _WRAPPERS:
        start, end = _WRAPPERS[kind]
        return start + _inline(page, token.group(kind)) + end
    return _entity(page, token)


def _entity(page: _Page, token: re.Match[str]) -> str:
    """Escapes, mentions, emoji, timestamps and links: what is not emphasis."""
    groups = token.groupdict()
    if groups["escaped"] is not None:
        return _esc(groups["escaped"])
    if groups["eid"] is not None:
        return _emoji_html(page, {"id": groups["eid"], "name": groups["ename"]})
    if groups["uid"] is not None:
        return _mention("@" + _user_name(page, int(groups["uid"])))
    if groups["rid"] is not None:
        return _mention("@" + _role_name(page, int(groups["rid"])))
    if groups["cid"] is not None:
        return _mention(_channel_mention(page, int(groups["cid"])))
    if groups["cmd"] is not None:
        return _mention("/" + groups["cmd"])
    if groups["ts"] is not None:
        shown = _timestamp(page, int(groups["ts"]), groups["tstyle"] or "f")
        return f"<span class=\"timestamp\">{_esc(shown)}</span>"
    if groups["everyone"] is not None:
        return _mention(groups["everyone"])
    if groups["ltext"] is not None:
        return _link(groups["lurl"], _inline(page, groups["ltext"]))
    url = groups["aurl"] or groups["url"]
    return _discord_link(page, url) or _link(url, _esc(url))


def _discord_link(page: _Page, url: str) -> str | None:
    """A link to a channel or a message the world knows is drawn as the client draws
    it: a chip ``#channel`` or ``#channel › (message)``."""
    found = DISCORD_LINK.fullmatch(url)
    channel = page.world.channels.get(int(found.group(1))) if found else None
    if found is None or channel is None:
        return None
    name = _esc(_channel_mention(page, channel.id))
    if found.group(2) is None:
        return f"<span class=\"mention\">{name}</span>"
    return (f"<span class=\"mention message-link\">{name}<span class=\"chevron-small\">›"
            f"</span>{_BUBBLE}</span>")


def _mention(text: str) -> str:
    return f"<span class=\"mention\">{_esc(text)}</span>"


def _link(url: str, inner_html: str) -> str:
    return f"<a class=\"link\" href=\"{_esc(url)}\">{inner_html}</a>"


def _role_name(page: _Page, role_id: int) -> str:
    for guild in page.world.guilds.values():
        role = guild.roles.get(role_id)
        if role is not None:
            return role.name.lstrip("@")
    return "deleted-role"


def _channel_mention(page: _Page, channel_id: int) -> str:
    channel = page.world.channels.get(channel_id)
    if channel is None:
        return "#unknown"
    return f"@{_dm_partner(page, channel)}" if channel.is_dm else f"#{channel.name}"


def _emoji_html(page: _Page, emoji: Mapping[str, Any] | None) -> str:
    """A custom emoji as its image (from the application's emojis), a unicode one as
    text; a custom emoji the emulator does not know stays ``:name:``, as in the client
    when an emoji was deleted."""
    if not emoji:
        return ""
    name = str(emoji.get("name") or "")
    emoji_id = _int(emoji.get("id"))
    if emoji_id is None:
        return f"<span class=\"uemoji\">{_esc(name)}</span>"
    uri = page.emoji_uri(emoji_id)
    if uri is None:
        return f"<span class=\"emoji-missing\">:{_esc(name)}:</span>"
    return (f"<img class=\"emoji\" src=\"{uri}\" alt=\":{_esc(name)}:\" "
            f"title=\":{_esc(name)}:\" data-emoji-id=\"{emoji_id}\">")


# -- embeds ---------------------------------------------------------------------------------


def _embed(page: _Page, message: Message, embed: dict[str, Any]) -> str:
    """A rich embed: colour bar, author, title, description, fields, images, footer."""
    colour = _colour(embed.get("color"))
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


def _embed_author(page: _Page, message: Message, author: dict[str, Any]) -> str:
    if not author.get("name"):
        return ""
    icon = _image(page, message, author.get("icon_url"), "embed-author-icon")
    return (f"<div class=\"embed-author\">{icon}<span>{_esc(str(author['name']))}"
            f"</span></div>")


def _embed_title(page: _Page, embed: dict[str, Any]) -> str:
    title = embed.get("title")
    if not title:
        return ""
    inner = _inline(page, str(title))
    if embed.get("url"):
        inner = _link(str(embed["url"]), inner)
    return f"<div class=\"embed-title\">{inner}</div>"


def _embed_description(page: _Page, description: Any) -> str:
    if not description:
        return ""
    return f"<div class=\"embed-description\">{_markdown(page, str(description))}</div>"


def _embed_fields(page: _Page, fields: list[dict[str, Any]], *, narrow: bool) -> str:
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
                f"<div class=\"embed-field-name\">{_inline(page, str(item.get('name', '')))}</div>"
                f"<div class=\"embed-field-value\">{_markdown(page, str(item.get('value', '')))}"
                "</div></div>")
    return f"<div class=\"embed-fields\">{''.join(cells)}</div>"


def _embed_image(page: _Page, message: Message, image: dict[str, Any]) -> str:
    if not image.get("url"):
        return ""
    return f"<div class=\"embed-image\">{_image(page, message, image['url'], 'media')}</div>"


def _embed_thumbnail(page: _Page, message: Message, thumbnail: dict[str, Any]) -> str:
    if not thumbnail.get("url"):
        return ""
    return (f"<div class=\"embed-thumbnail\">"
            f"{_image(page, message, thumbnail['url'], 'media')}</div>")


def _embed_footer(page: _Page, message: Message, embed: dict[str, Any]) -> str:
    footer = embed.get("footer") or {}
    parts = [str(footer["text"])] if footer.get("text") else []
    if embed.get("timestamp"):
        with contextlib.suppress(ValueError):
            parts.append(_clock(page, _when(str(embed["timestamp"]))))
    if not parts:
        return ""
    icon = _image(page, message, footer.get("icon_url"), "embed-footer-icon")
    return f"<div class=\"embed-footer\">{icon}<span>{_esc(' • '.join(parts))}</span></div>"


# -- components ------------------------------------------------------------------------------


def _components(page: _Page, message: Message) -> str:
    """Legacy action rows, or a Components V2 layout when the message has the flag."""
    v2 = bool(message.flags & MessageFlag.IS_COMPONENTS_V2)
    inner = "".join(_component(page, message, c) for c in message.components
                    if isinstance(c, dict))
    return f"<div class=\"{'v2' if v2 else 'components'}\">{inner}</div>"


def _component(page: _Page, message: Message, component: dict[str, Any]) -> str:
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
    return f"<div class=\"unknown\">[component type {_esc(str(kind))}]</div>"


def _action_row(page: _Page, message: Message, row: dict[str, Any]) -> str:
    items = "".join(_component(page, message, c) for c in row.get("components") or []
                    if isinstance(c, dict))
    return f"<div class=\"row\">{items}</div>"


def _button_in(page: _Page, message: Message, button: dict[str, Any]) -> str:
    return _button(page, button)


def _button(page: _Page, button: dict[str, Any]) -> str:
    """A button in its style's colour; a link button carries the external-link arrow."""
    style = BUTTON_STYLES.get(_int(button.get("style")) or 2, "secondary")
    classes = f"btn {style}" + (" disabled" if button.get("disabled") else "")
    label = button.get("label")
    if style == "premium" and not label:
        label = "Premium"
    parts = [_emoji_html(page, button.get("emoji"))]
    if label:
        parts.append(f"<span class=\"label\">{_esc(str(label))}</span>")
    if style == "link":
        parts.append(_LINK_ARROW)
    only_emoji = " icon-only" if not label and button.get("emoji") else ""
    custom_id = _esc(str(button.get("custom_id") or button.get("url") or ""))
    return (f"<span class=\"{classes}{only_emoji}\" data-custom-id=\"{custom_id}\">"
            f"{''.join(parts)}</span>")


def _select(page: _Page, select: dict[str, Any]) -> str:
    """A closed select menu: the options chosen by default, else its placeholder."""
    chosen = [o for o in select.get("options") or [] if isinstance(o, dict) and o.get("default")]
    if chosen:
        shown = ", ".join(
            _emoji_html(page, o.get("emoji")) + _esc(str(o.get("label", ""))) for o in chosen)
        value = f"<span class=\"select-value\">{shown}</span>"
    else:
        defaults = [_default_value(page, d) for d in select.get("default_values") or []]
        if defaults:
            value = f"<span class=\"select-value\">{_esc(', '.join(defaults))}</span>"
        else:
            placeholder = select.get("placeholder") or "Make a selection"
            value = f"<span class=\"select-placeholder\">{_esc(str(placeholder))}</span>"
    classes = "select" + (" disabled" if select.get("disabled") else "")
    custom_id = _esc(str(select.get("custom_id", "")))
    return (f"<div class=\"{classes}\" data-custom-id=\"{custom_id}\">{value}"
            f"{_CHEVRON}</div>")


def _default_value(page: _Page, value: Any) -> str:
    """A default of a user/role/channel select, by name."""
    if not isinstance(value, dict):
        return ""
    target = _int(value.get("id")) or 0
    kind = value.get("type")
    if kind == "role":
        return "@" + _role_name(page, target)
    if kind == "channel":
        return _channel_mention(page, target)
    return "@" + _user_name(page, target)


def _container(page: _Page, message: Message, container: dict[str, Any]) -> str:
    """A V2 container: a card with its accent colour as a bar on the left; a spoiler
    one is blurred behind a SPOILER label until clicked."""
    colour = _colour(container.get("accent_color"))
    style = f" style=\"border-left:4px solid {colour}\"" if colour else ""
    inner = "".join(_component(page, message, c) for c in container.get("components") or []
                    if isinstance(c, dict))
    if container.get("spoiler"):
        inner = (f"<div class=\"spoiler-blur\">{inner}</div>"
                 "<span class=\"spoiler-label\">SPOILER</span>")
    return f"<div class=\"container\"{style}>{inner}</div>"


def _section(page: _Page, message: Message, section: dict[str, Any]) -> str:
    """Texts on the left, the accessory (a button or a thumbnail) on the right."""
    texts = "".join(_component(page, message, c) for c in section.get("components") or []
                    if isinstance(c, dict))
    accessory = section.get("accessory")
    side = _component(page, message, accessory) if isinstance(accessory, dict) else ""
    return (f"<div class=\"section\"><div class=\"section-texts\">{texts}</div>"
            f"<div class=\"accessory\">{side}</div></div>")


def _text_display(page: _Page, message: Message, text: dict[str, Any]) -> str:
    return f"<div class=\"text-display\">{_markdown(page, str(text.get('content') or ''))}</div>"


def _thumbnail(page: _Page, message: Message, thumbnail: dict[str, Any]) -> str:
    url = (thumbnail.get("media") or {}).get("url")
    img = _image(page, message, url, "media", alt=thumbnail.get("description"))
    spoiler = " spoiler-media" if thumbnail.get("spoiler") else ""
    return f"<div class=\"thumbnail{spoiler}\">{img}</div>"


def _gallery(page: _Page, message: Message, gallery: dict[str, Any]) -> str:
    """Up to ten images in a grid: one alone is shown whole, more share columns."""
    items = [i for i in gallery.get("items") or [] if isinstance(i, dict)]
    columns = 1 if len(items) == 1 else 2 if len(items) in (2, 4) else 3
    cells = "".join(_gallery_item(page, message, item) for item in items)
    return f"<div class=\"gallery cols-{columns}\">{cells}</div>"


def _gallery_item(page: _Page, message: Message, item: dict[str, Any]) -> str:
    url = (item.get("media") or {}).get("url")
    spoiler = " spoiler-media" if item.get("spoiler") else ""
    image = _image(page, message, url, "media", alt=item.get("description"))
    return f"<div class=\"gallery-item{spoiler}\">{image}</div>"


def _separator(page: _Page, message: Message, separator: dict[str, Any]) -> str:
    divider = separator.get("divider", True)
    spacing = "large" if separator.get("spacing") == 2 else "small"
    return f"<div class=\"separator {spacing}{' divider' if divider else ''}\"></div>"


def _file(page: _Page, message: Message, component: dict[str, Any]) -> str:
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
    return (f"<div class=\"file{spoiler_class}\">{_FILE_ICON}<div class=\"file-meta\">"
            f"<div class=\"link file-name\">{_esc(name)}</div>{shown_size}</div></div>")


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.2f} KB"
    return f"{size / (1024 * 1024):.2f} MB"


def _attachment(page: _Page, message: Message, attachment: dict[str, Any]) -> str:
    """An uploaded image is drawn inline; any other file as a file box."""
    name = str(attachment.get("filename", ""))
    data = message.file_data.get(name)
    content_type = str(attachment.get("content_type") or "")
    if data is not None and IMAGE_TYPE.fullmatch(content_type):
        return (f"<div class=\"attachment-image\"><img class=\"media\" "
                f"src=\"{_data_uri(data, content_type)}\" alt=\"{_esc(name)}\"></div>")
    size = attachment.get("size")
    return _file_box(name, size if isinstance(size, int) else None)


# -- images -----------------------------------------------------------------------------------


def _image(page: _Page, message: Message, url: Any, css_class: str, *,
           alt: Any = None) -> str:
    """An image the page can show without the network: an upload of this message
    (``attachment://`` or its CDN address) or an application emoji's CDN address.
    Anything else is drawn as an empty frame, so the layout keeps its place."""
    if not url:
        return ""
    source = _media_source(page, message, str(url))
    label = _esc(str(alt or url))
    if source is None:
        return f"<span class=\"{css_class} missing-media\" title=\"{label}\">{_IMAGE_ICON}</span>"
    return f"<img class=\"{css_class}\" src=\"{source}\" alt=\"{label}\">"


def _media_source(page: _Page, message: Message, url: str) -> str | None:
    emoji = CDN_EMOJI.fullmatch(url.split("?", 1)[0])
    if emoji:
        return page.emoji_uri(int(emoji.group(1)))
    for attachment in message.attachments:
        name = str(attachment.get("filename", ""))
        if url in (f"attachment://{name}", attachment.get("url"), attachment.get("proxy_url")):
            data = message.file_data.get(name)
            content_type = str(attachment.get("content_type") or "")
            if data is not None and IMAGE_TYPE.fullmatch(content_type):
                return _data_uri(data, content_type)
    return None


def _data_uri(data: bytes, content_type: str) -> str | None:
    """Only raster image types: anything else could carry markup of its own."""
    if not IMAGE_TYPE.fullmatch(content_type):
        return None
    return f"data:{content_type};base64,{base64.b64encode(data).decode('ascii')}"


# -- small helpers ------------------------------------------------------------------------------


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _colour(value: Any) -> str | None:
    """``#rrggbb`` from Discord's integer colours; None for none (or nonsense)."""
    number = _int(value)
    if number is None or isinstance(value, bool):
        return None
    return f"#{number & 0xFFFFFF:06x}"


_EYE = ("<svg class=\"eye\" width=\"16\" height=\"16\" viewBox=\"0 0 24 24\">"
        "<path fill=\"currentColor\" d=\"M12 5C5.648 5 1 12 1 12s4.648 7 11 7 11-7 11-7-4.648-7"
        "-11-7zm0 12a5 5 0 1 1 0-10 5 5 0 0 1 0 10zm0-8a3 3 0 1 0 0 6 3 3 0 0 0 0-6z\"/></svg>")
_LINK_ARROW = ("<svg class=\"arrow\" width=\"16\" height=\"16\" viewBox=\"0 0 24 24\">"
               "<path fill=\"currentColor\" d=\"M10 5V3H5.375C4.06 3 3 4.06 3 5.375v13.25C3 "
               "19.94 4.06 21 5.375 21h13.25C19.94 21 21 19.94 21 18.625V14h-2v4.625c0 .207-.168"
               ".375-.375.375H5.375A.375.375 0 0 1 5 18.625V5.375C5 5.168 5.168 5 5.375 5H10zm"
               "4-2v2h3.586l-7.293 7.293 1.414 1.414L19 6.414V10h2V3h-7z\"/></svg>")
_BUBBLE = ("<svg class=\"bubble\" width=\"16\" height=\"16\" viewBox=\"0 0 24 24\">"
           "<path fill=\"currentColor\" d=\"M4.8 3h14.4A2.8 2.8 0 0 1 22 5.8v9.4a2.8 2.8 0 0 1-2.8"
           " 2.8H9.5L5 21.5V18h-.2A2.8 2.8 0 0 1 2 15.2V5.8A2.8 2.8 0 0 1 4.8 3z\"/></svg>")
_CHEVRON = ("<svg class=\"chevron\" width=\"24\" height=\"24\" viewBox=\"0 0 24 24\">"
            "<path fill=\"currentColor\" d=\"M16.59 8.59 12 13.17 7.41 8.59 6 10l6 6 6-6z\"/>"
            "</svg>")
_IMAGE_ICON = ("<svg width=\"32\" height=\"32\" viewBox=\"0 0 24 24\"><path fill=\"currentColor\""
               " d=\"M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2zM8.5"
               " 13.5l2.5 3 3.5-4.5 4.5 6H5l3.5-4.5z\"/></svg>")
_FILE_ICON = ("<svg class=\"file-icon\" width=\"30\" height=\"40\" viewBox=\"0 0 30 40\">"
              "<path fill=\"#f2f3f5\" d=\"M2 0h18l10 10v28a2 2 0 0 1-2 2H2a2 2 0 0 1-2-2V2a2"
              " 2 0 0 1 2-2z\"/><path fill=\"#c4c9ce\" d=\"M20 0l10 10h-8a2 2 0 0 1-2-2z\"/>"
              "<path fill=\"#5865f2\" d=\"M6 18h18v2H6zm0 5h18v2H6zm0 5h12v2H6z\"/></svg>")


def _css(width: int) -> str:
    """The stylesheet; ``width`` caps the conversation column."""
    return _CSS.replace("__WIDTH__", str(max(int(width), 240)))


_CSS = """
*{box-sizing:border-box}
html,body{margin:0;padding:0;background:#313338}
body{font-family:"gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif;color:#dbdee1;
font-size:16px;line-height:1.375;-webkit-font-smoothing:antialiased;text-rendering:optimizeLegibility}
.page{max-width:__WIDTH__px;background:#313338}
.topbar{display:flex;align-items:center;height:48px;padding:0 16px;border-bottom:1px solid #26282c;
box-shadow:0 1px 0 rgba(2,2,2,.2);min-width:0}
.chan-icon{color:#80848e;font-size:24px;font-weight:500;margin-right:8px;line-height:1}
.chan-name{color:#f2f3f5;font-weight:600;font-size:16px;white-space:nowrap;overflow:hidden;
text-overflow:ellipsis}
.topic{color:#949ba4;font-size:14px;font-weight:500;margin-left:12px;padding-left:12px;
border-left:1px solid #4e5058;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.caption{margin:16px 16px 0;padding:8px 12px;background:#2b2d31;border-radius:8px;color:#f0b232;
font-size:14px;font-family:Consolas,"DejaVu Sans Mono",monospace;overflow-wrap:anywhere}
.log{padding:8px 0 24px}
.msg{position:relative;margin-top:17px;padding:2px 48px 2px 0}
.msg.grouped{margin-top:0}
.msg.mentioned{background:rgba(240,177,50,.1)}
.msg.mentioned::before{content:"";position:absolute;left:0;top:0;bottom:0;width:2px;
background:#f0b232}
.main{position:relative;padding-left:72px;min-height:22px}
.msg:not(.grouped) .main{min-height:44px}
.avatar{position:absolute;left:16px;top:2px;width:40px;height:40px;border-radius:50%;display:flex;
align-items:center;justify-content:center;color:#fff;font-weight:600;font-size:18px;
user-select:none}
.avatar.small{position:static;width:16px;height:16px;font-size:9px;flex:none;margin-right:4px}
.head{display:flex;align-items:baseline;flex-wrap:wrap;gap:0 4px;line-height:22px;min-width:0}
.name{color:#f2f3f5;font-weight:500;font-size:16px;overflow-wrap:anywhere}
.tag{display:inline-flex;align-items:center;height:15px;padding:0 4px;border-radius:4px;
background:#5865f2;color:#fff;font-size:10px;font-weight:600;line-height:15px;position:relative;
top:-2px;white-space:nowrap}
.time{color:#949ba4;font-size:12px;font-weight:500;margin-left:4px;white-space:nowrap}
.ref{position:relative;display:flex;align-items:center;height:22px;margin:0 0 4px 72px;
font-size:14px;color:#b5bac1;white-space:nowrap;overflow:hidden;min-width:0}
.msg .ref{overflow:visible}
.msg > .ref::after{content:"";position:absolute;left:-36px;top:10px;width:30px;height:10px;
border-left:2px solid #4e5058;border-top:2px solid #4e5058;border-top-left-radius:6px}
.ref-name{color:#f2f3f5;opacity:.8;font-weight:500;margin-right:4px;flex:none}
.ref-used{margin-right:4px;flex:none}
.ref-command{color:#00a8fc;font-weight:500;overflow:hidden;text-overflow:ellipsis}
.ref-text{overflow:hidden;text-overflow:ellipsis;min-width:0}
.ref-attachment,.ref-missing{font-style:italic}
.md{white-space:pre-wrap;overflow-wrap:anywhere;min-width:0}
.md h1,.md h2,.md h3{color:#f2f3f5;font-weight:700;line-height:1.375;margin:8px 0 4px}
.md h1{font-size:24px}.md h2{font-size:20px}.md h3{font-size:16px}
.md > h1:first-child,.md > h2:first-child,.md > h3:first-child{margin-top:4px}
.md ul,.md ol{margin:4px 0;padding-left:20px;white-space:normal}
.md li{white-space:pre-wrap;margin:0}
.subtext{color:#949ba4;font-size:13px;line-height:1.33}
.md blockquote{display:flex;margin:0;padding:0}
.quote-bar{flex:none;width:4px;border-radius:4px;background:#4e5058;margin-right:12px}
.md blockquote > div:last-child{min-width:0;flex:1}
.codeblock{margin:6px 0 0;padding:7px;max-width:90%;background:#2b2d31;border:1px solid #1e1f22;
border-radius:4px;white-space:pre-wrap;font-family:Consolas,"Andale Mono WT","DejaVu Sans Mono",
monospace;font-size:14px;line-height:18px;color:#dbdee1}
code.inline{font-family:Consolas,"Andale Mono WT","DejaVu Sans Mono",monospace;font-size:85%;
padding:0 .2em;margin:-.2em 0;border-radius:4px;background:#2b2d31;border:1px solid #1e1f22;
line-height:1.125rem;white-space:pre-wrap}
.embed code.inline,.container code.inline{background:#1e1f22}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;border-radius:3px;padding:0 2px;
font-weight:500}
.message-link{white-space:nowrap}
.message-link .chevron-small{margin:0 2px}
.message-link .bubble{width:14px;height:14px;vertical-align:-2px}
.timestamp{background:rgba(78,80,88,.48);border-radius:3px;padding:0 2px}
a.link,.link{color:#00a8fc;text-decoration:none}
.spoiler{background:#1e1f22;color:transparent;border-radius:4px;padding:0 2px}
.spoiler *{visibility:hidden}
img.emoji{width:1.375em;height:1.375em;object-fit:contain;vertical-align:bottom;
margin:0 .05em 0 .1em}
.md.jumbo img.emoji{width:48px;height:48px;min-height:48px}
.emoji-missing{color:#b5bac1}
.edited{color:#949ba4;font-size:10px;margin-left:4px;white-space:nowrap}
.thinking{color:#949ba4;font-style:italic}
.eph{display:flex;align-items:center;gap:4px;margin-top:4px;color:#949ba4;font-size:12px;
line-height:16px}
.eph .eye{width:16px;height:16px}
.eph-dot{margin:0 2px}
.embed{display:flex;gap:16px;max-width:516px;margin-top:8px;padding:8px 16px 16px 12px;
background:#2b2d31;border-left:4px solid #1e1f22;border-radius:4px;min-width:0}
.embed-main{flex:1;min-width:0}
.embed-main > *{margin-top:8px}
.embed-author{display:flex;align-items:center;gap:8px;color:#f2f3f5;font-size:14px;
font-weight:600}
.embed-author-icon{width:24px;height:24px;border-radius:50%;object-fit:contain}
.embed-title{color:#f2f3f5;font-size:16px;font-weight:600;overflow-wrap:anywhere}
.embed-description,.embed-field-value{font-size:14px;line-height:18px}
.embed-fields{display:grid;grid-template-columns:repeat(12,minmax(0,1fr));gap:8px}
.embed-field{min-width:0}
.embed-field-name{color:#f2f3f5;font-size:14px;font-weight:600;line-height:18px;margin-bottom:2px;
overflow-wrap:anywhere}
.embed-image .media{display:block;max-width:100%;max-height:300px;border-radius:4px}
.embed-thumbnail{flex:none;margin-top:8px}
.embed-thumbnail .media{display:block;max-width:80px;max-height:80px;border-radius:4px;
object-fit:contain}
.embed-footer{display:flex;align-items:center;gap:8px;color:#dbdee1;font-size:12px;
font-weight:500;line-height:16px}
.embed-footer-icon{width:20px;height:20px;border-radius:50%}
.components,.v2{display:flex;flex-direction:column;align-items:flex-start;gap:8px;
margin-top:8px;min-width:0}
.v2{margin-top:4px}
.row{display:flex;flex-wrap:wrap;gap:8px;width:100%}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:6px;height:32px;
min-width:60px;padding:2px 16px;border-radius:8px;color:#fff;font-size:14px;font-weight:500;
line-height:16px;white-space:nowrap;user-select:none}
.btn.icon-only{min-width:40px;padding:2px 10px}
.btn img.emoji{width:20px;height:20px;margin:0}
.btn .uemoji{font-size:18px;line-height:20px}
.btn.primary{background:#5865f2}
.btn.secondary,.btn.link{background:#4e5058}
.btn.success{background:#248046}
.btn.danger{background:#da373c}
.btn.premium{background:linear-gradient(90deg,#8547c6,#b845c1)}
.btn.disabled{opacity:.5;cursor:not-allowed}
.btn .arrow{margin-left:2px}
.select{display:flex;align-items:center;justify-content:space-between;gap:8px;width:400px;
max-width:100%;min-height:40px;padding:8px 8px 8px 12px;background:#1e1f22;
border:1px solid #1e1f22;border-radius:8px;font-size:16px;font-weight:500;color:#dbdee1}
.select.disabled{opacity:.5}
.select-value{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}
.select-value img.emoji{width:22px;height:22px}
.select-placeholder{color:#949ba4;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.chevron{flex:none;color:#b5bac1}
.container{position:relative;display:flex;flex-direction:column;gap:8px;width:100%;
max-width:600px;padding:16px;background:#2b2d31;border:1px solid #3a3c42;border-radius:8px;
min-width:0}
.container > .row,.container .select{max-width:100%}
.spoiler-blur{display:flex;flex-direction:column;gap:8px;filter:blur(12px);opacity:.6}
.spoiler-label{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);
padding:4px 12px;border-radius:20px;background:rgba(0,0,0,.6);color:#fff;font-size:14px;
font-weight:700;letter-spacing:.5px}
.section{display:flex;align-items:flex-start;gap:16px;width:100%;min-width:0}
.section-texts{flex:1;display:flex;flex-direction:column;gap:8px;min-width:0}
.accessory{flex:none;display:flex;align-items:flex-start}
.accessory:empty{display:none}
.text-display{width:100%;min-width:0}
.thumbnail .media,.thumbnail .missing-media{display:block;width:85px;height:85px;
border-radius:8px;object-fit:cover}
.gallery{display:grid;gap:4px;width:100%;max-width:520px}
.gallery.cols-1{grid-template-columns:1fr}
.gallery.cols-2{grid-template-columns:1fr 1fr}
.gallery.cols-3{grid-template-columns:1fr 1fr 1fr}
.gallery-item{min-width:0}
.gallery-item .media,.gallery-item .missing-media{display:block;width:100%;border-radius:8px;
object-fit:cover}
.gallery.cols-1 .media{max-height:350px;object-fit:contain;width:auto;max-width:100%}
.gallery:not(.cols-1) .media,.gallery .missing-media{aspect-ratio:1/1;height:auto}
.missing-media{display:inline-flex;align-items:center;justify-content:center;background:#1e1f22;
color:#4e5058;border-radius:8px;width:80px;height:80px}
.spoiler-media{filter:blur(10px)}
.separator{width:100%;height:1px;flex:none}
.separator.large{margin:8px 0}
.separator.divider{background:#3f4147}
.file{display:flex;align-items:center;gap:8px;width:100%;max-width:432px;padding:16px;
background:#2b2d31;border:1px solid #1e1f22;border-radius:8px;min-width:0}
.file-icon{flex:none}
.file-meta{min-width:0}
.file-name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:16px}
.file-size{color:#949ba4;font-size:12px}
.attachment-image{margin-top:8px}
.attachment-image .media{display:block;max-width:min(400px,100%);max-height:300px;
border-radius:8px}
.unknown{color:#949ba4;font-size:12px;font-style:italic}
@media (max-width:480px){
.msg{padding-right:12px}
.main{padding-left:60px}
.avatar{left:12px}
.ref{margin-left:60px}
.msg > .ref::after{left:-32px;width:26px}
.embed{max-width:100%}
.select{width:100%}
.topic{display:none}
}
"""
