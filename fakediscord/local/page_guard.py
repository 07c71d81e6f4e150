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
"""

from __future__ import annotations

import ipaddress

from aiohttp import web
from aiohttp.typedefs import Handler

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


def why_refused(request: web.Request) -> str | None:
    """Why ``request`` may not reach the page's server; None when it may."""
    host = request.headers.get("Host", "")
    if not trusted_host(host):
        return f"this page answers requests for its own address only, not {host!r}"
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{host}":
        return f"requests from {origin!r} are not answered here"
    if request.method not in ("GET", "HEAD") and request.content_type != JSON:
        return f"this page takes JSON only, not {request.content_type or 'no type'}"
    return None


@web.middleware
async def page_guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    refused = why_refused(request)
    if refused is not None:
        return web.Response(status=403, text=refused)
    return await handler(request)
