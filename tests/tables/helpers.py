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
    table.message_id = 99
    return table


def crowded_table() -> Table:
    """Six seats, eleven melds down, eleven cards in the turn player's hand, a long
    log, the seat on autopilot: as much as a hand message ever has to show."""
    deck = full_deck()
    by_rank: dict[int, list[Card]] = {}
    for card in deck:
        by_rank.setdefault(card.rank, []).append(card)
    sets = [cards[:3] for _, cards in sorted(by_rank.items())][:11]
    in_sets = {card for meld in sets for card in meld}
    rest = [card for card in deck if card not in in_sets]
    keys = ["1", "2", "3", "4", "5", "6"]
    rules = HouseRules()
    match = Match.start(keys, rules, 3)
    first = match.hand.turn
    assert first is not None
    order = keys[keys.index(first):] + keys[: keys.index(first)]
    hands = {order[0]: [*(card for meld in sets for card in meld), rest[14]], order[1]: rest[:10]}
    for index, key in enumerate(order[2:]):
        hands[key] = [rest[10 + index]]
    stock, discard = rest[15:17], rest[17:18]
    hand = Hand.from_position(keys, rules, hands, stock, discard, first, seed=match.hand.seed)
    data = match.to_dict()
    data["hand"] = hand.to_dict()
    match = Match.from_dict(data)
    match.apply(first, DrawStock())
    for meld in sets:
        match.apply(first, MeldCards(tuple(meld)))
    table = Table(channel_id=10**19, guild_id=20, host_id=1, rules=rules, seed=3)
    table.seats = [Seat(key, f"Player with a long name {key}", int(key)) for key in keys]
    table.match, table.stage = match, Stage.PLAYING
    for number in range(80):
        table.note(f"Player with a long name {number % 6 + 1} discarded 10♥ and laid off", "1")
    table.seats[keys.index(order[1])].autopilot = True
    return table
