"""Discord markdown as HTML: blocks (code, quotes, headings, subtext, lists) and
inline text (emphasis, mentions, custom emoji, timestamps, links).

Everything a bot or a person wrote is escaped: only the syntax becomes markup.
Timestamps (``<t:unix:style>``) are drawn as the viewer's client shows them, in
a ``<time>`` that keeps the moment and style (``data-unix``, ``data-style``), so
a live page can redraw "in 2 minutes" as time passes.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from .page import (
    Page,
    channel_mention,
    emoji_html,
    esc,
    role_name,
    user_name,
)

DISCORD_LINK = re.compile(
    r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/channels/(?:\d+|@me)/(\d+)(?:/(\d+))?/?")
# Up to 27 custom emoji and nothing else: the client draws them large.
JUMBO = re.compile(r"(?:\s*<a?:\w{2,32}:\d{1,20}>){1,27}\s*")
BUBBLE = ("<svg class=\"bubble\" width=\"16\" height=\"16\" viewBox=\"0 0 24 24\">"
          "<path fill=\"currentColor\" d=\"M4.8 3h14.4A2.8 2.8 0 0 1 22 5.8v9.4a2.8 2.8 0 0 1-2.8"
          " 2.8H9.5L5 21.5V18h-.2A2.8 2.8 0 0 1 2 15.2V5.8A2.8 2.8 0 0 1 4.8 3z\"/></svg>")


def emoji_only(text: str) -> bool:
    """Custom emoji and nothing else, drawn large (jumbo) by the client."""
    return bool(JUMBO.fullmatch(text))


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


def markdown(page: Page, text: str, *, suffix: str = "", jumbo: bool = False,
             headings: bool = True) -> str:
    """Discord markdown as HTML: code blocks first (nothing inside them is markup),
    then block syntax line by line, then inline syntax within each line."""
    blocks: list[str] = []
    position = 0
    for fence in _FENCE.finditer(text):
        before = text[position:fence.start()]
        blocks += _lines(page, before.removesuffix("\n"), headings=headings)
        code = fence.group(2).strip("\n")
        blocks.append(f"<pre class=\"codeblock\"><code>{esc(code)}</code></pre>")
        position = fence.end() + (1 if text[fence.end():].startswith("\n") else 0)
    blocks += _lines(page, text[position:], headings=headings)
    if suffix and blocks and blocks[-1].startswith("<div class=\"line\">"):
        blocks[-1] = blocks[-1].removesuffix("</div>") + suffix + "</div>"
    elif suffix:
        blocks.append(f"<div class=\"line\">{suffix}</div>")
    kind = "md jumbo" if jumbo else "md"
    return f"<div class=\"{kind}\">{''.join(blocks)}</div>"


def _lines(page: Page, text: str, *, headings: bool = True, quoted: bool = False) -> list[str]:
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


def _block_line(page: Page, line: str, *, headings: bool) -> str:
    heading = _HEADING.fullmatch(line) if headings else None
    if heading:
        level = len(heading.group(1))
        return f"<h{level}>{inline(page, heading.group(2))}</h{level}>"
    subtext = _SUBTEXT.fullmatch(line)
    if subtext:
        return f"<div class=\"subtext\">{inline(page, subtext.group(1))}</div>"
    return f"<div class=\"line\">{inline(page, line) or '<br>'}</div>"


def _quote(blocks: list[str]) -> str:
    return f"<blockquote><div class=\"quote-bar\"></div><div>{''.join(blocks)}</div></blockquote>"


def _list(page: Page, items: list[re.Match[str]]) -> str:
    """A run of list items; an ordered list keeps its first number, indents nest a level."""
    ordered = items[0].group(2)[0].isdigit()
    tag = "ol" if ordered else "ul"
    start = f" start=\"{int(items[0].group(2)[:-1])}\"" if ordered else ""
    entries = "".join(
        f"<li style=\"margin-left:{min(len(i.group(1)) // 2, 4) * 20}px\">"
        f"{inline(page, i.group(3))}</li>" for i in items)
    return f"<{tag}{start}>{entries}</{tag}>"


def inline(page: Page, text: str) -> str:
    """Inline syntax, leftmost first; the text between tokens is escaped."""
    out: list[str] = []
    position = 0
    for token in _INLINE.finditer(text):
        out.append(esc(text[position:token.start()]))
        out.append(_inline_token(page, token))
        position = token.end()
    out.append(esc(text[position:]))
    return "".join(out)


_WRAPPERS = {"bi": ("<strong><em>", "</em></strong>"), "b": ("<strong>", "</strong>"),
             "u": ("<u>", "</u>"), "i": ("<em>", "</em>"), "i2": ("<em>", "</em>"),
             "s": ("<s>", "</s>"), "sp": ("<span class=\"spoiler\">", "</span>")}


def _inline_token(page: Page, token: re.Match[str]) -> str:
    kind = token.lastgroup
    if kind == "ticks" or token.group("code") is not None:
        return f"<code class=\"inline\">{esc(token.group('code'))}</code>"
    if kind in _WRAPPERS:
        start, end = _WRAPPERS[kind]
        return start + inline(page, token.group(kind)) + end
    return _entity(page, token)


def _entity(page: Page, token: re.Match[str]) -> str:
    """Escapes, mentions, emoji, timestamps and links: what is not emphasis."""
    groups = token.groupdict()
    if groups["escaped"] is not None:
        return esc(groups["escaped"])
    if groups["eid"] is not None:
        return emoji_html(page, {"id": groups["eid"], "name": groups["ename"]})
    if groups["uid"] is not None:
        return _mention("@" + user_name(page, int(groups["uid"])))
    if groups["rid"] is not None:
        return _mention("@" + role_name(page, int(groups["rid"])))
    if groups["cid"] is not None:
        return _mention(channel_mention(page, int(groups["cid"])))
    if groups["cmd"] is not None:
        return _mention("/" + groups["cmd"])
    if groups["ts"] is not None:
        return timestamp_html(page, int(groups["ts"]), groups["tstyle"] or "f")
    if groups["everyone"] is not None:
        return _mention(groups["everyone"])
    if groups["ltext"] is not None:
        return link(groups["lurl"], inline(page, groups["ltext"]))
    url = groups["aurl"] or groups["url"]
    return _discord_link(page, url) or link(url, esc(url))


def _discord_link(page: Page, url: str) -> str | None:
    """A link to a channel or a message the world knows is drawn as the client draws
    it: a chip ``#channel`` or ``#channel › (message)``."""
    found = DISCORD_LINK.fullmatch(url)
    channel = page.world.channels.get(int(found.group(1))) if found else None
    if found is None or channel is None:
        return None
    name = esc(channel_mention(page, channel.id))
    if found.group(2) is None:
        return f"<span class=\"mention\">{name}</span>"
    return (f"<span class=\"mention message-link\">{name}<span class=\"chevron-small\">›"
            f"</span>{BUBBLE}</span>")


