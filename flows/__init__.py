"""What happens on a click, a command or a timer: the lobby, play, the
computers and turn clocks, endings, statistics and server settings."""
