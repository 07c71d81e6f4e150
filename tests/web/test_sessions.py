"""The Activity's sessions: signed, bound to a member and an instance, and short-lived."""

from __future__ import annotations

import base64
import json

import pytest

from tables import Place
from web.sessions import SessionRefused, Sessions


def test_a_session_reads_back_as_issued() -> None:
    sessions = Sessions("secret")
    session = sessions.read(sessions.issue(7, "i-1-gc-2-3", Place(3, 2)))
    assert (session.user_id, session.instance_id, session.channel_id, session.guild_id) == (
        7, "i-1-gc-2-3", 3, 2)


def test_two_sessions_of_one_member_are_told_apart() -> None:
    sessions = Sessions("secret")
    first = sessions.read(sessions.issue(7, "i", Place(3, 2)))
    second = sessions.read(sessions.issue(7, "i", Place(3, 2)))
    assert first.nonce != second.nonce


def test_a_session_of_another_secret_is_refused() -> None:
    token = Sessions("another bot's secret").issue(7, "i", Place(3, 2))
    with pytest.raises(SessionRefused, match="not a session of this bot"):
        Sessions("secret").read(token)


def test_a_session_whose_member_was_changed_is_refused() -> None:
    sessions = Sessions("secret")
    body, signature = sessions.issue(7, "i", Place(3, 2)).split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["user_id"] = 8
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    with pytest.raises(SessionRefused):
        sessions.read(f"{forged}.{signature}")


def test_a_session_that_ran_out_is_refused() -> None:
    sessions = Sessions("secret", lifetime=-1)
    with pytest.raises(SessionRefused, match="run out"):
        sessions.read(sessions.issue(7, "i", Place(3, 2)))


@pytest.mark.parametrize("token", [None, 42, "", "no-dot", "a.b.c", "x" * 2000 + ".y", "%%%.abc"])
def test_what_is_not_a_session_is_refused(token: object) -> None:
    with pytest.raises(SessionRefused):
        Sessions("secret").read(token)
