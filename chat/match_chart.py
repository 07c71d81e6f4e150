"""When a match has been played out: its score chart, posted once in its
channel with the places, points, rating changes and the ratings they came
to (``chat.messages.result_post``).

Called from the table's follow-ups, so only once the result is saved; a
match ended with ``/rummy end`` or by the sweeper is abandoned, unrated, and
gets no chart."""

from __future__ import annotations

import discord

from chat.messages.ratings_layout import result_text
from chat.messages.result_post import post_result
from db import Database, HistoryEntry, StorageError
from game.tasks import Supervisor
from presentation.i18n import _, speaking
from presentation.pacing import RequestBudget
from presentation.score_chart import Series, draw, running_totals
from tables import FollowUp, Stage, Table


def table_chart(table: Table, title: str) -> bytes:
    """The chart of the table's match, from its own hands' scores."""
    assert table.match is not None
    keys = [seat.key for seat in table.seats]
    scores = [dict(outcome.scores) for outcome in table.match.history]
    lines = running_totals(scores, keys)
    series = [Series(seat.name, line) for seat, line in zip(table.seats, lines, strict=True)]
    return draw(title, series)


class MatchResults:
    """Posts the score chart of each match played out."""

    def __init__(
        self, client: discord.Client, db: Database, budget: RequestBudget, tasks: Supervisor
    ) -> None:
        self.client = client
        self.db = db
        self.budget = budget
        self.tasks = tasks

    def after_save(self, table: Table, follow_up: FollowUp) -> None:
        match = table.match
        if table.stage is not Stage.FINISHED or match is None or not match.is_over:
            return
        self.tasks.spawn(self._post(table, recorded=not follow_up.result_kept), "score-chart")

    async def _post(self, table: Table, *, recorded: bool) -> None:
        entry = None
        ratings: dict[int, float] = {}
        if recorded:
            try:
                match_id = await self.db.latest_match(table.channel_id)
                if match_id is not None:
                    summary = await self.db.match_summary(table.guild_id, match_id)
                    entry = None if summary is None else summary.entry
                if entry is not None:
                    ratings = await self._ratings(table.guild_id, entry)
            except StorageError:
                pass  # the chart still goes out, with what was read
        # Posted in the table's channel, for everyone: in the table's language.
        with speaking(table.language):
            if entry is None:
                title = _("Final scores: points after each hand")
            else:
                title = _("Match #{id}: points after each hand", id=entry.match_id)
            chart = table_chart(table, title)
            text = result_text(entry, ratings)
        await post_result(self.client, self.budget, table.channel_id, text, chart)

    async def _ratings(self, guild_id: int, entry: HistoryEntry) -> dict[int, float]:
        """The rating each rated person of the match came to: shown beside its
        change, so that "+3.3" is seen as a step of a figure they can look up."""
        found = {}
        for seat in entry.seats:
            if seat.user_id is None or seat.rating_change is None:
                continue
            profile = await self.db.rating_profile(
                guild_id, seat.user_id, trend=1, opponents_over=1
            )
            if profile.rating is not None:
                found[seat.user_id] = profile.rating.ordinal
        return found
