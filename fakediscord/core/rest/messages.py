"""Messages through REST: the checks and effects every way of writing one shares,
and the channel, message and guild endpoints.

A bot writes messages in two ways, in a channel (``ChannelRoutes``) and through
an interaction (``rest_interactions``); both go through ``MessageWriter``, so a
message is checked against the same limits and announced on the gateway the
same way whichever route made it.
"""

from __future__ import annotations

from typing import Any

from .. import layouts, payloads
from ..components import emoji_errors, limit_errors
from ..gateway import Gateway
from ..world import Channel, Interaction, Message, MessageFlag, World
from .request import (
    CANNOT_DM,
    CANNOT_EDIT_OTHERS,
    EMPTY_MESSAGE,
    MANAGE_MESSAGES,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    SEND_MESSAGES,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    Answer,
    ApiError,
    File,
    Req,
    Route,
    invalid_form,
)


class MessageWriter:
    """Creating, editing and deleting the bot's messages, as Discord does: each
    checked against its limits, counted as a bot write, and (unless ephemeral)
    dispatched to the bot's gateway."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway

    def check(self, body: dict[str, Any], *, existing: Message | None = None,
              require_content: bool = False) -> None:
        """Discord's limits on a message body (a new message, or an edit of ``existing``):
        a Components V2 layout's if the body or the message has the flag, a legacy
        message's otherwise, and custom emoji that exist, in either."""
        was_v2 = existing is not None and existing.is_v2
        if was_v2 or layouts.is_v2(body.get("flags")):
            stored = ({"content": existing.content, "embeds": existing.embeds}
                      if existing is not None else None)
            errors = layouts.message_errors(body, was_v2=was_v2, stored=stored)
        else:
            errors = limit_errors(body)
        errors |= emoji_errors(body.get("components") or [], self.world.known_emoji_ids())
        if errors:
            raise invalid_form(errors)
        if require_content and not any(body.get(k) for k in ("content", "embeds", "components",
                                                             "sticker_ids", "poll")):
            raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")

    def existing(self, message_id: int) -> Message:
        message = self.world.messages.get(message_id)
        if message is None:
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def post(self, channel: Channel, body: dict[str, Any], files: list[File],
             interaction: Interaction | None, *, ephemeral: bool, type: int = 0,
             loading: bool = False) -> Message:
        visible_to = interaction.user_id if ephemeral and interaction else None
        message = self.world.add_message(
            channel, self.world.bot.id, body, files=files, visible_to=visible_to,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.world.application_id if interaction else None, type=type,
            flags=(MessageFlag.LOADING | (body.get("flags") or 0)) if loading else None,
        )
        self.world.bot_writes += 1
        if interaction is not None and interaction.original_message_id is None:
            interaction.original_message_id = message.id
        if message.visible_to is None and self._heard(channel):
            self.gateway.dispatch_lazy(
                "MESSAGE_CREATE", lambda: payloads.message(self.world, message, gateway=True),
                guild_id=channel.guild_id)
        return message

    def _heard(self, channel: Channel | int) -> bool:
        """The bot gets the gateway's events of a channel it is in: not those of a DM
        between people, nor of a server that never installed it."""
        if isinstance(channel, int):
            found = self.world.channels.get(channel)
            if found is None:
                return True
            channel = found
        return channel.guild_id is not None or not channel.is_private

    def edit(self, message: Message, body: dict[str, Any], files: list[File]) -> None:
        self.world.apply_body(message, body, files)
        self.world.bot_writes += 1
        if message.visible_to is None and self._heard(message.channel_id):
            self.gateway.dispatch_lazy(
                "MESSAGE_UPDATE", lambda: payloads.message(self.world, message, gateway=True),
                guild_id=message.guild_id)

    def delete(self, message: Message) -> None:
        self.world.delete_message(message)
        self.world.bot_writes += 1
        if message.visible_to is None and self._heard(message.channel_id):
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.gateway.dispatch("MESSAGE_DELETE", data, guild_id=message.guild_id)


