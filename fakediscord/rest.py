"""The REST API under ``/api/v10``: routing, checks, and each endpoint's effect.

Every request passes the same gate (``RestApi.entry``): body parsing (JSON or
multipart with ``payload_json``), route lookup (unknown routes answer 404 and
are recorded as problems), bot authentication, validation against Discord's
OpenAPI description, injected faults, then the endpoint. Answers use
Discord's status codes, error codes and JSON shapes.
"""

from __future__ import annotations

import asyncio
import mimetypes
import re
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import BodyPartReader, web

from . import command_rules, emojis, layouts, payloads, spec
from .components import Reason, emoji_errors, limit_errors
from .faults import FaultInjector
from .gateway import Gateway
from .ratelimits import RateLimits
from .traffic import RecordedRequest, TrafficLog
from .world import AppEmoji, Channel, Interaction, Message, MessageFlag, World

API_PREFIX = "/api/v10"
JSON_HEADERS = {"Content-Type": "application/json"}  # exactly: discord.py compares the string

# Discord's error codes used here
UNKNOWN_APPLICATION, UNKNOWN_CHANNEL, UNKNOWN_GUILD, UNKNOWN_MEMBER = 10002, 10003, 10004, 10007
UNKNOWN_MESSAGE, UNKNOWN_USER, UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION = 10008, 10013, 10015, 10062
UNKNOWN_COMMAND, UNKNOWN_EMOJI, MAX_EMOJIS = 10063, 10014, 30008
MISSING_ACCESS, CANNOT_EDIT_OTHERS, EMPTY_MESSAGE, CANNOT_DM = 50001, 50005, 50006, 50007
MISSING_PERMISSIONS, INVALID_FORM_BODY, ALREADY_ACKNOWLEDGED = 50013, 50035, 40060

VIEW_CHANNEL, SEND_MESSAGES, MANAGE_MESSAGES = 1 << 10, 1 << 11, 1 << 13

File = tuple[str, bytes, str]  # filename, data, content type
# Discord's limits on uploads: 10 files a message, each at most the size every
# interaction announces as ``attachment_size_limit`` (a server without boosts).
MAX_FILES = 10
ENTITY_TOO_LARGE = 40005
FILE_PART = re.compile(r"files\[(\d{1,2})\]")


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Reason] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


@dataclass
class Req:
    """A parsed request as endpoints see it."""

    method: str
    route: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[File] = field(default_factory=list)

    def id(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body",
                           {name: "Value is not snowflake."}) from None

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Answer = tuple[int, Any]
Handler = Callable[[Req], Awaitable[Answer]]


def _compile(template: str) -> re.Pattern[str]:
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
    return re.compile(f"^{pattern}$")


