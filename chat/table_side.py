"""What the chat keeps beside each table: the public table message, each
player's ephemeral hand message, the lobby host's panel and who cannot be
sent DMs.

None of it is the game (``tables.Table`` holds the game alone), but all of
it is saved with the table's row, in the keys the table's state always had
them in, so a restart goes on editing the same messages and a database
written by an earlier release restores unchanged (``saved_beside`` and
``restore_side``). A side belongs to one ``Table`` object: a new game in
the channel is a new table, and so starts a fresh side.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tables import Stage, Table
from transport.tokens import TOKEN_LIFETIME, ResumableHandle


@dataclass
class HandMessage:
    """A player's latest ephemeral hand message: the handle of the interaction
    that answered with it (its token, not the whole parsed interaction), so the
    message can be brought up to date when their turn comes. The token works
    for 15 minutes after ``opened_at``."""

    handle: Any
    opened_at: float
    # Which message it is, where known: a click on another of the player's hand
    # messages makes that one the latest, and this one is then retired.
    message_id: int | None = None
    # The table's ``changes`` it shows: a message already showing the table as
    # it is needs no edit.
    shows: int = -1
    # False while it shows the player's settings instead of the hand: the game
    # moving on does not take those from under their fingers.
    on_hand: bool = True
    # A follow-up of the interaction (edited by its id), not its answer: the
    # message a new hand posts below its new table.
    followup: bool = False

    def is_open(self) -> bool:
        """Whether the bot still keeps it up to date: it shows the hand and its
        token lives."""
        return self.on_hand and time.time() - self.opened_at < TOKEN_LIFETIME


@dataclass
class HostPanel:
    """The host's latest ephemeral lobby controls (``chat.host_panel``): the
    handle of the interaction that made or last answered it, so that it follows
    the lobby, for 15 minutes after ``opened_at``."""

    handle: Any
    opened_at: float
    # Which message: a follow-up of the interaction is edited by its id, its
    # answer (or a clicked message answered in place) through ``@original``.
    message_id: int | None = None
    followup: bool = False
    # The table's ``changes`` it shows.
    shows: int = -1
    # Opened by Rules: it shows the rules of the game as well.
    with_rules: bool = False

    def to_save(self) -> dict[str, Any] | None:
        handle = self.handle
        if not isinstance(handle, ResumableHandle):
            return None
        return {
            "application_id": handle.application_id,
            "token": handle.token,
            "message_id": self.message_id,
            "followup": self.followup,
            "opened_at": self.opened_at,
            "with_rules": self.with_rules,
        }


@dataclass(eq=False)
class ChatSide:
    """The chat's bookkeeping for one table (see the module's docstring)."""

    # The public table message.
    message_id: int | None = None
    # Members whose DMs are closed, and those of them already told so.
    dm_closed: set[int] = field(default_factory=set)
    dm_closed_told: set[int] = field(default_factory=set)
    hand_messages: dict[str, HandMessage] = field(default_factory=dict)
    # How many times each seat's hand message was answered in place (counted
    # as each answer starts): an edit made meanwhile may land after the
    # answer, over the newer view, and is then made again.
    hand_answers: dict[str, int] = field(default_factory=dict)
    # Hand messages read from a save, until the restore gives them handles again
    # (``restore_hand_messages``): what lets them follow the game after a restart.
    saved_hand_messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The host's lobby controls, and the same read from a save until restored.
    host_panel: HostPanel | None = None
    saved_host_panel: dict[str, Any] | None = None

    def answering(self, key: str) -> None:
        """An in-place answer to this seat's hand message is about to go out."""
        self.hand_answers[key] = self.hand_answers.get(key, 0) + 1

    def hand_open(self, key: str) -> bool:
        """Whether the player has a hand message the bot still keeps up to date."""
        message = self.hand_messages.get(key)
        return message is not None and message.is_open()

    def hand_messages_to_save(self) -> dict[str, dict[str, Any]]:
        """Each open hand message's token and id, saved beside the game (not part
        of it: ``Table.to_dict`` is the game alone): after a restart the bot can
        go on editing them, for as long as their tokens live."""
        saved = dict(self.saved_hand_messages)
        for key, message in self.hand_messages.items():
            handle = message.handle
            if isinstance(handle, ResumableHandle):
                saved[key] = {
                    "application_id": handle.application_id,
                    "token": handle.token,
                    "message_id": message.message_id,
                    "opened_at": message.opened_at,
                    "followup": message.followup,
                }
        return saved

    def host_panel_to_save(self) -> dict[str, Any] | None:
        """The host's open lobby controls, saved beside the game as hand messages are."""
        if self.host_panel is not None:
            return self.host_panel.to_save()
        return self.saved_host_panel

    def restore_host_panel(
        self, table: Table, handle: Callable[[int, str], Any], now: float
    ) -> None:
        """Give the saved host's controls a handle again, while its token lives."""
        saved, self.saved_host_panel = self.saved_host_panel, None
        if saved is None or table.stage is not Stage.LOBBY:
            return
        opened_at = float(saved["opened_at"])
        if now - opened_at >= TOKEN_LIFETIME:
            return
        message_id = saved.get("message_id")
        self.host_panel = HostPanel(
            handle(int(saved["application_id"]), str(saved["token"])),
            opened_at,
            None if message_id is None else int(message_id),
            followup=bool(saved.get("followup")),
            shows=table.changes,
            with_rules=bool(saved.get("with_rules")),
        )

    def restore_hand_messages(
        self, table: Table, handle: Callable[[int, str], Any], now: float
    ) -> None:
        """Give the saved hand messages handles again (``handle(application_id,
        token)``), those whose token still lives; they show the table as saved."""
        for key, saved in self.saved_hand_messages.items():
            opened_at = float(saved["opened_at"])
            if now - opened_at >= TOKEN_LIFETIME:
                continue
            message_id = saved.get("message_id")
            self.hand_messages[key] = HandMessage(
                handle(int(saved["application_id"]), str(saved["token"])),
                opened_at,
                None if message_id is None else int(message_id),
                shows=table.changes,
                followup=bool(saved.get("followup")) and message_id is not None,
            )
        self.saved_hand_messages = {}


