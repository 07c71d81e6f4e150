"""The lobby host's own controls: an ephemeral message only the host sees.

The public lobby carries only what everyone may press (Join, Leave, Rules);
adding computers, Start and Cancel would only earn everyone else a refusal.
The host's message shows the seats as they stand, the house rules, and their
controls; once the lobby is over it says so and offers nothing to press.
"""

from __future__ import annotations

from presentation.i18n import _, label_on, number
from presentation.labels import RULES_LABEL
from presentation.render import rules_summary, rules_text
from tables import MAX_SEATS, Stage, Table

from .components import host_controls
from .layouts import Layout, container, row, separator, text
from .table_layout import ENDED, LOBBY, lobby_seats


def host_panel_layout(table: Table, *, with_rules: bool = False, note: str | None = None) -> Layout:
    """The host's controls for ``table``; ``with_rules``: the rules of the game
    too (opened by Rules, which shows them to everyone else); ``note``: a word
    for this answer alone."""
    heading = "### 🎛️ " + _("Your controls as host")
    if table.stage is not Stage.LOBBY:
        if table.stage is Stage.FINISHED:
            closed = _("There is no game running here any more. `/rummy start` opens a new one.")
        else:
            closed = _("This game has already started.")
        return Layout(container(text(f"{heading}\n{closed}"), accent=ENDED))
    intro = _(
        "Only you see this message. Add computer players if you like, then press "
        "**Start** once 2 to {most} players are seated.",
        most=number(MAX_SEATS),
    )
    parts = [text(f"{heading}\n{intro}")]
    if note:
        parts.append(text(f"⚠️ {note}"))
    parts += [separator(), *lobby_seats(table)]
    if with_rules:
        parts.append(text(rules_text(table.rules)))
    else:
        parts.append(text(_("**House rules**") + "\n" + rules_summary(table.rules)))
    rows = [row(items) for items in host_controls(table).rows]
    back = _(
        "Lost this message? **{rules}** on the lobby, or `/rummy start` in this channel, "
        "brings it back.",
        rules=label_on(RULES_LABEL, table.language),  # the lobby speaks the server's language
    )
    return Layout(container(*parts, *rows, text(f"-# {back}"), accent=LOBBY))
