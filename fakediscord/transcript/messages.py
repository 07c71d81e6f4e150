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

A live page (messages arriving one at a time, its script making buttons and
selects clickable) draws each with ``message_html`` and styles the page with
``stylesheet``: the same HTML, with what a script needs in attributes (each
message's ``data-message-id``, buttons' ``data-custom-id``, a select's options
in a ``hidden`` list, timestamps' ``data-unix`` and ``data-style``).

The drawing is split by concern: the page and its shared helpers
(``transcript_page``), Discord markdown (``transcript_markdown``), embeds
(``transcript_embeds``), components (``transcript_components``) and the CSS
(``transcript_css``); this module draws the page frame and the messages.

It is an approximation for eyes, not a pixel copy of the client: widths,
colours and spacing follow Discord's desktop dark theme closely enough to judge
a layout, and a narrow ``width`` (about 400 px) behaves like the phone app.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, timedelta, tzinfo
from typing import TYPE_CHECKING, Any

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
from ..core.world import MENTION, Channel, InteractionType, Message, MessageFlag, User
from .components import (
    BUTTON_STYLES,
    ENTITY_SELECTS,
    attachment_html,
    components_html,
    used_by_components,
)
from .css import stylesheet
from .embeds import embed_html
from .markdown import DISCORD_LINK, JUMBO, emoji_only, inline, markdown
from .page import (
    CDN_EMOJI,
    IMAGE_TYPE,
    EmojiImage,
    Page,
    clock,
    dm_partner,
    esc,
    int_or_none,
    text_displays,
    user_name,
    when,
)

if TYPE_CHECKING:
    from ..core.actors import Actor
    from ..core.server import FakeDiscord

# Names the drawing's parts define have always been importable from here.
__all__ = [
    "ACTION_ROW", "AVATAR_COLOURS", "BUTTON", "BUTTON_STYLES", "CDN_EMOJI", "CONTAINER",
    "DISCORD_LINK", "ENTITY_SELECTS", "FILE", "GROUP_WINDOW", "IMAGE_TYPE", "JUMBO",
    "MEDIA_GALLERY", "SECTION", "SEPARATOR", "STRING_SELECT", "TEXT_DISPLAY", "THUMBNAIL",
    "EmojiImage", "message_html", "render", "stylesheet",
]

# Discord's default avatar colours. The client picks one from the id's timestamp
# bits; the emulator makes everyone in the same millisecond, so the low bits pick
# here, and people on one page get different colours.
AVATAR_COLOURS = ("#5865f2", "#757e8a", "#3ba55c", "#faa61a", "#ed4245", "#eb459e")
GROUP_WINDOW = timedelta(minutes=7)  # the client folds a run of messages by one author
EYE = ("<svg class=\"eye\" width=\"16\" height=\"16\" viewBox=\"0 0 24 24\">"
       "<path fill=\"currentColor\" d=\"M12 5C5.648 5 1 12 1 12s4.648 7 11 7 11-7 11-7-4.648-7"
       "-11-7zm0 12a5 5 0 1 1 0-10 5 5 0 0 1 0 10zm0-8a3 3 0 1 0 0 6 3 3 0 0 0 0-6z\"/></svg>")


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
    page = _page(emu, viewer, now, tz)
    shown = [m for m in messages if _sees(page, m)]
    channel = page.world.channels.get(shown[0].channel_id) if shown else None
    page.guild_id = channel.guild_id if channel is not None else None
    body = "".join(_messages(page, shown))
    head_title = title or (_channel_title(page, channel) if channel else "Discord")
    return (
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{esc(head_title)}</title><style>{stylesheet(width)}</style></head>"
        f"<body><div class=\"page\">{_topbar(page, channel)}{_caption(title)}"
        f"<div class=\"log\">{body}</div></div></body></html>"
    )


def message_html(emu: FakeDiscord, message: Message, *, viewer: User | Actor | None,
                 now: float | None = None, tz: tzinfo = UTC) -> str:
    """One message's HTML exactly as ``render`` draws it in a conversation, for a
    live page that receives messages one at a time (style it with ``stylesheet``).

    It is drawn whole (avatar and name, never grouped under the one before), for
    ``viewer``: "Only you can see this" under an ephemeral message, the highlight
    when it pings them. The outer element carries ``data-message-id``, so a new
    drawing of an edited message replaces the old one; a deferred answer not
    filled in yet is drawn as the client shows it ("Bot is thinking…", with the
    "used /command" line above) and its element has the class ``loading``, until
    the edit or followup that fills it is drawn in its place. A message the viewer
    would not see (deleted, or someone else's ephemeral) draws as "", as ``render``
    leaves it out. ``now`` and ``tz`` are as for ``render``.
    """
    page = _page(emu, viewer, now, tz)
    if not _sees(page, message):
        return ""
    channel = page.world.channels.get(message.channel_id)
    page.guild_id = channel.guild_id if channel is not None else None
    return _message(page, message, grouped=False)


def _page(emu: FakeDiscord, viewer: User | Actor | None, now: float | None,
          tz: tzinfo) -> Page:
    viewer_user = getattr(viewer, "user", viewer)
    viewer_id = viewer_user.id if isinstance(viewer_user, User) else None
    world = emu.world
    return Page(world, viewer_id, time.time() if now is None else now, tz,
                getattr(world, "application_emojis", None) or {})


def _sees(page: Page, message: Message) -> bool:
    return not message.deleted and (page.viewer_id is None
                                    or message.visible_to in (None, page.viewer_id))


# -- page frame ------------------------------------------------------------------------


def _channel_title(page: Page, channel: Channel) -> str:
    return f"@{dm_partner(page, channel)}" if channel.is_dm else f"#{channel.name}"


def _topbar(page: Page, channel: Channel | None) -> str:
    """The channel header of the client: ``# name | Server`` or ``@ Bot`` for a DM."""
    if channel is None:
        return ""
    if channel.is_dm:
        icon, name, topic = "@", dm_partner(page, channel), "Direct Message"
    else:
        guild = page.world.guilds.get(channel.guild_id or 0)
        icon, name, topic = "#", channel.name, guild.name if guild else ""
    topic_html = f"<span class=\"topic\">{esc(topic)}</span>" if topic else ""
    return (f"<div class=\"topbar\"><span class=\"chan-icon\">{icon}</span>"
            f"<span class=\"chan-name\">{esc(name)}</span>{topic_html}</div>")


def _caption(title: str) -> str:
    return f"<div class=\"caption\">{esc(title)}</div>" if title else ""


# -- messages ----------------------------------------------------------------------------


def _messages(page: Page, messages: Sequence[Message]) -> Iterator[str]:
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
    gap = when(message.created_at) - when(previous.created_at)
    return timedelta(0) <= gap < GROUP_WINDOW


def _message(page: Page, message: Message, *, grouped: bool) -> str:
    classes = ["msg"]
    if grouped:
        classes.append("grouped")
    if _mentions_viewer(page, message):
        classes.append("mentioned")
    if message.loading:
        classes.append("loading")
    top = _context_line(page, message)
    head = "" if grouped else _avatar(page, message.author_id) + _head(page, message)
    body = _body(page, message)
    note = _ephemeral_note() if message.ephemeral else ""
    return (f"<div class=\"{' '.join(classes)}\" data-message-id=\"{message.id}\">{top}"
            f"<div class=\"main\">{head}{body}{note}</div></div>")


def _mentions_viewer(page: Page, message: Message) -> bool:
    """Discord highlights a message that pings the person looking at it."""
    if page.viewer_id is None or page.viewer_id == message.author_id:
        return False
    text = "\n".join([message.content, *text_displays(message.components)])
    pinged = {int(i) for i in MENTION.findall(text)}
    return page.viewer_id in pinged or "@everyone" in text or "@here" in text


def _avatar(page: Page, user_id: int, *, small: bool = False) -> str:
    name = user_name(page, user_id)
    initial = name[:1].upper() or "?"
    colour = AVATAR_COLOURS[user_id % len(AVATAR_COLOURS)]
    kind = "avatar small" if small else "avatar"
    return f"<span class=\"{kind}\" style=\"background:{colour}\">{esc(initial)}</span>"


def _head(page: Page, message: Message) -> str:
    author = page.world.users.get(message.author_id)
    tag = "<span class=\"tag\">✓ APP</span>" if author is not None and author.bot else ""
    sent = clock(page, when(message.created_at))
    return (f"<div class=\"head\"><span class=\"name\">{esc(user_name(page, message.author_id))}"
            f"</span>{tag}<span class=\"time\">{esc(sent)}</span></div>")


def _context_line(page: Page, message: Message) -> str:
    """The line above an answer: who used which command, or the message it replies to
    (a button's answer refers to the message the button is on)."""
    interaction = page.world.interactions.get(message.interaction_id or 0)
    if interaction is not None and interaction.type == InteractionType.APPLICATION_COMMAND:
        command = _command_name(interaction.data)
        return (f"<div class=\"ref\">{_avatar(page, interaction.user_id, small=True)}"
                f"<span class=\"ref-name\">{esc(user_name(page, interaction.user_id))}</span>"
                f"<span class=\"ref-used\">used</span>"
                f"<span class=\"ref-command\">/{esc(command)}</span></div>")
    referenced: int | None = None
    if interaction is not None:
        referenced = interaction.message_id
    elif message.message_reference:
        referenced = int_or_none(message.message_reference.get("message_id"))
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


def _reply_preview(page: Page, message_id: int) -> str:
    target = page.world.messages.get(message_id)
    if target is None:
        return ("<div class=\"ref\"><span class=\"ref-missing\">Original message was deleted"
                "</span></div>")
    snippet = _snippet(target)
    text = (f"<span class=\"ref-text\">{inline(page, snippet)}</span>" if snippet else
            "<span class=\"ref-text ref-attachment\">Click to see attachment</span>")
    return (f"<div class=\"ref\">{_avatar(page, target.author_id, small=True)}"
            f"<span class=\"ref-name\">@{esc(user_name(page, target.author_id))}</span>"
            f"{text}</div>")


# A heading, a subtext or a quote mark opening a line: the preview drops it.
_BLOCK_MARK = re.compile(r"^(?:#{1,3} |-# |>>> |> )")


def _snippet(message: Message) -> str:
    """The first line of what a message says, as the reply preview shows it:
    inline formatting kept, a line's block mark (heading, subtext, quote) not."""
    texts = [message.content, *text_displays(message.components)]
    first = next((line for t in texts for line in t.splitlines() if line.strip()), "")
    line = " ".join(_BLOCK_MARK.sub("", first.strip()).split())
    return line[:120] + ("…" if len(line) > 120 else "")


def _body(page: Page, message: Message) -> str:
    """What a message says; a deferred answer not filled in yet says the bot is
    thinking, as the client shows it until the followup or edit arrives."""
    if message.loading:
        name = esc(user_name(page, message.author_id))
        return f"<div class=\"thinking\">{name} is thinking<span class=\"dots\">…</span></div>"
    parts = []
    if message.content:
        edited = "<span class=\"edited\">(edited)</span>" if message.edited_at else ""
        parts.append(markdown(page, message.content, suffix=edited,
                              jumbo=emoji_only(message.content)))
    parts += [attachment_html(page, message, a) for a in message.attachments
              if not used_by_components(message, a)]
    if not message.flags & MessageFlag.SUPPRESS_EMBEDS:
        parts += [embed_html(page, message, e) for e in message.embeds]
    if message.components:
        parts.append(components_html(page, message))
    return "".join(parts)


def _ephemeral_note() -> str:
    return ("<div class=\"eph\">" + EYE + "<span>Only you can see this</span>"
            "<span class=\"eph-dot\">•</span><span class=\"link dismiss\">Dismiss message</span>"
            "</div>")
