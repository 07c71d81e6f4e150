"""The Activity's web server, in the bot's own process and event loop, so it
plays the very tables the buttons play.

- ``GET /``: the table page (never cached by Discord's proxy: it names the
  current version of every other file, see ``web.assets``);
- ``GET /assets/...``: the client, its pictures and the SDK, cached for good;
- ``POST /api/token``: the handshake's last step. The page sends the code its
  Discord client authorised and its instance; the server trades the code
  with the client secret, asks Discord who the token belongs to and whether
  that member is in that instance, and issues a session for them there. A
  page launched from a shared link sends its ``custom_id`` too, and is told
  whether the link names a game of the instance's own channel (``web.links``);
- ``GET /ws``: each participant's WebSocket (``web.socket``).

What strangers can hold is capped (``web.connections``), and so is what any
one of them can ask: sign-ins Discord refused per client before the allowance
everybody shares (which keeps Discord's limits), frames per page and per
member. A sign-in's body is checked before either: what could never succeed
uses up no allowance.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Iterable
from typing import Any

from aiohttp import web

from tables import Place
from transport.activity_api import (
    ActivityApi,
    ActivityInstance,
    DiscordBusy,
    DiscordUnavailable,
    Misconfigured,
    NotAuthorised,
)
from web import assets

from .connections import (
    LOOPBACK,
    REQUEST_WITHIN,
    CappedListener,
    Network,
    TrustedProxies,
    connection_limit,
)
from .limits import Bucket, KeyedBuckets
from .links import link_verdict
from .pages import OpenPages
from .reactions import Reactions
from .relay import Relays
from .sessions import Session, Sessions
from .socket import MAX_FRAME, NOT_IN_INSTANCE, Participant, SeenIntents
from .table_door import TableDoor
from .visitor_log import quiet_visitor_log
from .watchers import TableWatchers

log = logging.getLogger(__name__)

# How long Discord's word on an instance's members is taken as still true when
# nobody needs it fresher (see web.socket's HELLO_FRESH and MOVE_FRESH).
INSTANCE_FRESH = 15.0
# A page's news that the participants changed makes Discord be asked again, at
# most this often for one instance.
RECHECK_EVERY = 2.0
# Sign-ins a second, all pages together (each costs three requests to Discord,
# on the bot's own rate limits): a flood is told to wait, Discord is not asked.
SIGN_IN_BURST, SIGN_IN_RATE = 30, 5.0
# ... and sign-ins Discord refused (a bad code, a member not in the instance)
# for any one client, checked before that: one client's flood of bad codes uses
# up its own allowance, not everybody's. Sign-ins that succeed cost nothing
# here: behind a proxy many players share one address.
CLIENT_SIGN_IN_BURST, CLIENT_SIGN_IN_RATE = 6, 0.5
MAX_TOKEN_BODY = 4096
PAGE = "index.html"
# Who may frame the page: Discord's own apps (the web client, and the Activity
# proxy's origin), and this server itself (local play frames it through its own
# proxy, on its own origin). Discord's proxy replaces this whole header with its
# own policy; it holds where the page is served some other way.
FRAMED_BY = "'self' https://discord.com https://*.discord.com https://*.discordsays.com"


def page_headers(inline_scripts: list[str]) -> dict[str, str]:
    """The page's headers; its policy allows its own inline script by hash, and
    blobs, which it runs its modules from under an opaque origin."""
    return {
        "Cache-Control": "no-store",
        "Content-Security-Policy": (
            "default-src 'self'; img-src 'self' data: https://cdn.discordapp.com; "
            f"style-src 'self'; script-src 'self' {' '.join(inline_scripts)} blob:; "
            f"connect-src 'self' ws: wss:; frame-ancestors {FRAMED_BY}"
        ),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


# A frame with an opaque origin (sandboxed without allow-same-origin) asks for
# the page's files and the token across origins, as origin "null": the files
# are public and no request carries a credential, so any origin may read them.
CROSS_ORIGIN = {"Access-Control-Allow-Origin": "*"}
ASSET_HEADERS = {"Cache-Control": "public, max-age=31536000, immutable",
                 "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                 **CROSS_ORIGIN}
# The token's POST is JSON: from another origin the browser asks first.
TOKEN_PREFLIGHT = {**CROSS_ORIGIN, "Access-Control-Allow-Methods": "POST",
                   "Access-Control-Allow-Headers": "Content-Type",
                   "Access-Control-Max-Age": "600"}
# Instead of aiohttp's name and version on every answer.
SERVER_NAME = "rummy"


def _refused(status: int, text: str, retry_after: float | None = None) -> web.Response:
    headers = dict(CROSS_ORIGIN)
    if retry_after is not None:
        # Read by the page across origins too, where it has an opaque one.
        # Whole seconds, rounded up: a page told to come back sooner is refused again.
        headers |= {"Retry-After": str(max(1, math.ceil(retry_after))),
                    "Access-Control-Expose-Headers": "Retry-After"}
    return web.json_response({"error": text}, status=status, headers=headers)


async def _sign_in_asked(request: web.Request) -> tuple[str, str, object] | web.Response:
    """The code, instance and link (a shared link's ``custom_id``, if any) a
    sign-in's body gives, or the 400 it deserves. Read before any allowance is
    touched: a request that could never succeed costs nothing but this, and
    uses up nobody's sign-ins."""
    try:
        body: Any = await request.json()
    except (ValueError, RecursionError, web.HTTPRequestEntityTooLarge):
        # RecursionError: JSON nested deeper than the parser goes is no sign-in either.
        return _refused(400, "the body must be a JSON object with code and instance_id")
    if not isinstance(body, dict):
        return _refused(400, "the body must be a JSON object with code and instance_id")
    code, instance_id = body.get("code"), body.get("instance_id")
    if not (isinstance(code, str) and 0 < len(code) <= 256):
        return _refused(400, "code must be the code Discord's authorize gave")
    if not (isinstance(instance_id, str) and 0 < len(instance_id) <= 256):
        return _refused(400, "instance_id must be the Activity's instance id")
    # Whatever it is, a link is only looked at: it never stops a sign-in.
    return code, instance_id, body.get("custom_id")


async def _name_the_server(_request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Server"] = SERVER_NAME


class ActivityServer:
    def __init__(
        self,
        door: TableDoor,
        watchers: TableWatchers,
        api: ActivityApi,
        sessions: Sessions,
        relays: Relays | None = None,
    ) -> None:
        self.door = door
        # Pages of servers another process plays go there (``web.relay``).
        self.relays = relays
        self.watchers = watchers
        self.api = api
        self.sessions = sessions
        self.seen = SeenIntents()
        self.pages = OpenPages()
        # Quick reactions, beside the game: every page of this server shares them.
        self.reactions = Reactions()
        self.assets = assets.load()
        self.page_headers = page_headers(assets.inline_script_hashes(self.assets[PAGE].body))
        self._instances: dict[str, tuple[float, ActivityInstance | None]] = {}
        self._rechecks: dict[str, float] = {}
        self._runner: web.AppRunner | None = None
        self._listener: CappedListener | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.port: int | None = None
        self.participants: set[Participant] = set()
        self._sign_ins = Bucket(SIGN_IN_BURST, SIGN_IN_RATE)
        self._client_sign_ins: KeyedBuckets[str] = KeyedBuckets(
            CLIENT_SIGN_IN_BURST, CLIENT_SIGN_IN_RATE)
        self.trusted = TrustedProxies()
        self._told_misconfigured = False

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_TOKEN_BODY)
        app.router.add_get("/", self.page)
        app.router.add_get("/assets/{name}", self.asset)
        app.router.add_post("/api/token", self.token)
        app.router.add_route("OPTIONS", "/api/token", self.token_preflight)
        app.router.add_get("/ws", self.socket)
        app.on_response_prepare.append(_name_the_server)
        return app

    async def start(self, host: str, port: int,
                    trusted_proxies: Iterable[Network] = LOOPBACK) -> None:
        """Listen; ``trusted_proxies``: the reverse proxies whose
        ``X-Forwarded-For`` says who a request came from."""
        self.trusted = TrustedProxies(trusted_proxies)
        self._runner = web.AppRunner(self.application(), access_log=None,
                                     keepalive_timeout=REQUEST_WITHIN,
                                     logger=quiet_visitor_log())
        await self._runner.setup()
        assert self._runner.server is not None
        self._listener = CappedListener(self._runner.server, connection_limit(), self.trusted)
        self.port = await self._listener.start(host, port)
        log.info("the Activity's table is served on http://%s:%s/ (at most %d connections)",
                 host, self.port, self._listener.limit)

    async def stop(self) -> None:
        if self._listener is not None:
            await self._listener.stop()
            self._listener = None
        for participant in list(self.participants):
            await participant.end(1001, "the bot is restarting")
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.relays is not None:
            await self.relays.close()
        await self.api.close()

    # --- files -----------------------------------------------------------------------
    async def page(self, _request: web.Request) -> web.Response:
        page = self.assets[PAGE]
        body = page.body.replace(b"@client-id", str(self.api.client_id).encode())
        return web.Response(body=body, content_type="text/html", charset="utf-8",
                            headers=self.page_headers)

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
    def client_of(self, request: web.Request) -> str:
        """Who sent a request, as far as the trusted proxies tell (``web.connections``)."""
        return self.trusted.client_of(request.remote, request.headers.get("X-Forwarded-For", ""))

    async def token(self, request: web.Request) -> web.Response:
        asked = await _sign_in_asked(request)
        if isinstance(asked, web.Response):
            return asked
        client = self.client_of(request)
        if not self._client_sign_ins.ready(client):
            return _refused(429, "too many failed sign-ins from here: try again in a moment",
                            self._client_sign_ins.retry_after(client))
        if not self._sign_ins.take():
            return _refused(429, "too many sign-ins at once: try again in a moment",
                            self._sign_ins.retry_after())
        answer = await self._sign_in(*asked)
        if answer.status in (401, 403):
            # Discord said no: this client pays for having asked. One that signs
            # people in pays nothing, however many share its address.
            self._client_sign_ins.charge(client)
        return answer

    async def _sign_in(self, code: str, instance_id: str, custom_id: object = None) -> web.Response:
        try:
            access_token, expires_in = await self.api.exchange_code(code)
            user_id, name = await self.api.user_of(access_token)
            instance = await self._instance(instance_id, max_age=0.0)
        except NotAuthorised:
            return _refused(401, "Discord did not accept that code: authorize again")
        except Misconfigured as error:
            if not self._told_misconfigured:
                self._told_misconfigured = True
                log.error("the Activity cannot sign anybody in: %s", error)
            return _refused(503, "the Activity is not set up right on the bot's side: "
                                 "tell whoever hosts the bot")
        except DiscordBusy as busy:
            # Discord's own wait, passed on: the page tries again after it.
            return _refused(429, "Discord asks for a moment before the next sign-in",
                            busy.retry_after)
        except DiscordUnavailable as error:
            log.warning("could not check an Activity player with Discord: %s", error)
            return _refused(503, "Discord could not be asked: try again in a moment", 5)
        if instance is None or instance.channel_id is None:
            return _refused(403, "that instance of the Activity is in no channel: launch "
                                 "Rummy from a server's channel, a DM or a group DM")
        if user_id not in instance.users:
            return _refused(403, "you are not in that instance of the Activity")
        if instance.guild_id is None:
            # A DM or group DM between people (Discord's "pc" instance): the bot
            # is no member there, and the conversation keeps its own board.
            place = Place.private(instance.channel_id)
        else:
            place = Place(instance.channel_id, instance.guild_id)
            name = await self.api.name_in_server(instance.guild_id, user_id, name)
        session = self.sessions.issue(user_id, instance_id, place, name)
        answer: dict[str, Any] = {
            "access_token": access_token,
            "expires_in": expires_in,
            "session": session,
            "user": {"id": str(user_id), "name": name},
        }
        if custom_id is not None:
            # The session is this instance's channel's, whatever the link said:
            # a link to another conversation's game is only refused, in words.
            answer["link"] = link_verdict(custom_id, instance.channel_id)
        return web.json_response(answer, headers=CROSS_ORIGIN)

    async def token_preflight(self, _request: web.Request) -> web.Response:
        return web.Response(status=204, headers=TOKEN_PREFLIGHT)

    async def _instance(self, instance_id: str, *,
                        max_age: float = INSTANCE_FRESH) -> ActivityInstance | None:
        now = time.monotonic()
        known = self._instances.get(instance_id)
        if known is not None and now - known[0] < max_age:
            return known[1]
        instance = await self.api.instance(instance_id)
        self._instances[instance_id] = (now, instance)
        if len(self._instances) > 4096:
            # Forget the oldest half: instances come and go all day.
            for stale in sorted(self._instances, key=lambda k: self._instances[k][0])[:2048]:
                del self._instances[stale]
        return instance

    async def in_instance(self, session: Session, max_age: float = INSTANCE_FRESH) -> bool:
        """Whether the session's member is still in its instance, in its channel,
        by Discord's word at most ``max_age`` seconds old."""
        try:
            instance = await self._instance(session.instance_id, max_age=max_age)
        except DiscordUnavailable:
            # Discord cannot be asked: the session was checked when issued.
            return True
        return (
            instance is not None
            and instance.channel_id == session.channel_id
            and session.user_id in instance.users
        )

    def participants_changed(self, session: Session) -> None:
        """A page saw its instance's participants change: ask Discord who is
        left (once per ``RECHECK_EVERY`` an instance), and close the pages of
        whoever has gone."""
        now = time.monotonic()
        if now - self._rechecks.get(session.instance_id, -RECHECK_EVERY) < RECHECK_EVERY:
            return
        self._rechecks[session.instance_id] = now
        if len(self._rechecks) > 4096:
            self._rechecks = {key: at for key, at in self._rechecks.items()
                              if now - at < RECHECK_EVERY}
        task = asyncio.create_task(self._close_departed(session.instance_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _close_departed(self, instance_id: str) -> None:
        try:
            instance = await self._instance(instance_id, max_age=0.0)
        except DiscordUnavailable:
            return
        for page in self.pages.in_instance(instance_id):
            if instance is None or page.user_id not in instance.users:
                await page.end(NOT_IN_INSTANCE, "you are not in this activity")

    # --- playing ---------------------------------------------------------------------
    def _relays_for(self, request: web.Request) -> Relays | None:
        """None where the page is played here whatever its server: a connection
        another process of the bot relayed is never relayed again."""
        if self.relays is None or self.relays.vouched(request):
            return None
        return self.relays

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        # Pings are answered by web.socket, counted like any frame.
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=20.0, autoping=False)
        try:
            await ws.prepare(request)
        except ConnectionResetError:
            # Gone before its handshake was answered (a relay that gave up on
            # this process while it was frozen): nothing to serve, nothing wrong.
            return ws
        participant = Participant(ws, self.door, self.watchers, self.sessions, self.seen,
                                  self.in_instance, self.pages, self.participants_changed,
                                  self.reactions, self._relays_for(request))
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
