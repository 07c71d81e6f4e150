"""What keeps other web sites out of local play's page.

The page's server acts as whichever member a request names, with no password:
anything that can send it a request can read a member's hand or post as them.
A page from another site, open in the same browser, can send requests to
127.0.0.1 (and a site whose name is made to resolve to 127.0.0.1, "DNS
rebinding", even counts as the same origin). So every request, the frame
around the Activity and its proxy included, must:

- name this server in ``Host`` by an address, or ``localhost`` (a rebinding
  site's request names its own host name);
- come from this server's own origin when a browser says where it comes from
  (``Origin``: always sent with a WebSocket or a cross-site POST);
- send JSON with anything but a GET: a form or text needs no permission from
  this server to be sent across sites, JSON does (a CORS preflight, which is
  never granted here).

Nor may another site frame the page: as the top-level ancestor of the
Activity's frame it could navigate that frame to a document of its own, and
a sandboxed one has the origin ("null") that the Activity's Discord app
answers. So local play's own pages may be framed by this origin alone, and
may frame documents of this origin alone (``unframed``); the Activity's
pages behind the proxy keep the policy Discord's proxy gives them.

One exception: an Activity framed with an opaque origin (sandboxed without
allow-same-origin, as Discord's iOS app frames it by one report) says
``Origin: null``, as a sandboxed frame on any site could. Its requests are
taken only under the secret path of one launch, which only this server's own
page learns (``ActivityFrame.opaque_launch``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from .activity_frame import PROXIED

JSON = "application/json"


def _host_name(host: str) -> str:
    """``Host``'s name without its port (an IPv6 address keeps its brackets off)."""
    if host.startswith("["):
        inside, closed, _port = host[1:].partition("]")
        return inside if closed else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def trusted_host(host: str) -> bool:
    name = _host_name(host.strip().lower())
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


# Whether a request with an opaque origin belongs to a launch that may send it.
OpaqueLaunch = Callable[[web.Request], bool]


def why_refused(request: web.Request,
                opaque_launch: OpaqueLaunch = lambda _request: False) -> str | None:
    """Why ``request`` may not reach the page's server; None when it may."""
    host = request.headers.get("Host", "")
    if not trusted_host(host):
        return f"this page answers requests for its own address only, not {host!r}"
    origin = request.headers.get("Origin")
    opaque = origin == "null" and opaque_launch(request)
    if origin is not None and origin != f"{request.scheme}://{host}" and not opaque:
        return f"requests from {origin!r} are not answered here"
    if opaque and request.method == "OPTIONS":
        return None  # the launch's preflight, which the bot's server answers
    if request.method not in ("GET", "HEAD") and request.content_type != JSON:
        return f"this page takes JSON only, not {request.content_type or 'no type'}"
    return None


# Framed by this origin only (the page frames the Activity's frame, which
# frames the Activity), and framing this origin only: the Activity comes
# through the page's own proxy, so no other site's document belongs in a frame.
FRAMING_POLICY = "frame-ancestors 'self'; frame-src 'self'"


async def unframed(request: web.Request, response: web.StreamResponse) -> None:
    """Keeps local play's own pages out of other sites' frames (a response
    signal: every answer, refusals included), leaving the proxy's answers as
    Discord's proxy sends them."""
    if request.path.startswith(PROXIED + "/"):
        return
    response.headers.setdefault("Content-Security-Policy", FRAMING_POLICY)
    # For a browser that knows no frame-ancestors.
    response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")


def page_guard(opaque_launch: OpaqueLaunch = lambda _request: False) -> Middleware:
    """The guard, for every request the page's server takes."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = why_refused(request, opaque_launch)
        if refused is not None:
            return web.Response(status=403, text=refused)
        return await handler(request)

    return guard
