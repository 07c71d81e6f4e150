"""The things the emulated Discord is made of: people, servers, channels, messages,
interactions, and the flags and permission bits they carry.

Plain data with the few rules that belong to one object (a guild's permissions
for a member, a message's buttons); the store that creates and changes them is
``World`` (``world.py``). Objects are mutated in place, so a ``Message`` a test
holds always shows the current state of that message.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import IntFlag
from typing import Any

import discord

from . import components as comp

# What @everyone may do in a fresh server, close to Discord's defaults.
EVERYONE_PERMISSIONS = discord.Permissions(
    create_instant_invite=True, add_reactions=True, stream=True, view_channel=True,
    send_messages=True, embed_links=True, attach_files=True, read_message_history=True,
    external_emojis=True, connect=True, speak=True, use_voice_activation=True,
    change_nickname=True, use_application_commands=True, create_public_threads=True,
    create_private_threads=True, external_stickers=True, send_messages_in_threads=True,
    use_embedded_activities=True, send_voice_messages=True, send_polls=True,
    use_external_apps=True,
).value
# What an invite link typically grants a game bot on top of @everyone.
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(manage_messages=True).value
ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value

# A user mentioned in text: <@id>, or <@!id> as older clients wrote it.
MENTION = re.compile(r"<@!?(\d+)>")


class MessageFlag(IntFlag):
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    # A voice channel, with its own text chat as Discord has given every one
    # since 2022: messages, commands and Activities work in it as in a text one.
    GUILD_VOICE = 2
    # A DM between several people (the Channel resource's GROUP_DM, type 3).
    GROUP_DM = 3


class InteractionType:
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    MODAL_SUBMIT = 5


# The application command type of an Activity's Entry Point, and who answers it:
# the app (an interaction it answers) or Discord (it launches the Activity).
PRIMARY_ENTRY_POINT = 4
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2


DISCORD_EPOCH_MS = 1420070400000


class SnowflakeFactory:
    """Increasing snowflakes carrying the current time, as discord.py decodes them."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(stamp, self._last + 1)
        return self._last


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def permission_value(permissions: int | discord.Permissions | None, flags: dict[str, bool]) -> int:
    """An int from ``permissions`` (int or discord.Permissions) plus flag names."""
    value = permissions.value if isinstance(permissions, discord.Permissions) else permissions or 0
    if flags:
        value |= discord.Permissions(**flags).value
    return value


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    # The language of the person's Discord client: each interaction's ``locale``.
    locale: str = "en-US"
    # The hash of the person's own avatar on Discord's CDN; None: Discord's default.
    avatar: str | None = None

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=now_iso)
    nick: str | None = None


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    position: int = 0
    recipient_id: int | None = None  # the person in a DM with the bot
    # The people of a DM or group DM between people, which the bot is no member of
    # (empty for the bot's own DM and for a server's channel).
    recipient_ids: list[int] = field(default_factory=list)
    owner_id: int | None = None  # who made a group DM
    last_message_id: int | None = None
    # target id -> (0 role / 1 member, allow, deny); the @everyone role's id is the guild's
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    @property
    def is_dm(self) -> bool:
        """The DM between the bot and one person."""
        return self.type == ChannelType.DM and not self.recipient_ids

    @property
    def is_private(self) -> bool:
        """A DM or group DM between people, without the bot: interaction context
        PRIVATE_CHANNEL (2) for a user-installed app."""
        return self.type in (ChannelType.DM, ChannelType.GROUP_DM) and bool(self.recipient_ids)

    def __str__(self) -> str:
        return f"#{self.name}"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    # The server's language (Server Settings -> Community): ``guild_locale``.
    preferred_locale: str = "en-US"

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions: @everyone plus the member's roles (no overwrites)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        value = self.roles[self.id].permissions
        for role_id in member.role_ids:
            value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value


@dataclass(eq=False)
class AppEmoji:
    """An emoji the application owns (usable in any server, no permission needed).

    ``image`` is the decoded upload and ``content_type`` its real type
    ("image/png", "image/gif"...), so anything drawing messages can show it.
    """

    id: int
    name: str
    image: bytes
    content_type: str
    animated: bool
    # Who uploaded it: None for the bot (through the API), a person's id (the portal).
    user_id: int | None = None

    @property
    def mention(self) -> str:
        """How text shows it: ``<:name:id>`` (``<a:name:id>`` if animated)."""
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"


