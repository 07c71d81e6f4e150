"""The chat's door to the game: discord.py's side of it.

The public table message and its refresher, each player's ephemeral hand
message, the lobby's and the host's buttons, the routing of every custom id
to its handler, DMs, and the slash commands' answers (``commands/``); the
message layouts themselves are in ``messages/``. Everything here reads the
game (``game``) and hears what it says (``follow_ups``); nothing of it is
the Activity's, and the game knows none of it.
"""
