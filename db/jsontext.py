"""The JSON text the stores keep: rules, states, scores, settings and choices."""

from __future__ import annotations

from typing import Any, Final

import orjson

# Values JSON has no form for are refused, not converted: a dataclass, a date,
# a set, a number as a dict key (which would load back as a string).
_JSON_STRICT: Final = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def to_json(value: Any) -> str:
    """Compact JSON, with orjson: a save serialises the whole table after every
    action, and the standard library's encoder was a twentieth of the bot's CPU.
    NaN and infinities, which no table holds, would be written as null."""
    return orjson.dumps(value, option=_JSON_STRICT).decode()
