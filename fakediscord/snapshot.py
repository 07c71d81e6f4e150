"""Local play's stand-in kept between runs: stop or kill ``python bot.py``,
start it again, and the open page shows the same server, messages and DMs,
with the game going on where the bot's own database left it.

The world is pickled beside local play's database, and read back allowing the
emulator's own types alone: the file is local play's, yet reading it can never
run anything but the building of a world.
"""

from __future__ import annotations

import io
import logging
import os
import pickle
from pathlib import Path

from .world import World

log = logging.getLogger(__name__)

WORLD_MODULES = frozenset({"fakediscord.world", "fakediscord.models", "fakediscord.oauth"})


class _WorldOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        if module in WORLD_MODULES:
            found: type = super().find_class(module, name)
            return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a saved world")


def save_world(world: World, path: Path) -> None:
    """Write ``world`` to ``path`` whole or not at all (a kill mid-write keeps
    the previous snapshot)."""
    work = path.with_name(path.name + ".new")
    with work.open("wb") as out:
        pickle.dump(world, out, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(work, path)


def load_world(path: Path) -> World | None:
    """The world saved at ``path``; None when there is none, or it cannot be
    read (then it is set aside, and local play starts afresh)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        world = _WorldOnly(io.BytesIO(data)).load()
        if not isinstance(world, World):
            raise pickle.UnpicklingError(f"{type(world).__name__} is not a world")
    except (pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError) as error:
        aside = path.with_name(path.name + ".unreadable")
        os.replace(path, aside)
        log.warning("local play's saved server could not be read (%s): starting afresh; "
                    "the file is kept as %s", error, aside)
        return None
    return world
