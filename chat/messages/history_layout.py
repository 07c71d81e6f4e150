"""The history of matches as Discord messages: a page of matches, a match's
summary, and a step of a hand's replay, with their controls.

Dates are Discord timestamps (``<t:unix:d>``), which each reader sees in their
own locale and time zone. Everything here only draws: what a click shows is
decided in ``chat.commands.history`` from the database.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import discord

from db import HistoryEntry, HistoryPage, HistorySeat, MatchSummary
from engine import Event, Hand, sort_by_rank
from engine.tape import Turn
from presentation import actions
from presentation.card_emoji import CardFaces
from presentation.i18n import N_, _, n_, number
from presentation.render import describe_meld, event_line, log_text
from tables.names import plain_name, shown_name

from .components import PRIMARY, SECONDARY, Component, Controls, button, option, select

COLOUR = discord.Colour.dark_teal()
PER_PAGE = 10
# Discord's limits on an embed (with room to spare for the footer).
EMBED_TEXT = 5800
FIELD = 1024
OPTION_LABEL = 100
MAX_OPTIONS = 25
# A replay's select lists this many turns at a time (Discord's most options).
TURNS_PER_PAGE = MAX_OPTIONS


def ordinal_place(place: int) -> str:
    """A place in a match ("1st", "2nd"): places run 1 to 6."""
    shown = number(place)
    # Translators: places in a finished match (1st, 2nd, 3rd, 4th-6th); write each as your
    # language writes that place ("{n}." in German), keeping {n}.
    if 10 <= place % 100 <= 20 or place % 10 not in (1, 2, 3):
        return _("{n}th", n=shown)
    if place % 10 == 1:
        # Translators: 1st place; see "{n}th".
        return _("{n}st", n=shown)
    if place % 10 == 2:
        # Translators: 2nd place; see "{n}th".
        return _("{n}nd", n=shown)
    # Translators: 3rd place; see "{n}th".
    return _("{n}rd", n=shown)


def signed(change: float) -> str:
    """A rating change with its sign, to one decimal (−0.0 reads as +0.0)."""
    rounded = round(change, 1)
    return ("+" if rounded >= 0 else "−") + number(abs(rounded), 1)


def seat_text(seat: HistorySeat, *, abandoned: bool) -> str:
    who = shown_name(seat.name) if seat.user_id is None else f"<@{seat.user_id}>"
    total = "–" if seat.total is None else number(seat.total)
    place = "" if abandoned else f"{ordinal_place(seat.place)} "
    change = "" if seat.rating_change is None else f" ({signed(seat.rating_change)})"
    return f"{place}{who} {total}{change}"


def entry_line(entry: HistoryEntry) -> str:
    seats = sorted(entry.seats, key=lambda s: s.place)
    state = _("abandoned") if entry.abandoned else n_("{n} hand", "{n} hands", entry.hands)
    players = " · ".join(seat_text(s, abandoned=entry.abandoned) for s in seats)
    return f"**#{entry.match_id}** <t:{int(entry.ended_at)}:d> · {state}\n{players}"


def history_embed(page: HistoryPage, guild_name: str, member: int | None) -> discord.Embed:
    embed = discord.Embed(title=_("Rummy history — {server}", server=guild_name), colour=COLOUR)
    lines = [entry_line(entry) for entry in page.entries]
    if member is not None:
        lines.insert(0, _("Matches of {member}, newest first:", member=f"<@{member}>"))
    embed.description = _fit("\n\n".join(lines), 4000)
    if page.has_next:
        footer = _("Page {page} · older matches on the next page · places, points, "
                   "(rating change)", page=number(page.page))
    else:
        footer = _("Page {page} · places, points, (rating change)", page=number(page.page))
    embed.set_footer(text=footer)
    return embed


def history_controls(guild_id: int, member: int | None, page: HistoryPage) -> Controls:
    """Open a match (a select of the page's matches), and Previous / Next."""
    who = member or 0
    page_id = actions.HISTORY_PAGE.id
    options = [
        option(_label(f"#{e.match_id} · " + ", ".join(plain_name(s.name) for s in e.seats)),
               str(e.match_id))
        for e in page.entries
    ]
    rows: list[list[dict[str, object]]] = []
    if options:
        rows.append([select(actions.HISTORY_MATCH.id(guild_id), _("Open a match…"), options)])
    rows.append(
        [
            button(
                page_id(guild_id, f"{who}.{page.page - 1}"), _("Previous"), disabled=page.page <= 1
            ),
            button(
                page_id(guild_id, f"{who}.{page.page + 1}"), _("Next"), disabled=not page.has_next
            ),
        ]
    )
    return Controls(*rows)


# --- a match's summary --------------------------------------------------------------------
# Why a hand ended with nobody out (the engine's ``Termination``, as recorded).
ENDINGS = {
    "stock_exhausted": N_("the stock ran out"),
    "turn_limit": N_("the turn limit was reached"),
}


def hand_line(index: int, summary: MatchSummary, names: Mapping[str, str]) -> str:
    record = summary.record
    hand = record.hands[index - 1]
    if hand.went_out is None:
        ending = ENDINGS.get(hand.reason)
        how = _("nobody went out ({why})", why=hand.reason if ending is None else _(ending))
    elif hand.rummy:
        how = _("{who} went out with rummy!", who=names.get(hand.went_out, "?"))
    else:
        how = _("{who} went out", who=names.get(hand.went_out, "?"))
    scores = ", ".join(
        f"{names.get(key, key)} {number(points)}" for key, points in hand.scores.items() if points
    )
    nobody = _("no points")
    return f"**{number(index)}.** {how} · {scores or nobody}"


def summary_embed(summary: MatchSummary, chart_name: str | None) -> discord.Embed:
    record, entry = summary.record, summary.entry
    names = {seat.player_key: shown_name(seat.name) for seat in record.seats}
    if entry.abandoned:
        state = _("abandoned (not rated)")
    else:
        state = n_("{n} hand", "{n} hands", entry.hands)
    ended = _(
        "Ended {when} in {channel} · {state}",
        when=f"<t:{int(entry.ended_at)}:f>",
        channel=f"<#{entry.channel_id}>",
        state=state,
    )
    embed = discord.Embed(
        title=_("Rummy match #{match}", match=summary.match_id),
        description=(
            ended + "\n\n"
            + "\n".join(
                seat_text(s, abandoned=entry.abandoned)
                for s in sorted(entry.seats, key=lambda s: s.place)
            )
        ),
        colour=COLOUR,
    )
    lines = [hand_line(n, summary, names) for n in range(1, len(record.hands) + 1)]
    for index, chunk in enumerate(_chunks(lines, FIELD)[:5]):
        embed.add_field(name=_("Hands") if index == 0 else "\u200b", value=chunk, inline=False)
    rummies = sum(h.rummy for h in record.hands)
    if rummies:
        embed.add_field(name=_("Rummies"), value=number(rummies))
    if chart_name is not None:
        embed.set_image(url=f"attachment://{chart_name}")
    replayable = sum(h.moves is not None for h in record.hands)
    if record.hands and not replayable:
        embed.set_footer(
            text=_("The moves of these hands were not kept: they cannot be replayed.")
        )
    return embed


def summary_controls(guild_id: int, summary: MatchSummary) -> Controls | None:
    """A select of the hands that can be replayed (the latest 25)."""
    hands = [h for h in summary.record.hands if h.moves is not None][-MAX_OPTIONS:]
    if not hands:
        return None
    options = [option(_("Hand {number}", number=number(h.number)), str(h.number)) for h in hands]
    replay = _("Replay a hand…")
    return Controls([select(actions.REPLAY_HAND.id(guild_id, summary.match_id), replay, options)])


# --- a step of a replay --------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayAt:
    """Where a replay stands: a hand of a match of a server, the step shown of its
    ``steps`` (step n: after the hand's first n moves), and where each of its turns
    began (``HandTape.turns``)."""

    guild_id: int
    match_id: int
    hand_number: int
    step: int
    steps: int
    turns: Sequence[Turn] = ()

    @property
    def turn(self) -> int:
        """The turn under way at this step, from 1 (0 only for a hand without moves)."""
        return bisect_right([t.step for t in self.turns], self.step)

    def turn_before(self) -> int | None:
        """The latest turn begun before this step: the current one once past its
        start, else the one before; None at the deal."""
        return bisect_left([t.step for t in self.turns], self.step) or None

    def turn_after(self) -> int | None:
        """The first turn to begin after this step, or None in the last turn."""
        begun = bisect_right([t.step for t in self.turns], self.step)
        return begun + 1 if begun < len(self.turns) else None


def replay_embed(
    at: ReplayAt,
    hand: Hand,
    events: Sequence[Event],
    names: Mapping[str, str],
    faces: CardFaces,
) -> discord.Embed:
    """The hand at one step, every hand shown (the hand is over, nothing is private)."""
    embed = _replay_embed(at, hand, events, names, faces)
    if len(embed) > EMBED_TEXT:  # card emojis are long: fall back to text cards
        embed = _replay_embed(at, hand, events, names, CardFaces())
    return embed


def _replay_embed(
    at: ReplayAt,
    hand: Hand,
    events: Sequence[Event],
    names: Mapping[str, str],
    faces: CardFaces,
) -> discord.Embed:
    done = [log_text(line) for line in (event_line(e, names) for e in events) if line]
    if at.step == 0:
        move = _("The deal: {who} plays first.", who=names.get(hand.turn or "", "?"))
    else:
        move = "; ".join(done) or "—"
    where = ""
    if at.turn:
        whose = at.turns[at.turn - 1].player
        where = _("**Turn {turn} of {turns}** · {player}", turn=number(at.turn),
                  turns=number(len(at.turns)), player=shown_name(names.get(whose, whose)))
        where += "\n"
    embed = discord.Embed(
        title=_(
            "Replay · match #{match}, hand {number}",
            match=at.match_id,
            number=number(at.hand_number),
        ),
        description=where + _("**Move {step} of {steps}:** {move}", step=number(at.step),
                              steps=number(at.steps), move=move),
        colour=COLOUR,
    )
    for player in hand.players:
        cards = sort_by_rank(hand.hand_of(player))
        marker = "▶ " if hand.turn == player and not hand.is_over else ""
        count = n_("{n} card", "{n} cards", len(cards))
        embed.add_field(
            name=_fit(f"{marker}{names.get(player, player)} · {count}", 256),
            value=_fit(faces.row(cards) or _("no cards"), FIELD),
            inline=False,
        )
    top = hand.discard_top
    embed.add_field(
        name=_("Discard top"), value=faces.inline(top) if top is not None else _("empty")
    )
    embed.add_field(name=_("Stock"), value=n_("{n} card", "{n} cards", hand.stock_size))
    if hand.melds:
        melds = [f"{i}. {describe_meld(m, names, faces)}" for i, m in enumerate(hand.melds, 1)]
        embed.add_field(name=_("Melds"), value=_fit("\n".join(melds), FIELD), inline=False)
    outcome = hand.outcome
    if outcome is not None:
        scores = ", ".join(f"{names.get(p, p)} {number(outcome.scores[p])}" for p in hand.players)
        embed.set_footer(text=_("Hand over · {scores}", scores=scores))
    return embed


def replay_controls(at: ReplayAt, names: Mapping[str, str]) -> Controls:
    """A row for each way of moving, for a phone's width: by move ⏮ ◀ ▶ ⏭ (the
    main row); by turn ⏪ and ⏩, each naming the turn it goes to; a select of the
    turns, 25 at a time, and for a longer hand a select of those pages; and, alone
    at the bottom, the export, which is no move. Five rows at most, Discord's limit."""
    rows = [_move_row(at)]
    if len(at.turns) > 1:
        rows += [_turn_row(at), [_turn_select(at, names)]]
        if len(at.turns) > TURNS_PER_PAGE:
            rows.append([_page_select(at)])
    export = actions.REPLAY_EXPORT.id(at.guild_id, f"{at.match_id}.{at.hand_number}")
    rows.append([button(export, _("Export JSON"))])
    return Controls(*rows)


def _step_id(at: ReplayAt, target: int, which: str) -> str:
    """A step button's id: the step it shows, and which button it is, so that two
    buttons going to the same step never share an id."""
    target = max(0, min(target, at.steps))
    return actions.REPLAY_STEP.id(
        at.guild_id, f"{at.match_id}.{at.hand_number}.{target}.{which}"
    )


def _move_row(at: ReplayAt) -> list[Component]:
    step, steps = at.step, at.steps
    return [
        button(_step_id(at, 0, "f"), "⏮", SECONDARY, disabled=step <= 0),
        button(_step_id(at, step - 1, "p"), "◀", PRIMARY, disabled=step <= 0),
        button(_step_id(at, step + 1, "n"), "▶", PRIMARY, disabled=step >= steps),
        button(_step_id(at, steps, "l"), "⏭", SECONDARY, disabled=step >= steps),
    ]


def _turn_row(at: ReplayAt) -> list[Component]:
    before, after = at.turn_before(), at.turn_after()
    if before is None:
        back = button(_step_id(at, 0, "tp"), "⏪", disabled=True)
    else:
        back = button(_step_id(at, at.turns[before - 1].step, "tp"), f"⏪ {_turn(before)}")
    if after is None:
        on = button(_step_id(at, at.steps, "tn"), "⏩", disabled=True)
    else:
        on = button(_step_id(at, at.turns[after - 1].step, "tn"), f"{_turn(after)} ⏩")
    return [back, on]


def _turn(turn: int) -> str:
    # Translators: on the replay's buttons beside ⏪ and ⏩, two to a row on a phone:
    # keep it short.
    return _("Turn {number}", number=number(turn))


def _page_of(at: ReplayAt) -> int:
    """The page of turns (from 0) the select shows: the current turn's."""
    return (max(at.turn, 1) - 1) // TURNS_PER_PAGE


def _turn_select(at: ReplayAt, names: Mapping[str, str]) -> Component:
    first = _page_of(at) * TURNS_PER_PAGE
    options = [
        option(
            _label(
                _(
                    "Turn {number} · {player}",
                    number=number(turn),
                    player=plain_name(names.get(begun.player, begun.player)),
                )
            ),
            str(turn),
        )
        for turn, begun in enumerate(at.turns[first : first + TURNS_PER_PAGE], first + 1)
    ]
    jump = actions.REPLAY_TURN.id(at.guild_id, f"{at.match_id}.{at.hand_number}")
    return select(jump, _("Jump to a turn…"), options)


def _page_select(at: ReplayAt) -> Component:
    """The pages of turns, the current one chosen; picking one goes to its first turn."""
    turns = len(at.turns)
    pages = -(-turns // TURNS_PER_PAGE)
    current = _page_of(at)
    options = []
    for page in _window(pages, current, MAX_OPTIONS):
        first = page * TURNS_PER_PAGE + 1
        last = min(turns, first + TURNS_PER_PAGE - 1)
        label = (
            # Translators: a page of a hand's turns in the replay's select, e.g. "Turns 26–50".
            _("Turns {first}–{last}", first=number(first), last=number(last))
            if last > first
            else _turn(first)
        )
        options.append(option(label, str(first), default=page == current))
    pages_id = actions.REPLAY_TURN.id(at.guild_id, f"{at.match_id}.{at.hand_number}.p")
    # The current page is always chosen, so this placeholder is seldom seen.
    return select(pages_id, _("Jump to a turn…"), options)


def _window(count: int, current: int, size: int) -> range:
    """At most ``size`` of ``count`` items, ``current`` among them, near the middle."""
    start = max(0, min(current - size // 2, count - size))
    return range(start, min(count, start + size))


def _label(text: str) -> str:
    return text if len(text) <= OPTION_LABEL else f"{text[: OPTION_LABEL - 1]}…"


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def _chunks(lines: list[str], limit: int) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = _fit(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks
