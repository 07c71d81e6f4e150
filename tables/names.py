"""People's names as the bot shows them: as text, never as markup.

A Discord display name is anything its owner typed. Shown raw in a message it
could be a masked link, a heading, a mention of someone else or of
``@everyone``, or right-to-left controls that make a line read other than it
is ("999 POINTS"). ``plain_name`` drops the direction controls, for every use
(a chart's label, a select's option); ``shown_name`` also escapes what
Discord's markdown would read, for names inside a message's text.
"""

from __future__ import annotations

import functools
import re
from typing import Final

# Explicit direction marks, embeddings, overrides and isolates: text in any
# script is shown in its own direction without them.
_DIRECTION_CONTROLS: Final = dict.fromkeys(
    map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)
# What Discord's markdown reads anywhere in a line: emphasis, code, spoilers,
# quotes, headings, masked links and <...> markup (mentions, emoji, times).
_MARKUP: Final = re.compile(r"[\\*_~`|>#\[\]<]")


def plain_name(name: str) -> str:
    """``name`` without direction controls."""
    return name.translate(_DIRECTION_CONTROLS)


# Every table and hand message drawn names every seat: a few names, drawn
# again and again.
@functools.lru_cache(maxsize=4096)
def shown_name(name: str) -> str:
    """``name`` as literal text inside a message: direction controls dropped,
    markdown escaped, and ``@`` kept from forming @everyone or @here."""
    return _MARKUP.sub(r"\\\g<0>", plain_name(name)).replace("@", "@\u200b")
