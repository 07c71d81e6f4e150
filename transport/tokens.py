"""How long Discord lets the bot edit what it answered a click with: a fact
the live tables keep their hand messages by, with nothing of discord.py."""

from __future__ import annotations

# An interaction's token lives 15 minutes; a minute's margin for a slow edit.
TOKEN_LIFETIME = 14 * 60


class ResumableHandle:
    """A message handle that can be saved, to be edited again after a restart:
    its application and token. A plain class, not a protocol: every save of
    every table asks whether its handles are one, and a protocol's check costs
    a walk over its members each time."""

    __slots__ = ("application_id", "token")

    def __init__(self, application_id: int, token: str) -> None:
        self.application_id = application_id
        self.token = token