def _mention(text: str) -> str:
    return f"<span class=\"mention\">{esc(text)}</span>"


def link(url: str, inner_html: str) -> str:
    return f"<a class=\"link\" href=\"{esc(url)}\">{inner_html}</a>"


def timestamp_html(page: Page, unix: int, style: str) -> str:
    """``<t:unix:style>`` as the viewer's client shows it, in a ``<time>`` carrying the
    moment (``data-unix``, and ``datetime`` when it is a real date) and the style
    letter (``data-style``; ``f`` when the text gave none), so a live page can
    redraw it: a relative time changes while the page is open."""
    moment = _utc(unix)
    iso = moment.isoformat(timespec="seconds").replace("+00:00", "Z") if moment else None
    stamp = f" datetime=\"{iso}\"" if iso else ""
    return (f"<time class=\"timestamp ts\"{stamp} data-unix=\"{unix}\" data-style=\"{style}\">"
            f"{esc(timestamp_text(page, unix, style))}</time>")


def _utc(unix: int) -> datetime | None:
    try:
        return datetime.fromtimestamp(unix, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def timestamp_text(page: Page, unix: int, style: str) -> str:
    """``<t:unix:style>`` as the client shows it to the viewer."""
    if style == "R":
        return relative_time(unix - page.now)
    try:
        moment = datetime.fromtimestamp(unix, page.tz)
    except (OverflowError, OSError, ValueError):
        return "Invalid Date"
    day = f"{moment.day} {moment:%B %Y}"
    shown = {"t": f"{moment:%H:%M}", "T": f"{moment:%H:%M:%S}", "d": f"{moment:%d/%m/%Y}",
             "D": day, "F": f"{moment:%A}, {day} {moment:%H:%M}"}
    return shown.get(style, f"{day} {moment:%H:%M}")


def relative_time(seconds: float) -> str:
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
