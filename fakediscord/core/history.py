"""How much of the past the stand-in keeps, when it is told to keep a bound.

Discord holds every message, but nobody holds them all at once: its app shows
a channel's recent messages and fetches older ones as the reader scrolls, and
``GET /channels/{id}/messages`` pages through them. A stand-in that runs for
hours (local play at machine speed plays a match every few seconds) cannot
keep every message and every interaction in memory, so with ``Limits`` it
keeps the newest messages of each channel and the newest interactions:

- a channel's older messages are forgotten, as if nobody had scrolled back
  that far; they are not deleted (no MESSAGE_DELETE goes out), and an edit of
  one answers 404 Unknown Message;
- an interaction is forgotten once many newer ones came after it, unless a
  message kept still answers it (its token may still edit that message).

Tests that read a whole run's history keep everything (``World.limits`` None).
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Interaction, Message


@dataclass(frozen=True)
class Limits:
    # Twice what one REST call returns (100), and hours of a local game's table,
    # hand and results messages.
    messages_per_channel: int = 200
    # Some minutes of matches at machine speed (about 50 interactions a match).
    interactions: int = 1000


def forget_old_messages(log: list[int], messages: dict[int, Message], keep: int) -> None:
    """A channel's messages (``log``, its ids oldest first) but the newest
    ``keep``, forgotten."""
    if len(log) <= keep:
        return
    gone = log[: len(log) - keep]
    del log[: len(gone)]
    for message_id in gone:
        messages.pop(message_id, None)


def forget_old_interactions(interactions: dict[int, Interaction],
                            by_token: dict[str, Interaction], messages: dict[int, Message],
                            keep: int) -> None:
    """Interactions (oldest first) but the newest ``keep`` and those a kept
    message answers, forgotten, with their tokens. Looked at once a quarter more
    than ``keep`` have piled up, so that finding which a message answers costs
    little per interaction."""
    if len(interactions) <= keep + keep // 4:
        return
    answered = {m.interaction_id for m in messages.values()}
    excess = len(interactions) - keep
    oldest_first = list(interactions.values())[:excess]
    for interaction in oldest_first:
        if interaction.id not in answered:
            del interactions[interaction.id]
            by_token.pop(interaction.token, None)
