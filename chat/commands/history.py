"""`/rummy history` and `/rummy replay`: the server's recorded matches, a
match's summary with its score chart, a finished hand stepped through move by
move or turn by turn, and its export for ``python -m engine.replay``.

Everything here only reads: the answers are ephemeral (only the member who
asked sees them, and paging or stepping edits that one message in place),
and a request that cannot be met is answered with why, changing nothing. The
controls' ids say which match, hand and step; the server always comes from
the click itself, so an id can never show another server's match.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import discord

from chat.messages.history_layout import (
    PER_PAGE,
    ReplayAt,
    history_controls,
    history_embed,
    replay_controls,
    replay_embed,
    summary_controls,
    summary_embed,
)
from chat.places import board_here, board_name, board_of
from chat.router import Handlers, refuse
from db import Database, HandRecord, MatchRecord, MatchSummary
from engine import HouseRules, RummyError
from engine.tape import HandTape
from presentation import actions
from presentation.actions import ComponentId
from presentation.card_emoji import CardFaces
from presentation.i18n import N_, _, n_
from presentation.score_chart import FILENAME, Series, draw, running_totals
from tables import Stage, TableRegistry
from tables.names import shown_name
from transport import callbacks
from transport.private import Interaction

IN_PROGRESS = N_(
    "The match in this channel is still being played: its hands are private until they "
    "end, so it can be replayed once the match is over (then it is in `/rummy history`)."
)
NO_SUCH_MATCH = N_("There is no match #{id} in this server.")
OTHER_SERVERS_REPLAY = N_("That replay belongs to another server or conversation.")


@dataclass(frozen=True)
class Tape:
    """A hand of a recorded match, ready to replay."""

    match_id: int
    number: int
    tape: HandTape
    names: dict[str, str]


def chart_png(match_id: int, record: MatchRecord) -> bytes:
    """The score chart of a recorded match."""
    keys = [seat.player_key for seat in record.seats]
    lines = running_totals([hand.scores for hand in record.hands], keys)
    series = [Series(seat.name, line) for seat, line in zip(record.seats, lines, strict=True)]
    return draw(_("Match #{id}: points after each hand", id=match_id), series)


def _parse_ints(arg: str | None, count: int) -> list[int] | None:
    parts = (arg or "").split(".")
    if len(parts) < count or not all(p.isdigit() for p in parts[:count]):
        return None
    return [int(p) for p in parts[:count]]


class History:
    """The history's commands and controls (see the module's docstring)."""

    def __init__(self, db: Database, tables: TableRegistry, faces: CardFaces) -> None:
        self.db = db
        self.tables = tables
        self.faces = faces

    def bind(self, handlers: Handlers) -> None:
        handlers.server_wide[actions.HISTORY_PAGE] = self.page
        handlers.server_wide[actions.HISTORY_MATCH] = self.open_match
        handlers.server_wide[actions.REPLAY_HAND] = self.open_hand
        handlers.server_wide[actions.REPLAY_STEP] = self.step
        handlers.server_wide[actions.REPLAY_TURN] = self.jump_to_turn
        handlers.server_wide[actions.REPLAY_EXPORT] = self.export

    # --- the list ---------------------------------------------------------------------
    async def command(
        self, interaction: Interaction, member: discord.abc.User | None, page: int
    ) -> None:
        guild_id = board_here(interaction)
        found = await self.db.history(guild_id, None if member is None else member.id, page)
        if not found.entries:
            if page > 1:
                fewer = (page - 1) * PER_PAGE + 1
                if member is None:
                    text = n_(
                        "There is no page {page}: this server's history has fewer than {n} "
                        "match. Try `/rummy history` without a page.",
                        "There is no page {page}: this server's history has fewer than {n} "
                        "matches. Try `/rummy history` without a page.",
                        fewer,
                        page=page,
                    )
                else:
                    text = n_(
                        "There is no page {page}: {name}'s history has fewer than {n} "
                        "match. Try `/rummy history` without a page.",
                        "There is no page {page}: {name}'s history has fewer than {n} "
                        "matches. Try `/rummy history` without a page.",
                        fewer,
                        page=page,
                        name=_name(member),
                    )
                await refuse(interaction, text)
            elif member is not None:
                await refuse(
                    interaction,
                    _("{name} has no recorded match here yet.", name=_name(member)),
                )
            else:
                await refuse(interaction, _("No match has been recorded in this server yet."))
            return
        await callbacks.send_message(
            interaction,
            embed=history_embed(
                found, _server_whose(interaction), None if member is None else member.id
            ),
            controls=history_controls(guild_id, None if member is None else member.id, found),
            ephemeral=True,
        )

    async def page(self, interaction: Interaction, parsed: ComponentId) -> None:
        numbers = _parse_ints(parsed.arg, 2)
        if not self._here(interaction, parsed) or numbers is None:
            await refuse(interaction, _("That history belongs to another server or conversation."))
            return
        member, wanted = numbers
        guild_id = parsed.scope
        found = await self.db.history(guild_id, member or None, max(1, wanted))
        if not found.entries and found.page > 1:
            # Matches were deleted from under a stale button: show the first page.
            found = await self.db.history(guild_id, member or None, 1)
        await callbacks.update_message(
            interaction,
            embed=history_embed(found, _server_whose(interaction), member or None),
            controls=history_controls(guild_id, member or None, found),
        )

    # --- a match ----------------------------------------------------------------------
    async def open_match(self, interaction: Interaction, parsed: ComponentId) -> None:
        if not self._here(interaction, parsed):
            await refuse(interaction, _("That history belongs to another server or conversation."))
            return
        values = _values(interaction)
        if len(values) != 1 or not values[0].isdigit():
            await refuse(interaction, _("Pick one match from the list."))
            return
        summary = await self.db.match_summary(parsed.scope, int(values[0]))
        if summary is None:
            await refuse(interaction, _(NO_SUCH_MATCH, id=values[0]))
            return
        await self.send_summary(interaction, summary)

    async def send_summary(self, interaction: Interaction, summary: MatchSummary) -> None:
        chart = chart_png(summary.match_id, summary.record) if summary.record.hands else None
        embed = summary_embed(summary, FILENAME if chart is not None else None)
        controls = summary_controls(parsed_guild(interaction), summary)
        files = [] if chart is None else [discord.File(io.BytesIO(chart), FILENAME)]
        await interaction.response.send_message(
            embed=embed,
            files=files,
            view=controls or discord.utils.MISSING,
            ephemeral=True,
        )

    # --- a hand's replay --------------------------------------------------------------
    async def replay_command(
        self, interaction: Interaction, match_id: int | None, number: int | None
    ) -> None:
        """`/rummy replay [match] [hand]`: a hand of a finished match; by default the
        last hand of the latest match in this channel."""
        if match_id is None:
            table = self.tables.get(interaction.channel_id or 0)
            if table is not None and table.stage is not Stage.LOBBY:
                await refuse(interaction, _(IN_PROGRESS))
                return
            match_id = await self.db.latest_match(interaction.channel_id or 0)
            if match_id is None:
                await refuse(
                    interaction,
                    _(
                        "No match has been recorded in this channel yet: "
                        "`/rummy history` lists the server's."
                    ),
                )
                return
        tape = await self._tape(interaction, match_id, number)
        if tape is not None:
            await self._show(interaction, tape, 0, new_message=True)

    async def open_hand(self, interaction: Interaction, parsed: ComponentId) -> None:
        numbers = _parse_ints(parsed.arg, 1)
        values = _values(interaction)
        if not self._here(interaction, parsed) or numbers is None:
            await refuse(interaction, _("That match belongs to another server or conversation."))
            return
        if len(values) != 1 or not values[0].isdigit():
            await refuse(interaction, _("Pick one hand from the list."))
            return
        tape = await self._tape(interaction, numbers[0], int(values[0]))
        if tape is not None:
            await self._show(interaction, tape, 0, new_message=True)

    async def step(self, interaction: Interaction, parsed: ComponentId) -> None:
        numbers = _parse_ints(parsed.arg, 3)
        if not self._here(interaction, parsed) or numbers is None:
            await refuse(interaction, _(OTHER_SERVERS_REPLAY))
            return
        match_id, number, step = numbers
        tape = await self._tape(interaction, match_id, number)
        if tape is not None:
            await self._show(interaction, tape, step, new_message=False)

    async def jump_to_turn(self, interaction: Interaction, parsed: ComponentId) -> None:
        """A pick in a select of turns (or of pages of turns): the start of that turn.

        The router lets through only ids the clicked message shows, but not the
        values picked, which a modified client makes up as it likes."""
        numbers = _parse_ints(parsed.arg, 2)
        if not self._here(interaction, parsed) or numbers is None:
            await refuse(interaction, _(OTHER_SERVERS_REPLAY))
            return
        values = _values(interaction)
        wanted = _whole_number(values[0]) if len(values) == 1 else None
        if wanted is None:
            await refuse(interaction, _("Pick one turn from the list."))
            return
        tape = await self._tape(interaction, *numbers)
        if tape is None:
            return
        turns = tape.tape.turns()
        if not 1 <= wanted <= len(turns):
            await refuse(
                interaction,
                _(
                    "Hand {number} of match #{id} has turns 1 to {last}, not {turn}.",
                    number=tape.number,
                    id=tape.match_id,
                    last=len(turns),
                    turn=wanted,
                ),
            )
            return
        await self._show(interaction, tape, turns[wanted - 1].step, new_message=False)

    async def export(self, interaction: Interaction, parsed: ComponentId) -> None:
        numbers = _parse_ints(parsed.arg, 2)
        if not self._here(interaction, parsed) or numbers is None:
            await refuse(interaction, _(OTHER_SERVERS_REPLAY))
            return
        tape = await self._tape(interaction, *numbers)
        if tape is None:
            return
        document = json.dumps(tape.tape.export(), ensure_ascii=False, indent=1)
        name = f"rummy-match{tape.match_id}-hand{tape.number}.json"
        await interaction.response.send_message(
            _(
                "Hand {number} of match #{id}, for `python -m engine.replay {file}`.",
                number=tape.number,
                id=tape.match_id,
                file=name,
            ),
            file=discord.File(io.BytesIO(document.encode()), name),
            ephemeral=True,
        )

    async def _tape(
        self, interaction: Interaction, match_id: int, number: int | None
    ) -> Tape | None:
        """The hand to replay, or None once the member has been told why not."""
        record = await self.db.get_match(match_id)
        if record is None or record.guild_id != board_of(interaction):
            await refuse(interaction, _(NO_SUCH_MATCH, id=match_id))
            return None
        if not record.hands:
            await refuse(
                interaction, _("Match #{id} ended before its first hand did.", id=match_id)
            )
            return None
        number = len(record.hands) if number is None else number
        if not 1 <= number <= len(record.hands):
            await refuse(
                interaction,
                _(
                    "Match #{id} has hands 1 to {last}, not {number}.",
                    id=match_id,
                    last=len(record.hands),
                    number=number,
                ),
            )
            return None
        hand: HandRecord = record.hands[number - 1]
        if hand.moves is None:
            await refuse(
                interaction,
                _(
                    "The moves of hand {number} of match #{id} were not kept "
                    "(it was played before replays existed), so it cannot be replayed.",
                    number=number,
                    id=match_id,
                ),
            )
            return None
        players = [seat.player_key for seat in record.seats]
        try:
            tape = HandTape.read(
                players,
                HouseRules.from_dict(record.rules),
                hand.moves.dealer,
                hand.moves.seed,
                hand.moves.moves,
            )
        except RummyError:
            await refuse(
                interaction,
                _("Hand {number} of match #{id} cannot be read.", number=number, id=match_id),
            )
            return None
        names = {seat.player_key: seat.name for seat in record.seats}
        return Tape(match_id, number, tape, names)

    async def _show(
        self, interaction: Interaction, tape: Tape, step: int, *, new_message: bool
    ) -> None:
        steps = len(tape.tape.moves)
        step = max(0, min(step, steps))
        try:
            hand, events = tape.tape.step(step)
        except RummyError:
            await refuse(interaction, _("That hand's moves do not replay: it cannot be shown."))
            return
        at = ReplayAt(
            board_here(interaction), tape.match_id, tape.number, step, steps, tape.tape.turns()
        )
        embed = replay_embed(at, hand, events, tape.names, self.faces)
        controls = replay_controls(at, tape.names)
        if new_message:
            await callbacks.send_message(
                interaction, embed=embed, controls=controls, ephemeral=True
            )
        else:
            await callbacks.update_message(interaction, embed=embed, controls=controls)

    @staticmethod
    def _here(interaction: Interaction, parsed: ComponentId) -> bool:
        return parsed.scope == board_of(interaction)


def parsed_guild(interaction: Interaction) -> int:
    return board_here(interaction)


def _whole_number(text: str) -> int | None:
    """A number as a select sends it, or None for any other text: ASCII digits
    only (``int`` would take "٣", and ``str.isdigit`` passes "²", which it refuses),
    and few of them (a select's own values are at most a few digits)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    return int(text)


def _values(interaction: Interaction) -> list[str]:
    data: Any = interaction.data or {}
    return [str(value) for value in data.get("values", ())]


def _name(member: discord.abc.User) -> str:
    return shown_name(str(getattr(member, "display_name", member.name)))


def _server_whose(interaction: Interaction) -> str:
    return board_name(interaction)
