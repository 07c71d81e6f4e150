"""Which shards this process serves, when several processes share PostgreSQL.

Before it connects to Discord a process takes the leases (``db.leases``) of
its shards: all of SHARD_IDS (or the whole bot, unsharded), or, as a STANDBY,
every shard of SHARD_COUNT that nobody serves. While another process holds
them it waits, says so, and tries again every LEASE_CHECK seconds: that is the
hot standby, and it takes over the moment the other process dies. Once
serving, it checks its leases as often; if they are lost to another process
(the database was away and a standby took them), it stops, rather than serve
a shard twice.

On an SQLite file none of this runs: the file's lock already keeps every
other process out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from db import StorageError
from db.leases import WHOLE_BOT, ShardLeases

from .settings import Settings

log = logging.getLogger("rummy")


def _wanted(settings: Settings) -> tuple[int, ...]:
    if settings.shard_count is None:
        return (WHOLE_BOT,)
    if settings.shard_ids is not None:
        return settings.shard_ids
    return tuple(range(settings.shard_count))


def _named(shards: tuple[int, ...]) -> str:
    return "the whole bot" if shards == (WHOLE_BOT,) else "shards " + ", ".join(map(str, shards))


async def claim_shards(
    leases: ShardLeases, settings: Settings, stopping: asyncio.Event
) -> tuple[int, ...] | None:
    """Wait until this process holds its shards; the shards (None: unsharded,
    every shard), or None at once if ``stopping`` is set first."""
    wanted = _wanted(settings)
    said = False
    while not stopping.is_set():
        try:
            taken = await leases.take(wanted, all_or_none=not settings.standby)
        except StorageError as error:
            log.warning("cannot take the shard leases yet: %s", error)
            taken = ()
        if taken:
            log.info("serving %s", _named(taken))
            return None if taken == (WHOLE_BOT,) else taken
        if not said:
            log.warning(
                "standing by: %s %s served by another process; taking over when it stops",
                _named(wanted),
                "is" if wanted == (WHOLE_BOT,) else "are",
            )
            said = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), settings.lease_check)
    return None


async def keep_shards(
    leases: ShardLeases, every: float, lost: Callable[[], None], stopping: asyncio.Event
) -> None:
    """Check the leases every ``every`` seconds until ``stopping``; call ``lost``
    (and return) if another process now holds them."""
    while not stopping.is_set():
        try:
            await asyncio.wait_for(stopping.wait(), every)
            return
        except TimeoutError:
            pass
        if not await leases.still_held():
            log.error(
                "lost the leases of %s to another process while the database was away: "
                "stopping, so that no shard is served twice",
                _named(leases.held) if leases.held else "this process's shards",
            )
            lost()
            return
