"""The REST API under ``/api/v10``: routing and the checks every request passes.

Every request passes the same gate (``RestApi.entry``): body parsing (JSON,
multipart with ``payload_json``, or a form), route lookup (unknown routes answer
404 and are recorded as problems), authentication (the bot's token; a person's
OAuth2 access token on the few routes it may call), validation against
Discord's OpenAPI description, injected faults, then the endpoint. Answers use
Discord's status codes, error codes and JSON shapes.

The endpoints live by resource: ``rest_application`` (users, the application,
commands, emojis, Activity instances), ``rest_messages`` (channels, messages,
guilds), ``rest_interactions`` (callbacks and interaction webhooks),
``rest_oauth`` (OAuth2's token endpoint); ``rest_request`` is what they share
(the parsed request, Discord's errors and error codes).
"""

from __future__ import annotations

import asyncio
import re
import time
import traceback
from typing import Any

import orjson
from aiohttp import web

from .. import payloads, spec
from ..gateway import Gateway
from ..traffic import RecordedRequest, TrafficLog
from ..world import OAuthToken, World
from .application import ApplicationRoutes
from .faults import FaultInjector
from .interactions import InteractionRoutes
from .messages import ChannelRoutes, MessageWriter
from .oauth_token import BEARER_ROUTES, TOKEN_ROUTE, OAuthRoutes
from .ratelimits import RateLimits
from .request import (
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
    OAuthError,
    Req,
    Route,
    read_body,
)

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
        oauth = OAuthRoutes(world, problems)
        table = [*application.routes(), *interactions.routes(), *channels.routes(),
                 *oauth.routes()]
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
        refused_as_expected = flagged = False
        try:
            body, files = await read_body(request)
            record.body, record.files = body, [f[0] for f in files]
            status, answer, headers = await self._process(request, record, matched, body, files)
        except ApiError as exc:
            status, answer, headers = exc.status, payloads.error(exc.code, exc.message,
                                                                 exc.errors), {}
            flagged = exc.problem
        except OAuthError as exc:
            # A wrong code or secret is answered, as by Discord; the endpoint
            # reports what would be a mistake of the caller's code itself.
            status, answer, headers = exc.status, exc.body(), {}
            refused_as_expected = True
        except Exception as exc:
            # A bug of the emulator must fail the test, not look like a Discord outage
            # (a 5xx would make discord.py retry for half a minute).
            self.problems.append(f"fakediscord crashed on {method} {path}: "
                                 + "".join(traceback.format_exception(exc)))
            status, answer, headers = 400, payloads.error(0, f"fakediscord crashed: {exc!r}"), {}
        record.status, record.response = status, answer
        record.duration = time.perf_counter() - t0
        self.traffic.http(record)
        if (status == 400 or flagged) and not refused_as_expected:
            self.problems.append(f"{method} {record.route or path} answered {status}: {answer}")
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
        authorization = request.headers.get("Authorization", "")
        allowed, bearer = self._authenticate(record.method, route, authorization)
        if not allowed:
            return 401, {"message": "401: Unauthorized", "code": 0}, {}
        if self.validate and body is not None:
            # A multipart body is checked as its payload_json, the JSON schema of the route.
            violation = spec.validate_body(record.method, route, body)
            if violation is not None:
                self.problems.append(f"spec violation: {violation}")
        limit_headers: dict[str, str] = {}
        # A person's token, or the application's client credentials, are not the
        # bot's token: they count in none of the bot's limits.
        if self.rate_limits is not None and bearer is None and route != TOKEN_ROUTE:
            refusal, limit_headers = self.rate_limits.check(record.method, route, params)
            if refusal is not None:
                return 429, refusal.body(), refusal.headers
        fault = self.faults.take(record.method, record.path, route)
        if fault is not None and fault.status == 0:
            await asyncio.sleep(fault.delay)
        elif fault is not None:
            answer, headers = fault.response()
            return fault.status, answer, headers
        status, answer = await handler(Req(record.method, route, params, record.query, body, files,
                                           request.content_type, authorization, bearer))
        return status, answer, limit_headers

    def _authenticate(self, method: str, route: str,
                      authorization: str) -> tuple[bool, OAuthToken | None]:
        """Whether the request may go on, and the person's token if one authenticated it.

        Webhook and callback routes authenticate by the token in the URL, the OAuth2
        token endpoint by the application's client credentials (its own check); a
        route a person's token may call takes a live one with the scope it needs;
        every other route takes the bot's token."""
        if route.startswith(("/webhooks/", "/interactions/")) or route == TOKEN_ROUTE:
            return True, None
        scope = BEARER_ROUTES.get((method, route))
        if scope is not None and authorization.startswith("Bearer "):
            token = self.world.oauth.token(authorization.removeprefix("Bearer "))
            return token is not None and scope in token.scopes, token
        return authorization == f"Bot {self.token}", None