class ChannelRoutes:
    """``/channels/...`` and ``/guilds/...``, as the bot sees them: only channels it
    can view, only messages others can see too (ephemeral ones have no channel route)."""

    def __init__(self, world: World, writer: MessageWriter) -> None:
        self.world = world
        self.writer = writer

    def routes(self) -> list[Route]:
        messages = "/channels/{channel_id}/messages"
        return [
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", messages, self.list_messages),
            ("POST", messages, self.create_message),
            ("GET", messages + "/{message_id}", self.get_message),
            ("PATCH", messages + "/{message_id}", self.edit_message),
            ("DELETE", messages + "/{message_id}", self.delete_message),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]

    # -- channels and messages -------------------------------------------------------------

    def _channel(self, req: Req) -> Channel:
        channel = self.world.channels.get(req.id("channel_id"))
        if channel is None:
            raise ApiError(404, UNKNOWN_CHANNEL, "Unknown Channel")
        if not self.world.can_see_channel(self.world.bot.id, channel):
            # A DM or group DM between people, or a server that never installed the
            # app: a user install answers there through the interaction's token
            # alone, and the bot's token is refused 50001 ("Opcodes and Status
            # Codes"); a test must see the bot try.
            outside = channel.is_private or (
                channel.guild_id is not None
                and self.world.bot.id not in self.world.guilds[channel.guild_id].members)
            raise ApiError(403, MISSING_ACCESS, "Missing Access", problem=outside)
        return channel

    def _channel_message(self, req: Req) -> tuple[Channel, Message]:
        channel = self._channel(req)
        message = self.world.messages.get(req.id("message_id"))
        # Ephemeral messages exist only for their recipient and the interaction token.
        if message is None or message.channel_id != channel.id or message.visible_to is not None:
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return channel, message

    async def get_channel(self, req: Req) -> Answer:
        return 200, payloads.channel(self.world, self._channel(req).id)

    async def typing(self, req: Req) -> Answer:
        self._channel(req)
        return 204, None

    async def list_messages(self, req: Req) -> Answer:
        channel = self._channel(req)
        messages = self.world.channel_messages(channel.id)
        before, after = int(req.query.get("before", 0)), int(req.query.get("after", 0))
        if before:
            messages = [m for m in messages if m.id < before]
        if after:
            messages = [m for m in messages if m.id > after]
        limit = max(1, min(100, int(req.query.get("limit", 50))))
        newest_first = messages[::-1][:limit] if not after else messages[:limit][::-1]
        return 200, [payloads.message(self.world, m) for m in newest_first]

    async def create_message(self, req: Req) -> Answer:
        channel = self._channel(req)
        if channel.is_dm:
            assert channel.recipient_id is not None
            recipient = self.world.users[channel.recipient_id]
            if not recipient.dms_open or not self.world.shares_guild_with_bot(recipient.id):
                raise ApiError(403, CANNOT_DM, "Cannot send messages to this user")
        elif not self.world.permissions_in(self.world.bot.id, channel) & SEND_MESSAGES:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        self.writer.check(req.body or {}, require_content=not req.files)
        message = self.writer.post(channel, req.body or {}, req.files, None, ephemeral=False)
        return 200, payloads.message(self.world, message)

    async def get_message(self, req: Req) -> Answer:
        return 200, payloads.message(self.world, self._channel_message(req)[1])

    async def edit_message(self, req: Req) -> Answer:
        _, message = self._channel_message(req)
        if message.author_id != self.world.bot.id:
            raise ApiError(403, CANNOT_EDIT_OTHERS,
                           "Cannot edit a message authored by another user")
        self.writer.check(req.body or {}, existing=message)
        self.writer.edit(message, req.body or {}, req.files)
        return 200, payloads.message(self.world, message)

    async def delete_message(self, req: Req) -> Answer:
        channel, message = self._channel_message(req)
        allowed = message.author_id == self.world.bot.id or (
            not channel.is_dm
            and self.world.permissions_in(self.world.bot.id, channel) & MANAGE_MESSAGES)
        if not allowed:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        self.writer.delete(message)
        return 204, None

    # -- guilds ------------------------------------------------------------------------------

    def _guild_id(self, req: Req) -> int:
        guild_id = req.id("guild_id")
        guild = self.world.guilds.get(guild_id)
        if guild is None or self.world.bot.id not in guild.members:
            raise ApiError(404, UNKNOWN_GUILD, "Unknown Guild")
        return guild_id

    async def get_guild(self, req: Req) -> Answer:
        guild = self.world.guilds[self._guild_id(req)]
        data = payloads.guild(self.world, guild, intents=0)
        for gateway_only in ("members", "channels", "threads", "presences", "voice_states",
                             "joined_at", "large", "member_count", "unavailable"):
            data.pop(gateway_only)
        return 200, data

    async def get_guild_channels(self, req: Req) -> Answer:
        guild = self.world.guilds[self._guild_id(req)]
        return 200, [payloads.channel(self.world, cid) for cid in guild.channel_ids]

    async def get_member(self, req: Req) -> Answer:
        guild = self.world.guilds[self._guild_id(req)]
        member = guild.members.get(req.id("user_id"))
        if member is None:
            raise ApiError(404, UNKNOWN_MEMBER, "Unknown Member")
        return 200, payloads.member(member)
