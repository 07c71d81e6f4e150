"""The people and places of local play: one server, two text channels and a
voice channel (where Discord's members launch Activities most), four members,
and two conversations between them that the bot is no member of
(``conversations``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.actors import Actor
from ..core.server import FakeDiscord
from ..core.world import Channel, Guild
from .conversations import open_the_conversations

SERVER_NAME = "Rummy Club"
CHANNEL_NAMES = ("rummy", "general")
VOICE_NAMES = ("Game Night",)
# You, and three friends to play with (or to switch to, and play against yourself).
MEMBER_NAMES = ("Ann", "Bob", "Cat", "Dan")


@dataclass
class Cast:
    """Who and where: the server, its channels, its members (Ann first), and
    their DMs and group DMs without the bot."""

    guild: Guild
    channels: list[Channel]
    members: list[Actor]
    conversations: list[Channel] = field(default_factory=list)

    def member(self, key: str) -> Actor | None:
        """A member by the name the page's URL uses (``?as=bob``)."""
        for actor in self.members:
            if actor.name.lower() == key.lower():
                return actor
        return None


def seat_the_cast(emu: FakeDiscord) -> Cast:
    """The server every local session starts with. Ann may manage it, as its
    owner would: ``/rummy settings`` and ``/rummy season end`` work for her."""
    guild = emu.create_guild(SERVER_NAME)
    channels = [emu.create_text_channel(guild, name) for name in CHANNEL_NAMES]
    channels += [emu.create_voice_channel(guild, name) for name in VOICE_NAMES]
    owner, *friends = MEMBER_NAMES
    members = [emu.create_user(owner, guild=guild, manage_guild=True, manage_messages=True)]
    members += [emu.create_user(name, guild=guild) for name in friends]
    return Cast(guild, channels, members, open_the_conversations(emu, members))


def find_the_cast(emu: FakeDiscord) -> Cast | None:
    """The server of an earlier session, as a snapshot kept it; None if it is not
    whole. A snapshot from before the conversations gets them, its own data kept."""
    world = emu.world
    guild = next((g for g in world.guilds.values() if g.name == SERVER_NAME), None)
    if guild is None:
        return None
    names = (*CHANNEL_NAMES, *VOICE_NAMES)
    channels = [c for c in world.channels.values() if c.guild_id == guild.id and c.name in names]
    by_name = {world.users[user_id].name: world.users[user_id] for user_id in guild.members}
    if len(channels) != len(names) or not all(n in by_name for n in MEMBER_NAMES):
        return None
    channels.sort(key=lambda c: names.index(c.name))
    members = [Actor(emu, by_name[name]) for name in MEMBER_NAMES]
    return Cast(guild, channels, members, open_the_conversations(emu, members))