class RestApi:
    def __init__(self, world: World, gateway: Gateway, traffic: TrafficLog, faults: FaultInjector,
                 problems: list[str], token: str, *, validate: bool = True,
                 rate_limits: RateLimits | None = None) -> None:
        self.world = world
        self.rate_limits = rate_limits
        self.gateway = gateway
        self.traffic = traffic
        self.faults = faults
        self.problems = problems
        self.token = token
        self.validate = validate
        # Literal segments (@me, @original) come before the parameters they would match.
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/applications/{application_id}/commands", self.list_commands),
            ("PUT", "/applications/{application_id}/commands", self.put_commands),
            ("POST", "/applications/{application_id}/commands", self.create_command),
            ("GET", "/applications/{application_id}/commands/{command_id}", self.get_command),
            ("PATCH", "/applications/{application_id}/commands/{command_id}", self.edit_command),
            ("DELETE", "/applications/{application_id}/commands/{command_id}",
             self.delete_command),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands",
             self.list_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands",
             self.put_commands),
            ("POST", "/applications/{application_id}/guilds/{guild_id}/commands",
             self.create_command),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
             self.get_command),
            ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
             self.edit_command),
            ("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
             self.delete_command),
            ("GET", "/applications/{application_id}/emojis", self.list_app_emojis),
            ("POST", "/applications/{application_id}/emojis", self.create_app_emoji),
            ("GET", "/applications/{application_id}/emojis/{emoji_id}", self.get_app_emoji),
            ("PATCH", "/applications/{application_id}/emojis/{emoji_id}", self.edit_app_emoji),
            ("DELETE", "/applications/{application_id}/emojis/{emoji_id}",
             self.delete_app_emoji),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self.callback),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self.followup),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
             self.get_webhook_message),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
             self.edit_webhook_message),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
             self.delete_webhook_message),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
             self.get_webhook_message),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
             self.edit_webhook_message),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
             self.delete_webhook_message),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        self.routes = [(method, template, _compile(template), handler)
                       for method, template, handler in table]

    # -- the gate ------------------------------------------------------------------

    def match(self, method: str, path: str) -> tuple[str, dict[str, str], Handler] | None:
        for want, template, pattern, handler in self.routes:
            found = pattern.match(path)
            if found and want == method:
                return template, found.groupdict(), handler
        return None

    async def entry(self, request: web.Request) -> web.Response:
        started, t0 = time.time(), time.perf_counter()
        path = request.path[len(API_PREFIX):] or "/"
        method = request.method.upper()
        matched = self.match(method, path)
        record = RecordedRequest(method, path, matched[0] if matched else None,
                                 dict(request.query), None, time=started)
        try:
            body, files = await _read_body(request)
            record.body, record.files = body, [f[0] for f in files]
            status, answer, headers = await self._process(request, record, matched, body, files)
        except ApiError as exc:
            status, answer, headers = exc.status, payloads.error(exc.code, exc.message,
                                                                 exc.errors), {}
        except Exception as exc:
            # A bug of the emulator must fail the test, not look like a Discord outage
            # (a 5xx would make discord.py retry for half a minute).
            self.problems.append(f"fakediscord crashed on {method} {path}: "
                                 + "".join(traceback.format_exception(exc)))
            status, answer, headers = 400, payloads.error(0, f"fakediscord crashed: {exc!r}"), {}
        record.status, record.response = status, answer
        record.duration = time.perf_counter() - t0
        self.traffic.http(record)
        if status == 400:
            self.problems.append(f"{method} {record.route or path} answered 400: {answer}")
        if status == 204 or answer is None:
            return web.Response(status=status, headers=headers)
        return web.Response(status=status, body=orjson.dumps(answer),
                            headers={**JSON_HEADERS, **headers})

    async def _process(self, request: web.Request, record: RecordedRequest,
                       matched: tuple[str, dict[str, str], Handler] | None, body: Any,
                       files: list[File]) -> tuple[int, Any, dict[str, str]]:
        if matched is None:
            self.problems.append(f"unhandled route: {record.method} {record.path}")
            return 404, {"message": "404: Not Found", "code": 0}, {}
        route, params, handler = matched
        # Webhook and callback routes authenticate by the token in the URL.
        needs_bot_token = not route.startswith(("/webhooks/", "/interactions/"))
        if needs_bot_token and request.headers.get("Authorization") != f"Bot {self.token}":
            return 401, {"message": "401: Unauthorized", "code": 0}, {}
        if self.validate and body is not None:
            # A multipart body is checked as its payload_json, the JSON schema of the route.
            violation = spec.validate_body(record.method, route, body)
            if violation is not None:
                self.problems.append(f"spec violation: {violation}")
        limit_headers: dict[str, str] = {}
        if self.rate_limits is not None:
            refusal, limit_headers = self.rate_limits.check(record.method, route, params)
            if refusal is not None:
                return 429, refusal.body(), refusal.headers
        fault = self.faults.take(record.method, record.path, route)
        if fault is not None and fault.status == 0:
            await asyncio.sleep(fault.delay)
        elif fault is not None:
            answer, headers = fault.response()
            return fault.status, answer, headers
        status, answer = await handler(Req(record.method, route, params, record.query, body, files))
        return status, answer, limit_headers

    # -- users, application, gateway ----------------------------------------------------

    async def get_me(self, req: Req) -> Answer:
        me = payloads.user(self.world.bot)
        return 200, {**me, "verified": True, "mfa_enabled": False, "locale": "en-US",
                     "email": None}

    async def get_user(self, req: Req) -> Answer:
        user = self.world.users.get(req.id("user_id"))
        if user is None:
            raise ApiError(404, UNKNOWN_USER, "Unknown User")
        return 200, payloads.user(user)

    async def create_dm(self, req: Req) -> Answer:
        recipient = str((req.body or {}).get("recipient_id", ""))
        user = self.world.users.get(int(recipient)) if recipient.isdigit() else None
        if user is None:
            raise ApiError(404, UNKNOWN_USER, "Unknown User")
        return 200, payloads.channel(self.world, self.world.dm_channel(user).id)

    async def get_application(self, req: Req) -> Answer:
        return 200, payloads.application(self.world)

    async def get_gateway(self, req: Req) -> Answer:
        return 200, {"url": self.gateway.url()}

    async def get_gateway_bot(self, req: Req) -> Answer:
        return 200, {"url": self.gateway.url(), "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 86_400_000, "max_concurrency": 1}}

    # -- application commands ---------------------------------------------------------------

    def _scope(self, req: Req) -> int | None:
        if req.id("application_id") != self.world.application_id:
            raise ApiError(404, UNKNOWN_APPLICATION, "Unknown Application")
        if "guild_id" not in req.params:
            return None
        guild_id = req.id("guild_id")
        if guild_id not in self.world.guilds:
            raise ApiError(404, UNKNOWN_GUILD, "Unknown Guild")
        return guild_id

    def _command(self, req: Req) -> tuple[int | None, dict[str, Any]]:
        scope = self._scope(req)
        record = self.world.command_by_id(scope, req.id("command_id"))
        if record is None:
            raise ApiError(404, UNKNOWN_COMMAND, "Unknown application command")
        return scope, record

    async def list_commands(self, req: Req) -> Answer:
        return 200, list(self.world.commands.get(self._scope(req), {}).values())

    @staticmethod
    def _check_commands(bodies: list[dict[str, Any]]) -> None:
        errors: dict[str, Reason] = {}
        for index, body in enumerate(bodies):
            errors |= {f"{index}.{path}".rstrip("."): reason
                       for path, reason in command_rules.command_errors(body).items()}
        if errors:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)

    async def put_commands(self, req: Req) -> Answer:
        self._check_commands(req.body)
        return 200, self.world.put_commands(self._scope(req), req.body)

    async def create_command(self, req: Req) -> Answer:
        self._check_commands([req.body])
        scope = self._scope(req)
        existed = self.world.find_command(req.body["name"], scope, int(req.body.get("type", 1)))
        record = self.world.upsert_command(scope, req.body)
        same_scope = existed is not None and existed.get("guild_id") == record.get("guild_id")
        return (200 if same_scope else 201), record

    async def get_command(self, req: Req) -> Answer:
        return 200, self._command(req)[1]

    async def edit_command(self, req: Req) -> Answer:
        scope, record = self._command(req)
        self._check_commands([{**record, **req.body}])
        self.world.delete_command(scope, record)
        return 200, self.world.upsert_command(scope, {**record, **req.body})

    async def delete_command(self, req: Req) -> Answer:
        scope, record = self._command(req)
        self.world.delete_command(scope, record)
        return 204, None

    # -- application emojis -------------------------------------------------------------
    # No permission in any server is needed: the emojis belong to the application.

    def _app_emoji(self, req: Req) -> AppEmoji:
        self._scope(req)
        emoji = self.world.application_emojis.get(req.id("emoji_id"))
        if emoji is None:
            raise ApiError(404, UNKNOWN_EMOJI, "Unknown Emoji")
        return emoji

    def _check_emoji_name(self, name: object, renamed: AppEmoji | None = None) -> None:
        taken = (e.name for e in self.world.application_emojis.values() if e is not renamed)
        reason = emojis.name_error(name, taken)
        if reason is not None:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", {"name": reason})

    async def list_app_emojis(self, req: Req) -> Answer:
        self._scope(req)
        return 200, {"items": [payloads.app_emoji(self.world, e)
                               for e in self.world.application_emojis.values()]}

    async def create_app_emoji(self, req: Req) -> Answer:
        self._scope(req)
        body = req.body if isinstance(req.body, dict) else {}
        self._check_emoji_name(body.get("name"))
        image = emojis.decode_image(body.get("image"))
        if not isinstance(image, emojis.Image):
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", {"image": image})
        limit = self.world.max_application_emojis
        if len(self.world.application_emojis) >= limit:
            raise ApiError(400, MAX_EMOJIS, f"Maximum number of emojis reached ({limit})")
        emoji = self.world.add_application_emoji(body["name"], image.data, image.content_type,
                                                 animated=image.animated)
        return 201, payloads.app_emoji(self.world, emoji)

    async def get_app_emoji(self, req: Req) -> Answer:
        return 200, payloads.app_emoji(self.world, self._app_emoji(req))

    async def edit_app_emoji(self, req: Req) -> Answer:
        emoji = self._app_emoji(req)
        body = req.body if isinstance(req.body, dict) else {}
        if "name" in body:
            self._check_emoji_name(body["name"], renamed=emoji)
            emoji.name = body["name"]
            self.world.changed()
        return 200, payloads.app_emoji(self.world, emoji)

    async def delete_app_emoji(self, req: Req) -> Answer:
        self.world.delete_application_emoji(self._app_emoji(req))
        return 204, None

    # -- interaction callback -------------------------------------------------------------

    async def callback(self, req: Req) -> Answer:
        interaction = self.world.interactions.get(req.id("interaction_id"))
        if (interaction is None or interaction.token != req.params["interaction_token"]
                or interaction.token_expired or interaction.callback_closed):
            raise ApiError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if interaction.answered:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        kind = int(req.body.get("type", 0))
        data = req.body.get("data") or {}
        channel = self.world.channels[interaction.channel_id]
        on_message = interaction.message_id is not None
        if kind in (6, 7) and not on_message:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body",
                           {"type": f"Callback type {kind} needs a message interaction."})
        resource: Message | None = None
        if kind == 4:
            self._check_message(data, require_content=not req.files)
            resource = self._post(channel, data, req.files, interaction,
                                  ephemeral=bool((data.get("flags") or 0) & MessageFlag.EPHEMERAL),
                                  type=20 if interaction.type == 2 else 0)
        elif kind == 5:
            _check_deferred_flags(data)
            ephemeral = bool((data.get("flags") or 0) & MessageFlag.EPHEMERAL)
            resource = self._post(channel, {}, [], interaction, ephemeral=ephemeral,
                                  type=20 if interaction.type == 2 else 0, loading=True)
        elif kind == 6:
            interaction.original_message_id = interaction.message_id
        elif kind == 7:
            assert interaction.message_id is not None
            resource = self._existing(interaction.message_id)
            self._check_message(data, existing=resource)
            self._edit(resource, data, req.files)
            interaction.original_message_id = resource.id
        elif kind == 9:
            interaction.modal = data
        else:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body",
                           {"type": f"Callback type {kind} is not valid for this interaction."})
        interaction.response_type = kind
        interaction.responded_at = time.perf_counter()
        interaction.bot_writes_at_response = self.world.bot_writes
        self.world.answered(interaction)
        if not req.flag("with_response"):
            return 204, None
        return 200, payloads.callback_response(self.world, interaction, kind, resource)

    # -- interaction webhooks --------------------------------------------------------------

    def _webhook_interaction(self, req: Req) -> Interaction:
        interaction = None
        if req.id("webhook_id") == self.world.application_id:
            interaction = self.world.interaction_by_token(req.params["webhook_token"])
        if interaction is None or interaction.token_expired or not interaction.answered:
            raise ApiError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return interaction

    def _webhook_message(self, req: Req) -> tuple[Interaction, Message]:
        interaction = self._webhook_interaction(req)
        if "message_id" in req.params:
            message_id = req.id("message_id")
            if message_id not in (interaction.original_message_id, *interaction.followup_ids):
                raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        else:
            message_id = interaction.original_message_id or 0
        return interaction, self._existing(message_id)

    async def followup(self, req: Req) -> Answer:
        interaction = self._webhook_interaction(req)
        original = self.world.messages.get(interaction.original_message_id or 0)
        fills_original = (interaction.response_type == 5 and original is not None
                          and original.loading and not interaction.followup_ids)
        self._check_message(req.body or {}, existing=original if fills_original else None,
                            require_content=not req.files)
        if fills_original:
            assert original is not None
            # Discord fills the "thinking..." message with the first followup;
            # its ephemerality was fixed by the defer.
            self._edit(original, req.body, req.files)
            message = original
        else:
            ephemeral = bool((req.body.get("flags") or 0) & MessageFlag.EPHEMERAL)
            channel = self.world.channels[interaction.channel_id]
            message = self._post(channel, req.body, req.files, interaction, ephemeral=ephemeral)
        interaction.followup_ids.append(message.id)
        self.world.changed()
        if not req.flag("wait"):
            return 204, None
        return 200, payloads.message(self.world, message)

    async def get_webhook_message(self, req: Req) -> Answer:
        return 200, payloads.message(self.world, self._webhook_message(req)[1])

    async def edit_webhook_message(self, req: Req) -> Answer:
        _, message = self._webhook_message(req)
        self._check_message(req.body or {}, existing=message)
        self._edit(message, req.body or {}, req.files)
        return 200, payloads.message(self.world, message)

    async def delete_webhook_message(self, req: Req) -> Answer:
        self._delete(self._webhook_message(req)[1])
        return 204, None

    # -- channels and messages -------------------------------------------------------------

    def _channel(self, req: Req) -> Channel:
        channel = self.world.channels.get(req.id("channel_id"))
        if channel is None:
            raise ApiError(404, UNKNOWN_CHANNEL, "Unknown Channel")
        if not self.world.can_see_channel(self.world.bot.id, channel):
            raise ApiError(403, MISSING_ACCESS, "Missing Access")
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
        self._check_message(req.body or {}, require_content=not req.files)
        message = self._post(channel, req.body or {}, req.files, None, ephemeral=False)
        return 200, payloads.message(self.world, message)

    async def get_message(self, req: Req) -> Answer:
        return 200, payloads.message(self.world, self._channel_message(req)[1])

    async def edit_message(self, req: Req) -> Answer:
        _, message = self._channel_message(req)
        if message.author_id != self.world.bot.id:
            raise ApiError(403, CANNOT_EDIT_OTHERS,
                           "Cannot edit a message authored by another user")
        self._check_message(req.body or {}, existing=message)
        self._edit(message, req.body or {}, req.files)
        return 200, payloads.message(self.world, message)

    async def delete_message(self, req: Req) -> Answer:
        channel, message = self._channel_message(req)
        allowed = message.author_id == self.world.bot.id or (
            not channel.is_dm
            and self.world.permissions_in(self.world.bot.id, channel) & MANAGE_MESSAGES)
        if not allowed:
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")
        self._delete(message)
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

    # -- effects shared by several endpoints ---------------------------------------------------

    def _check_message(self, body: dict[str, Any], *, existing: Message | None = None,
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
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)
        if require_content and not any(body.get(k) for k in ("content", "embeds", "components",
                                                             "sticker_ids", "poll")):
            raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")

    def _existing(self, message_id: int) -> Message:
        message = self.world.messages.get(message_id)
        if message is None:
            raise ApiError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def _post(self, channel: Channel, body: dict[str, Any], files: list[File],
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
        if message.visible_to is None:
            self.gateway.dispatch_lazy(
                "MESSAGE_CREATE", lambda: payloads.message(self.world, message, gateway=True),
                guild_id=channel.guild_id)
        return message

    def _edit(self, message: Message, body: dict[str, Any], files: list[File]) -> None:
        self.world.apply_body(message, body, files)
        self.world.bot_writes += 1
        if message.visible_to is None:
            self.gateway.dispatch_lazy(
                "MESSAGE_UPDATE", lambda: payloads.message(self.world, message, gateway=True),
                guild_id=message.guild_id)

    def _delete(self, message: Message) -> None:
        self.world.delete_message(message)
        self.world.bot_writes += 1
        if message.visible_to is None:
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.gateway.dispatch("MESSAGE_DELETE", data, guild_id=message.guild_id)


def _check_deferred_flags(data: dict[str, Any]) -> None:
    """A "thinking..." answer may only say whether it is ephemeral; a layout's flag
    comes with the edit or followup that fills it in."""
    extra = (data.get("flags") or 0) & ~MessageFlag.EPHEMERAL
    if extra:
        raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", {"data.flags": (
            "INTERACTION_RESPONSE_INVALID_FLAGS",
            "Only the EPHEMERAL flag can be set on a deferred response")})


