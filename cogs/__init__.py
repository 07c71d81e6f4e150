"""The bot's one cog: slash commands and component ids mapped to the flows."""
