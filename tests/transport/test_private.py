"""discord.py's private parts the bot relies on are all in the pinned version."""

from __future__ import annotations

import discord
import pytest

import bot
from transport import private
from transport.private import PrivatePart, missing_private_parts


def test_the_pinned_discord_py_has_every_private_part() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert missing_private_parts() == []
    assert missing_private_parts(client) == []


def test_a_missing_part_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = PrivatePart(discord.Interaction, "_gone_in_a_new_version", "something we need")
    monkeypatch.setattr(private, "PRIVATE_PARTS", (*private.PRIVATE_PARTS, gone))
    assert missing_private_parts() == ["Interaction._gone_in_a_new_version (something we need)"]


def test_a_client_without_its_parsers_is_named() -> None:
    class Bare:
        pass

    assert missing_private_parts(Bare()) == [  # type: ignore[arg-type]
        "Client._connection.parsers (the gateway's event parsers)"
    ]


def test_the_bot_refuses_to_start_on_a_discord_py_that_lacks_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setattr(bot, "missing_private_parts", lambda: ["Interaction._session (x)"])
    assert bot.main() == 1
    assert "lacks what the bot relies on: Interaction._session (x)" in capsys.readouterr().err
