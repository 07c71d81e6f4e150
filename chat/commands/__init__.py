"""The slash commands that are not a table's buttons: statistics, history and
replays, seasons, the server's settings, ending a game, and their options."""
