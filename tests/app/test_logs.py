"""The log's redaction, record by record (the end-to-end check is tests/bot/test_log_secrets.py)."""

from __future__ import annotations

import functools
import io
import json
import logging

import pytest

from app.logs import Redactor, setup_logging

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ"
BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"


def written(msg: object, *args: object, exc: BaseException | None = None) -> str:
    """The record as a handler with the Redactor writes it."""
    record = logging.LogRecord("discord.http", logging.DEBUG, __file__, 1, msg, args, None)
    if exc is not None:
        record.exc_info = (type(exc), exc, exc.__traceback__)
    handler = logging.Handler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler.addFilter(Redactor(secrets=["the-bot-token"]))
    assert handler.filter(record)
    return handler.format(record)


@pytest.mark.parametrize(
    "url",
    [
        f"https://discord.com/api/v10/interactions/123456/{TOKEN}/callback",
        f"https://discord.com/api/v10/webhooks/99/{TOKEN}/messages/@original",
        f"https://discord.com/api/v10/webhooks/99/{TOKEN}?wait=true",
    ],
)
def test_a_token_in_a_url_is_blanked(url: str) -> None:
    text = written("%s %s has returned %s", "POST", url, 200)
    assert TOKEN not in text and "/<redacted>" in text and text.endswith("has returned 200")


def test_a_token_field_is_blanked_in_json_and_in_a_logged_dict() -> None:
    as_json = written(f'payload {{"token": "{TOKEN}", "id": 1}}')
    assert as_json == 'payload {"token": "<redacted>", "id": 1}'
    as_dict = written("frame " + repr({"d": {"token": TOKEN, "id": "1"}}))
    assert as_dict == "frame {'d': {'token': '<redacted>', 'id': '1'}}"
    assert TOKEN not in written(f"login {{'access_token': '{TOKEN}'}}")


def test_secrets_and_bot_shaped_tokens_are_blanked_wherever_they_are() -> None:
    assert "the-bot-token" not in written("Authorization: Bot the-bot-token")
    assert BOT_TOKEN not in written("refused %s", BOT_TOKEN)


def test_payloads_are_described_not_written() -> None:
    body = '{"content": "Your cards: 7♥ 8♥ 9♥", "components": []}'
    assert written("POST %s with %s", "/channels/1/messages", body) == (
        f"POST /channels/1/messages with <JSON body of {len(body)} characters>"
    )
    event = {"op": 0, "t": "INTERACTION_CREATE", "s": 7, "d": {"message": "7♥"}}
    assert written("WebSocket Event: %s", event) == (
        "WebSocket Event: <gateway op 0 INTERACTION_CREATE, sequence 7>"
    )
    assert written("received %s", {"id": "1", "content": "7♥"}) == "received <object with 2 keys>"
    assert written("%s", ["7♥", "8♥"]) == "<array of 2 items>"
    assert written({"hand": ["7♥"]}) == "<object with 1 keys>"
    call = functools.partial(print, "INSERT ...", ("7♥",))
    assert written("executing %s", call) == "executing <call of print>"


def test_an_exception_s_text_is_redacted_too() -> None:
    try:
        raise RuntimeError(f"POST /interactions/1/{TOKEN}/callback failed")
    except RuntimeError as error:
        text = written("answer failed", exc=error)
    assert TOKEN not in text and "RuntimeError" in text and "Traceback" in text


def test_ordinary_messages_are_unchanged() -> None:
    assert written("restored %d live tables (%d set aside)", 3, 0) == (
        "restored 3 live tables (0 set aside)"
    )
    assert written("component %s was answered too late", "rummy:draw:1") == (
        "component rummy:draw:1 was answered too late"
    )


def test_json_lines_are_one_object_a_line_and_redacted_too() -> None:
    stream = io.StringIO()
    handler = setup_logging(
        logging.INFO, secrets=["s3cret"], handler=logging.StreamHandler(stream), json_lines=True
    )
    try:
        log = logging.getLogger("rummy")
        log.info("token %s in a message", "s3cret")
        try:
            raise ValueError("s3cret in an error")
        except ValueError:
            log.exception("it failed")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["levelname"] for line in lines] == ["INFO", "ERROR"]
    assert lines[0]["message"] == "token <redacted> in a message" and lines[0]["name"] == "rummy"
    assert "ValueError" in lines[1]["exc_info"] and "s3cret" not in stream.getvalue()
