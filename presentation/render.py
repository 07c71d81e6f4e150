"""Pure rendering: tables, hands and results to embeds and text.

Nothing here talks to Discord; every function takes plain state and returns
``discord.Embed`` values or strings, so the look of the game is tested without
a connection. The public table is always drawn from the engine's *spectator*
view, which holds no hand at all: a hand cannot leak into a public message.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from engine import (
    RULE_OPTIONS,
    Action,
    Card,
    Discard,
    DrawStock,
    Event,
    HandOutcome,
    HandView,
    HouseRules,
    LayOff,
    MeldCards,
    Phase,
    TableMeld,
    TakeDiscard,
    format_cards,
    sort_by_rank,
)
from engine.rules import RummyBonus
from tables import MAX_SEATS, Seat, Stage, Table
from tables.table import HAND_LOG_LINES

from .card_emoji import CardFaces
from .words import plural

TEXT_CARDS = CardFaces()

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_PLAYING = discord.Colour.dark_green()
COLOUR_OVER = discord.Colour.gold()
COLOUR_ENDED = discord.Colour.dark_grey()


def seat_label(seat: Seat) -> str:
    if seat.user_id is None:
        return f"🤖 {seat.name} ({seat.level or 'easy'})"
    if seat.autopilot:
        return f"{seat.name} (🤖 autopilot)"
    return seat.name


# --- lobby -------------------------------------------------------------------
def lobby_embed(table: Table) -> discord.Embed:
    embed = discord.Embed(
        title="Rummy: a new game is forming",
        description=(
            f"Host: <@{table.host_id}>. Press **Join** to take a seat "
            f"({len(table.seats)}/{MAX_SEATS}). The host starts when 2 to {MAX_SEATS} "
            "players are seated."
        ),
        colour=COLOUR_LOBBY,
    )
    seats = "\n".join(f"{i}. {seat_label(s)}" for i, s in enumerate(table.seats, 1))
    embed.add_field(name="Seats", value=seats or "nobody yet", inline=False)
    if table.invited:
        waiting = ", ".join(f"<@{user_id}>" for user_id in table.invited)
        embed.add_field(
            name="Rematch",
            value=f"Waiting for {waiting} to press **Join**: the game starts once all have.",
            inline=False,
        )
    embed.add_field(name="House rules", value=rules_summary(table.rules), inline=False)
    return embed


def rule_setting(name: str, value: object) -> str:
    """One house rule's setting in a few words ("Aces high or low", "5 hands")."""
    if name in CHOICE_LABELS:
        return CHOICE_LABELS[name].get(str(value), str(value))
    if name == "target":
        return f"First to {value} points"
    if name == "hands":
        return "1 hand" if value == 1 else f"{value} hands"
    if name == "turn_timeout":
        return "No turn timer" if not value else f"{value} seconds a turn"
    return f"{name}: {value}"


# Words for the rules whose own name says little next to its setting.
RULE_TOPICS = {
    "melds_per_turn": "Melds a turn",
    "go_out": "Going out",
    "rummy_bonus": "Going rummy",
    "empty_stock": "Empty stock",
}


def changed_rules(rules: HouseRules, base: HouseRules) -> list[str]:
    """The rules of ``rules`` that differ from ``base``, each in a few words."""
    shown = []
    for option in RULE_OPTIONS:
        value, before = getattr(rules, option.name), getattr(base, option.name)
        if value == before or value is None:
            continue
        setting = rule_setting(option.name, getattr(value, "value", value))
        topic = RULE_TOPICS.get(option.name)
        shown.append(f"{topic}: {setting}" if topic else setting)
    return shown


def rules_summary(rules: HouseRules) -> str:
    """The lobby's rules: only what differs from the standard game, the rest one
    click away (Rules)."""
    changed = changed_rules(rules, HouseRules())
    if not changed:
        return "The standard game: first to 100 points, 2 minutes a turn. **Rules** tells all."
    return "\n".join(f"• {line}" for line in changed) + "\nEverything else as standard: **Rules**."


def cancelled_embed(table: Table, reason: str) -> discord.Embed:
    return discord.Embed(title="Rummy: no game", description=reason, colour=COLOUR_ENDED)


