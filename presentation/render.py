"""Pure rendering: the game's pieces in words (house rules, melds, the action
log, advice, help, DMs), shared by the table and hand messages.

Nothing here talks to Discord; every function takes plain state and returns
strings, so the look of the game is tested without a connection.
"""

from __future__ import annotations

import functools
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
    sort_by_rank,
)
from tables import LogLine, Seat, Table
from tables.table import HAND_LOG_LINES

from .card_emoji import CardFaces
from .house_rules import house_rule_lines
from .i18n import (
    N_,
    Language,
    _,
    card_text,
    cards_text,
    current,
    label_on,
    n_,
    number,
    speaking,
)
from .labels import JOIN_LABEL, SHOW_HAND_LABEL

TEXT_CARDS = CardFaces()

# A computer's level, as its seat shows it.
LEVELS = {"easy": N_("easy"), "hard": N_("hard")}


def seat_label(seat: Seat) -> str:
    if seat.user_id is None:
        level = seat.level or "easy"
        name = seat.shown_name
        return "🤖 " + _("{name} ({level})", name=name, level=_(LEVELS.get(level, level)))
    if seat.autopilot:
        return _("{name} (🤖 autopilot)", name=seat.shown_name)
    return seat.shown_name


# --- house rules ---------------------------------------------------------------
def rule_setting(name: str, value: object) -> str:
    """One house rule's setting in a few words ("Aces high or low", "5 hands")."""
    if name in CHOICE_LABELS:
        label = CHOICE_LABELS[name].get(str(value))
        return str(value) if label is None else _(label)
    if name == "target" and isinstance(value, int):
        return n_("First to {n} point", "First to {n} points", value)
    if name == "hands" and isinstance(value, int):
        return n_("{n} hand", "{n} hands", value)
    if name == "turn_timeout":
        if not value:
            return _("No turn timer")
        if isinstance(value, int):
            return n_("{n} second a turn", "{n} seconds a turn", value)
    return f"{name}: {value}"


# Words for the rules whose own name says little next to its setting.
RULE_TOPICS = {
    "melds_per_turn": N_("Melds a turn"),
    "go_out": N_("Going out"),
    "rummy_bonus": N_("Going rummy"),
    "empty_stock": N_("Empty stock"),
}


def changed_rules(rules: HouseRules, base: HouseRules | None) -> list[str]:
    """The rules of ``rules`` that differ from ``base``, each in a few words;
    with no ``base``, every rule the game is played by (a match of so many
    hands has no target)."""
    shown = []
    for option in RULE_OPTIONS:
        value = getattr(rules, option.name)
        if value is None or (base is not None and value == getattr(base, option.name)):
            continue
        if base is None and option.name == "target" and rules.hands is not None:
            continue
        setting = rule_setting(option.name, getattr(value, "value", value))
        topic = RULE_TOPICS.get(option.name)
        shown.append(_("{topic}: {setting}", topic=_(topic), setting=setting) if topic else setting)
    return shown


def rules_summary(rules: HouseRules) -> str:
    """The lobby's rules: only what differs from the standard game, the rest one
    click away (Rules)."""
    changed = changed_rules(rules, HouseRules())
    if not changed:
        return _("The standard game: first to 100 points, 2 minutes a turn. **Rules** tells all.")
    return "\n".join([*(f"• {line}" for line in changed),
                      _("Everything else as standard: **Rules**.")])


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
        f"{names.get(owner, owner)}: {cards_text(owned)}" for owner, owned in by_owner.items()
    )
    return f"{cards} — {credit}"


def piles_text(top: str | None, pile: int, back: str, stock: int) -> str:
    """The discard pile (its top card) and the stock, for the table and the hands."""
    stock_size = n_("{n} card", "{n} cards", stock)
    if top is None:
        return _("**Discard** empty  ·  **Stock** {back} {stock}", back=back, stock=stock_size)
    return _(
        "**Discard** {top} ({pile})  ·  **Stock** {back} {stock}",
        top=top,
        pile=n_("{n} card", "{n} cards", pile),
        back=back,
        stock=stock_size,
    )



# --- DMs -------------------------------------------------------------------------
# Drawn in the language of the seat they go to (``chat.dms``).
def dealt_dm(
    table: Table, key: str, channel_mention: str, faces: CardFaces = TEXT_CARDS
) -> str:
    match = table.match
    assert match is not None
    cards = sort_by_rank(match.hand.hand_of(key))
    # Who else is at the table tells one match's deal from another's.
    others = ", ".join(seat.shown_name for seat in table.seats if seat.key != key)
    return _(
        "Hand {number} in {channel} is dealt, with {others}. Your cards: {cards}",
        number=number(match.hand_number),
        channel=channel_mention,
        others=others,
        cards=faces.row(cards),
    )


