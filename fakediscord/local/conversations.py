"""Local play's conversations between people: a group DM of Ann, Bob and Cat
and a DM of Ann and Dan, which the bot is no member of. There a game is
played in the Activity alone, through each person's own install of the app,
so a newcomer can try that too, not just the server.

A conversation is named as Discord's app lists it: a group DM by its name if
someone gave it one, else by its other members; a DM by the other person.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.actors import Actor
from ..core.server import FakeDiscord
from ..core.world import Channel, ChannelType, World

# Who is in each, by the cast's names; the first of a group DM is its owner.
CONVERSATIONS = (("Ann", "Bob", "Cat"), ("Ann", "Dan"))


def open_the_conversations(emu: FakeDiscord, members: list[Actor]) -> list[Channel]:
    """The cast's conversations, made if the world lacks them (an older
    snapshot does), and everyone's install of the app, which a command or the
    App Launcher needs where the bot is no member."""
    world = emu.world
    world.enable_user_install()
    for member in members:
        world.install_for_user(member.user)
    by_name = {member.name: member for member in members}
    found: list[Channel] = []
    for names in CONVERSATIONS:
        people = [by_name[name] for name in names]
        ids = sorted(person.id for person in people)
        kept = next((c for c in world.channels.values()
                     if c.is_private and sorted(c.recipient_ids) == ids), None)
        found.append(kept or emu.create_private_channel(people))
    return found


def conversations_of(world: World, user_id: int) -> Iterator[Channel]:
    """The DMs and group DMs ``user_id`` is in, oldest first; never one they
    are not in (Discord's app lists no other, and opens no other)."""
    for channel in sorted(world.channels.values(), key=lambda c: c.id):
        if channel.is_private and user_id in channel.recipient_ids:
            yield channel


def conversation_name(world: World, channel: Channel, viewer_id: int) -> str:
    """How ``viewer_id`` sees the conversation listed: "Bob, Cat" for Ann in
    the unnamed group DM, "Dan" for her DM with him."""
    people = [world.users[user_id].name for user_id in channel.recipient_ids]
    # The stand-in names a group DM made without a name by all its people;
    # one named otherwise was given that name, which everyone sees.
    if channel.type == ChannelType.GROUP_DM and channel.name != ", ".join(people):
        return channel.name
    return ", ".join(world.users[user_id].name for user_id in channel.recipient_ids
                     if user_id != viewer_id)


def not_yours(name: str, channel: Channel) -> str:
    """Why the person called ``name`` may not open ``channel``, in the page's words."""
    if channel.guild_id is None:
        return (f"{name} is not in that conversation: only its members can see it "
                "or write there.")
    return f"{name} cannot see that channel."
