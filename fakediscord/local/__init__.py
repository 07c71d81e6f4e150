"""Local play: the stand-in with one server and four members, its page in the
browser, Discord's app around the Activity, and the world kept between runs.
"""

from .play import LocalPlay

__all__ = ["LocalPlay"]