def turn_dm(
    table: Table, key: str, jump_url: str, *, hand_open: bool, faces: CardFaces = TEXT_CARDS
) -> str:
    """``hand_open``: the player has a hand message the door keeps up to date,
    and so is sent to play from it."""
    match = table.match
    assert match is not None
    cards = sort_by_rank(match.hand.hand_of(key))
    top = match.hand.discard_top
    top_text = faces.inline(top) if top is not None else _("empty")
    return "\n".join(
        [
            _("Your turn at Rummy: {link}", link=jump_url),
            _("Your cards: {cards}", cards=faces.row(cards)),
            _("Discard top: {card}. Your hand message there shows it: play from it.",
              card=top_text)
            if hand_open
            else _("Discard top: {card}. Press **{show_hand}** on the table to play.",
                   card=top_text, show_hand=label_on(SHOW_HAND_LABEL, table.language)),
        ]
    )


def winners_text(table: Table) -> str:
    """Who won the match, for both doors."""
    match = table.match
    assert match is not None and match.outcome is not None
    names = [table.name_of(key) for key in match.outcome.winners]
    if len(names) == 1:
        return "🏆 " + _("**{who}** wins the match.", who=names[0])
    return "🏆 " + _("Shared win: {who}.", who=", ".join(f"**{n}**" for n in names))


# --- the action log ------------------------------------------------------------------
EVENT_LINES = {
    "draw_stock": N_("{who} drew from the stock"),
    "take_discard": N_("{who} took {cards} from the discard pile"),
    "meld": N_("{who} melded {cards}"),
    "lay_off": N_("{who} laid off {cards} on meld {meld}"),
    "discard": N_("{who} discarded {cards}"),
    "reshuffle": N_("The discard pile was shuffled into a new stock"),
    "turn_over": N_("The discard pile was turned over to make a new stock"),
    "went_out": N_("{who} went out"),
}


def event_line(event: Event, names: Mapping[str, str]) -> LogLine | None:
    """One line of the table's log for ``event``, or None for events not worth a
    line: kept as a message, drawn in each reader's language by ``log_text``."""
    line = EVENT_LINES.get(event.kind)
    if line is None:
        return None
    # Only what the message uses: every line is in every save of the table.
    params: dict[str, str | int] = {}
    if "{who}" in line:
        params["who"] = names.get(event.player or "", event.player or "")
    if "{cards}" in line:
        params["cards"] = " ".join(card.code for card in event.cards)
    if "{meld}" in line:
        params["meld"] = 0 if event.meld is None else event.meld + 1
    return LogLine(line, tuple(sorted(params.items())))


# Parameters of a log line that hold card codes, written as the reader's cards.
CARD_PARAMS = frozenset({"card", "cards"})


def log_text(line: LogLine) -> str:
    """A line of the table's log in the current language."""
    return _log_text(current(), line)


@functools.lru_cache(maxsize=16384)
def _log_text(language: Language, line: LogLine) -> str:
    # The same lines are drawn again at each edit of the table and of every hand
    # message: each is worked out once per language.
    with speaking(language.code):
        if line.plural:
            counted = dict(line.params)
            count = int(counted.pop("n", 0))
            return n_(line.message, line.plural, count, **counted)
        if not line.params:
            return _(line.message)
        shown: dict[str, object] = {}
        for name, value in line.params:
            if name in CARD_PARAMS:
                shown[name] = cards_text(Card.parse(code) for code in str(value).split())
            elif isinstance(value, int):
                shown[name] = number(value)
            else:
                shown[name] = value
        return _(line.message, **shown)


# --- advice and the full log ---------------------------------------------------------------
def advice(action: Action, view: HandView) -> str:
    """A suggested move in words."""
    if isinstance(action, DrawStock):
        return _("draw from the stock.")
    if isinstance(action, TakeDiscard):
        top = view.discard_top
        if top is None:
            return _("take the discard.")
        return _("take {card} from the discard pile.", card=card_text(top))
    if isinstance(action, MeldCards):
        return _("meld {cards} (picked for you: press Meld).", cards=cards_text(action.cards))
    if isinstance(action, LayOff):
        return _(
            "lay {cards} off on meld {meld} (picked for you: press Lay off).",
            cards=cards_text(action.cards),
            meld=number(action.meld + 1),
        )
    if isinstance(action, Discard):
        return _("discard {card} (picked for you: press Discard).", card=card_text(action.card))
    return _("play on.")


