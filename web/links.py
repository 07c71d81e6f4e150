"""The links to a game the Activity shares where Discord's invite dialog is
not offered (a DM or group DM): whoever opens one launches the Activity with
the link's ``custom_id`` (Discord's ``shareLink``), ``g.<channel>.<game>``.

A link takes nobody anywhere: the Activity is always the instance's own
channel's table, and Discord seats in an instance only the people of its
conversation. At sign-in the server says whether the link is for a game of
that channel, so that a page opened from one for another conversation (or a
made-up one) says so rather than showing another table as if it were the
link's.
"""

from __future__ import annotations

import re

# The channel's snowflake, and the game's id where one is on (``tables.GAME_ID``).
LINK = re.compile(r"g\.([0-9]{1,20})(?:\.([0-9a-f]{1,16}))?")
# What the page is told of a link: a game of this channel's, or not.
HERE, ELSEWHERE = "here", "elsewhere"


def link_id(channel_id: int, game_id: str | None) -> str:
    """The ``custom_id`` of a link to the channel's game (the page builds the same)."""
    return f"g.{channel_id}" + (f".{game_id}" if game_id else "")


def link_verdict(custom_id: object, channel_id: int) -> str:
    """Whether ``custom_id`` names a game of the channel ``channel_id``."""
    found = LINK.fullmatch(custom_id) if isinstance(custom_id, str) else None
    if found is None or int(found.group(1)) != channel_id:
        return ELSEWHERE
    return HERE
