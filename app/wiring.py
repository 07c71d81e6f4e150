"""Builds the game side of the bot: every flow, with what each one needs."""

from __future__ import annotations

import discord

from app.game import Game
from chat.channel_events import ChannelEvents
from chat.commands.end import Ending
from chat.commands.history import History
from chat.commands.seasons import Seasons
from chat.commands.server_defaults import ServerSettings
from chat.commands.stats import Stats
from chat.dms import Notifier
from chat.follow_ups import FollowUps
from chat.hand_messages import HandMessages
from chat.host_panel import HostPanels
from chat.lobby import Lobby
from chat.match_chart import MatchResults
from chat.router import ComponentRouter, Handlers
from chat.table_buttons import Play
from chat.table_refresher import TableRefresher
from chat.table_side import saved_beside, undo_point
from chat.turn_dms import TurnNudges
from db import Database
from game.config import GameConfig
from game.engine_moves import Moves
from game.events import TableEvents
from game.hints import HintBook
from game.lobby_seats import LobbySeats
from game.prefs import PlayerPrefs
from game.seat_moves import SeatMoves
from game.server_rules import ServerRules
from game.tasks import Supervisor
from game.timers import Automation
from presentation.card_emoji import CardFaces
from presentation.pacing import RequestBudget
from tables import Stage, Table, TableRegistry, TableWork
from web.table_door import TableDoor
from web.watchers import TableWatchers


def guild_locale(client: discord.Client, guild_id: int) -> str | None:
    """A server's own Discord language, as the bot's cache of its servers has it."""
    guild = client.get_guild(guild_id)
    return None if guild is None else str(guild.preferred_locale)


def build_game(client: discord.Client, db: Database, config: GameConfig) -> Game:
    """Every part of the game, wired; nothing runs until the bot does."""
    tables = TableRegistry()
    # One budget for the bot's own REST calls: Discord's global limit is per bot.
    budget = RequestBudget(config.request_rate)
    # Cards are text until the start-up sync has found or uploaded their emojis.
    faces = CardFaces()
    refresher = TableRefresher(client, faces, budget, activity=config.activity)
    tasks = Supervisor(extra_pending=refresher.pending)
    prefs = PlayerPrefs(db)
    notifier = Notifier(
        client, tasks.spawn, budget, wants_deal_dm=lambda user: prefs.of(user).deal_dm, faces=faces
    )
    hand_messages = HandMessages(tables, faces, lambda user: prefs.of(user).four_colour,
                                 config.follow_after, config.quiet_follow_after)
    moves = Moves(config.turn_time_scale)

    # The game's one way out: each door subscribes to what it says.
    events = TableEvents()
    results = MatchResults(client, db, budget, tasks)
    watchers = TableWatchers()  # the Activity's pages, told of changes by any door
    # The chat's messages and closed DMs are saved in the table's row, and
    # the message's id put back with a change undone.
    work = TableWork(db, tables, events.after_save, door_state=saved_beside, door_undo=undo_point)
    automation = Automation(config, tables, work, moves, tasks, events)
    nudges = TurnNudges(notifier, config.turn_nudge_after, lambda user: prefs.of(user).turn_dm)
    panels = HostPanels(tasks)  # the lobby host's own controls
    follow_ups = FollowUps(refresher, notifier, hand_messages, tasks, nudges, panels, results,
                           faces)
    events.subscribe(follow_ups.heard)  # the chat
    events.subscribe(automation.heard)  # the game's own timers
    events.subscribe(watchers.heard)  # the Activity's pages
    events.keep_alive(hand_messages.pause_expiring)

    async def record_moved_table(table: Table) -> None:
        async with table.lock:
            # A table that has left play must not come back into the live set.
            if tables.get(table.channel_id) is not table:
                return
            await work.record_message(table)
        if table.stage is Stage.PLAYING:
            # The new table sits below every open hand message: each comes down too.
            tasks.spawn(hand_messages.bring_below(table), "hands-below")

    refresher.on_moved = record_moved_table
    channels = ChannelEvents(work, refresher)
    refresher.on_lost = channels.table_lost

    handlers = Handlers()
    # What a player does, whichever door: the chat's buttons or the Activity.
    hints = HintBook()
    seat_moves = SeatMoves(work, moves, hints, prefs, events)
    lobby_seats = LobbySeats(config, work, moves, events)
    lobby = Lobby(config, work, lobby_seats, notifier, faces, refresher, panels)
    play = Play(work, seat_moves, tasks, faces, prefs, hand_messages)
    server_rules = ServerRules(db)
    settings = ServerSettings(server_rules, tables)
    stats = Stats(db, settings.public_language)
    history = History(db, tables, faces)
    for flow in (lobby, play, stats, history):
        flow.bind(handlers)
    return Game(
        config=config, budget=budget, faces=faces, prefs=prefs, nudges=nudges, tables=tables,
        work=work, tasks=tasks, moves=moves, refresher=refresher, notifier=notifier,
        hand_messages=hand_messages, automation=automation, lobby=lobby, play=play,
        ending=Ending(work, refresher), stats=stats, server_rules=server_rules,
        settings=settings, events=events,
        router=ComponentRouter(tables, handlers), channels=channels, history=history,
        seasons=Seasons(db, settings.public_language), results=results,
        door=TableDoor(seat_moves, lobby_seats, work, prefs, server_rules,
                       lambda guild: guild_locale(client, guild),
                       lambda guild: client.get_guild(guild) is not None),
        watchers=watchers, hints=hints,
    )