# One side per table object, gone with it: a table that leaves play and is
# forgotten takes its handles along, with nothing to clear by hand.
_sides: weakref.WeakKeyDictionary[Table, ChatSide] = weakref.WeakKeyDictionary()


def chat_side(table: Table) -> ChatSide:
    """The chat's bookkeeping for ``table``, made empty the first time it is asked."""
    side = _sides.get(table)
    if side is None:
        side = _sides[table] = ChatSide()
    return side


def saved_beside(table: Table) -> dict[str, Any]:
    """The keys the chat adds to the table's saved state (``tables.TableWork``'s
    ``door_state``): those the state always held them in, with the same values."""
    side = chat_side(table)
    state: dict[str, Any] = {
        "message_id": side.message_id,
        "dm_closed": sorted(side.dm_closed),
        "dm_closed_told": sorted(side.dm_closed_told),
        "hand_messages": side.hand_messages_to_save(),
    }
    host_panel = side.host_panel_to_save()
    if host_panel is not None:  # only a lobby's, while the host's controls are open
        state["host_panel"] = host_panel
    return state


def undo_point(table: Table) -> Callable[[], None]:
    """What puts the chat's part back when a change to ``table`` is undone
    (``tables.TableWork``'s ``door_undo``). Only the table message's id can
    change inside a change (a Join adopts the lobby clicked when its id was
    lost); the rest changes outside any, and an undo must not forget a DM
    found closed meanwhile."""
    side = chat_side(table)
    message_id = side.message_id

    def undo() -> None:
        side.message_id = message_id

    return undo


def restore_side(
    table: Table, state: Mapping[str, Any], message_id: int | None = None
) -> ChatSide:
    """Fill ``table``'s side from its saved state (``Table.from_dict`` reads the
    game alone); ``message_id``: the saved row's column, the same id, read
    where the state has none. Hand messages and the host's controls wait, as
    saved, for ``restore_hand_messages`` and ``restore_host_panel`` to give
    them handles."""
    side = chat_side(table)
    saved_message = state.get("message_id", message_id)
    side.message_id = None if saved_message is None else int(saved_message)
    side.dm_closed = {int(user) for user in state.get("dm_closed", [])}
    side.dm_closed_told = {int(user) for user in state.get("dm_closed_told", [])}
    # Tables saved before hand messages were kept lose track of them.
    side.saved_hand_messages = {
        str(key): dict(saved) for key, saved in state.get("hand_messages", {}).items()
    }
    host_panel = state.get("host_panel")
    side.saved_host_panel = dict(host_panel) if isinstance(host_panel, dict) else None
    return side
