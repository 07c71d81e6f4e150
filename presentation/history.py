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
from tables.names import plain_name, shown_name

from . import actions
from .card_emoji import CardFaces
from .components import PRIMARY, SECONDARY, Controls, button, option, select
from .i18n import N_, _, n_, number
from .render import describe_meld, event_line, log_text

COLOUR = discord.Colour.dark_teal()
PER_PAGE = 10
# Discord's limits on an embed (with room to spare for the footer).
EMBED_TEXT = 5800
FIELD = 1024
OPTION_LABEL = 100
MAX_OPTIONS = 25


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
def replay_embed(
    match_id: int,
    hand_number: int,
    step: int,
    steps: int,
    hand: Hand,
    events: Sequence[Event],
    names: Mapping[str, str],
    faces: CardFaces,
) -> discord.Embed:
    """The hand at one step, every hand shown (the hand is over, nothing is private)."""
    embed = _replay_embed(match_id, hand_number, step, steps, hand, events, names, faces)
    if len(embed) > EMBED_TEXT:  # card emojis are long: fall back to text cards
        embed = _replay_embed(match_id, hand_number, step, steps, hand, events, names, CardFaces())
    return embed


def _replay_embed(
    match_id: int,
    hand_number: int,
    step: int,
    steps: int,
    hand: Hand,
    events: Sequence[Event],
    names: Mapping[str, str],
    faces: CardFaces,
) -> discord.Embed:
    done = [log_text(line) for line in (event_line(e, names) for e in events) if line]
    if step == 0:
        move = _("The deal: {who} plays first.", who=names.get(hand.turn or "", "?"))
    else:
        move = "; ".join(done) or "—"
    embed = discord.Embed(
        title=_(
            "Replay · match #{match}, hand {number}", match=match_id, number=number(hand_number)
        ),
        description=_("**Move {step} of {steps}:** {move}", step=number(step),
                      steps=number(steps), move=move),
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


def replay_controls(
    guild_id: int, match_id: int, hand_number: int, step: int, steps: int
) -> Controls:
    """⏮ ◀ ▶ ⏭, and the export. Each id says the step it shows, and which button
    it is, so the four never share an id."""
    step_id = actions.REPLAY_STEP.id

    def to(target: int, which: str) -> str:
        return step_id(guild_id, f"{match_id}.{hand_number}.{max(0, min(target, steps))}.{which}")

    return Controls(
        [
            button(to(0, "f"), "⏮", SECONDARY, disabled=step <= 0),
            button(to(step - 1, "p"), "◀", PRIMARY, disabled=step <= 0),
            button(to(step + 1, "n"), "▶", PRIMARY, disabled=step >= steps),
            button(to(steps, "l"), "⏭", SECONDARY, disabled=step >= steps),
            button(
                actions.REPLAY_EXPORT.id(guild_id, f"{match_id}.{hand_number}"), _("Export JSON")
            ),
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
