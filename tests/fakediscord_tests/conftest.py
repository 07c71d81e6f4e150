"""A server with a channel, two members and the sample bot, ready to be driven."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from fakediscord import Actor, BotRunner, Channel, FakeDiscord, Guild
from tests.conftest import StartBot

from .sample_bot import SampleBot


@dataclass
class Scene:
    emu: FakeDiscord
    guild: Guild
    channel: Channel
    alice: Actor
    bob: Actor
    bot: SampleBot
    runner: BotRunner


@pytest.fixture
async def scene(fake_discord: FakeDiscord, start_bot: StartBot) -> Scene:
    guild = fake_discord.create_guild("Test Server")
    channel = fake_discord.create_text_channel(guild, "games")
    alice = fake_discord.create_user("alice", guild=guild)
    bob = fake_discord.create_user("bob", guild=guild, manage_messages=True)
    bot = SampleBot()
    runner = await start_bot(bot)
    return Scene(fake_discord, guild, channel, alice, bob, bot, runner)
