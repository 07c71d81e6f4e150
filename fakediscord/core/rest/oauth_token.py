"""OAuth2's token endpoint, where an Activity's server turns the code the Discord
client gave the page into the person's access token (``oauth.py`` keeps both).

Not in Discord's OpenAPI description; as its prose documentation says, the body
is a form (``application/x-www-form-urlencoded``): ``grant_type``, ``code``
(or ``refresh_token``), and the application's client credentials as
``client_id``/``client_secret`` fields or HTTP Basic auth. No bot token is
needed. Refusals are OAuth2's JSON (``{"error": ...}``), not Discord's.
"""

from __future__ import annotations

import base64
import binascii
import secrets

from .. import payloads
from ..world import OAuthToken, World
from .request import FORM, Answer, OAuthError, Req, Route

TOKEN_ROUTE = "/oauth2/token"
# What a person's access token (``Authorization: Bearer``) may call instead of the
# bot's token here, and the scope each needs.
BEARER_ROUTES: dict[tuple[str, str], str] = {("GET", "/users/@me"): "identify"}
# Grants Discord offers that the emulator does not: asked for, they are refused
# as unsupported and reported, so a test never passes on a refusal Discord would not make.
NOT_EMULATED = ("client_credentials",)


class OAuthRoutes:
    def __init__(self, world: World, problems: list[str]) -> None:
        self.world = world
        self.problems = problems

    def routes(self) -> list[Route]:
        return [("POST", TOKEN_ROUTE, self.token)]

    async def token(self, req: Req) -> Answer:
        form: dict[str, str] = req.body if req.content_type == FORM else {}
        if req.content_type != FORM:
            self.problems.append(
                f"POST {TOKEN_ROUTE} takes a form ({FORM}), not {req.content_type or 'no body'}: "
                "Discord reads no field of it and answers unsupported_grant_type")
        grant = form.get("grant_type")
        if grant in NOT_EMULATED:
            self.problems.append(f"fakediscord does not emulate the {grant} grant")
        if grant not in ("authorization_code", "refresh_token"):
            raise OAuthError(400, "unsupported_grant_type", f"Grant type {grant} is not supported")
        self._authenticate(req, form)
        token: OAuthToken | None
        if grant == "authorization_code":
            # ``redirect_uri`` is not compared: an Activity's code comes from the
            # client's ``authorize``, which names none.
            token = self.world.oauth.exchange(form.get("code", ""))
            field = "code"
        else:
            token = self.world.oauth.refresh(form.get("refresh_token", ""))
            field = "refresh_token"
        if token is None:
            raise OAuthError(400, "invalid_grant", f'Invalid "{field}" in request.')
        return 200, payloads.oauth_token(token)

    def _authenticate(self, req: Req, form: dict[str, str]) -> None:
        """The application's client id (its application id) and secret, from the
        form or else from HTTP Basic auth; 401 ``invalid_client`` unless both match."""
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if secret is None and req.authorization.startswith("Basic "):
            client_id, secret = _basic_credentials(req.authorization.removeprefix("Basic "))
        if (client_id != str(self.world.application_id) or secret is None
                or not secrets.compare_digest(secret.encode(), self.world.client_secret.encode())):
            raise OAuthError(401, "invalid_client")


def _basic_credentials(encoded: str) -> tuple[str | None, str | None]:
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None, None
    client_id, colon, secret = decoded.partition(":")
    return (client_id, secret) if colon else (None, None)
