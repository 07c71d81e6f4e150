"""Where an interaction happened, as the game knows places: a server's
channel, a DM or group DM between people, or the bot's own DM."""

from __future__ import annotations

from presentation.i18n import N_, _
from tables import Place
from transport.private import Interaction

NO_BOARD_HERE = N_(
    "Each server, DM and group DM keeps its own Rummy board: ask there, not in my DMs.")
SERVERS_ONLY = N_("This belongs to a server: use it in one of the server's channels.")


def place_of(interaction: Interaction) -> Place | None:
    """Where a game started by ``interaction`` would be; None in the bot's own
    DM, which has nobody to play with."""
    channel_id = interaction.channel_id
    assert channel_id is not None
    if interaction.guild_id is not None:
        # Installed by the server, the bot is a member and keeps a public
        # table; answered for a member's own install alone, it is not.
        return Place(channel_id, interaction.guild_id,
                     activity_only=not interaction.is_guild_integration())
    if interaction.context.private_channel:
        return Place.private(channel_id)
    return None


def board_of(interaction: Interaction) -> int | None:
    """The board of results shown where ``interaction`` happened: the server's,
    or a DM's or group DM's own; None in the bot's DM, which has none."""
    place = place_of(interaction)
    return None if place is None else place.board_id


def board_here(interaction: Interaction) -> int:
    """``board_of`` for a command the cog runs only where there is a board."""
    board = board_of(interaction)
    assert board is not None, "the cog refuses board commands in the bot's DM"
    return board


def board_name(interaction: Interaction) -> str:
    """What a board is called in a title: its server's name, or, in a DM or
    group DM, the conversation's (a group DM's own name when it has one)."""
    if interaction.guild is not None:
        return interaction.guild.name
    if interaction.guild_id is not None:
        return _("this server")
    name = getattr(interaction.channel, "name", None)
    return str(name) if name else _("this conversation")
