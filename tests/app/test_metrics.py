"""REST routes as metric labels: ids folded, tokens never written."""

from __future__ import annotations

import pytest

from app.metrics import route_of


@pytest.mark.parametrize(
    ("path", "route"),
    [
        (
            "/api/v10/interactions/123/itoken-abc/callback",
            "/api/v10/interactions/{id}/{token}/callback",
        ),
        (
            "/api/v10/webhooks/55/aW50ZXJh/messages/@original",
            "/api/v10/webhooks/{id}/{token}/messages/@original",
        ),
        ("/api/v10/channels/77/messages/88", "/api/v10/channels/{id}/messages/{id}"),
        ("/api/v10/applications/9/emojis", "/api/v10/applications/{id}/emojis"),
        ("/api/v10/users/@me/channels", "/api/v10/users/@me/channels"),
    ],
)
def test_routes_fold_ids_and_hide_tokens(path: str, route: str) -> None:
    assert route_of(path) == route
