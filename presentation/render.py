"""Pure rendering: the game's pieces in words (house rules, melds, the action
log, advice, help, DMs), shared by the table and hand messages.

Nothing here talks to Discord; every function takes plain state and returns
strings, so the look of the game is tested without a connection.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import (
    RULE_OPTIONS,
    Action,
    Card,
    Discard,
    DrawStock,
    Event,
    HandView,
    HouseRules,
    LayOff,
    MeldCards,
    TableMeld,
    TakeDiscard,
    format_cards,
    sort_by_rank,
)
from tables import Seat, Table
from tables.table import HAND_LOG_LINES

from .card_emoji import CardFaces

TEXT_CARDS = CardFaces()



def seat_label(seat: Seat) -> str:
    if seat.user_id is None:
        return f"🤖 {seat.name} ({seat.level or 'easy'})"
    if seat.autopilot:
        return f"{seat.name} (🤖 autopilot)"
    return seat.name


# --- house rules ---------------------------------------------------------------
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
