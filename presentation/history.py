"""The history of matches as Discord messages: a page of matches, a match's
summary, and a step of a hand's replay, with their controls.

Dates are Discord timestamps (``<t:unix:d>``), which each reader sees in their
own locale and time zone. Everything here only draws: what a click shows is
decided in ``flows.history`` from the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from db import HistoryEntry, HistoryPage, HistorySeat, MatchSummary
from engine import Event, Hand, sort_by_rank

from . import actions
from .card_emoji import CardFaces
from .components import PRIMARY, SECONDARY, Controls, button, option, select
from .render import describe_meld, event_line
from .words import plural

COLOUR = discord.Colour.dark_teal()
PER_PAGE = 10
# Discord's limits on an embed (with room to spare for the footer).
EMBED_TEXT = 5800
FIELD = 1024
OPTION_LABEL = 100
MAX_OPTIONS = 25


def ordinal_place(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def signed(change: float) -> str:
    """A rating change with its sign, to one decimal (−0.0 reads as +0.0)."""
    rounded = round(change, 1)
    return f"+{abs(rounded):.1f}" if rounded >= 0 else f"−{abs(rounded):.1f}"


def seat_text(seat: HistorySeat, *, abandoned: bool) -> str:
    who = seat.name if seat.user_id is None else f"<@{seat.user_id}>"
    total = "–" if seat.total is None else str(seat.total)
    place = "" if abandoned else f"{ordinal_place(seat.place)} "
    change = "" if seat.rating_change is None else f" ({signed(seat.rating_change)})"
    return f"{place}{who} {total}{change}"


def entry_line(entry: HistoryEntry) -> str:
    seats = sorted(entry.seats, key=lambda s: s.place)
    state = "abandoned" if entry.abandoned else plural(entry.hands, "hand")
    players = " · ".join(seat_text(s, abandoned=entry.abandoned) for s in seats)
    return f"**#{entry.match_id}** <t:{int(entry.ended_at)}:d> · {state}\n{players}"


def history_embed(page: HistoryPage, guild_name: str, member: int | None) -> discord.Embed:
    embed = discord.Embed(title=f"Rummy history — {guild_name}", colour=COLOUR)
    lines = [entry_line(entry) for entry in page.entries]
    if member is not None:
        lines.insert(0, f"Matches of <@{member}>, newest first:")
    embed.description = _fit("\n\n".join(lines), 4000)
    more = " · older matches on the next page" if page.has_next else ""
    embed.set_footer(text=f"Page {page.page}{more} · places, points, (rating change)")
    return embed


def history_controls(guild_id: int, member: int | None, page: HistoryPage) -> Controls:
    """Open a match (a select of the page's matches), and Previous / Next."""
    who = member or 0
    page_id = actions.HISTORY_PAGE.id
    options = [
        option(_label(f"#{e.match_id} · " + ", ".join(s.name for s in e.seats)), str(e.match_id))
        for e in page.entries
    ]
    rows: list[list[dict[str, object]]] = []
    if options:
        rows.append([select(actions.HISTORY_MATCH.id(guild_id), "Open a match…", options)])
    rows.append(
        [
            button(
                page_id(guild_id, f"{who}.{page.page - 1}"), "Previous", disabled=page.page <= 1
            ),
            button(page_id(guild_id, f"{who}.{page.page + 1}"), "Next", disabled=not page.has_next),
        ]
    )
    return Controls(*rows)


# --- a match's summary --------------------------------------------------------------------
def hand_line(number: int, summary: MatchSummary, names: Mapping[str, str]) -> str:
    record = summary.record
    hand = record.hands[number - 1]
    if hand.went_out is None:
        how = f"nobody went out ({hand.reason})"
    else:
        how = f"{names.get(hand.went_out, '?')} went out" + (" with rummy!" if hand.rummy else "")
    scores = ", ".join(
        f"{names.get(key, key)} {points}" for key, points in hand.scores.items() if points
    )
    return f"**{number}.** {how} · {scores or 'no points'}"


def summary_embed(summary: MatchSummary, chart_name: str | None) -> discord.Embed:
    record, entry = summary.record, summary.entry
    names = {seat.player_key: seat.name for seat in record.seats}
    state = "abandoned (not rated)" if entry.abandoned else plural(entry.hands, "hand")
    embed = discord.Embed(
        title=f"Rummy match #{summary.match_id}",
        description=(
            f"Ended <t:{int(entry.ended_at)}:f> in <#{entry.channel_id}> · {state}\n\n"
            + "\n".join(
                seat_text(s, abandoned=entry.abandoned)
                for s in sorted(entry.seats, key=lambda s: s.place)
            )
        ),
        colour=COLOUR,
    )
    lines = [hand_line(n, summary, names) for n in range(1, len(record.hands) + 1)]
    for index, chunk in enumerate(_chunks(lines, FIELD)[:5]):
        embed.add_field(name="Hands" if index == 0 else "\u200b", value=chunk, inline=False)
    rummies = sum(h.rummy for h in record.hands)
    if rummies:
        embed.add_field(name="Rummies", value=str(rummies))
    if chart_name is not None:
        embed.set_image(url=f"attachment://{chart_name}")
    replayable = sum(h.moves is not None for h in record.hands)
    if record.hands and not replayable:
        embed.set_footer(text="The moves of these hands were not kept: they cannot be replayed.")
    return embed


def summary_controls(guild_id: int, summary: MatchSummary) -> Controls | None:
    """A select of the hands that can be replayed (the latest 25)."""
    hands = [h for h in summary.record.hands if h.moves is not None][-MAX_OPTIONS:]
    if not hands:
        return None
    options = [option(f"Hand {h.number}", str(h.number)) for h in hands]
    return Controls(
        [select(actions.REPLAY_HAND.id(guild_id, summary.match_id), "Replay a hand…", options)]
    )


# --- a step of a replay --------------------------------------------------------------------
def replay_embed(
    match_id: int,
    number: int,
    step: int,
    steps: int,
    hand: Hand,
    events: Sequence[Event],
    names: Mapping[str, str],
    faces: CardFaces,
) -> discord.Embed:
    """The hand at one step, every hand shown (the hand is over, nothing is private)."""
    embed = _replay_embed(match_id, number, step, steps, hand, events, names, faces)
    if len(embed) > EMBED_TEXT:  # card emojis are long: fall back to text cards
        embed = _replay_embed(match_id, number, step, steps, hand, events, names, CardFaces())
    return embed


def _replay_embed(
    match_id: int,
    number: int,
    step: int,
    steps: int,
    hand: Hand,
    events: Sequence[Event],
    names: Mapping[str, str],
    faces: CardFaces,
) -> discord.Embed:
    done = [line for line in (event_line(e, names) for e in events) if line]
    if step == 0:
        move = f"The deal: {names.get(hand.turn or '', '?')} plays first."
    else:
        move = "; ".join(done) or "—"
    embed = discord.Embed(
        title=f"Replay · match #{match_id}, hand {number}",
        description=f"**Move {step} of {steps}:** {move}",
        colour=COLOUR,
    )
    for player in hand.players:
        cards = sort_by_rank(hand.hand_of(player))
        marker = "▶ " if hand.turn == player and not hand.is_over else ""
        embed.add_field(
            name=_fit(f"{marker}{names.get(player, player)} · {plural(len(cards), 'card')}", 256),
            value=_fit(faces.row(cards) or "no cards", FIELD),
            inline=False,
        )
    top = hand.discard_top
    embed.add_field(name="Discard top", value=faces.inline(top) if top is not None else "empty")
    embed.add_field(name="Stock", value=plural(hand.stock_size, "card"))
    if hand.melds:
        melds = [f"{i}. {describe_meld(m, names, faces)}" for i, m in enumerate(hand.melds, 1)]
        embed.add_field(name="Melds", value=_fit("\n".join(melds), FIELD), inline=False)
    outcome = hand.outcome
    if outcome is not None:
        scores = ", ".join(f"{names.get(p, p)} {outcome.scores[p]}" for p in hand.players)
        embed.set_footer(text=f"Hand over · {scores}")
    return embed


def replay_controls(guild_id: int, match_id: int, number: int, step: int, steps: int) -> Controls:
    """⏮ ◀ ▶ ⏭, and the export. Each id says the step it shows, and which button
    it is, so the four never share an id."""
    step_id = actions.REPLAY_STEP.id

    def to(target: int, which: str) -> str:
        return step_id(guild_id, f"{match_id}.{number}.{max(0, min(target, steps))}.{which}")

    return Controls(
        [
            button(to(0, "f"), "⏮", SECONDARY, disabled=step <= 0),
            button(to(step - 1, "p"), "◀", PRIMARY, disabled=step <= 0),
            button(to(step + 1, "n"), "▶", PRIMARY, disabled=step >= steps),
            button(to(steps, "l"), "⏭", SECONDARY, disabled=step >= steps),
            button(actions.REPLAY_EXPORT.id(guild_id, f"{match_id}.{number}"), "Export JSON"),
        ]
    )


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
