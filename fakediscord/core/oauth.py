"""OAuth2 as an Activity's handshake uses it: codes, access tokens, and their lifetimes.

The Activity (a web page inside Discord) calls the Embedded App SDK's
``commands.authorize``; the Discord client asks the person and hands the page a
code. The Activity's server exchanges the code at ``POST /oauth2/token`` for the
person's access token, and reads who they are with it (``GET /users/@me``,
``Authorization: Bearer``). Codes are single use and live 10 minutes, access
tokens a week (``expires_in``); a refresh token replaces its access token.

Expiries read the store's own clock (``now``): ``pass_time`` moves it on, so a
test sees a token expire without waiting a week. The store is part of the
world, saved with it.
"""

from __future__ import annotations

import secrets
import time
from functools import cache

from .models import OAuthCode, OAuthToken
from .spec import load_spec

CODE_LIFETIME = 10 * 60  # seconds, as Discord's authorization codes
TOKEN_LIFETIME = 7 * 24 * 60 * 60  # an access token's ``expires_in``


@cache
def known_scopes() -> frozenset[str]:
    """The scopes Discord's authorization-code flow knows (its OpenAPI description's)."""
    flows = load_spec()["components"]["securitySchemes"]["OAuth2"]["flows"]
    return frozenset(flows["authorizationCode"]["scopes"])


def new_secret() -> str:
    """An opaque random string, the length of Discord's client secrets (32)."""
    return secrets.token_urlsafe(24)


class OAuthGrants:
    """The codes and tokens people granted the application, by their strings."""

    def __init__(self) -> None:
        self.codes: dict[str, OAuthCode] = {}
        self.tokens: dict[str, OAuthToken] = {}  # by access token
        self.refresh_tokens: dict[str, OAuthToken] = {}  # the same tokens, by refresh token
        self.clock_offset = 0.0  # seconds ``pass_time`` moved the clock on

    def now(self) -> float:
        """The clock expiries are read on: the wall clock (a saved world's tokens
        expire across restarts) plus whatever ``pass_time`` added."""
        return time.time() + self.clock_offset

    def pass_time(self, seconds: float) -> None:
        self.clock_offset += seconds

    def issue_code(self, user_id: int, scopes: list[str]) -> str:
        unknown = sorted(set(scopes) - known_scopes())
        if unknown or not scopes:
            reason = f"unknown scopes {unknown}" if unknown else "no scope asked for"
            raise ValueError(f"Discord's client would refuse to authorize {scopes!r}: {reason}")
        now = self.now()
        # Codes nobody exchanged are dropped once expired: a long local play issues many.
        self.codes = {c.code: c for c in self.codes.values() if c.expires_at > now}
        code = OAuthCode(new_secret(), user_id, list(scopes), now + CODE_LIFETIME)
        self.codes[code.code] = code
        return code.code

    def exchange(self, code: str) -> OAuthToken | None:
        """The token a code is worth; None for a code unknown, used or expired (a code
        is gone once tried)."""
        found = self.codes.pop(code, None)
        if found is None or found.expires_at <= self.now():
            return None
        return self._grant(found.user_id, found.scopes)

    def refresh(self, refresh_token: str) -> OAuthToken | None:
        """A fresh token in place of the one ``refresh_token`` belongs to (that one
        stops working, its refresh token too); None if unknown or already used."""
        old = self.refresh_tokens.pop(refresh_token, None)
        if old is None:
            return None
        self.tokens.pop(old.access_token, None)
        return self._grant(old.user_id, old.scopes)

    def token(self, access_token: str) -> OAuthToken | None:
        """The live token ``access_token`` names; None if unknown or expired."""
        found = self.tokens.get(access_token)
        if found is None or found.expires_at <= self.now():
            return None
        return found

    def _grant(self, user_id: int, scopes: list[str]) -> OAuthToken:
        token = OAuthToken(new_secret(), new_secret(), user_id, list(scopes),
                           self.now() + TOKEN_LIFETIME)
        self.tokens[token.access_token] = token
        self.refresh_tokens[token.refresh_token] = token
        return token
