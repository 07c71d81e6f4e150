"""Bringing the saved live tables back at start-up."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from db import Database
from game.tasks import Supervisor
from game.timers import Automation
from tables import Stage, Table, TableRegistry

from .dms import Notifier
from .table_refresher import TableRefresher
from .table_side import restore_side

log = logging.getLogger(__name__)


async def restore_tables(
    db: Database,
    tables: TableRegistry,
    automation: Automation,
    notifier: Notifier,
    refresher: TableRefresher,
    tasks: Supervisor,
    serves: Callable[[int], bool] = lambda guild_id: True,
    handle: Callable[[int, str], Any] | None = None,
) -> tuple[int, int]:
    """Load every saved live table of the servers this process ``serves`` (its
    shards) and set its timers going; tables that cannot be read are set aside
    (kept for the admin) and their channels told. With ``handle`` (an
    interaction handle from an application id and a token), the hand messages
    and the host's lobby controls open at the restart go on following the
    game. Returns how many were restored and how many set aside."""
    loaded = await db.load_live_tables()
    restored = 0
    broken = [(b.channel_id, b.error) for b in loaded.broken]
    now = time.time()
    for saved in loaded.tables:
        try:
            table = Table.from_dict(saved.state)
        # A saved state can be damaged in any way; no single table may stop
        # the bot from starting or the others from loading.
        except Exception as error:
            log.error("setting aside unreadable table in channel %s: %s", saved.channel_id, error)
            await db.set_aside_live_table(saved.channel_id, repr(error))
            broken.append((saved.channel_id, repr(error)))
            continue
        if not serves(table.guild_id):
            continue  # another process's shard: its tables are its own
        if table.stage is Stage.FINISHED:
            await db.delete_live_table(table.channel_id)
            continue
        table.resume_after(max(0.0, now - saved.updated_at))
        # The game is read; what the chat kept beside it is in the same row.
        side = restore_side(table, saved.state, saved.message_id)
        if handle is not None:
            side.restore_hand_messages(table, handle, now)
            side.restore_host_panel(table, handle, now)
        tables.add(table)
        if "game_id" not in saved.state:
            # Saved before games had ids: its message's controls have none.
            refresher.request(table)
        restored += 1
    for channel_id, _error in broken:
        tasks.spawn(notifier.restore_failed(channel_id), "restore-failed-notice")
    for table in tables:
        automation.schedule(table)
    return restored, len(broken)