# --- the public table ------------------------------------------------------
def describe_meld(
    meld: TableMeld, names: Mapping[str, str], faces: CardFaces = TEXT_CARDS
) -> str:
    """A meld with who put down which cards, grouped by player."""
    by_owner: dict[str, list[Card]] = {}
    for card, owner in zip(meld.cards, meld.owners, strict=True):
        by_owner.setdefault(owner, []).append(card)
    cards = faces.row(meld.cards)
    if len(by_owner) == 1:
        return f"{cards} — {names.get(next(iter(by_owner)), '?')}"
    credit = "; ".join(
        f"{names.get(owner, owner)}: {format_cards(owned)}" for owner, owned in by_owner.items()
    )
    return f"{cards} — {credit}"


def what_to_do(view: HandView, names: Mapping[str, str], faces: CardFaces = TEXT_CARDS) -> str:
    if view.turn is None:
        return "The hand is over."
    who = names.get(view.turn, view.turn)
    if view.phase is Phase.DRAW:
        if view.discard_top is None:
            return f"**{who}** to draw from the stock."
        return f"**{who}** to draw from the stock or take {faces.inline(view.discard_top)}."
    return f"**{who}** may meld or lay off, then must discard."


def table_embed(
    table: Table, faces: CardFaces = TEXT_CARDS, *, now_deadline: float | None = None
) -> discord.Embed:
    match = table.match
    assert match is not None, "a table is drawn only once dealt"
    view = match.hand.view_for(None)
    names = table.names()
    title = f"Rummy — hand {match.hand_number}"
    if table.rules.hands is not None:
        title += f" of {table.rules.hands}"
    embed = discord.Embed(title=title, colour=COLOUR_PLAYING)

    lines = []
    for seat in table.seats:
        marker = "▶️ " if view.turn == seat.key else ""
        dealer = " (dealer)" if view.dealer == seat.key else ""
        count = view.card_counts.get(seat.key, 0)
        total = match.totals.get(seat.key, 0)
        lines.append(
            f"{marker}{seat_label(seat)}{dealer}: {plural(count, 'card')}, "
            f"{plural(total, 'point')}"
        )
    target = (
        f"first to {table.rules.target} points"
        if table.rules.target is not None
        else rule_setting("hands", table.rules.hands)
    )
    embed.add_field(name=f"Players ({target})", value="\n".join(lines), inline=False)

    turn_text = what_to_do(view, names, faces)
    deadline = table.turn_deadline if now_deadline is None else now_deadline
    if deadline is not None and view.turn is not None:
        turn_text += f" Time runs out <t:{int(deadline)}:R>."
    embed.add_field(name="Turn", value=turn_text, inline=False)

    top = faces.inline(view.discard_top) if view.discard_top is not None else "empty"
    pile = len(view.discard_pile)
    embed.add_field(name="Discard pile", value=f"{top} ({pile} card{'s' * (pile != 1)})")
    stock = view.stock_size
    embed.add_field(name="Stock", value=f"{faces.back()} {plural(stock, 'card')}")

    if view.melds:
        meld_lines = [
            f"{i}. {describe_meld(m, names, faces)}" for i, m in enumerate(view.melds, 1)
        ]
        for number, chunk in enumerate(_chunks(meld_lines, 1024)):
            name = "Melds" if number == 0 else "Melds (continued)"
            embed.add_field(name=name, value=chunk, inline=False)
    else:
        embed.add_field(name="Melds", value="none yet", inline=False)

    if table.log:
        embed.add_field(name="Latest", value=_clip("\n".join(table.log), 1024), inline=False)
    embed.set_footer(text="Press Show hand to see your cards and play.")
    return embed


