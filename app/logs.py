"""The bot's log: where records go, and what they must never hold.

At DEBUG, discord.py logs every request's URL and body and every gateway
event whole. An interaction's URL and event carry its token, with which
anyone can answer as the bot for fifteen minutes, and a hand view, a DM or a
clicked hand message carries a player's cards. So every record passes a
:class:`Redactor` before it is written: tokens are blanked wherever they
appear, and payloads are replaced by a short description of what they were.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

import discord
from pythonjsonlogger.json import JsonFormatter

REDACTED: Final = "<redacted>"

# An interaction's or webhook's token is the path segment after its id:
# /interactions/<id>/<token>/callback, /webhooks/<application id>/<token>/...
URL_TOKEN: Final = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?#\s'\"<>]+")
# "token": "..." in JSON, 'token': '...' in a logged dict (and access_token and the like).
FIELD_TOKEN: Final = re.compile(r"""(["'](?:\w+_)?token["']\s*:\s*)(["'])(?:\\.|(?!\2).)*\2""")
# Anything shaped like a bot token (three base64 parts), in case one that is
# not the bot's own turns up in an error.
BOT_TOKEN: Final = re.compile(r"[\w-]{24,}\.[\w-]{6,}\.[\w-]{27,}")

LogArgs = tuple[object, ...] | Mapping[str, object]


class Redactor(logging.Filter):
    """Rewrites each record in place, before any formatter sees it: the text
    without tokens or payloads, exceptions and stacks without tokens."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redact(_text_of(record))
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        text = URL_TOKEN.sub(rf"\1{REDACTED}", text)
        text = FIELD_TOKEN.sub(rf"\1\2{REDACTED}\2", text)
        return BOT_TOKEN.sub(REDACTED, text)


def _text_of(record: logging.LogRecord) -> str:
    """The record's message with every payload among its arguments described instead."""
    msg = record.msg if isinstance(record.msg, str) else describe(record.msg)
    args: LogArgs | None = record.args
    if not args:
        return str(msg)
    if isinstance(args, Mapping) and "%(" in str(msg):
        args = {key: describe(value) for key, value in args.items()}
    elif isinstance(args, Mapping):
        # logging unpacks a lone dict argument, for "%(name)s" formats; here it is the payload.
        args = (describe(args),)
    else:
        args = tuple(describe(value) for value in args)
    try:
        return str(msg) % args
    except (TypeError, ValueError, KeyError):
        # A malformed call; keep what it said without letting a payload through.
        return f"{msg} {args!r}"


def describe(value: object) -> object:
    """A payload's shape in place of its content; anything else as it is.

    Payloads are gateway events, request and response bodies (objects, arrays,
    or their JSON text) and database calls with their parameters.
    """
    if isinstance(value, Mapping):
        return _describe_object(value)
    if isinstance(value, list | tuple):
        return f"<array of {len(value)} items>"
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value)} bytes>"
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        return f"<JSON body of {len(value)} characters>"
    if isinstance(value, functools.partial):
        return f"<call of {getattr(value.func, '__qualname__', type(value.func).__name__)}>"
    return value


def _describe_object(value: Mapping[Any, Any]) -> str:
    if "op" in value:  # a gateway frame: its kind is what a reader of the log needs
        event = f" {value['t']}" if value.get("t") else ""
        sequence = f", sequence {value['s']}" if value.get("s") is not None else ""
        return f"<gateway op {value['op']}{event}{sequence}>"
    return f"<object with {len(value)} keys>"


class JsonLines(JsonFormatter):
    """One JSON object a record. An exception is written as the redactor left it
    (``exc_text``), never formatted anew from the exception, whose text may
    hold a token."""

    def format(self, record: logging.LogRecord) -> str:
        exc_info, record.exc_info = record.exc_info, None
        try:
            return super().format(record)
        finally:
            record.exc_info = exc_info  # other handlers share the record


def setup_logging(
    level: int,
    *,
    secrets: Iterable[str] = (),
    handler: logging.Handler | None = None,
    json_lines: bool = False,
) -> logging.Handler:
    """Send every record at ``level`` or above to ``handler`` (stderr by default),
    redacted (``secrets`` too, such as the bot's token, wherever they appear):
    formatted as discord.py formats its own, or one JSON object a line for a log
    collector (``json_lines``); returns the handler."""
    handler = handler or logging.StreamHandler()
    handler.addFilter(Redactor(secrets))
    if json_lines:
        formatter = JsonLines("{asctime}{levelname}{name}{message}", style="{")
        discord.utils.setup_logging(handler=handler, formatter=formatter, level=level)
    else:
        discord.utils.setup_logging(handler=handler, level=level)
    # The bot has no voice features; discord.py's start-up notes about voice
    # libraries would only alarm whoever reads the log.
    logging.getLogger("discord.client").addFilter(not_about_voice)
    return handler


def not_about_voice(record: logging.LogRecord) -> bool:
    return "voice will NOT be supported" not in record.getMessage()
