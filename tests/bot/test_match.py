"""Complete matches through clicks only, and nobody ever sees another's hand."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot import RummyBot
from chat.table_side import chat_side
from engine import Card, Match
from fakediscord.core.world import Message
from presentation.card_faces import emoji_name
from tables import Table
from tables.tapes import public_record

from .conftest import FAST, LaunchBot, Server
from .harness import TablePlayer, play_simple_turn, table_message
from .test_play import host_panel, start_game

MAX_TURNS_IN_TEST = 400


def current(bot: RummyBot, server: Server, seated: list[TablePlayer]) -> TablePlayer | None:
    table = bot.game.tables.get(server.channel.id)
    if table is None or table.match is None:
        return None
    turn = table.match.hand.turn
    return next((p for p in seated if p.key == turn), None)


class PrivacyWatch:
    """Checks, after every step, that no card is shown to someone who may not know it.

    Everybody may know the cards that have been face up this hand (discard pile,
    melds). A player also knows the cards they have held themselves. Any other
    card in a hand may appear only in its owner's ephemeral messages and DMs.
    """

    def __init__(self, bot: RummyBot, server: Server, seated: list[TablePlayer]) -> None:
        self.bot, self.server, self.seated = bot, server, seated
        self.face_up: set[Card] = set()
        self.held: dict[str, set[Card]] = {}
        self.hand_number = 0
        self.checks = 0

    def _dms_this_hand(self, player: TablePlayer) -> str:
        dms = player.actor.dms()
        starts = [
            i for i, m in enumerate(dms) if m.text().startswith(f"Hand {self.hand_number} in")
        ]
        return "\n".join(everything_in(m) for m in (dms[starts[-1] :] if starts else dms))

    def check(self) -> None:
        table = self.bot.game.tables.get(self.server.channel.id)
        if table is None or table.match is None or table.match.hand.is_over:
            return
        hand = table.match.hand
        if table.hand_number != self.hand_number:
            self.hand_number, self.face_up, self.held = table.hand_number, set(), {}
        self.face_up |= set(hand.discard_pile)
        for meld in hand.melds:
            self.face_up |= set(meld.cards)
        for player in self.seated:
            self.held.setdefault(player.key, set()).update(hand.hand_of(player.key))
        # Earlier hands' results are public by then; this hand's messages start
        # with its table message (snowflake ids grow with time).
        assert chat_side(table).message_id is not None
        public = "\n".join(
            everything_in(m)
            for m in self.server.emu.messages(self.server.channel)
            if m.id >= chat_side(table).message_id
        )
        for owner in self.seated:
            secret = [c for c in hand.hand_of(owner.key) if c not in self.face_up]
            for card in secret:
                assert not shows(public, card), f"{owner.actor.name}'s {card} is public"
                for viewer in self.seated:
                    if viewer is owner or card in self.held[viewer.key]:
                        continue
                    assert not shows(self._dms_this_hand(viewer), card), (
                        f"{owner.actor.name}'s {card} was sent to {viewer.actor.name}"
                    )
        self.checks += 1


def everything_in(message: Message) -> str:
    """All a message carries: its text, embeds and components (labels, emojis)."""
    return json.dumps([message.content, message.embeds, message.components], ensure_ascii=False)


def shows(text: str, card: Card) -> bool:
    """Whether ``text`` shows ``card``, as text or as one of the bot's card emojis."""
    names = {emoji_name(card), emoji_name(card, four_colour=True)}
    return card.display in text or any(f'"{name}"' in text or f":{name}:" in text for name in names)


