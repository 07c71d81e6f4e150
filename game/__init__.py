"""The game both doors share: what a seat may do and see, with no door's text
and nothing of discord.py."""
