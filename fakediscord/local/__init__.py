"""Local play: the stand-in with one server, four members and their DMs, its
page in the browser, Discord's app around the Activity, and the world kept
between runs.
"""

from .play import LocalPlay

__all__ = ["LocalPlay"]
