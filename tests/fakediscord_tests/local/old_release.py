"""A world file as the release before JSON wrote it, for tests of the upgrade.

That release (the parent of the commit that brought the JSON snapshot) saved
``pickle.dump(world, protocol=pickle.HIGHEST_PROTOCOL)``: the stand-in's
``World`` with every attribute but who was waiting or listening (its
``__getstate__``), whose users had no ``avatar`` yet. ``data/old-release.world``
is a file that release itself wrote (``OLD_RELEASE_SCRIPT``, run with that
release's ``fakediscord`` first on the path); this writes any world the same
way, and ``test_old_world`` holds the two to the same reading.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from pathlib import Path
from typing import Any

from fakediscord.core.world import Channel, Interaction, User, World
from fakediscord.local.old_world import CLASSES, FLAGS

OLD_RELEASE_FILE = Path(__file__).with_name("data") / "old-release.world"

OLD_RELEASE_SCRIPT = """
import sys
from pathlib import Path
from fakediscord.snapshot import save_world
from fakediscord.world import World
world = World("Rummy")
guild = world.create_guild("Local play")
games = world.create_channel(guild, "rummy")
ann = world.create_user("Ann")
world.add_member(guild, ann)
world.enable_activities()
world.launch_activity(ann.id, games.id)
world.add_message(games, ann.id, {"content": f"hello <@{ann.id}>"})
world.add_message(games, world.bot.id, {"content": "Your hand: 7♥ 8♥ 9♥"}, visible_to=ann.id,
                  files=[("hand.png", b"\\x89PNG\\r\\n\\x1a\\nhand", "image/png")])
world.add_application_emoji("ace", b"\\x89PNG\\r\\n\\x1a\\nfake", "image/png")
world.new_interaction(2, ann, games, {"name": "rummy", "type": 1}, "/rummy start by Ann")
token = world.oauth.exchange(world.issue_oauth_code(ann.id, ["identify"]))
world.issue_oauth_code(ann.id, ["identify"])
save_world(world, Path(sys.argv[1]))
"""

# What the old World's __getstate__ left out.
PASSING = ("listeners", "_answer_waiters", "_channel_watchers")
# What the records gained since: the old release had none of it.
NEWER = {User: ("avatar",), Channel: ("recipient_ids", "owner_id"),
         Interaction: ("context", "owners", "forced_ephemeral")}
# The module the old release's pickle names each class by: the stand-in's core
# has moved since (into fakediscord.core), and the reader takes only those names.
OLD_MODULE = {name: module for module, name in CLASSES | {FLAGS}}


# Python's own pickler (not the C one) lets a class be written under another
# module's name, as the old release's classes were.
class _AsTheOldRelease(pickle._Pickler):
    def save_global(self, obj: Any, name: str | None = None) -> None:
        old = OLD_MODULE.get(obj.__qualname__) if isinstance(obj, type) else None
        if old is None or not obj.__module__.startswith("fakediscord."):
            super().save_global(obj, name)
            return
        self.save(old)
        self.save(obj.__qualname__)
        self.write(pickle.STACK_GLOBAL)
        self.memoize(obj)

    def reducer_override(self, obj: Any) -> Any:
        # copyreg.__newobj__ is what pickling an instance gives by default: the
        # same NEWOBJ and BUILD, with the state the old classes had.
        if isinstance(obj, World):
            kept = {name: value for name, value in vars(obj).items() if name not in PASSING}
            return copyreg.__newobj__, (World,), kept
        newer = NEWER.get(type(obj))
        if newer is not None:
            kept = {name: value for name, value in vars(obj).items() if name not in newer}
            return copyreg.__newobj__, (type(obj),), kept
        return NotImplemented


def old_release_world(world: World) -> bytes:
    out = io.BytesIO()
    _AsTheOldRelease(out, protocol=pickle.HIGHEST_PROTOCOL).dump(world)
    return out.getvalue()
