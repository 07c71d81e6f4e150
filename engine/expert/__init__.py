"""The expert computer player: memory of the public record, look-ahead over the
hidden cards (see ``engine.expert.player``).

``record`` keeps the public events of a hand, ``memory`` replays them for one seat,
``belief`` turns that into chances and sampled orders of the seat's next stock draws,
``race`` finds how a hand can go out and how soon those draws would get it there, and
``player`` decides.
"""

from engine.expert.player import EXPERT, ExpertWeights, expert_action
from engine.expert.record import (
    PublicRecord,
    events_from_data,
    events_to_data,
    record_of_moves,
)

__all__ = [
    "EXPERT",
    "ExpertWeights",
    "PublicRecord",
    "events_from_data",
    "events_to_data",
    "expert_action",
    "record_of_moves",
]
