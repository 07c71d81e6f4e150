"""The game service: maps interactions onto per-channel tables.

Every change to a table follows one path, under that table's lock:
validate -> apply -> save -> respond -> refresh the public table. A refused
action is answered ephemerally with the reason and changes nothing; an action
that cannot be saved is rolled back, so memory never holds a state the
database does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec

import discord

from db import Database, StorageError
from engine import Action, Event, HouseRules, Match, RummyError

from . import answer, render
from .ids import ComponentId
from .notify import Notifier
from .pacing import REQUESTS_PER_SECOND, RequestBudget
from .records import live_table, match_record
from .refresh import TableRefresher
from .table import Stage, Table, TableRegistry

if TYPE_CHECKING:
    from bot import RummyBot

    from .lobby import AfterLock, Handler

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
P = ParamSpec("P")
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction past its 3 s
NOT_SAVED = "⚠️ That could not be saved, so it did not happen. Please try again in a moment."


@dataclass(frozen=True)
class GameConfig:
    """Timings, all in seconds; tests shrink them."""

    computer_delay: float = 1.0
    lobby_timeout: float = 15 * 60
    idle_timeout: float = 30 * 60
    sweep_interval: float = 30.0
    # Deal every new table from this seed instead of a random one: replays a
    # reported game exactly, and lets tests compare runs.
    table_seed: int | None = None
    # Multiplies every turn timer; tests shrink two-minute turns to moments.
    turn_time_scale: float = 1.0
    # Table edits and DMs a second, all tables together (see cogs/pacing.py);
    # tests that play at machine speed against the emulator raise it.
    request_rate: float = REQUESTS_PER_SECOND


# Clicks that only look at a table: they wait for unsaved changes, not for the
# table's lock (see cogs/table_lock.py).
LOOKS = frozenset({"hand"})

# Hand-view edits in flight at once (see refresh_hand_view). Each takes a few
# milliseconds on an idle bot, so four keep up with a thousand quiet tables.
HAND_VIEW_EDITS_AT_ONCE = 4


def tracked(
    method: Callable[Concatenate[GameService, P], Coroutine[Any, Any, None]],
) -> Callable[Concatenate[GameService, P], Coroutine[Any, Any, None]]:
    """Let shutdown wait for this entry point to finish (see ``handling``)."""

    @functools.wraps(method)
    async def wrapper(self: GameService, /, *args: P.args, **kwargs: P.kwargs) -> None:
        async with self.handling():
            await method(self, *args, **kwargs)

    return wrapper


# What the public table needs: a game started without them would break at
# the first edit or at the next hand (interaction answers need none of them).
NEEDED_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}


def missing_permissions(granted: discord.Permissions) -> list[str]:
    return [label for flag, label in NEEDED_PERMISSIONS.items() if not getattr(granted, flag)]


class Refusal(Exception):
    """An action refused before anything changed; the text goes to the player."""


class GameService:
    def __init__(self, bot: RummyBot, db: Database, config: GameConfig) -> None:
        self.bot = bot
        self.db = db
        self.config = config
        self.tables = TableRegistry()
        # One budget for the bot's own REST calls: Discord's global limit is per bot.
        self.budget = RequestBudget(config.request_rate)
        self.notifier = Notifier(bot, self.spawn, self.budget)
        self.refresher = TableRefresher(bot, self.budget)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: dict[int, asyncio.Task[Any]] = {}
        self._guild_rules: dict[int, HouseRules] = {}
        self.closing = False
        # Hand views that will be brought up to date, and the edits under way.
        self._hand_views_waiting: set[tuple[int, str]] = set()
        self._hand_view_slots = asyncio.Semaphore(HAND_VIEW_EDITS_AT_ONCE)
        # Imported here: the lobby, play and automation modules import this one.
        from .automation import Automation
        from .lobby import LobbyHandlers
        from .play import PlayHandlers

        self.lobby = LobbyHandlers(self)
        self.play = PlayHandlers(self)
        self.automation = Automation(self)

    # --- background work ------------------------------------------------------
    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any] | None:
        """Run work that must not delay an interaction; failures are logged."""
        if self.closing:
            coro.close()
            return None
        task = asyncio.create_task(self._guarded(coro, name), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @contextlib.asynccontextmanager
    async def handling(self) -> AsyncIterator[None]:
        """Mark the running interaction handler, so shutdown lets it finish
        (its save and follow-up edits) before the database closes."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks.discard(task)

    @staticmethod
    async def _guarded(coro: Awaitable[Any], name: str) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("background task %s failed", name)

    async def wait_idle(self, limit: float = 10.0) -> None:
        """Wait until no background work is pending (used by tests and shutdown)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            pending = [t for t in self._tasks if not t.done()]
            pending += self.refresher.pending()
            if not pending:
                return
            await asyncio.wait(pending, timeout=max(0.0, deadline - time.monotonic()))

    async def close(self) -> None:
        self.closing = True
        for task in [*self._tasks, *self._timers.values()]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._timers.values(), return_exceptions=True)
        self._timers.clear()
        await self.refresher.close()

    # --- answering ------------------------------------------------------------
    @staticmethod
    async def refuse(interaction: Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await answer.send_message(interaction, text, ephemeral=True)

    async def tell_closed_dms(self, interaction: Interaction, table: Table) -> None:
        """Tell a player once, privately, that their DMs are closed."""
        user_id = interaction.user.id
        if user_id not in table.dm_closed or user_id in table.dm_closed_told:
            return
        table.dm_closed_told.add(user_id)
        await interaction.followup.send(
            "I couldn't send you a DM (your DMs are closed to this server). "
            "Press **Show hand** on the table whenever you want to see your cards.",
            ephemeral=True,
        )

    # --- saving -----------------------------------------------------------------
    async def commit(self, table: Table, snapshot: dict[str, Any]) -> bool:
        """Save the table after a change; on failure put it back as it was.

        A finished match is recorded and leaves the live set in one step, so a
        score is never lost and never counted twice.
        """
        try:
            if table.stage is Stage.FINISHED:
                await self.db.record_match(
                    match_record(table, abandoned=False), remove_live=table.channel_id
                )
            else:
                await self.db.save_live_table(live_table(table))
        except StorageError:
            log.exception("could not save table in channel %s", table.channel_id)
            table.restore(snapshot)
            table.lock.mark_saved()  # as it was when last saved
            return False
        table.lock.mark_saved()
        table.changes += 1
        if table.stage is Stage.FINISHED:
            self.forget(table)
        return True

    def forget(self, table: Table) -> None:
        self.tables.remove(table.channel_id)
        timer = self._timers.pop(table.channel_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    # --- the one path for a game action ---------------------------------------------
    async def apply(
        self, table: Table, player: str, actions: Iterable[Action], *, by_human: bool
    ) -> list[Event]:
        """Apply actions for one player; raise ``RummyError`` with nothing changed."""
        match = table.match
        assert match is not None
        turn_before = (match.hand_number, match.hand.turn)
        events: list[Event] = []
        actions = list(actions)
        # The engine refuses a single action with nothing changed; a sequence
        # (a computer's whole turn) needs its own way back.
        snapshot = match.to_dict() if len(actions) > 1 else None
        try:
            for action in actions:
                events += match.apply(player, action)
        except RummyError:
            if snapshot is not None:
                table.match = Match.from_dict(snapshot)
            raise
        if by_human:
            table.last_human_action = time.time()
            seat = table.seat(player)
            seat.missed_turns = 0
        table.selections.pop(player, None)
        names = table.names()
        for event in events:
            line = render.event_line(event, names)
            if line:
                table.log.append(line)
        if match.hand.is_over:
            table.stage = Stage.FINISHED if match.is_over else Stage.HAND_OVER
            table.turn_deadline = None
        elif (match.hand_number, match.hand.turn) != turn_before:
            self.start_turn_clock(table)
        return events

    def start_turn_clock(self, table: Table) -> None:
        """Give the player whose turn starts now the table's time limit."""
        seat = table.current_seat
        if seat is None or seat.played_by_computer or not table.rules.turn_timeout:
            table.turn_deadline = None
        else:
            seconds = table.rules.turn_timeout * self.config.turn_time_scale
            table.turn_deadline = time.time() + seconds

    def after_change(
        self, table: Table, *, turn_changed: bool = True, refresh: bool = True
    ) -> None:
        """Follow-up work once a change is saved and answered: the public table,
        DMs, the next computer move, the turn timer."""
        if refresh:
            self.refresher.request(table)
        if table.stage is Stage.FINISHED:
            return
        if turn_changed and table.stage is Stage.PLAYING:
            seat = table.current_seat
            if seat is not None and not seat.played_by_computer:
                self.notifier.your_turn(table, seat)
                self.spawn(self.refresh_hand_view(table, seat.key), "hand-view-refresh")
        self.automation.schedule(table)

    async def refresh_hand_view(self, table: Table, key: str) -> None:
        """Bring a player's open hand view up to date when their turn starts.

        Edits wait for one of a few slots: on a bot busy answering clicks,
        which Discord fails after 3 s, a hand view catching up a moment later
        fails nobody. A player already waiting for an edit gets one edit, of
        the state when its slot comes.
        """
        waiting = (table.channel_id, key)
        if waiting in self._hand_views_waiting:
            return
        self._hand_views_waiting.add(waiting)
        try:
            await self._hand_view_slots.acquire()
        finally:
            self._hand_views_waiting.discard(waiting)
        try:
            await self._edit_hand_view(table, key)
        finally:
            self._hand_view_slots.release()

    async def _edit_hand_view(self, table: Table, key: str) -> None:
        token = table.hand_views.get(key)
        if token is None or time.time() - token.opened_at > 14 * 60:
            table.hand_views.pop(key, None)
            return
        if table.match is None or self.tables.get(table.channel_id) is not table:
            return  # the game ended while the edit waited
        from .play import hand_payload

        embed, view = hand_payload(table, key)
        try:
            await token.interaction.edit_original_response(embed=embed, view=view)
        except discord.HTTPException:
            table.hand_views.pop(key, None)

    # --- entry points ----------------------------------------------------------------
    @tracked
    async def on_component(
        self, interaction: Interaction, parsed: ComponentId | None, values: list[str]
    ) -> None:
        try:
            await self._on_component(interaction, parsed, values)
        except Exception as error:
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
                # Answered after Discord's 3 s: the token is dead and a second
                # answer would fail the same way (on an overloaded bot, adding
                # a request and a traceback to every late click).
                log.warning("component %s was answered too late", parsed)
                return
            log.exception("component %s failed", parsed)
            if not interaction.response.is_done():
                await interaction.response.send_message(
                    "Something went wrong on my side; nothing was changed.", ephemeral=True
                )

    async def _on_component(
        self, interaction: Interaction, parsed: ComponentId | None, values: list[str]
    ) -> None:
        if parsed is None:
            await self.refuse(interaction, "That control is not one I recognise.")
            return
        if parsed.action == "lb":
            from .stats import leaderboard_page_click

            await leaderboard_page_click(self, interaction, parsed)
            return
        table = self.tables.get(parsed.channel_id)
        if table is None or parsed.channel_id != interaction.channel_id:
            await self.refuse(
                interaction,
                "There is no game running here any more. `/rummy start` opens a new one.",
            )
            return
        if parsed.action == "join":
            await self.lobby.join_together(interaction, table)
            await self.tell_closed_dms(interaction, table)
            return
        handler = self.lobby.handlers.get(parsed.action) or self.play.handlers.get(parsed.action)
        if handler is None:
            await self.refuse(interaction, "That control is not one I recognise.")
            return
        if parsed.action in LOOKS:
            # It changes nothing: it waits only for unsaved changes, not the lock.
            await table.lock.settled()
            after_lock = await self._handle(interaction, table, parsed, values, handler)
        else:
            async with table.lock:
                after_lock = await self._handle(interaction, table, parsed, values, handler)
        if after_lock is not None:
            await after_lock()
        # A follow-up message, so after the answer; it needs no lock.
        await self.tell_closed_dms(interaction, table)

    async def _handle(
        self,
        interaction: Interaction,
        table: Table,
        parsed: ComponentId,
        values: list[str],
        handler: Handler,
    ) -> AfterLock | None:
        """Run a click's handler, answering its refusal; what to send after the lock."""
        if self.tables.get(parsed.channel_id) is not table:
            await self.refuse(interaction, "That game has just ended.")
            return None
        if table.seat_of_user(interaction.user.id) is not None:
            # Looking at your hand counts as being there, not only moving.
            table.last_seen = time.time()
        try:
            return await handler(interaction, table, parsed, values)
        except (Refusal, RummyError) as refusal:
            await self.refuse(interaction, str(refusal))
        return None

    # --- slash commands ------------------------------------------------------------------
    @tracked
    async def start_lobby(self, interaction: Interaction, rules: HouseRules) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None and interaction.guild_id is not None
        existing = self.tables.get(channel_id)
        if existing is not None:
            link = self.table_link(existing)
            await self.refuse(
                interaction,
                f"A game is already open in this channel: {link}. Join it, or wait for it to end.",
            )
            return
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            await self.refuse(
                interaction,
                "I can't run a game in this channel: I need the "
                + ", ".join(missing)
                + " permission here. Ask a server admin to grant it, then try again.",
            )
            return
        table = Table(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            host_id=interaction.user.id,
            rules=rules,
            seed=(
                self.config.table_seed
                if self.config.table_seed is not None
                else random.SystemRandom().randrange(2**53)
            ),
        )
        await self.lobby.seat_human(table, interaction.user)
        self.tables.add(table)
        try:
            await self.db.save_live_table(live_table(table))
        except StorageError:
            self.tables.remove(channel_id)
            await self.refuse(interaction, NOT_SAVED)
            return
        from .views import lobby_view

        async with table.lock:
            # Under the lock: a Join can come as soon as the message exists,
            # before the reply that says its id is read.
            table.message_id = await answer.open_message(
                interaction, embed=render.lobby_embed(table), view=lobby_view(table)
            )
            # Taken under the lock, so it holds no half-made change; saved
            # outside it, so the first Joins need not wait for the disk. A Join
            # saved after it carries the id too (the later save wins).
            with_message = live_table(table)
        try:
            await self.db.save_live_table(with_message)
        except StorageError:
            log.exception("could not record the lobby message id")
        self.automation.schedule(table)

    def table_link(self, table: Table) -> str:
        if table.message_id is None:
            return f"<#{table.channel_id}>"
        return (
            f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
        )

    @tracked
    async def show_hand(self, interaction: Interaction) -> None:
        """`/rummy hand`: the same private view as the table's Show hand button."""
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            await self.refuse(interaction, "There is no game in this channel.")
            return
        async with table.lock:
            try:
                opening = self.play.prepare_hand(interaction, table)
            except Refusal as refusal:
                await self.refuse(interaction, str(refusal))
                return
        await self.play.send_hand(interaction, table, opening)
        await self.tell_closed_dms(interaction, table)

    @tracked
    async def show_rules(self, interaction: Interaction) -> None:
        table = self.tables.get(interaction.channel_id or 0)
        if table is not None:
            text = render.rules_text(table.rules)
        else:
            rules = self.guild_rules(interaction.guild_id)
            text = render.rules_text(rules, server_default=True)
        await interaction.response.send_message(text, ephemeral=True)

    async def load_guild_rules(self) -> None:
        """Read every server's default rules once, at start-up.

        ``/rummy start`` needs them at once, and on game night hundreds of
        lobbies open within a second: reading them then queued every lobby
        behind the database, one read after another.
        """
        for guild_id, saved in (await self.db.load_guild_rules()).items():
            try:
                self._guild_rules[guild_id] = HouseRules.from_dict(saved)
            except RummyError:
                log.warning("ignoring unreadable server defaults for guild %s", guild_id)

    def guild_rules(self, guild_id: int | None) -> HouseRules:
        """The server's default house rules (kept up to date by ``set_guild_rules``)."""
        if guild_id is None:
            return HouseRules()
        return self._guild_rules.get(guild_id) or HouseRules()

    async def set_guild_rules(self, guild_id: int, rules: HouseRules) -> None:
        """Save a server's new default rules; raises StorageError with nothing changed."""
        await self.db.set_guild_rules(guild_id, rules.to_dict())
        self._guild_rules[guild_id] = rules

    @tracked
    async def end_game(self, interaction: Interaction) -> None:
        """`/rummy end`: the host or a moderator stops the game in this channel."""
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            await self.refuse(interaction, "There is no game in this channel.")
            return
        member = interaction.user
        allowed = member.id == table.host_id or (
            isinstance(member, discord.Member) and interaction.permissions.manage_messages
        )
        if not allowed:
            await self.refuse(
                interaction,
                "Only the host or a member with Manage Messages can end this game.",
            )
            return
        async with table.lock:
            if self.tables.get(table.channel_id) is not table:
                await self.refuse(interaction, "That game has just ended.")
                return
            who = getattr(member, "display_name", member.name)
            try:
                await self.finish_abandoned(table)
            except StorageError:
                await self.refuse(interaction, NOT_SAVED)
                return
            await interaction.response.send_message(f"🛑 {who} ended the Rummy game here.")
            self.refresher.replace(table, embed=render.ended_embed(table, who), view=None)

    async def finish_abandoned(self, table: Table) -> None:
        """Take a table out of play; a started match is recorded as abandoned
        (no winner), with whatever hands it completed."""
        if table.match is not None:
            await self.db.record_match(
                match_record(table, abandoned=True), remove_live=table.channel_id
            )
        else:
            await self.db.delete_live_table(table.channel_id)
        table.stage = Stage.FINISHED
        self.forget(table)

    # --- restart ---------------------------------------------------------------------------
    async def restore(self) -> tuple[int, int]:
        """Load every saved live table; set aside the ones that cannot be read."""
        loaded = await self.db.load_live_tables()
        restored = 0
        broken = [(b.channel_id, b.error) for b in loaded.broken]
        now = time.time()
        for saved in loaded.tables:
            try:
                table = Table.from_dict(saved.state)
            # A saved state can be damaged in any way; no single table may
            # stop the bot from starting or the others from loading.
            except Exception as error:
                log.error(
                    "setting aside unreadable table in channel %s: %s", saved.channel_id, error
                )
                await self.db.set_aside_live_table(saved.channel_id, repr(error))
                broken.append((saved.channel_id, repr(error)))
                continue
            if table.stage is Stage.FINISHED:
                await self.db.delete_live_table(table.channel_id)
                continue
            table.resume_after(max(0.0, now - saved.updated_at))
            self.tables.add(table)
            restored += 1
        for channel_id, _error in broken:
            self.spawn(self.notifier.restore_failed(channel_id), "restore-failed-notice")
        for table in self.tables:
            self.automation.schedule(table)
        return restored, len(broken)