def hand_result_embed(
    table: Table, outcome: HandOutcome, faces: CardFaces = TEXT_CARDS
) -> discord.Embed:
    """End of a hand: what everyone still held, who went out, and the totals."""
    match = table.match
    assert match is not None
    names = table.names()
    if outcome.went_out is not None:
        headline = f"**{names.get(outcome.went_out)}** went out"
        if outcome.rummy:
            headline += " — **rummy!**"
            if table.rules.rummy_bonus is RummyBonus.DOUBLE:
                headline += " (points doubled)"
    else:
        headline = "Nobody went out: the lowest count wins the hand"
        if len(outcome.winners) > 1:
            headline += " (a tie: the winners share the points, rounded down)"
    embed = discord.Embed(
        title=f"Rummy — hand {match.hand_number} is over",
        description=headline + ".",
        colour=COLOUR_OVER,
    )
    lines = []
    for seat in table.seats:
        left = outcome.remaining.get(seat.key, ())
        held = faces.row(sort_by_rank(left)) if left else "no cards"
        counted = outcome.counts.get(seat.key, 0)
        lines.append(
            f"{seat_label(seat)}: {held} ({counted} point{'s' * (counted != 1)} in hand), "
            f"scores **{outcome.scores.get(seat.key, 0)}**"
        )
    embed.add_field(name="Cards left", value=_clip("\n".join(lines), 1024), inline=False)
    embed.add_field(name="Match totals", value=totals_text(table), inline=False)
    if match.is_over:
        embed.add_field(name="Match over", value=winners_text(table), inline=False)
        embed.set_footer(text="Thanks for playing. /rummy start opens a new game.")
    else:
        embed.set_footer(text="A seated player presses Next hand to deal again.")
    return embed


def totals_text(table: Table) -> str:
    match = table.match
    assert match is not None
    ranked = sorted(table.seats, key=lambda s: -match.totals.get(s.key, 0))
    return "\n".join(f"{seat_label(s)}: {match.totals.get(s.key, 0)}" for s in ranked)


def winners_text(table: Table) -> str:
    match = table.match
    assert match is not None and match.outcome is not None
    names = [table.name_of(key) for key in match.outcome.winners]
    if len(names) == 1:
        return f"🏆 **{names[0]}** wins the match."
    return "🏆 Shared win: " + ", ".join(f"**{n}**" for n in names) + "."


def ended_embed(table: Table, who: str) -> discord.Embed:
    embed = discord.Embed(
        title="Rummy — game ended",
        description=f"{who} ended this game. The channel is free for a new one.",
        colour=COLOUR_ENDED,
    )
    if table.match is not None:
        embed.add_field(name="Totals when it stopped", value=totals_text(table), inline=False)
    return embed


# --- DMs -------------------------------------------------------------------------
def dealt_dm(
    table: Table, key: str, channel_mention: str, faces: CardFaces = TEXT_CARDS
) -> str:
    match = table.match
    assert match is not None
    cards = sort_by_rank(match.hand.hand_of(key))
    return (
        f"Hand {match.hand_number} in {channel_mention} is dealt. Your cards: {faces.row(cards)}"
    )


def turn_dm(table: Table, key: str, jump_url: str, faces: CardFaces = TEXT_CARDS) -> str:
    match = table.match
    assert match is not None
    cards = sort_by_rank(match.hand.hand_of(key))
    top = match.hand.discard_top
    top_text = faces.inline(top) if top is not None else "empty"
    return (
        f"Your turn at Rummy: {jump_url}\nYour cards: {faces.row(cards)}\n"
        f"Discard top: {top_text}. Press **Show hand** on the table to play."
    )


# --- the action log ------------------------------------------------------------------
def event_line(event: Event, names: Mapping[str, str]) -> str | None:
    """One line of the table's action log, or None for events not worth a line."""
    who = names.get(event.player or "", event.player or "")
    cards = format_cards(event.cards)
    meld_no = None if event.meld is None else event.meld + 1
    lines = {
        "draw_stock": f"{who} drew from the stock",
        "take_discard": f"{who} took {cards} from the discard pile",
        "meld": f"{who} melded {cards}",
        "lay_off": f"{who} laid off {cards} on meld {meld_no}",
        "discard": f"{who} discarded {cards}",
        "reshuffle": "The discard pile was shuffled into a new stock",
        "turn_over": "The discard pile was turned over to make a new stock",
        "went_out": f"{who} went out",
    }
    return lines.get(event.kind)


# --- advice and the full log ---------------------------------------------------------------
def advice(action: Action, view: HandView) -> str:
    """A suggested move in words."""
    if isinstance(action, DrawStock):
        return "draw from the stock."
    if isinstance(action, TakeDiscard):
        top = view.discard_top
        return f"take {top.display} from the discard pile." if top else "take the discard."
    if isinstance(action, MeldCards):
        return f"meld {format_cards(action.cards)} (picked for you: press Meld)."
    if isinstance(action, LayOff):
        return (
            f"lay {format_cards(action.cards)} off on meld {action.meld + 1} "
            "(picked for you: press Lay off)."
        )
    if isinstance(action, Discard):
        return f"discard {action.card.display} (picked for you: press Discard)."
    return "play on."


