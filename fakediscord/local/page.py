"""The page of local play: Discord's app, as far as the bot can tell.

One page per person at ``/?as=ann``. It shows what that member would see (the
channels' public messages, their own ephemeral messages, their DMs with the
bot and the DMs and group DMs they are in, drawn by ``transcript`` as the
photographs are) and sends what they do as Discord's app would: a slash
command, a click, a choice in a select. Every change the bot makes reaches
every open page over a WebSocket, one message at a time. What Discord's app
would refuse (a missing option, a number out of range, a disabled button) is
refused in the page with the emulator's own words; a conversation the member
is not in is refused before anything reaches the emulator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from ..core.actors import Actor
from ..core.installs import command_refusal
from ..core.server import FakeDiscord
from ..core.world import Channel, ChannelType, Message
from ..transcript.messages import message_html, stylesheet
from .activity_frame import ActivityFrame
from .cast import Cast
from .conversations import conversation_name, conversations_of, not_yours
from .page_guard import page_guard, unframed

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("web")
# A page's connection waits this long for the bot to be on the gateway, then
# opens all the same (a bot that never comes shows its messages as they are).
BOT_CONNECTS_WITHIN = 60.0
STATIC_FILES = {"client.js": "text/javascript", "command_box.js": "text/javascript",
                "client.css": "text/css"}
# Discord's own locale codes for the languages the bot speaks, by their names.
LOCALES = {
    "en-US": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es-ES": "Español",
    "pt-BR": "Português (Brasil)",
    "pl": "Polski",
}
# Changes the bot makes together (an answer and the table's edit) go out together.
PUSH_AFTER = 0.03
CONVERSATION_WIDTH = 960

Version = tuple[int, bool, int, str | None, int]


@dataclass(eq=False)
class Viewer:
    """One open page: whose eyes it has, and what it was last sent."""

    member: Actor
    socket: web.WebSocketResponse
    sent: dict[int, Version] = field(default_factory=dict)
    problems_sent: int = 0


def version(message: Message) -> Version:
    """Changes whenever the message would be drawn differently."""
    return (message.edits, message.deleted, message.flags, message.edited_at,
            len(message.attachments))


class WebClient:
    """The page's web server: the page, its live feed, and the person's actions."""

    def __init__(self, emu: FakeDiscord, cast: Cast,
                 on_reset: Callable[[], Awaitable[None]] | None = None,
                 activity: str | None = None) -> None:
        """``activity``: the bot's web server (``http://host:port``), whose Activity
        members launch from the table; None: the bot serves none."""
        self.emu = emu
        self.activity = None if activity is None else ActivityFrame(emu, cast, activity)
        # Launches already shown: each opens the Activity once, on its member's pages.
        self._launches_shown = len(emu.world.activity_launches)
        self.cast = cast
        self.on_reset = on_reset
        self.viewers: list[Viewer] = []
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._push: asyncio.TimerHandle | None = None
        self._running: set[asyncio.Task[Any]] = set()
        emu.world.listeners.append(self._changed)

    # -- serving -----------------------------------------------------------------------

    async def start(self, host: str, port: int) -> None:
        opaque = (lambda _request: False) if self.activity is None else self.activity.opaque_launch
        app = web.Application(middlewares=[page_guard(opaque)])
        app.on_response_prepare.append(unframed)
        app.router.add_get("/", self._index)
        app.router.add_get("/transcript.css", self._transcript_css)
        app.router.add_get("/ws", self._socket)
        for name in STATIC_FILES:
            app.router.add_get(f"/{name}", self._static)
        for action, handler in (("command", self._command), ("click", self._click),
                                ("select", self._select), ("say", self._say),
                                ("locale", self._locale), ("reset", self._reset)):
            app.router.add_post(f"/api/{action}", handler)
        if self.activity is not None:
            self.activity.add_routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = port or self._runner.addresses[0][1]

    async def close(self) -> None:
        if self.activity is not None:
            await self.activity.close()
        for viewer in list(self.viewers):
            await viewer.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
        for task in list(self._running):
            task.cancel()

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.path.lstrip("/")
        return web.FileResponse(STATIC / name, headers={
            "Content-Type": STATIC_FILES[name], "Cache-Control": "no-cache"})

    async def _transcript_css(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=stylesheet(CONVERSATION_WIDTH), content_type="text/css")

    # -- the live feed -----------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        member = self.cast.member(request.query.get("as", "")) or self.cast.members[0]
        await self._bot_connected()
        socket = web.WebSocketResponse(heartbeat=20)
        await socket.prepare(request)
        viewer = Viewer(member, socket)
        self.viewers.append(viewer)
        try:
            # A new connection is sent every message again, so the page starts its
            # log afresh: after a restart, only what the stand-in kept shows.
            await socket.send_json(self.hello(member) | {"fresh": True})
            await self._send_changes(viewer)
            async for frame in socket:
                if frame.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self.viewers.remove(viewer)
        return socket

    async def _bot_connected(self) -> None:
        """Wait (a while at most) for the bot to be on the gateway. The page says
        "Reconnecting to the bot…" until its socket opens: opened while the
        stand-in is back but the bot not yet (a restart brings them up in that
        order), it let a click through to be refused in the stand-in's words."""
        for _ in range(int(BOT_CONNECTS_WITHIN / 0.05)):
            if self.emu.gateway.has_session_for(self.cast.guild.id):
                return
            await asyncio.sleep(0.05)

    def hello(self, member: Actor) -> dict[str, Any]:
        """Everything a page draws besides the messages: who, where, what to type."""
        guild = self.cast.guild
        world = self.emu.world
        commands = self.emu.commands(guild) + self.emu.commands(None)
        kinds = {ChannelType.GUILD_VOICE: "voice", ChannelType.DM: "dm",
                 ChannelType.GROUP_DM: "group"}
        places = [(c, c.name) for c in self.cast.channels if world.can_see_channel(member.id, c)]
        places.append((member.dm_channel, self.emu.bot_user.name))
        places += [(c, conversation_name(world, c, member.id))
                   for c in conversations_of(world, member.id)]
        channels = [{
            "id": str(c.id), "name": name, "kind": kinds.get(c.type, "text"), "bot": c.is_dm,
            # What this member's app offers there: a command by its contexts and
            # installs (a DM between people has only those of a person's own
            # install), and the App Launcher where the Entry Point is offered.
            "commands": [record["id"] for record in commands
                         if command_refusal(world, member.user, c, record) is None],
            "launcher": world.launcher_refusal(member.id, c.id) is None,
        } for c, name in places]
        return {
            "type": "hello",
            "me": {"key": member.name.lower(), "name": member.name, "id": str(member.id),
                   "locale": member.user.locale},
            "members": [{"key": m.name.lower(), "name": m.name, "id": str(m.id)}
                        for m in self.cast.members],
            "server": {"name": guild.name, "locale": guild.preferred_locale},
            "bot": self.emu.bot_user.name,
            "channels": channels,
            "commands": commands,
            "locales": LOCALES,
            "problems": list(self.emu.problems),
        }

    def _changed(self) -> None:
        """The world changed: push what changed a moment from now, in one go."""
        if self._push is None and self.viewers:
            self._push = asyncio.get_running_loop().call_later(PUSH_AFTER, self._push_now)

    def _push_now(self) -> None:
        self._push = None
        launches = self.emu.world.activity_launches
        for user_id, instance_id in launches[self._launches_shown:]:
            for viewer in self.viewers:
                if viewer.member.id == user_id:
                    url = f"/activity?as={viewer.member.name.lower()}&instance={instance_id}"
                    self._spawn(viewer.socket.send_json({"type": "activity", "url": url}))
        self._launches_shown = len(launches)
        for viewer in list(self.viewers):
            self._spawn(self._send_changes(viewer))

    def _seen_by(self, member: Actor) -> Iterator[Message]:
        world = self.emu.world
        for channel in self.cast.channels:
            if world.can_see_channel(member.id, channel):
                yield from member.visible_messages(channel)
        yield from member.dms()
        for conversation in conversations_of(world, member.id):
            yield from member.visible_messages(conversation)

    async def _send_changes(self, viewer: Viewer) -> None:
        if viewer.socket.closed:
            return
        shown: set[int] = set()
        for message in self._seen_by(viewer.member):
            shown.add(message.id)
            now = version(message)
            if viewer.sent.get(message.id) == now:
                continue
            viewer.sent[message.id] = now
            html = message_html(self.emu, message, viewer=viewer.member.user)
            await viewer.socket.send_json({"type": "message", "channel": str(message.channel_id),
                                           "id": str(message.id), "html": html})
        for gone in set(viewer.sent) - shown:
            del viewer.sent[gone]
            await viewer.socket.send_json({"type": "delete", "id": str(gone)})
        problems = self.emu.problems
        if len(problems) > viewer.problems_sent:
            for problem in problems[viewer.problems_sent:]:
                log.warning("Discord would refuse this: %s", problem)
            await viewer.socket.send_json({"type": "problems", "items": list(problems)})
            viewer.problems_sent = len(problems)

    # -- what a person does ------------------------------------------------------------

    async def _command(self, request: web.Request) -> web.Response:
        body, member = await self._body(request)
        channel = self._channel(member, body.get("channel"))
        given = dict(body.get("options") or {})
        options = {name: self._option(value) for name, value in given.items()}
        return await self._act(member.slash(channel, str(body.get("command", "")), **options))

    async def _click(self, request: web.Request) -> web.Response:
        body, member = await self._body(request)
        message_id = self._message(member, body.get("message"))
        return await self._act(member.click(message_id, custom_id=str(body.get("custom_id", ""))))

    async def _select(self, request: web.Request) -> web.Response:
        body, member = await self._body(request)
        message_id = self._message(member, body.get("message"))
        values = [str(value) for value in body.get("values") or []]
        return await self._act(member.select(message_id, str(body.get("custom_id", "")), values))

    async def _say(self, request: web.Request) -> web.Response:
        body, member = await self._body(request)
        channel = self._channel(member, body.get("channel"))
        text = str(body.get("text", "")).strip()
        if not text:
            return web.json_response({"error": "An empty message is not sent."}, status=400)
        return await self._act(member.say(channel, text[:2000]))

    async def _locale(self, request: web.Request) -> web.Response:
        """A member's Discord language, or the server's (``"server": true``)."""
        body, member = await self._body(request)
        locale = str(body.get("locale", ""))
        if locale not in LOCALES:
            return web.json_response({"error": f"{locale!r} is not a language offered here."},
                                     status=400)
        if body.get("server"):
            self.cast.guild.preferred_locale = locale
        else:
            member.user.locale = locale
        for viewer in list(self.viewers):
            await viewer.socket.send_json(self.hello(viewer.member))
        return web.json_response({"ok": True})

    async def _reset(self, request: web.Request) -> web.Response:
        if self.on_reset is None:
            return web.json_response({"error": "Nothing to reset here."}, status=400)
        await self.on_reset()
        for viewer in list(self.viewers):
            with contextlib.suppress(ConnectionError):
                await viewer.socket.send_json({"type": "reset"})
        return web.json_response({"ok": True})

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], Actor]:
        try:
            body = await request.json()
        except (ValueError, RecursionError):
            # RecursionError: nested deeper than the parser goes, which is no request either.
            raise web.HTTPBadRequest(text="the page sent something that is not JSON") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="the page sent something that is not an object")
        member = self.cast.member(str(body.get("as", "")))
        if member is None:
            raise web.HTTPBadRequest(text=f"nobody called {body.get('as')!r} is in the server")
        return body, member

    def _channel(self, member: Actor, channel_id: object) -> Channel:
        channel = self.emu.world.channels.get(_id(channel_id))
        if channel is None:
            raise web.HTTPBadRequest(text="no such channel")
        if not self.emu.world.can_see_channel(member.id, channel):
            # Refused here, before the emulator sees anything: a page may be asked
            # by hand for a conversation of others, and nothing may change.
            raise web.HTTPForbidden(text=not_yours(member.name, channel))
        return channel

    def _message(self, member: Actor, message_id: object) -> int:
        """A message's id, refused as its conversation is to a member not in it
        (one whose message is gone is left to the emulator to refuse)."""
        message = self.emu.world.messages.get(_id(message_id))
        if message is not None:
            self._channel(member, message.channel_id)
        return _id(message_id)

    def _option(self, value: object) -> object:
        """An option as the page sends it; a member is sent as ``{"user": id}``."""
        if isinstance(value, dict) and "user" in value:
            return self.emu.world.users.get(_id(value["user"]), value)
        return value

    async def _act(self, action: Coroutine[Any, Any, object]) -> web.Response:
        """Start what the person did; what Discord's app would not send is
        refused at once, in the emulator's words, and nothing is sent."""
        task = asyncio.create_task(action)
        # The emulator checks a person's action before it sends anything, in the
        # task's first step: one turn of the loop runs it.
        await asyncio.sleep(0)
        if task.done() and task.exception() is not None:
            # An answer, not a failure of the page: Discord's app says it in place.
            return web.json_response({"error": _refusal(task.exception())})
        self._running.add(task)
        task.add_done_callback(self._finished)
        return web.json_response({"ok": True})

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._running.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            if isinstance(error, ConnectionError):
                return  # a page closed while it was sent something
            log.warning("an action of the page failed: %s", _refusal(error))


def _id(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise web.HTTPBadRequest(text=f"{value!r} is not an id") from None


def _refusal(error: BaseException | None) -> str:
    text = str(error) if error is not None else ""
    return text.split("\n", 1)[0] or type(error).__name__
