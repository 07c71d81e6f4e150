"""Who a request came from: its peer, unless that peer is one of the host's
reverse proxies (``WEB_TRUSTED_PROXIES``), whose ``X-Forwarded-For`` is then
read from the right, past every trusted proxy, to the client's address."""

from __future__ import annotations

import ipaddress

import pytest

from app.settings import Settings, SettingsError
from web.connections import LOOPBACK, TrustedProxies

ACTIVITY = {"DISCORD_TOKEN": "t", "DISCORD_CLIENT_SECRET": "s"}


@pytest.mark.parametrize(("peer", "forwarded", "client"), [
    # A trusted proxy's word: the right-most address that is no trusted proxy's.
    ("127.0.0.1", "203.0.113.9", "203.0.113.9"),
    ("127.0.0.1", "198.51.100.1, 203.0.113.9", "203.0.113.9"),
    ("127.0.0.1", "203.0.113.9, 10.0.0.5", "203.0.113.9"),
    ("127.0.0.1", "203.0.113.9, 10.0.0.5, 127.0.0.1", "203.0.113.9"),
    ("127.0.0.1", "", "127.0.0.1"),
    # Anybody else's header is theirs to write: their own address counts.
    ("192.168.1.7", "203.0.113.9", "192.168.1.7"),
    ("10.0.0.6", "203.0.113.9", "203.0.113.9"),
    # What is not an address stops the walk at the last one vouched for.
    ("127.0.0.1", "203.0.113.9, nonsense", "127.0.0.1"),
    ("127.0.0.1", "nonsense, 10.0.0.5", "10.0.0.5"),
    # As proxies and sockets write addresses.
    ("127.0.0.1", "203.0.113.9:4711", "203.0.113.9"),
    ("127.0.0.1", "[2001:db8::1]:443", "2001:db8::/64"),
    ("::ffff:127.0.0.1", "203.0.113.9", "203.0.113.9"),
    # One IPv6 subscriber picks any address of its /64.
    ("2001:db8:0:1::5", "", "2001:db8:0:1::/64"),
    ("2001:db8:0:1:ffff::9", "", "2001:db8:0:1::/64"),
])
def test_the_client_is_the_right_most_address_no_trusted_proxy_holds(
    peer: str, forwarded: str, client: str
) -> None:
    trusted = TrustedProxies([ipaddress.ip_network("127.0.0.1/32"),
                              ipaddress.ip_network("10.0.0.0/24")])
    assert trusted.client_of(peer, forwarded) == client


def test_a_chain_of_trusted_addresses_longer_than_any_proxy_chain_is_not_walked() -> None:
    forwarded = ", ".join(["203.0.113.9"] + ["127.0.0.1"] * 50)
    assert TrustedProxies().client_of("127.0.0.1", forwarded) == "127.0.0.1"


def test_by_default_only_this_machine_is_a_trusted_proxy() -> None:
    trusted = TrustedProxies()
    assert trusted.client_of("127.0.0.1", "203.0.113.9") == "203.0.113.9"
    assert trusted.client_of("::1", "203.0.113.9") == "203.0.113.9"
    assert trusted.client_of("10.1.2.3", "203.0.113.9") == "10.1.2.3"
    assert trusted.client_of("127.0.0.2", "203.0.113.9") == "127.0.0.2"


# --- the setting --------------------------------------------------------------------------------
def test_the_trusted_proxies_are_this_machine_unless_the_host_names_others() -> None:
    unset = Settings.from_env(ACTIVITY).activity
    assert unset is not None and unset.trusted_proxies == LOOPBACK
    named = Settings.from_env({**ACTIVITY,
                               "WEB_TRUSTED_PROXIES": "172.16.0.0/12, 10.0.0.7 ::1"}).activity
    assert named is not None
    assert [str(n) for n in named.trusted_proxies] == ["172.16.0.0/12", "10.0.0.7/32", "::1/128"]
    assert "172.16.0.0/12" in repr(named) and "'s'" not in repr(named)


@pytest.mark.parametrize("raw", ["localhost", "10.0.0.0/33", "10.0.0.1; 10.0.0.2", "*"])
def test_trusted_proxies_that_are_not_addresses_stop_the_start_with_one_line(raw: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({**ACTIVITY, "WEB_TRUSTED_PROXIES": raw})
    message = str(refused.value)
    assert message.startswith("WEB_TRUSTED_PROXIES must be") and "\n" not in message
