"""Which Host names local play's page answers: its address, or localhost; never a
name (a rebinding site resolves its own name to 127.0.0.1)."""

from __future__ import annotations

import pytest

from fakediscord.local.page_guard import trusted_host


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765",
                                  "192.168.1.20:8765", "127.0.0.1", "LOCALHOST:1"])
def test_an_address_or_localhost_is_this_machine(host: str) -> None:
    assert trusted_host(host)


@pytest.mark.parametrize("host", ["rebind.example:8765", "127.0.0.1.nip.io:8765", "",
                                  "localhost.evil.example", "[::1", "1.2.3.4:80:80"])
def test_a_host_name_is_not(host: str) -> None:
    assert not trusted_host(host)