async def play_match(
    bot: RummyBot, server: Server, seated: list[TablePlayer], watch: PrivacyWatch | None = None
) -> None:
    for _ in range(MAX_TURNS_IN_TEST):
        table = bot.game.tables.get(server.channel.id)
        if table is None:
            return
        if table.match is not None and table.match.hand.is_over:
            await seated[0].actor.click(
                table_message(server.emu, server.channel), label="Next hand"
            )
            await bot.game.tasks.wait_idle()
            continue
        player = current(bot, server, seated)
        assert player is not None
        await play_simple_turn(player, bot)
        await bot.game.tasks.wait_idle()
        if watch is not None:
            watch.check()
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    ("players", "pictures"), [(2, False), (3, True), (6, False)], ids=["2", "3-emoji", "6"]
)
async def test_complete_match(
    server: Server, launch: LaunchBot, players: int, pictures: bool
) -> None:
    bot = await launch(dataclasses.replace(FAST, card_emoji=pictures))
    await bot.game.tasks.wait_idle()
    assert bool(bot.game.faces.ids) == pictures
    actors = [server.ann, server.bob, server.cat, server.dan, server.eve, server.fay][:players]
    seated = [server.player(a) for a in actors]
    await start_game(server, bot, seated, hands=2)
    watch = PrivacyWatch(bot, server, seated)
    await play_match(bot, server, seated, watch)
    assert watch.checks > 0
    final = table_message_text(server)
    assert "Match over" in final and ("wins the match" in final or "Shared win" in final)
    assert bot.game.tables.get(server.channel.id) is None
    assert bot.db is not None
    board = await bot.db.leaderboard(server.guild.id)
    assert sorted(row.user_id for row in board.rows) == sorted(a.id for a in actors)
    assert all(row.matches_played == 1 for row in board.rows)
    assert sum(row.matches_won for row in board.rows) >= 1
    # The channel is free again.
    again = await server.ann.slash(server.channel, "rummy start")
    assert not again.ephemeral


def table_message_text(server: Server) -> str:
    for message in reversed(server.emu.messages(server.channel)):
        if "Match over" in message.text():
            return message.text()
    return ""


async def test_player_with_closed_dms_is_told_once(server: Server, launch: LaunchBot) -> None:
    bot = await launch()
    server.bob.close_dms()
    seated = [server.player(server.ann), server.player(server.bob)]
    await start_game(server, bot, seated)
    assert server.bob.dms() == []
    assert any("Your cards" in m.text() for m in server.ann.dms())
    first = await seated[1].open_hand()
    await bot.game.tasks.wait_idle()
    assert any("DMs are closed" in f.text() for f in first.followups)
    second = await seated[1].open_hand()
    await bot.game.tasks.wait_idle()
    assert not any("DMs are closed" in f.text() for f in second.followups)
    # The game goes on regardless.
    assert bot.game.tables.get(server.channel.id) is not None


async def test_a_rematch_keeps_seats_and_rules_and_starts_once_all_are_back(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob)]
    lobby = await server.ann.slash(server.channel, "rummy start", hands=1, ace="high_or_low")
    assert lobby.message is not None
    panel = await host_panel(lobby)
    await server.bob.click(lobby.message, label="Join")
    await server.ann.click(panel, label="Add computer (hard)")
    for player in seated:
        player.settle = bot.game.tasks.wait_idle
    await server.ann.click(panel, label="Start")
    await bot.game.tasks.wait_idle()
    everyone = [*seated]
    await play_match(bot, server, everyone)
    final = table_message(server.emu, server.channel)
    assert "Match over" in final.text()
    # Each player's own last view says where to go on.
    for player in seated:
        assert "**Rematch** on the table opens a new game" in player.view_text()
    # Someone who did not play cannot call it; a player can.
    refused = await server.cat.click(final, label="Rematch")
    assert refused.ephemeral and "Only the players" in refused.text()
    again = await server.bob.click(final, label="Rematch")
    assert not again.ephemeral and again.message is not None
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.host_id == server.bob.id
    assert table.rules.ace.value == "high_or_low" and table.rules.hands == 1
    assert [s.name for s in table.seats if s.is_computer] == ["Ada"]
    assert table.invited == [server.ann.id] and "press **Join**" in again.text()
    # A second Rematch while the new lobby is open is told where it is.
    twice = await server.ann.click(final, label="Rematch")
    assert twice.ephemeral and "already open" in twice.text()
    # Ann's one click brings everyone back: the game starts by itself.
    started = await server.ann.click(again.message, label="Join")
    assert not started.ephemeral and "Rummy — hand 1" in started.text()
    assert table.stage.value == "playing" and len(table.seats) == 3


