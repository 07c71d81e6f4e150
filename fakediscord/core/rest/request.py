"""What every REST endpoint speaks: the request as it arrives, and Discord's errors.

A body is read (JSON, multipart with ``payload_json`` and ``files[n]`` uploads,
checked as Discord checks them, or a form as OAuth2's token endpoint takes it)
into a ``Req``; an endpoint that refuses raises ``ApiError``, which the gate
(``rest.RestApi``) turns into Discord's error JSON, or ``OAuthError`` (OAuth2's
own error JSON).
"""

from __future__ import annotations

import mimetypes
import re
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import BodyPartReader, web

from .. import payloads
from ..components import Reason
from ..models import OAuthToken

# Discord's error codes used here
UNKNOWN_APPLICATION, UNKNOWN_CHANNEL, UNKNOWN_GUILD, UNKNOWN_MEMBER = 10002, 10003, 10004, 10007
UNKNOWN_MESSAGE, UNKNOWN_USER, UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION = 10008, 10013, 10015, 10062
UNKNOWN_COMMAND, UNKNOWN_EMOJI, MAX_EMOJIS = 10063, 10014, 30008
MISSING_ACCESS, CANNOT_EDIT_OTHERS, EMPTY_MESSAGE, CANNOT_DM = 50001, 50005, 50006, 50007
MISSING_PERMISSIONS, INVALID_FORM_BODY, ALREADY_ACKNOWLEDGED = 50013, 50035, 40060
INVALID_JSON = 50109
CANNOT_REMOVE_ENTRY_POINT = 50240
FORM = "application/x-www-form-urlencoded"

VIEW_CHANNEL, SEND_MESSAGES, MANAGE_MESSAGES = 1 << 10, 1 << 11, 1 << 13

File = tuple[str, bytes, str]  # filename, data, content type
# Discord's limits on uploads: 10 files a message, each at most the size every
# interaction announces as ``attachment_size_limit`` (a server without boosts).
MAX_FILES = 10
ENTITY_TOO_LARGE = 40005
FILE_PART = re.compile(r"files\[(\d{1,2})\]")


class ApiError(Exception):
    """A refusal in Discord's shape; ``problem``: a refusal the tests must see (the
    gate records it, as it records every 400), such as the bot reaching into a
    place it is not in."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Reason] | None = None, *, problem: bool = False) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.problem = problem


class OAuthError(Exception):
    """A refusal of the OAuth2 token endpoint, in OAuth2's shape (RFC 6749, 5.2)
    rather than Discord's: the expected answer to a wrong code or secret, so the
    gate never counts it among the problems."""

    def __init__(self, status: int, error: str, description: str | None = None) -> None:
        super().__init__(error)
        self.status, self.error, self.description = status, error, description

    def body(self) -> dict[str, str]:
        body = {"error": self.error}
        if self.description is not None:
            body["error_description"] = self.description
        return body


def invalid_form(errors: dict[str, Reason]) -> ApiError:
    """Discord's 400 for a body that breaks its rules, ``errors`` naming each field."""
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


@dataclass
class Req:
    """A parsed request as endpoints see it."""

    method: str
    route: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[File] = field(default_factory=list)
    content_type: str = ""
    # The Authorization header, for endpoints that read credentials of their own
    # (the token endpoint's HTTP Basic client credentials).
    authorization: str = ""
    # The person's access token when one (``Bearer``) authenticated the request
    # instead of the bot's token.
    bearer: OAuthToken | None = None

    def id(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise invalid_form({name: "Value is not snowflake."}) from None

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Answer = tuple[int, Any]
Handler = Callable[[Req], Awaitable[Answer]]
# method, path template (``{name}`` a parameter), endpoint
Route = tuple[str, str, Handler]


async def read_body(request: web.Request) -> tuple[Any, list[File]]:
    """JSON body, or multipart ``payload_json`` plus ``files[n]`` parts, or a form.

    Uploads are checked as Discord checks them: at most ten, each ``files[n]``
    once, each within the size limit (413, code 40005, otherwise), and every
    new attachment the body lists (``attachments[].id`` = ``n``) uploaded. A form
    (what OAuth2's token endpoint takes) is a dict of strings, the last of a
    repeated field winning."""
    if request.content_type == FORM:
        text = (await request.read()).decode("utf-8", errors="replace")
        return dict(urllib.parse.parse_qsl(text, keep_blank_values=True)), []
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
                body = parse_json(bytes(data))
                continue
            found = FILE_PART.fullmatch(name)
            if found is None:
                continue  # Discord ignores parts it does not know
            index = int(found[1])
            if index in files or index >= MAX_FILES or len(files) >= MAX_FILES:
                raise invalid_form({"files": (
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_FILES} or fewer files, each files[n] once.")})
            if len(data) > payloads.ATTACHMENT_SIZE_LIMIT:
                raise ApiError(413, ENTITY_TOO_LARGE, "Request entity too large")
            filename = part.filename or name
            files[index] = (filename, bytes(data), upload_content_type(filename, part.headers))
        check_new_attachments(body, set(files))
        return body, [files[index] for index in sorted(files)]
    raw = await request.read()
    if not raw:
        return None, []
    body = parse_json(raw)
    check_new_attachments(body, set())
    return body, []


def upload_content_type(filename: str, headers: Any) -> str:
    """An upload's type as Discord reports it: discord.py sends every file as
    octet-stream, and Discord names the type from the file (a .png is image/png,
    shown inline as an image)."""
    sent = str(headers.get("Content-Type", "") or "")
    if sent and sent != "application/octet-stream":
        return sent
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


def check_new_attachments(body: Any, uploaded: set[int]) -> None:
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
            raise invalid_form({f"attachments.{number}.id": (
                "ATTACHMENT_NOT_FOUND", f"No file files[{wanted}] was uploaded.")})


def parse_json(raw: bytes) -> Any:
    try:
        return orjson.loads(raw)
    except ValueError:
        raise ApiError(400, INVALID_JSON, "The request body contains invalid JSON.") from None
