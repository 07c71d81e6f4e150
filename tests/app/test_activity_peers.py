"""Where a process tells the bot's other processes it serves the Activity."""

from __future__ import annotations

import socket

from app.activity_peers import peer_url
from app.settings import ActivitySettings


def test_the_address_given_is_used_as_it_is() -> None:
    given = ActivitySettings("s", host="0.0.0.0", port=8081, peer_url="https://rummy-2:8443")
    assert peer_url(given, 8081) == "https://rummy-2:8443"


def test_without_one_it_is_the_address_and_port_the_server_listens_on() -> None:
    assert peer_url(ActivitySettings("s", host="10.0.0.7"), 40123) == "http://10.0.0.7:40123"
    assert peer_url(ActivitySettings("s", host="::1"), 8081) == "http://[::1]:8081"
    # Every interface is no address a peer can connect to: this machine's name is.
    everywhere = peer_url(ActivitySettings("s", host="0.0.0.0"), 8081)
    assert everywhere == f"http://{socket.gethostname()}:8081"
