"""Tables built in memory for rendering and persistence tests."""

from __future__ import annotations

from engine import Card, DrawStock, Hand, HouseRules, Match, MeldCards, full_deck
from tables import Seat, Stage, Table


def playing_table(seed: int = 42, rules: HouseRules | None = None) -> Table:
    rules = rules or HouseRules()
    table = Table(
        channel_id=10,
        guild_id=20,
        host_id=1,
        rules=rules,
        seed=seed,
        seats=[Seat("1", "Ann", 1), Seat("2", "Bob", 2), Seat("cpu1", "Ada", level="hard")],
    )
    table.match = Match.start([seat.key for seat in table.seats], rules, seed)
    table.stage = Stage.PLAYING
    return table


def cards_by_rank() -> list[list[Card]]:
    """The deck as thirteen lists of four, ace first."""
    by_rank: dict[int, list[Card]] = {}
    for card in full_deck():
        by_rank.setdefault(card.rank, []).append(card)
    return [by_rank[rank] for rank in sorted(by_rank)]


def laid_out_match(
    keys: list[str], seed: int, dealt: list[list[Card]], stock: list[Card], discard: list[Card]
) -> tuple[Match, list[str]]:
    """A match of ``keys`` whose first hand is laid out card by card: ``dealt`` in
    turn order from the first to move. The match, and the seats in turn order."""
    rules = HouseRules()
    match = Match.start(keys, rules, seed)
    first = match.hand.turn
    assert first is not None
    order = keys[keys.index(first):] + keys[: keys.index(first)]
    hands = dict(zip(order, dealt, strict=True))
    hand = Hand.from_position(keys, rules, hands, stock, discard, first, seed=match.hand.seed)
    data = match.to_dict()
    data["hand"] = hand.to_dict()
    return Match.from_dict(data), order


def crowded_table() -> Table:
    """Six seats, eleven melds down, eleven cards in the turn player's hand, a long
    log, the seat on autopilot: as much as a hand message ever has to show."""
    sets = [cards[:3] for cards in cards_by_rank()][:11]
    in_sets = {card for meld in sets for card in meld}
    rest = [card for card in full_deck() if card not in in_sets]
    keys = ["1", "2", "3", "4", "5", "6"]
    dealt = [[*(card for meld in sets for card in meld), rest[14]], rest[:10]]
    dealt += [[rest[10 + index]] for index in range(4)]
    match, order = laid_out_match(keys, 3, dealt, rest[15:17], rest[17:18])
    first = order[0]
    match.apply(first, DrawStock())
    for meld in sets:
        match.apply(first, MeldCards(tuple(meld)))
    table = Table(channel_id=10**19, guild_id=20, host_id=1, rules=match.rules, seed=3)
    table.seats = [Seat(key, f"Player with a long name {key}", int(key)) for key in keys]
    table.match, table.stage = match, Stage.PLAYING
    for number in range(80):
        table.note(f"Player with a long name {number % 6 + 1} discarded 10♥ and laid off", "1")
    table.seats[keys.index(order[1])].autopilot = True
    return table