async def _read_body(request: web.Request) -> tuple[Any, list[File]]:
    """JSON body, or multipart ``payload_json`` plus ``files[n]`` parts.

    Uploads are checked as Discord checks them: at most ten, each ``files[n]``
    once, each within the size limit (413, code 40005, otherwise), and every
    new attachment the body lists (``attachments[].id`` = ``n``) uploaded."""
    if request.content_type == "multipart/form-data":
        body: Any = None
        files: dict[int, File] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue  # a nested multipart: discord.py never sends one
            data = await part.read()
            name = part.name or ""
            if name == "payload_json":
                body = _parse_json(bytes(data))
                continue
            found = FILE_PART.fullmatch(name)
            if found is None:
                continue  # Discord ignores parts it does not know
            index = int(found[1])
            if index in files or index >= MAX_FILES or len(files) >= MAX_FILES:
                raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", {
                    "files": ("BASE_TYPE_MAX_LENGTH",
                              f"Must be {MAX_FILES} or fewer files, each files[n] once.")})
            if len(data) > payloads.ATTACHMENT_SIZE_LIMIT:
                raise ApiError(413, ENTITY_TOO_LARGE, "Request entity too large")
            filename = part.filename or name
            files[index] = (filename, bytes(data), _content_type(filename, part.headers))
        _check_new_attachments(body, set(files))
        return body, [files[index] for index in sorted(files)]
    raw = await request.read()
    if not raw:
        return None, []
    body = _parse_json(raw)
    _check_new_attachments(body, set())
    return body, []


def _content_type(filename: str, headers: Any) -> str:
    """An upload's type as Discord reports it: discord.py sends every file as
    octet-stream, and Discord names the type from the file (a .png is image/png,
    shown inline as an image)."""
    sent = str(headers.get("Content-Type", "") or "")
    if sent and sent != "application/octet-stream":
        return sent
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


def _check_new_attachments(body: Any, uploaded: set[int]) -> None:
    """Each attachment a body lists with a small id (``files[n]``'s ``n``) must be
    uploaded with it; larger ids are attachments the message already has,
    checked against it when it is edited (``World.apply_body`` keeps those)."""
    listed = (body or {}).get("attachments") if isinstance(body, dict) else None
    for number, item in enumerate(listed or []):
        raw = item.get("id") if isinstance(item, dict) else None
        try:
            wanted = int(raw) if raw is not None else None
        except (TypeError, ValueError):
            wanted = None
        if wanted is not None and wanted < MAX_FILES and wanted not in uploaded:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", {
                f"attachments.{number}.id": ("ATTACHMENT_NOT_FOUND",
                                             f"No file files[{wanted}] was uploaded.")})


def _parse_json(raw: bytes) -> Any:
    try:
        return orjson.loads(raw)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
