"""Discord's app around the bot's Activity, for local play and the tests.

Discord shows an Activity in a frame and serves its page through its own
proxy, on its own origin; the SDK in the page talks to Discord's app around it
by ``postMessage``. Here ``/activity?as=ann&instance=...`` is that app
(``web/activity.js``): it frames ``/activity-app/``, which this server passes
on to the bot's web server as Discord's proxy does (the URL mapping ``/`` ->
the bot), WebSocket included, and answers the SDK's commands with what the
world knows: codes the member authorised, the token's user, the instance's
participants, the links it shares (a person who opens one launches it with
its ``custom_id``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime
import hashlib
import hmac
import re
import secrets
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from ..core.oauth import TOKEN_LIFETIME
from ..core.server import FakeDiscord
from ..core.world import ActivityInstance, User
from .cast import Cast
from .conversations import not_yours

STATIC = Path(__file__).with_name("web")
PROXIED = "/activity-app"
# What the proxy does not pass on of a request's and an answer's headers (a
# compressed answer is passed on as it came, with its Content-Encoding).
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "upgrade", "host",
               "content-length"}


def discords_page_policy(nonce: str, *, opaque: bool = False) -> str:
    """The policy Discord's Activity proxy serves a page with. In a frame with
    an opaque origin its ``'self'`` matches nothing (embedded-app-sdk issue 280,
    on iOS): Chromium would match the address's origin, so it is left out."""
    itself = "" if opaque else "'self' "
    return f"script-src {itself}'unsafe-eval' 'nonce-{nonce}' blob:"


INLINE_SCRIPT_TAG = re.compile(rb"<script(?![^>]*\bsrc=)(?=[\s>])")


def nonced(page: bytes, nonce: str) -> bytes:
    """The page as Discord's proxy passes it on: its inline scripts carry the
    policy's nonce, its scripts with a src do not (embedded-app-sdk issue 280)."""
    return INLINE_SCRIPT_TAG.sub(f'<script nonce="{nonce}"'.encode(), page)


def _user(user: User) -> dict[str, Any]:
    return {"id": str(user.id), "username": user.name, "global_name": user.name,
            "discriminator": "0", "avatar": user.avatar, "flags": 0, "bot": user.bot}