@dataclass(eq=False)
class Message:
    """A stored message; the emulator edits it in place, so it is always current."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[dict[str, Any]] = field(default_factory=list)
    type: int = 0
    visible_to: int | None = None  # the only user who sees an ephemeral message
    interaction_id: int | None = None  # the interaction whose response or followup this is
    webhook_id: int | None = None
    created_at: str = field(default_factory=now_iso)
    edited_at: str | None = None
    edits: int = 0
    deleted: bool = False
    tts: bool = False
    message_reference: dict[str, Any] | None = None
    mentions: list[int] = field(default_factory=list)  # user ids written as <@id>
    file_data: dict[str, bytes] = field(default_factory=dict)
    # Who its creation notified ("user:ID", "role:ID", "everyone"), as Discord
    # decides from its text and its allowed_mentions (``World.pings``).
    pings: list[str] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "thinking..." message that the bot has not filled in yet."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def is_v2(self) -> bool:
        """A Components V2 layout (flag ``IS_COMPONENTS_V2``): no content, no embeds."""
        return bool(self.flags & MessageFlag.IS_COMPONENTS_V2)

    def buttons(self) -> list[dict[str, Any]]:
        return comp.buttons(self.components)

    def button(self, label: str) -> dict[str, Any]:
        matches = [b for b in self.buttons() if b["label"] == label]
        assert matches, f"no button {label!r} on message {self.id}; buttons: {self._labels()}"
        return matches[0]

    def selects(self) -> list[dict[str, Any]]:
        return comp.selects(self.components)

    def text(self) -> str:
        """Content, embed text and text displays joined by newlines, for assertions."""
        parts = [self.content, *comp.embed_texts(self.embeds), *comp.texts(self.components)]
        return "\n".join(p for p in parts if p)

    def text_displays(self) -> list[str]:
        """The text of each text display (inside containers and sections too), in
        reading order: one entry per display, for asserting on a layout's parts."""
        return comp.texts(self.components)

    def accent_colors(self) -> list[int | None]:
        """Each container's accent colour, in order (None for a container without one)."""
        return comp.accent_colors(self.components)

    def media_urls(self) -> list[str]:
        """The URLs of thumbnails, media gallery items and files, in order (an uploaded
        file's ``attachment://name`` is answered as the attachment's URL)."""
        return comp.media_urls(self.components)

    def _labels(self) -> list[str | None]:
        return [b["label"] or b["custom_id"] for b in self.buttons()]

    def __repr__(self) -> str:
        kind = "ephemeral " if self.ephemeral else ""
        return f"<{kind}Message {self.id} in {self.channel_id}: {self.text()[:60]!r}>"


@dataclass(eq=False)
class Interaction:
    """One interaction a test user started, and what the bot has done with it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    description: str  # "/rummy start by alice", for problem reports
    message_id: int | None = None  # the message a component was on
    dispatched_at: float | None = None  # perf_counter() when INTERACTION_CREATE was queued
    # perf_counter() when the frame was written to the bot's socket: later than
    # dispatched_at only when the emulator's own loop is busy (load runs).
    sent_at: float | None = None
    responded_at: float | None = None
    response_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    bot_writes_at_response: int = 0  # World.bot_writes once the callback was applied
    modal: dict[str, Any] | None = None
    token_expired: bool = False
    callback_closed: bool = False  # Discord's 3 s to answer have passed
    # The Activity instance a LAUNCH_ACTIVITY answer (type 12) put the person in.
    activity_instance_id: str | None = None
    # Where it came from and for which installs of the app (``installs``): the
    # interaction context (0 guild, 1 the bot's DM, 2 a private channel), the
    # installation owners by integration type ("0" guild, "1" user), and whether
    # Discord shows every answer to the invoker alone (Use External Apps denied).
    context: int = 0
    owners: dict[str, str] = field(default_factory=dict)
    forced_ephemeral: bool = False

    @property
    def answered(self) -> bool:
        return self.response_type is not None


@dataclass(eq=False)
class ActivityInstance:
    """A running Activity (the application's embedded web page) in one channel:
    everyone who launches it there is in this one instance, until the last leaves.

    Ids are shaped as Discord's: ``location_id`` is ``gc-<guild>-<channel>`` in a
    server (``pc-<channel>`` in a DM) and ``instance_id`` ``i-<snowflake>-<location>``.
    """

    instance_id: str
    launch_id: str
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)  # in the order they joined
    created: str = field(default_factory=now_iso)

    @property
    def location_kind(self) -> str:
        """Discord's location kinds: ``gc`` a guild channel, ``pc`` a private channel."""
        return "pc" if self.guild_id is None else "gc"

    @property
    def location_id(self) -> str:
        if self.guild_id is None:
            return f"pc-{self.channel_id}"
        return f"gc-{self.guild_id}-{self.channel_id}"


@dataclass(eq=False)
class OAuthCode:
    """What the Discord client hands an Activity that called ``commands.authorize``:
    a code its server exchanges, once, for the person's access token."""

    code: str
    user_id: int
    scopes: list[str]
    expires_at: float  # on the world's clock (``OAuthGrants.now``)


@dataclass(eq=False)
class OAuthToken:
    """A person's access token (``Authorization: Bearer ...``) and the refresh token
    that replaces it."""

    access_token: str
    refresh_token: str
    user_id: int
    scopes: list[str]
    expires_at: float  # on the world's clock (``OAuthGrants.now``)
