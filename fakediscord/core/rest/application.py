"""The bot's own account through REST: users, the application, the gateway's
address, application commands (the Entry Point command's rules too),
application emojis and the application's Activity instances."""

from __future__ import annotations

from typing import Any

from .. import command_rules, emojis, payloads
from ..components import Reason
from ..gateway import Gateway
from ..world import PRIMARY_ENTRY_POINT, AppEmoji, World
from .request import (
    CANNOT_REMOVE_ENTRY_POINT,
    MAX_EMOJIS,
    UNKNOWN_APPLICATION,
    UNKNOWN_COMMAND,
    UNKNOWN_EMOJI,
    UNKNOWN_GUILD,
    UNKNOWN_USER,
    Answer,
    ApiError,
    Req,
    Route,
    invalid_form,
)


class ApplicationRoutes:
    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway

    def routes(self) -> list[Route]:
        """Its routes; a literal segment (@me) comes before the parameter it would match."""
        routes: list[Route] = [
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
        ]
        for commands in ("/applications/{application_id}/commands",
                         "/applications/{application_id}/guilds/{guild_id}/commands"):
            routes += [
                ("GET", commands, self.list_commands),
                ("PUT", commands, self.put_commands),
                ("POST", commands, self.create_command),
                ("GET", commands + "/{command_id}", self.get_command),
                ("PATCH", commands + "/{command_id}", self.edit_command),
                ("DELETE", commands + "/{command_id}", self.delete_command),
            ]
        app_emojis = "/applications/{application_id}/emojis"
        return [
            *routes,
            ("GET", app_emojis, self.list_app_emojis),
            ("POST", app_emojis, self.create_app_emoji),
            ("GET", app_emojis + "/{emoji_id}", self.get_app_emoji),
            ("PATCH", app_emojis + "/{emoji_id}", self.edit_app_emoji),
            ("DELETE", app_emojis + "/{emoji_id}", self.delete_app_emoji),
            ("GET", "/applications/{application_id}/activity-instances/{instance_id}",
             self.get_activity_instance),
        ]

    # -- users, application, gateway ----------------------------------------------------

    async def get_me(self, req: Req) -> Answer:
        if req.bearer is not None:  # a person's token (an Activity's server asking)
            person = self.world.users[req.bearer.user_id]
            return 200, payloads.oauth_user(person, req.bearer.scopes)
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

    def _check_commands(self, bodies: list[dict[str, Any]], scope: int | None, *,
                        kept_entry_point: bool, replacing: dict[str, Any] | None = None,
                        ) -> None:
        """Discord's checks of commands to register in ``scope``; ``kept_entry_point``:
        whether the application's Entry Point command (unless it is ``replacing``)
        stays beside them."""
        errors: dict[str, Reason] = {}
        for index, body in enumerate(bodies):
            errors |= {f"{index}.{path}".rstrip("."): reason
                       for path, reason in command_rules.command_errors(body).items()}
        entry_point = self.world.entry_point() if kept_entry_point else None
        kept = entry_point["name"] if entry_point and entry_point is not replacing else None
        errors |= command_rules.entry_point_errors(
            bodies, global_scope=scope is None,
            activities_enabled=self.world.activities_enabled, kept=kept)
        if errors:
            raise invalid_form(errors)

    async def put_commands(self, req: Req) -> Answer:
        scope = self._scope(req)
        bodies: list[dict[str, Any]] = req.body or []
        self._check_commands(bodies, scope, kept_entry_point=False)
        listed = any(int(b.get("type") or 1) == PRIMARY_ENTRY_POINT for b in bodies)
        if scope is None and self.world.entry_point() is not None and not listed:
            raise ApiError(400, CANNOT_REMOVE_ENTRY_POINT, (
                "You cannot remove this app's Entry Point command in a bulk update operation. "
                "Please include the Entry Point command in your update request or delete it "
                "separately."))
        return 200, self.world.put_commands(scope, bodies)

    async def create_command(self, req: Req) -> Answer:
        scope = self._scope(req)
        self._check_commands([req.body], scope, kept_entry_point=True)
        existed = self.world.find_command(req.body["name"], scope, int(req.body.get("type", 1)))
        record = self.world.upsert_command(scope, req.body)
        same_scope = existed is not None and existed.get("guild_id") == record.get("guild_id")
        return (200 if same_scope else 201), record

    async def get_command(self, req: Req) -> Answer:
        return 200, self._command(req)[1]

    async def edit_command(self, req: Req) -> Answer:
        scope, record = self._command(req)
        self._check_commands([{**record, **req.body}], scope, kept_entry_point=True,
                             replacing=record)
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
            raise invalid_form({"name": reason})

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
            raise invalid_form({"image": image})
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

    # -- Activities -------------------------------------------------------------------

    async def get_activity_instance(self, req: Req) -> Answer:
        self._scope(req)
        instance = self.world.activity_instance(req.params["instance_id"])
        if instance is None:  # never launched, or everyone left
            raise ApiError(404, 0, "404: Not Found")
        return 200, payloads.activity_instance(self.world, instance)
