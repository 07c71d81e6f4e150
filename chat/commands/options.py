"""What Discord's client checks of a command's options, checked again here.

Discord's app refuses an option outside its declared range before it sends
the command, so discord.py passes the value on unchecked; a payload crafted by
hand is not so kind. The bot refuses it as the client would, with the range.
"""

from __future__ import annotations

from discord import app_commands

from presentation.i18n import _, number
from transport.private import Interaction


def out_of_range(interaction: Interaction) -> str | None:
    """The refusal of the first option outside its declared range, or None."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    for parameter in command.parameters:
        value = getattr(interaction.namespace, parameter.name, None)
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            return _(
                "`{option}` must be from {low} to {high}; nothing was done.",
                option=parameter.display_name,
                low=number(low) if low is not None else "…",
                high=number(high) if high is not None else "…",
            )
    return None
