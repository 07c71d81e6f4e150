"""The Activity's web server, in the bot's own process and event loop, so it
plays the very tables the buttons play.

- ``GET /``: the table page (never cached by Discord's proxy: it names the
  current version of every other file, see ``web.assets``);
- ``GET /assets/...``: the client, its pictures and the SDK, cached for good;
- ``POST /api/token``: the handshake's last step. The page sends the code its
  Discord client authorised and its instance; the server trades the code
  with the client secret, asks Discord who the token belongs to and whether
  that member is in that instance, and issues a session for them there;
- ``GET /ws``: each participant's WebSocket (``web.socket``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from aiohttp import web

from flows.table_door import TableDoor
from flows.watchers import TableWatchers
from transport.activity_api import ActivityApi, ActivityInstance, DiscordUnavailable, NotAuthorised

from . import assets
from .sessions import Session, Sessions
from .socket import MAX_FRAME, Bucket, Participant, SeenIntents

log = logging.getLogger(__name__)

# How long Discord's word on an instance's members is taken as still true.
INSTANCE_FRESH = 15.0
# Sign-ins a second, all pages together (each costs three requests to Discord,
# on the bot's own rate limits): a flood is told to wait, Discord is not asked.
SIGN_IN_BURST, SIGN_IN_RATE = 30, 5.0
MAX_TOKEN_BODY = 4096
PAGE = "index.html"
# The page's own rules for what it may load: only this server (Discord's proxy
# adds its own on top).
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self' ws: wss:; frame-ancestors *"
    ),
    "X-Content-Type-Options": "nosniff",
}
ASSET_HEADERS = {"Cache-Control": "public, max-age=31536000, immutable",
                 "X-Content-Type-Options": "nosniff"}


def _refused(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status)


class ActivityServer:
    def __init__(
        self,
        door: TableDoor,
        watchers: TableWatchers,
        api: ActivityApi,
        sessions: Sessions,
    ) -> None:
        self.door = door
        self.watchers = watchers
        self.api = api
        self.sessions = sessions
        self.seen = SeenIntents()
        self.assets = assets.load()
        self._instances: dict[str, tuple[float, ActivityInstance | None]] = {}
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.participants: set[Participant] = set()
        self._sign_ins = Bucket(SIGN_IN_BURST, SIGN_IN_RATE)

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_TOKEN_BODY)
        app.router.add_get("/", self.page)
        app.router.add_get("/assets/{name}", self.asset)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/ws", self.socket)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.application(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("the Activity's table is served on http://%s:%s/", host, self.port)

    async def stop(self) -> None:
        for participant in list(self.participants):
            await participant.ws.close(code=1001, message=b"the bot is restarting")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.api.close()

    # --- files -----------------------------------------------------------------------
    async def page(self, _request: web.Request) -> web.Response:
        page = self.assets[PAGE]
        body = page.body.replace(b"@client-id", str(self.api.client_id).encode())
        return web.Response(body=body, content_type="text/html", charset="utf-8",
                            headers=PAGE_HEADERS)

    async def asset(self, request: web.Request) -> web.Response:
        found = self.assets.get("assets/" + request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        if found.gzipped and "gzip" in request.headers.get("Accept-Encoding", ""):
            return web.Response(body=found.gzipped, content_type=found.content_type,
                                headers={**ASSET_HEADERS, "Content-Encoding": "gzip",
                                         "Vary": "Accept-Encoding"})
        return web.Response(body=found.body, content_type=found.content_type,
                            headers={**ASSET_HEADERS, "Vary": "Accept-Encoding"})

    # --- who is playing ----------------------------------------------------------------
    async def token(self, request: web.Request) -> web.Response:
        if not self._sign_ins.take():
            return _refused(429, "too many sign-ins at once: try again in a moment")
        try:
            body: Any = await request.json()
        except (ValueError, web.HTTPRequestEntityTooLarge):
            return _refused(400, "the body must be a JSON object with code and instance_id")
        if not isinstance(body, dict):
            return _refused(400, "the body must be a JSON object with code and instance_id")
        code, instance_id = body.get("code"), body.get("instance_id")
        if not (isinstance(code, str) and 0 < len(code) <= 256):
            return _refused(400, "code must be the code Discord's authorize gave")
        if not (isinstance(instance_id, str) and 0 < len(instance_id) <= 256):
            return _refused(400, "instance_id must be the Activity's instance id")
        try:
            access_token, expires_in = await self.api.exchange_code(code)
            user_id, name = await self.api.user_of(access_token)
            instance = await self._instance(instance_id, fresh=True)
        except NotAuthorised:
            return _refused(401, "Discord did not accept that code: authorize again")
        except DiscordUnavailable as error:
            log.warning("could not check an Activity player with Discord: %s", error)
            return _refused(503, "Discord could not be asked: try again in a moment")
        if instance is None or instance.channel_id is None or instance.guild_id is None:
            return _refused(403, "that is not an open instance of this Activity in a server")
        if user_id not in instance.users:
            return _refused(403, "you are not in that instance of the Activity")
        session = self.sessions.issue(user_id, instance_id, instance.channel_id,
                                      instance.guild_id, name)
        return web.json_response({
            "access_token": access_token,
            "expires_in": expires_in,
            "session": session,
            "user": {"id": str(user_id), "name": name},
        })

    async def _instance(self, instance_id: str, *, fresh: bool = False) -> ActivityInstance | None:
        now = time.monotonic()
        known = self._instances.get(instance_id)
        if known is not None and not fresh and now - known[0] < INSTANCE_FRESH:
            return known[1]
        instance = await self.api.instance(instance_id)
        self._instances[instance_id] = (now, instance)
        if len(self._instances) > 4096:
            # Forget the oldest half: instances come and go all day.
            for stale in sorted(self._instances, key=lambda k: self._instances[k][0])[:2048]:
                del self._instances[stale]
        return instance

    async def in_instance(self, session: Session) -> bool:
        """Whether the session's member is still in its instance, in its channel."""
        try:
            instance = await self._instance(session.instance_id)
        except DiscordUnavailable:
            # Discord cannot be asked: the session was checked when issued.
            return True
        return (
            instance is not None
            and instance.channel_id == session.channel_id
            and session.user_id in instance.users
        )

    # --- playing ---------------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=20.0)
        await ws.prepare(request)
        participant = Participant(ws, self.door, self.watchers, self.sessions, self.seen,
                                  self.in_instance)
        self.participants.add(participant)
        try:
            await participant.run()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.participants.discard(participant)
            if not ws.closed:
                await ws.close()
        return ws
