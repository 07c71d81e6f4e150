"""How long Discord lets the bot edit what it answered a click with: a fact
the live tables keep their hand messages by, with nothing of discord.py."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

# An interaction's token lives 15 minutes; a minute's margin for a slow edit.
TOKEN_LIFETIME = 14 * 60


@runtime_checkable
class ResumableHandle(Protocol):
    """What a saved message handle keeps to be edited again after a restart."""

    application_id: int
    token: str
