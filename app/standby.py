"""Which shards this process serves, when several processes share PostgreSQL.

Before it connects to Discord a process takes the leases (``db.leases``) of
its shards: all of SHARD_IDS (or the whole bot, unsharded), or, as a STANDBY,
every shard of SHARD_COUNT that nobody serves. While another process holds
them it waits, says so, and tries again every LEASE_CHECK seconds: that is the
hot standby: it takes over once the other process's leases run out (at once
when that process stopped cleanly). Once serving, it renews its leases as
often. It steps down, closing its gateway shards before anyone may take
them, if they are lost to another process or if the database cannot confirm
them in time: a process cut off from the database cannot tell a server
that is down from one that gave its shards away.

On an SQLite file none of this runs: the file's lock already keeps every
other process out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

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
    leases: ShardLeases,
    every: float,
    step_down: Callable[[], Awaitable[None]],
    stopping: asyncio.Event,
) -> None:
    """Renew the leases every ``every`` seconds until ``stopping``. Step down
    (and return) the moment they are lost to another process, or once they
    could not be renewed for as long as a lease lets this process serve
    without (``db.leases.STEP_DOWN``): by then another process may be about
    to take them, so this one stops first."""
    unconfirmed_since: float | None = None
    while not stopping.is_set():
        left = leases.serving_for()
        if left > 0:
            await _wait_either(stopping, leases.revoked, min(every, left))
        if stopping.is_set():
            return
        if leases.revoked.is_set():
            log.error(
                "another process serves %s now: stopping, so that no shard is served twice",
                _named(leases.held),
            )
            await step_down()
            return
        if leases.serving_for() <= 0:
            log.error(
                "could not confirm the leases of %s with the database for %.1f s: stopping "
                "before they run out, so that no shard is served twice",
                _named(leases.held),
                leases.unconfirmed_for(),
            )
            await step_down()
            return
        try:
            kept = await leases.renew(timeout=min(every, leases.serving_for()))
        except StorageError as error:
            if unconfirmed_since is None:
                unconfirmed_since = time.monotonic()
                log.warning(
                    "cannot confirm the shard leases (%s); serving %.1f s more at most",
                    error,
                    max(0.0, leases.serving_for()),
                )
            continue
        if not kept:
            continue  # revoked: said and stopped above
        if unconfirmed_since is not None:
            log.warning(
                "the database answers again after %.1f s; shard leases kept",
                time.monotonic() - unconfirmed_since,
            )
            unconfirmed_since = None


async def _wait_either(first: asyncio.Event, second: asyncio.Event, timeout: float) -> None:  # noqa: ASYNC109
    waits = [asyncio.ensure_future(first.wait()), asyncio.ensure_future(second.wait())]
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
