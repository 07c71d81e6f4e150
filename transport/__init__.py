"""The wire to Discord: every use of discord.py's private parts, and the lean
paths that answer clicks and edit messages through them."""
