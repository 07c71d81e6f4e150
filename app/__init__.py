"""The bot itself: a ``commands.Bot`` that builds and wires every part at start-up."""