def hand_log_text(table: Table, limit: int = 1900) -> str:
    """Every move of this hand so far (as many of the latest as fit a message)."""
    lines = [log_text(line) for _by, line in table.hand_log]
    shown: list[str] = []
    used = 0
    for line in reversed(lines):
        used += len(line) + 1
        if used > limit:
            break
        shown.append(line)
    shown.reverse()
    hand = number(table.hand_number)
    if len(shown) < len(lines) or len(lines) >= HAND_LOG_LINES:
        heading = _("**Hand {number}, every move so far** (the earliest left out)", number=hand)
    else:
        heading = _("**Hand {number}, every move so far**", number=hand)
    return heading + "\n" + "\n".join(shown or [_("Nothing yet.")])


# --- help -------------------------------------------------------------------------------
def help_text(public: str | None) -> str:
    """How to play with the bot, short enough to read at a glance; ``public``: the
    language of the server's tables, whose buttons it names as they show them."""
    join, show_hand = label_on(JOIN_LABEL, public), label_on(SHOW_HAND_LABEL, public)
    return "\n".join(
        [
            _("**Rummy, the short version**"),
            _(
                "`/rummy start` opens a game here: others press **{join}**, the host adds "
                "computers if wanted and presses **Start**.",
                join=join,
            ),
            _("**{show_hand}** on the table opens your hand (only you see it); play from there.",
              show_hand=show_hand),
            _(
                "Your turn: **Draw** (or take the discard), pick cards and **Meld** 3+ of a rank "
                "or a run, pick a card and **Lay off** onto a meld, then pick one and "
                "**Discard**."
            ),
            _("Get rid of every card to go out; the others' cards score for you."),
            "",
            # Translators: the slash commands keep their English names.
            _(
                "`/rummy hand` your hand · `/rummy rules` the rules here · `/rummy leaderboard` · "
                "`/rummy stats` · `/rummy end` stop the game (host or moderators) · "
                "`/rummy settings` server defaults (Manage Server)"
            ),
            # Translators: the slash commands keep their English names.
            _(
                "`/rummy history` past matches · `/rummy replay` a finished hand, move by move · "
                "`/rummy language` the language I speak to you · `/rummy season end` "
                "(Manage Server)"
            ),
        ]
    )


# --- rules ------------------------------------------------------------------------------
# What each house-rule choice is called in the slash commands (their values
# are the engine's). English here: the slash commands' choices are named in
# English (``cogs.rummy``); every other use translates them (``rule_setting``).
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "hints": {"on": N_("Hints allowed"), "off": N_("No hints")},
    "ace": {"low": N_("Aces low only"), "high_or_low": N_("Aces high or low")},
    "melds_per_turn": {"unlimited": N_("As many as you like"), "one": N_("One a turn")},
    "go_out": {"any": N_("Any way"), "discard_only": N_("Only by discarding")},
    "rummy_bonus": {"double": N_("Double the points"), "none": N_("No bonus")},
    "empty_stock": {
        "reshuffle": N_("Shuffle the pile into a new stock"),
        "turn_over": N_("Turn the pile over"),
    },
}


def rules_text(rules: HouseRules, *, server_default: bool = False) -> str:
    """Basic Rummy in a few lines, then the house rules in force."""
    heading = _("**Server defaults**") if server_default else _("**House rules at this table**")
    return "\n".join(
        [
            _("**Basic Rummy**"),
            _(
                "Make melds: a *set* is 3 or 4 cards of one rank; a *run* is 3 or more cards of "
                "one suit in order. An ace never sits in the middle of a run (K-A-2 is not a "
                "run)."
            ),
            _(
                "On your turn: draw one card (the top of the stock, or the top of the discard "
                "pile), then put down melds, lay off cards on any meld on the table (yours or "
                "another player's), and discard one card. A card you took from the discard pile "
                "cannot go straight back on it."
            ),
            _(
                "Get rid of every card to go out: the hand ends at once and you score what the "
                "others still hold (2-10 face value, J Q K 10, aces as below)."
            ),
            _(
                "If the hand ends with nobody out, the lowest count in hand wins the difference "
                "to each other player."
            ),
            _(
                "A missed turn (when the timer is on) is played for you: a draw and a discard of "
                "your highest loose card. After 3 in a row a computer keeps your seat warm until "
                "you press **Take my seat back** in your hand view."
            ),
            "",
            heading,
            *(f"• {line}" for line in house_rule_lines(rules)),
        ]
    )