def hand_log_text(table: Table, limit: int = 1900) -> str:
    """Every move of this hand so far (as many of the latest as fit a message)."""
    lines = [line for _, line in table.hand_log]
    shown: list[str] = []
    used = 0
    for line in reversed(lines):
        used += len(line) + 1
        if used > limit:
            break
        shown.append(line)
    shown.reverse()
    heading = f"**Hand {table.hand_number}, every move so far**"
    if len(shown) < len(lines) or len(lines) >= HAND_LOG_LINES:
        heading += " (the earliest left out)"
    return heading + "\n" + "\n".join(shown or ["Nothing yet."])


# --- help -------------------------------------------------------------------------------
def help_text() -> str:
    """How to play with the bot, short enough to read at a glance."""
    return "\n".join(
        [
            "**Rummy, the short version**",
            "`/rummy start` opens a game here: others press **Join**, the host adds computers "
            "if wanted and presses **Start**.",
            "**Show hand** on the table opens your hand (only you see it); play from there.",
            "Your turn: **Draw** (or take the discard), pick cards and **Meld** 3+ of a rank "
            "or a run, pick a card and **Lay off** onto a meld, then pick one and **Discard**.",
            "Get rid of every card to go out; the others' cards score for you.",
            "",
            "`/rummy hand` your hand · `/rummy rules` the rules here · `/rummy leaderboard` · "
            "`/rummy stats` · `/rummy end` stop the game (host or moderators) · "
            "`/rummy settings` server defaults (Manage Server)",
        ]
    )


# --- rules ------------------------------------------------------------------------------
# What each house-rule choice is called in the slash commands (their values
# are the engine's).
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "hints": {"on": "Hints allowed", "off": "No hints"},
    "ace": {"low": "Aces low only", "high_or_low": "Aces high or low"},
    "melds_per_turn": {"unlimited": "As many as you like", "one": "One a turn"},
    "go_out": {"any": "Any way", "discard_only": "Only by discarding"},
    "rummy_bonus": {"double": "Double the points", "none": "No bonus"},
    "empty_stock": {
        "reshuffle": "Shuffle the pile into a new stock",
        "turn_over": "Turn the pile over",
    },
}


def rules_text(rules: HouseRules, *, server_default: bool = False) -> str:
    """Basic Rummy in a few lines, then the house rules in force."""
    heading = "Server defaults" if server_default else "House rules at this table"
    return "\n".join(
        [
            "**Basic Rummy**",
            "Make melds: a *set* is 3 or 4 cards of one rank; a *run* is 3 or more cards of "
            "one suit in order. An ace never sits in the middle of a run (K-A-2 is not a run).",
            "On your turn: draw one card (the top of the stock, or the top of the discard pile), "
            "then put down melds, lay off cards on any meld on the table (yours or another "
            "player's), and discard one card. A card you took from the discard pile cannot go "
            "straight back on it.",
            "Get rid of every card to go out: the hand ends at once and you score what the "
            "others still hold (2-10 face value, J Q K 10, aces as below).",
            "If the hand ends with nobody out, the lowest count in hand wins the difference "
            "to each other player.",
            "A missed turn (when the timer is on) is played for you: a draw and a discard of "
            "your highest loose card. After 3 in a row a computer keeps your seat warm until "
            "you press **Take my seat back** in your hand view.",
            "",
            f"**{heading}**",
            *(f"• {line}" for line in rules.describe()),
        ]
    )


def _chunks(lines: list[str], limit: int) -> list[str]:
    """Join lines into as few texts of at most ``limit`` characters as possible
    (Discord caps an embed field at 1024): a long meld list is split, never cut."""
    chunks: list[str] = []
    for line in lines:
        line = _clip(line, limit)
        if chunks and len(chunks[-1]) + 1 + len(line) <= limit:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return chunks


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def table_stage_title(stage: Stage) -> str:
    return {
        Stage.LOBBY: "lobby",
        Stage.PLAYING: "playing",
        Stage.HAND_OVER: "between hands",
        Stage.FINISHED: "finished",
    }[stage]
