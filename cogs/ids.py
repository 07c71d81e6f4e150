"""Custom ids of every component the bot sends.

Format: ``rummy:<action>:<channel_id>[:<arg>]``. The id only says *where* a click
belongs and *what* was pressed; the game state always comes from the table
registry, never from the id, so a forged or stale id can do no harm.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "rummy"
# Discord caps custom_id at 100 characters; channel ids are at most 20 digits.
TEMPLATE = re.compile(
    rf"{PREFIX}:(?P<action>[a-z_]+):(?P<channel>[0-9]{{1,20}})(?::(?P<arg>[A-Za-z0-9_.-]{{1,40}}))?"
)


@dataclass(frozen=True, slots=True)
class ComponentId:
    action: str
    channel_id: int
    arg: str | None = None

    def __str__(self) -> str:
        base = f"{PREFIX}:{self.action}:{self.channel_id}"
        return base if self.arg is None else f"{base}:{self.arg}"

    @classmethod
    def parse(cls, custom_id: str) -> ComponentId | None:
        match = TEMPLATE.fullmatch(custom_id)
        if match is None:
            return None
        return cls(match["action"], int(match["channel"]), match["arg"])


def cid(action: str, channel_id: int, arg: str | int | None = None) -> str:
    """The custom id of a component; every hand view is dozens of these."""
    base = f"{PREFIX}:{action}:{channel_id}"
    return base if arg is None else f"{base}:{arg}"
