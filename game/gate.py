"""The one gate every action of a member passes, whichever door it came by.

An action's declaration (``presentation.actions``) says who may take it and
how it waits for the table: under the table's lock, or, for a look that
changes nothing, once the table's changes are saved. The gate waits as it
says, then checks, in this order and with the table settled, that the game
is still the channel's and that the asker may: each refusal is worded here,
once. What the action then does is its own function's (``game.seat_moves``,
``game.lobby_seats``); how a refusal is shown is the door's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from presentation.actions import (
    ADD_COMPUTER,
    CANCEL,
    REMOVE_COMPUTER,
    START,
    ComponentAction,
    Locking,
    Who,
)
from presentation.i18n import N_, _
from tables import Refusal, Seat, Table, TableRegistry

NOT_SEATED = N_("You are not playing at this table.")
JUST_ENDED = N_("That game has just ended.")
# What only the host may do, a whole sentence each (the words around a task
# change with it in other languages).
HOST_ONLY = {
    ADD_COMPUTER: N_("Only the host ({host}) can add computer players."),
    REMOVE_COMPUTER: N_("Only the host ({host}) can remove computer players."),
    START: N_("Only the host ({host}) can start the game."),
    CANCEL: N_("Only the host ({host}) can cancel the game."),
}


class GameEnded(Refusal):
    """The table left play while the ask waited for it: no seat or hand of it
    is worth showing any more."""


def seat_at(table: Table, user_id: int) -> Seat:
    """The member's seat; a refusal if they have none."""
    seat = table.seat_of_user(user_id)
    if seat is None:
        raise Refusal(_(NOT_SEATED))
    return seat


def host_only(table: Table, action: ComponentAction) -> str:
    """That only the host may do what ``action`` does, in the current language."""
    # By the name their seat shows: a mention means nothing in the Activity,
    # where it would be read as its raw code.
    seat = table.seat_of_user(table.host_id)
    host = seat.shown_name if seat is not None else f"<@{table.host_id}>"
    sentence = HOST_ONLY.get(action)
    if sentence is not None:
        return _(sentence, host=host)
    return _("Only the host ({host}) can {task}.", host=host, task=action.host_task)


def check(tables: TableRegistry, table: Table, user_id: int, action: ComponentAction, *,
          after_the_end: bool = False) -> None:
    """Whether ``user_id`` may take ``action`` at ``table`` now; a refusal says why.
    ``after_the_end``: the action still means something once the game is over
    (its log, a language)."""
    if not after_the_end and tables.get(table.channel_id) is not table:
        raise GameEnded(_(JUST_ENDED))
    if action.who is Who.SEATED:
        seat_at(table, user_id)
    elif action.who is Who.HOST and user_id != table.host_id:
        raise Refusal(host_only(table, action))


@asynccontextmanager
async def admitted(tables: TableRegistry, table: Table, user_id: int, action: ComponentAction,
                   *, after_the_end: bool = False) -> AsyncIterator[None]:
    """Wait for ``table`` as ``action`` says and let the asker in; the block runs
    with the table locked, unless the action only looks."""
    if action.locking is Locking.LOOK:
        await table.lock.settled()
        check(tables, table, user_id, action, after_the_end=after_the_end)
        yield
        return
    async with table.lock:
        check(tables, table, user_id, action, after_the_end=after_the_end)
        yield