class ActivityFrame:
    """The routes of Discord's app around the Activity, on the local page's server."""

    def __init__(self, emu: FakeDiscord, cast: Cast, target: str) -> None:
        self.emu = emu
        self.cast = cast
        self.target = target.rstrip("/")  # the bot's web server: http://host:port
        self._client: aiohttp.ClientSession | None = None
        # The custom_id of the shared link each person last launched an
        # instance from, by (user, instance): the frame passes it to the page.
        self._links: dict[tuple[int, str], str] = {}

    # Each launch's frame is served under a path of its own: its instance, how it
    # is framed, and a signature by the world's secret, so that only this
    # server's own page can name one, and the path outlives a restart.
    def launch_path(self, instance_id: str, *, opaque: bool) -> str:
        framed = "opaque" if opaque else "framed"
        return f"{instance_id}.{framed}.{self._signature(instance_id, framed)}"

    def _signature(self, instance_id: str, framed: str) -> str:
        key = self.emu.world.client_secret.encode()
        signed = f"{instance_id}/{framed}".encode(errors="surrogatepass")
        return hmac.new(key, signed, hashlib.sha256).hexdigest()[:32]

    def _framing(self, launch: str) -> bool | None:
        """Whether a launch's path is framed with an opaque origin; None if no
        launch has that path."""
        instance_id, _, rest = launch.partition(".")
        framed, _, signature = rest.partition(".")
        # As bytes: compare_digest refuses text with any non-ASCII character, and
        # a path is whatever a request says.
        if framed not in ("opaque", "framed") or not hmac.compare_digest(
                signature.encode(errors="surrogatepass"),
                self._signature(instance_id, framed).encode()):
            return None
        return framed == "opaque"

    def opaque_launch(self, request: web.Request) -> bool:
        """Whether ``request`` comes from a launch framed with an opaque origin:
        its path starts with that launch's."""
        if not request.path.startswith(PROXIED + "/"):
            return False
        return self._framing(request.path.removeprefix(PROXIED + "/").partition("/")[0]) is True

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/activity", self._page)
        app.router.add_get("/activity.js", self._script)
        for action, handler in (("join", self._join), ("authorize", self._authorize),
                                ("authenticate", self._authenticate),
                                ("participants", self._participants), ("leave", self._leave),
                                ("launch", self._launch), ("group", self._group)):
            app.router.add_post(f"/api/activity/{action}", handler)
        app.router.add_route("*", PROXIED + "/{launch}/{tail:.*}", self._proxy)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    # -- the frame around the Activity -------------------------------------------------
    async def _page(self, _request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "activity.html", headers={"Cache-Control": "no-cache"})

    async def _script(self, _request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "activity.js", headers={
            "Content-Type": "text/javascript", "Cache-Control": "no-cache"})

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], User]:
        try:
            body = await request.json()
        except (ValueError, RecursionError):
            # RecursionError: nested deeper than the parser goes, which is no request either.
            raise web.HTTPBadRequest(text="not JSON") from None
        member = self.cast.member(str(body.get("as", ""))) if isinstance(body, dict) else None
        if member is None:
            raise web.HTTPBadRequest(text="nobody of that name is in the server")
        return body, member.user

    def _instance(self, body: dict[str, Any], user: User) -> ActivityInstance:
        instance = self.emu.world.activity_instance(str(body.get("instance", "")))
        if instance is None:
            raise web.HTTPNotFound(text="that Activity is no longer running")
        if user.id not in instance.users:
            channel = self.emu.world.channels[instance.channel_id]
            if not self.emu.world.can_see_channel(user.id, channel):
                # An instance in a conversation is its people's alone (a "pc" one).
                raise web.HTTPForbidden(text=not_yours(user.name, channel))
            # Discord's app opens an instance only for who launched or joined it.
            instance = self.emu.world.launch_activity(user.id, instance.channel_id)
        return instance

    async def _join(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        instance = self._instance(body, user)
        return web.json_response({
            "path": self.launch_path(instance.instance_id, opaque=body.get("opaque") is True),
            "instance_id": instance.instance_id,
            "channel_id": str(instance.channel_id),
            "guild_id": str(instance.guild_id or ""),
            # "gc" in a server's channel, "pc" in a DM or group DM (the SDK's
            # location kinds): what Discord's app may offer there differs.
            "location_kind": instance.location_kind,
            "custom_id": self._links.get((user.id, instance.instance_id)),
            "user": {"id": str(user.id), "username": user.name},
            "application_id": str(self.emu.world.application_id),
            "application_name": self.emu.bot_user.name,
        })

    async def _launch(self, request: web.Request) -> web.Response:
        """The App Launcher (or the Entry Point command) in a channel: no
        interaction reaches the bot, Discord's app opens the Activity itself.
        With ``custom_id``: a link the Activity shared (``shareLink``), opened
        by someone in the conversation it was shared to, which launches the
        Activity there with that custom_id (Discord's Activities guide,
        "Growth and Referrals"); the link is the way in, no install needed."""
        body, user = await self._body(request)
        raw = str(body.get("channel", ""))
        channel_id = int(raw) if raw.isdigit() else 0
        channel = self.emu.world.channels.get(channel_id)
        if channel is not None and not self.emu.world.can_see_channel(user.id, channel):
            return web.json_response({"error": not_yours(user.name, channel)}, status=403)
        custom_id = body.get("custom_id")
        if custom_id is not None:
            if not (isinstance(custom_id, str) and len(custom_id) <= 64):
                return web.json_response({"error": "Not a link of this app."}, status=400)
            if channel is None:
                return web.json_response({"error": "No such channel."}, status=400)
        else:
            refusal = self.emu.world.launcher_refusal(user.id, channel_id)
            if refusal is not None:
                return web.json_response({"error": refusal}, status=400)
        instance = self.emu.world.launch_activity(user.id, channel_id)
        if custom_id is None:
            self._links.pop((user.id, instance.instance_id), None)
        else:
            self._links[(user.id, instance.instance_id)] = custom_id
        return web.json_response({"instance": instance.instance_id})

    async def _group(self, request: web.Request) -> web.Response:
        """A person starts a group DM with friends (Discord's app's New Group
        DM), named ``name``, with the app on their own account, as whoever
        launches an Activity where its bot is no member must have it. Local
        play's page lists no group DM: tests launch there, by its id."""
        body, user = await self._body(request)
        friends = [self.cast.member(str(key)) for key in body.get("with") or []]
        if not friends or any(friend is None for friend in friends):
            return web.json_response({"error": "Name the friends by their names."}, status=400)
        world = self.emu.world
        world.enable_user_install()
        world.install_for_user(user)
        people = [user, *(friend.user for friend in friends if friend is not None)]
        name = str(body.get("name") or "") or None
        try:
            channel = world.create_private_channel(people, name=name)
        except ValueError as error:
            return web.json_response({"error": str(error)}, status=400)
        return web.json_response({"channel": str(channel.id)})

    async def _authorize(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        if str(body.get("client_id")) != str(self.emu.world.application_id):
            return web.json_response({"error": "Invalid client id"}, status=400)
        scopes = [str(scope) for scope in body.get("scopes") or []]
        return web.json_response({"code": self.emu.world.issue_oauth_code(user.id, scopes)})

    async def _authenticate(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        access = str(body.get("access_token", ""))
        token = self.emu.world.oauth.token(access)
        if token is None or token.user_id != user.id:
            return web.json_response({"error": "Invalid access token"}, status=400)
        expires = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=TOKEN_LIFETIME)
        return web.json_response({
            "access_token": access,
            "user": {key: value for key, value in _user(user).items()
                     if key in ("id", "username", "global_name", "discriminator", "avatar")}
            | {"public_flags": 0},
            "scopes": list(token.scopes),
            "expires": expires.isoformat(),
            "application": {"id": str(self.emu.world.application_id),
                            "name": self.emu.bot_user.name, "description": ""},
        })

    async def _participants(self, request: web.Request) -> web.Response:
        body, asking = await self._body(request)
        instance = self.emu.world.activity_instance(str(body.get("instance", "")))
        channel = None if instance is None else self.emu.world.channels[instance.channel_id]
        if channel is not None and not self.emu.world.can_see_channel(asking.id, channel):
            # Who plays in a conversation is for its people to see alone.
            raise web.HTTPForbidden(text=not_yours(asking.name, channel))
        users = self.emu.world.users
        people = [] if instance is None else [_user(users[uid]) for uid in instance.users]
        return web.json_response({"participants": people})

    async def _leave(self, request: web.Request) -> web.Response:
        body, user = await self._body(request)
        self.emu.world.leave_activity(str(body.get("instance", "")), user.id)
        return web.json_response({"ok": True})

    # -- Discord's proxy ----------------------------------------------------------------
    async def _proxy(self, request: web.Request) -> web.StreamResponse:
        launch, tail = request.match_info["launch"], request.match_info["tail"]
        opaque = self._framing(launch)
        if opaque is None:
            return web.Response(status=404, text="no such launch of the Activity")
        url = f"{self.target}/{tail}"
        if request.query_string:
            url += "?" + request.query_string
        if self._client is None:
            self._client = aiohttp.ClientSession(auto_decompress=False)
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._proxy_socket(request, url)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        body = await request.read()
        try:
            async with self._client.request(request.method, url, headers=headers,
                                            data=body or None) as answer:
                content = await answer.read()
                kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
                if "text/html" in answer.headers.get("Content-Type", ""):
                    kept.pop("Cache-Control", None)  # Discord's proxy strips it from pages
                    # ... and replaces the page's own Content-Security-Policy with its
                    # own, whose scripts are the proxy's origin, eval, blobs and inline
                    # ones it nonces (embedded-app-sdk issue 321 quotes it).
                    nonce = base64.b64encode(secrets.token_bytes(16)).decode()
                    kept = {k: v for k, v in kept.items()
                            if k.lower() != "content-security-policy"}
                    kept["Content-Security-Policy"] = discords_page_policy(nonce, opaque=opaque)
                    if "Content-Encoding" not in kept:
                        content = nonced(content, nonce)
                return web.Response(status=answer.status, body=content, headers=kept)
        except aiohttp.ClientError:
            return web.Response(status=502, text="the bot's web server does not answer")

    async def _proxy_socket(self, request: web.Request, url: str) -> web.StreamResponse:
        assert self._client is not None
        outside = web.WebSocketResponse()
        await outside.prepare(request)
        try:
            inside = await self._client.ws_connect(url.replace("http", "ws", 1))
        except aiohttp.ClientError:
            await outside.close(code=1011, message=b"the bot's web server does not answer")
            return outside

        closing: list[tuple[int, str]] = []

        async def carry(source: Any, sink: Any) -> None:
            while True:
                message = await source.receive()
                if message.type is WSMsgType.TEXT:
                    await sink.send_str(message.data)
                elif message.type is WSMsgType.BINARY:
                    await sink.send_bytes(message.data)
                else:
                    if message.type is WSMsgType.CLOSE:
                        closing.append((int(message.data), str(message.extra or "")))
                    return

        runs = [asyncio.create_task(carry(outside, inside)),
                asyncio.create_task(carry(inside, outside))]
        await asyncio.wait(runs, return_when=asyncio.FIRST_COMPLETED)
        for run in runs:
            run.cancel()
        # Each side hears how the other closed: a refused session stays refused.
        code, reason = closing[0] if closing else (1000, "")
        with contextlib.suppress(ConnectionError):
            await outside.close(code=code, message=reason.encode())
            await inside.close(code=code, message=reason.encode())
        return outside
