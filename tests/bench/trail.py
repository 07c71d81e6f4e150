"""The trail of one discard: ``python -m tests.bench.trail``.

Which of the bot's own files a discard passes through, from the click (or
the page's intent) until the bot is idle again: its checks, the move, the
save, the answer, and everything that follows it (the public table, the
other players' hand messages, the Activity's pages, the computer's timer).
Played once through the chat's buttons and once through the Activity, on
the stand-in and in this process, with the same seeded match; the files are
those of the bot's packages whose functions ran (the stand-in, the tests
and the libraries aside).

Printed: for each door, the number of files and of packages, and the files
by package. Not part of the test run, and it asserts nothing: it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from bot import RummyBot
from engine import Discard
from engine.ai import choose_action
from tests.bot.test_two_doors import Mover, seated

ROOT = Path(__file__).resolve().parents[2]
# What is not the bot's own: the stand-in, the tests and benchmarks.
NOT_THE_BOT = {"fakediscord", "tests", ".venv", ".ci-venv"}
MOST_ACTIONS = 200


class Trail:
    """The bot's files whose functions run while it is switched on."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self._known: dict[str, str | None] = {}

    def _seen(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        path = frame.f_code.co_filename
        name = self._known.get(path, "")
        if name == "":
            name = self._known[path] = self._ours(path)
        if name is not None:
            self.files.add(name)

    @staticmethod
    def _ours(path: str) -> str | None:
        try:
            relative = Path(path).resolve().relative_to(ROOT)
        except ValueError:
            return None
        if relative.parts[0] in NOT_THE_BOT or relative.suffix != ".py":
            return None
        return relative.as_posix()

    def __enter__(self) -> Trail:
        hook: Callable[..., Any] = self._seen
        sys.setprofile(hook)
        threading.setprofile(hook)  # the expert's and the saves' worker threads
        return self

    def __exit__(self, *_exc: object) -> None:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


async def trail_of_a_discard(door: str, folder: Path) -> set[str]:
    async with seated(door, folder, hands=1) as (bot, _emu, server, mover):
        return await _until_a_discard(bot, server.channel.id, mover)


async def _until_a_discard(bot: RummyBot, channel_id: int, mover: Mover) -> set[str]:
    discards = 0
    for _ in range(MOST_ACTIONS):
        table = bot.game.tables.get(channel_id)
        assert table is not None and table.match is not None
        turn = table.match.hand.turn
        assert turn is not None
        action = choose_action(table.view_of(turn), "easy", random.Random(len(table.hand_log)))
        if isinstance(action, Discard):
            discards += 1
            if discards == 3:  # a turn well into the hand, every message open
                with Trail() as trail:
                    await mover.play(turn, action)
                return trail.files
        await mover.play(turn, action)
    raise AssertionError("no discard was played")


def report(door: str, files: set[str]) -> str:
    by_package: dict[str, list[str]] = {}
    for name in sorted(files):
        package = name.split("/")[0] if "/" in name else "."
        by_package.setdefault(package, []).append(name)
    lines = [f"{door}: {len(files)} files in {len(by_package)} packages"]
    for package, names in by_package.items():
        lines.append(f"  {package} ({len(names)}): " + ", ".join(
            name.split("/", 1)[-1] for name in names))
    return "\n".join(lines)


async def run() -> str:
    with tempfile.TemporaryDirectory() as folder:
        trails = {door: await trail_of_a_discard(door, Path(folder))
                  for door in ("chat", "activity")}
    both = trails["chat"] & trails["activity"]
    return "\n".join([report(door, files) for door, files in trails.items()]
                     + [f"in both: {len(both)} files"])


def main() -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    print(asyncio.run(run()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
