"""The Activity's sessions: who a page plays as, in which instance, until when.

A session is issued once the player's identity is checked with Discord
(``web.server``) and signed with a key derived from the client secret, so it
holds nothing a page could change, survives a restart of the bot (a page
reconnects with it), and needs no storage.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import asdict, dataclass

from tables import Place

# Long enough for a match, short enough that a leaked session soon dies; the
# page asks Discord again, without a prompt, when its session runs out.
LIFETIME = 4 * 3600.0


class SessionRefused(Exception):
    """A session that is not one of ours, was changed, or has run out."""


@dataclass(frozen=True)
class Session:
    user_id: int
    instance_id: str
    channel_id: int
    # The board the channel's games count on: its server's, or a DM's own
    # (``tables.Place``; named as sessions issued before DMs had boards are).
    guild_id: int
    expires: float
    # Unique to the session: a page's sequence of intents is counted per session.
    nonce: str
    # The member's name as Discord gave it (a seat taken from the Activity).
    name: str = ""
    # No bot in the channel (``tables.Place``).
    activity_only: bool = False

    @property
    def place(self) -> Place:
        return Place(self.channel_id, self.guild_id, self.activity_only)


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    def __init__(self, client_secret: str, lifetime: float = LIFETIME) -> None:
        # Derived, not the secret itself: a session's signature reveals nothing of it.
        self._key = hmac.new(client_secret.encode(), b"rummy activity sessions", hashlib.sha256)\
            .digest()
        self.lifetime = lifetime

    def issue(self, user_id: int, instance_id: str, place: Place, name: str = "") -> str:
        session = Session(user_id, instance_id, place.channel_id, place.board_id,
                          time.time() + self.lifetime, secrets.token_urlsafe(9), name[:100],
                          place.activity_only)
        body = _encode(json.dumps(asdict(session), separators=(",", ":")).encode())
        return f"{body}.{self._sign(body)}"

    def read(self, token: object) -> Session:
        """The session ``token`` stands for; ``SessionRefused`` saying why not."""
        if (not isinstance(token, str) or token.count(".") != 1 or len(token) > 1024
                or not token.isascii()):
            raise SessionRefused("not a session")
        body, signature = token.split(".")
        if not hmac.compare_digest(signature, self._sign(body)):
            raise SessionRefused("not a session of this bot")
        try:
            session = Session(**json.loads(_decode(body)))
        except (ValueError, TypeError):
            raise SessionRefused("not a session") from None
        if session.expires < time.time():
            raise SessionRefused("the session has run out")
        return session

    def _sign(self, body: str) -> str:
        return _encode(hmac.new(self._key, body.encode(), hashlib.sha256).digest())
