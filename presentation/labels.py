"""The labels of the public table's buttons, named once.

Help, refusals and DMs are in the reader's language while the table's buttons
are in the server's: a text naming a button fills in its label with
``i18n.label_on(LABEL, table.language)``, so it says what the reader will see.
"""

from __future__ import annotations

from .i18n import N_

SHOW_HAND_LABEL = N_("Show hand")
JOIN_LABEL = N_("Join")
RULES_LABEL = N_("Rules")
NEXT_HAND_LABEL = N_("Next hand")
REMATCH_LABEL = N_("Rematch")
# Opens the graphical table (the Activity) inside Discord.
OPEN_TABLE_LABEL = N_("Open table")
# Opens the Activity where it is the only door (a DM, a group DM).
PLAY_LABEL = N_("Play")