async def test_a_rematch_against_the_computers_alone_deals_at_once(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    ann = server.player(server.ann)
    lobby = await server.ann.slash(server.channel, "rummy start", hands=1)
    assert lobby.message is not None
    panel = await host_panel(lobby)
    await server.ann.click(panel, label="Add computer (easy)")
    ann.settle = bot.game.tasks.wait_idle
    await server.ann.click(panel, label="Start")
    await bot.game.tasks.wait_idle()
    await play_match(bot, server, [ann])
    final = table_message(server.emu, server.channel)
    again = await server.ann.click(final, label="Rematch")
    # Nobody to wait for: the next match is dealt, and Ann sent her cards.
    assert not again.ephemeral and "Rummy — hand 1" in again.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.stage.value == "playing" and not table.invited
    await bot.game.tasks.wait_idle()
    assert sum("is dealt" in m.text() for m in server.ann.dms()) == 2


async def test_a_rematch_lobby_waits_only_for_those_not_back_and_an_old_rematch_says_why(
    server: Server, launch: LaunchBot
) -> None:
    bot = await launch()
    seated = [server.player(server.ann), server.player(server.bob), server.player(server.cat)]
    await start_game(server, bot, seated, hands=1)
    await play_match(bot, server, seated)
    first_final = table_message(server.emu, server.channel)
    again = await server.bob.click(first_final, label="Rematch")
    assert again.message is not None
    waiting = next(t for t in again.message.text_displays() if "waiting for" in t)
    assert f"<@{server.ann.id}>" in waiting and f"<@{server.cat.id}>" in waiting
    joined = await server.ann.click(again.message, label="Join")
    waiting = next(t for t in joined.message.text_displays() if "waiting for" in t)
    assert f"<@{server.cat.id}>" in waiting and f"<@{server.ann.id}>" not in waiting
    # Cat is back: it deals; the game is stopped, and the first match's Rematch
    # is pressed: the bot did not restart, a later game was played.
    await server.cat.click(again.message, label="Join")
    await bot.game.tasks.wait_idle()
    await server.bob.slash(server.channel, "rummy end")
    old = await server.ann.click(first_final, label="Rematch")
    assert old.ephemeral and "A later game has been played here" in old.text(), old.text()
    assert "restarted" not in old.text()


# Table seeds whose first dealer makes the second seat (the computer, at a
# table of the host and one computer) or the first (the host) move first.
COMPUTER_FIRST, HOST_FIRST = 1, 5


def first_to_move(table: Table) -> str | None:
    """Who moves first in the match dealt at ``table``, from its seed alone."""
    dealt = Match.start([seat.key for seat in table.seats], table.rules, table.seed)
    return dealt.hand.turn


@pytest.mark.parametrize("seed", [COMPUTER_FIRST, HOST_FIRST], ids=["computer", "host"])
async def test_a_rematch_against_the_computers_alone_plays_on_whoever_moves_first(
    server: Server, launch: LaunchBot, seed: int
) -> None:
    bot = await launch(dataclasses.replace(FAST, table_seed=seed))
    ann = server.player(server.ann)
    ann.settle = bot.game.tasks.wait_idle
    lobby = await server.ann.slash(server.channel, "rummy start", hands=1)
    panel = await host_panel(lobby)
    await server.ann.click(panel, label="Add computer (easy)")
    await server.ann.click(panel, label="Start")
    await bot.game.tasks.wait_idle()
    await play_match(bot, server, [ann])
    again = await server.ann.click(table_message(server.emu, server.channel), label="Rematch")
    assert not again.ephemeral and "Rummy — hand 1" in again.text()
    table = bot.game.tables.get(server.channel.id)
    assert table is not None and table.match is not None
    assert first_to_move(table) == ("cpu1" if seed == COMPUTER_FIRST else ann.key)
    # The rematch goes on as a dealt match does: Ada plays her turn if she is
    # first, and Ann's turn then runs on its clock.
    await bot.game.tasks.wait_idle()
    assert table.match.hand.turn == ann.key, "the computer's first turn was not played"
    assert bot.game.automation.timers(), "Ann's turn has no clock"
    ada_moved = any(e.player == "cpu1" for e in public_record(table).events if e.kind == "discard")
    assert ada_moved == (seed == COMPUTER_FIRST)
    # The public table says so: the turn's line (▶️) is under Ann's.
    shown = table_message(server.emu, server.channel).text().splitlines()
    turn_line = next(i for i, line in enumerate(shown) if line.startswith("▶️"))
    assert "**Ann**" in shown[turn_line - 1], shown
    assert ("Ada discarded" in shown[-1]) == (seed == COMPUTER_FIRST), shown
    # Ann's move is answered by Ada's, as in any match.
    await play_simple_turn(ann, bot)
    await bot.game.tasks.wait_idle()
    assert table.match.hand.is_over or table.match.hand.turn == ann.key
