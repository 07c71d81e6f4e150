"""The REST API under ``/api/v10``: routing and the checks every request passes.

Every request passes the same gate (``RestApi.entry``): body parsing (JSON or
multipart with ``payload_json``), route lookup (unknown routes answer 404 and
are recorded as problems), bot authentication, validation against Discord's
OpenAPI description, injected faults, then the endpoint. Answers use
Discord's status codes, error codes and JSON shapes.

The endpoints live by resource: ``rest_application`` (users, the application,
commands, emojis), ``rest_messages`` (channels, messages, guilds),
``rest_interactions`` (callbacks and interaction webhooks); ``rest_request`` is
what they share (the parsed request, Discord's errors and error codes).
"""

from __future__ import annotations

import asyncio
import re
import time
import traceback
from typing import Any

import orjson
from aiohttp import web

from . import payloads, spec
from .faults import FaultInjector
from .gateway import Gateway
from .ratelimits import RateLimits
from .rest_application import ApplicationRoutes
from .rest_interactions import InteractionRoutes
from .rest_messages import ChannelRoutes, MessageWriter
from .rest_request import (
    ALREADY_ACKNOWLEDGED,
    CANNOT_DM,
    CANNOT_EDIT_OTHERS,
    EMPTY_MESSAGE,
    ENTITY_TOO_LARGE,
    FILE_PART,
    INVALID_FORM_BODY,
    MANAGE_MESSAGES,
    MAX_EMOJIS,
    MAX_FILES,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    SEND_MESSAGES,
    UNKNOWN_APPLICATION,
    UNKNOWN_CHANNEL,
    UNKNOWN_COMMAND,
    UNKNOWN_EMOJI,
    UNKNOWN_GUILD,
    UNKNOWN_INTERACTION,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    UNKNOWN_WEBHOOK,
    VIEW_CHANNEL,
    Answer,
    ApiError,
    File,
    Handler,
    Req,
    Route,
    read_body,
)
from .traffic import RecordedRequest, TrafficLog
from .world import World

# The request's vocabulary has always been importable from here.
__all__ = [
    "ALREADY_ACKNOWLEDGED", "API_PREFIX", "CANNOT_DM", "CANNOT_EDIT_OTHERS", "EMPTY_MESSAGE",
    "ENTITY_TOO_LARGE", "FILE_PART", "INVALID_FORM_BODY", "JSON_HEADERS", "MANAGE_MESSAGES",
    "MAX_EMOJIS", "MAX_FILES", "MISSING_ACCESS", "MISSING_PERMISSIONS", "SEND_MESSAGES",
    "UNKNOWN_APPLICATION", "UNKNOWN_CHANNEL", "UNKNOWN_COMMAND", "UNKNOWN_EMOJI",
    "UNKNOWN_GUILD", "UNKNOWN_INTERACTION", "UNKNOWN_MEMBER", "UNKNOWN_MESSAGE", "UNKNOWN_USER",
    "UNKNOWN_WEBHOOK", "VIEW_CHANNEL", "Answer", "ApiError", "File", "Handler", "Req", "RestApi",
    "Route",
]

API_PREFIX = "/api/v10"
JSON_HEADERS = {"Content-Type": "application/json"}  # exactly: discord.py compares the string


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
        writer = MessageWriter(world, gateway)
        application = ApplicationRoutes(world, gateway)
        channels = ChannelRoutes(world, writer)
        interactions = InteractionRoutes(world, writer)
        table = [*application.routes(), *interactions.routes(), *channels.routes()]
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
            body, files = await read_body(request)
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
