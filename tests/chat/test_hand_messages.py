"""Hand messages brought up to date at a turn's start: a few edits at once, and
a player waiting for one gets one edit of the newest state."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from chat.hand_messages import HAND_MESSAGE_EDITS_AT_ONCE, HandMessages
from chat.table_side import HandMessage, chat_side
from presentation.card_emoji import CardFaces
from tables import Table, TableRegistry
from tests.tables.helpers import playing_table


class HeldToken:
    """An interaction token whose edits wait until the test lets them through."""

    def __init__(self, name: str, log: list[tuple[str, str]], gate: asyncio.Event) -> None:
        self.name, self.log, self.gate = name, log, gate

    async def edit_original_response(self, *, embed: Any, controls: Any) -> None:
        self.log.append((self.name, str(controls.to_components()[0]["type"])))
        await self.gate.wait()


def table_with_message(tables: TableRegistry, channel_id: int, token: HeldToken) -> Table:
    table = playing_table()
    table.channel_id = channel_id
    chat_side(table).hand_messages["1"] = HandMessage(token, time.time())
    tables.add(table)
    return table


async def test_edits_beyond_the_slots_wait_and_repeated_ones_collapse() -> None:
    tables = TableRegistry()
    messages = HandMessages(tables, CardFaces())
    gate, log = asyncio.Event(), []
    busy = [
        table_with_message(tables, 100 + i, HeldToken(f"busy{i}", log, gate))
        for i in range(HAND_MESSAGE_EDITS_AT_ONCE)
    ]
    waiting = table_with_message(tables, 200, HeldToken("waiting", log, gate))
    tasks = [asyncio.create_task(messages.refresh(t, "1")) for t in busy]
    await asyncio.sleep(0.01)
    assert len(log) == HAND_MESSAGE_EDITS_AT_ONCE  # every slot taken, each edit held
    tasks += [asyncio.create_task(messages.refresh(waiting, "1")) for _ in range(3)]
    await asyncio.sleep(0.01)
    assert [name for name, _ in log].count("waiting") == 0
    gate.set()
    await asyncio.gather(*tasks)
    assert [name for name, _ in log].count("waiting") == 1
