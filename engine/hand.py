"""One hand (deal, round) of basic Rummy as a state machine.

The deal: 2 to 6 players get 10 cards each (2 players), 7 (3 or 4 players) or 6
(5 or 6 players), one at a time starting left of the dealer; the next card starts
the discard pile and the rest is the stock. The player left of the dealer starts
and play goes clockwise (to the next index in ``players``).

A turn: draw one card (the stock's top, or the discard pile's top), then put down
melds (house rule ``melds_per_turn``: any number, or one), lay cards off onto any
meld on the table (no limit), then discard one card. A card taken from the discard
pile may not be discarded in the same turn, so a play that would leave the player
holding only that card is refused. Emptying the hand ends it at once (house rule
``go_out = discard_only``: only a discard may take the last card). Going out in one
turn with nothing melded or laid off in an earlier turn is *rummy* (house rule
``rummy_bonus = double`` doubles that hand's score).

When the stock is empty, house rule ``empty_stock`` decides what a draw from it does:

* ``turn_over``: drawing from the empty stock is how a player passes on the discard.
  The first time, the whole discard pile, top card included, is turned face down
  without shuffling (its bottom card becomes the top of the stock, the pile is left
  empty) and the player draws from it. The second time, the hand ends with nobody out.
* ``reshuffle``: the stock is rebuilt at the next draw from it, not when its last
  card goes, so the next player may still take the discard instead. All of the pile
  but its top card is shuffled by a ``random.Random`` seeded from the hand's seed and
  the rebuild's number, so a hand replays exactly from its seed and actions. After
  ``MAX_RESHUFFLES`` (3) rebuilds, or when the pile holds fewer than 2 cards, drawing
  from the empty stock ends the hand with nobody out.

Whatever the rules, players who only ever take the discard could go round for ever,
so a hand also ends with nobody out after ``MAX_TURNS`` (500) completed turns. These
bounds are in ``engine.limits``.

Elsewhere: the possible melds and lay-offs are listed by ``engine.melds``, a finished
hand is scored by ``engine.scoring``, and the save format is ``engine.saved``. What a
hand holds, read-only, and its saved form, checked against the rules of play before it
becomes a hand again, are ``engine.hand_state``'s ``HandState``, which ``Hand`` extends.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence

from engine.actions import Action, Discard, DrawStock, LayOff, MeldCards, TakeDiscard
from engine.cards import Card, full_deck, rank_key
from engine.checks import check_players, check_position, check_seed
from engine.errors import (
    HandOverError,
    IllegalMoveError,
    NotSeatedError,
    NotYourTurnError,
    RummyError,
)
from engine.hand_state import HandState
from engine.limits import CARDS_DEALT, MAX_RESHUFFLES, MAX_TURN_OVERS, MAX_TURNS
from engine.melds import extend_meld, lay_off_options, make_meld, meld_options
from engine.rules import EmptyStock, GoOut, HouseRules, MeldsPerTurn
from engine.scoring import HandOutcome, Termination, score_hand
from engine.state import Event, Phase, TableMeld
from engine.view import HandView
from engine.words import N_

__all__ = ["Hand"]


class Hand(HandState):
    """One hand of Rummy: the deal, the turns, and the outcome.

    Build one with ``deal`` (a seeded shuffle), ``from_position`` (a laid-out position
    for puzzles and replays) or ``from_dict`` (saved state). ``apply`` is the only
    way to change it: it checks the whole move first and either performs it or raises
    an ``IllegalMoveError`` (or subclass) having changed nothing.
    """

    __slots__ = ()

    # --- construction ----------------------------------------------------------------
    @classmethod
    def deal(cls, players: Sequence[str], rules: HouseRules, dealer: int, seed: int) -> Hand:
        """Shuffle with ``random.Random(seed)`` and deal a new hand.

        10 cards each with 2 players, 7 with 3 or 4, 6 with 5 or 6, one at a time from
        the dealer's left; the next card starts the discard pile and the player left of
        the dealer (index ``dealer + 1``) moves first.
        """
        seats = check_players(players)
        seed = check_seed(seed)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(seats):
            raise RummyError("the dealer must be the index of one of the players")
        deck = full_deck()
        random.Random(seed).shuffle(deck)
        hands: dict[str, list[Card]] = {p: [] for p in seats}
        position = 0
        for _ in range(CARDS_DEALT[len(seats)]):
            for offset in range(1, len(seats) + 1):
                hands[seats[(dealer + offset) % len(seats)]].append(deck[position])
                position += 1
        return cls(
            players=seats,
            rules=rules,
            dealer=dealer,
            seed=seed,
            hands=hands,
            stock=deck[position + 1 :],
            discard=[deck[position]],
            first=(dealer + 1) % len(seats),
        )

    @classmethod
    def from_position(
        cls,
        players: Sequence[str],
        rules: HouseRules,
        hands: Mapping[str, Sequence[Card]],
        stock: Sequence[Card],
        discard: Sequence[Card],
        first: str,
        seed: int,
    ) -> Hand:
        """A hand laid out card by card, for puzzles, tests and the replay tool.

        Hands may be of any size and the 52 cards need not all be present, but no card
        may be in two places and every player needs a hand. ``stock`` lists its top card
        first, ``discard`` its bottom card first. ``first`` moves first, so the dealer is
        the seat before. ``seed`` drives any reshuffle. Raises ``SetupError`` (a
        ``RummyError``) from ``check_position``.
        """
        seats = check_position(players, hands, stock, discard, first, seed)
        index = seats.index(first)
        return cls(
            players=seats,
            rules=rules,
            dealer=(index - 1) % len(seats),
            seed=seed,
            hands={p: list(hands[p]) for p in seats},
            stock=list(stock),
            discard=list(discard),
            first=index,
        )

    # --- legal moves -----------------------------------------------------------------
    def legal_actions(self, player: str) -> list[Action]:
        """Everything ``player`` may do now; empty when it is not their turn or it is over.

        Before drawing: draw from the stock (always possible: at worst it ends the hand)
        or take the discard (when there is one and the player holds another card to
        discard later). After drawing: every valid new meld (house rule
        ``melds_per_turn``), every lay-off of one or more cards onto each meld, and every
        discard except the card just taken from the pile. A meld or lay-off is left out
        if it would leave only the card that may not be discarded, or, under house rule
        ``go_out = discard_only``, no card at all.
        """
        if self._phase is Phase.OVER or player != self._players[self._turn]:
            return []
        hand = self._hands[player]
        if self._phase is Phase.DRAW:
            actions: list[Action] = [DrawStock()]
            if self._discard and hand:
                actions.append(TakeDiscard())
            return actions
        actions = []
        if not (self._rules.melds_per_turn is MeldsPerTurn.ONE and self._melds_this_turn >= 1):
            actions.extend(
                MeldCards(cards)
                for cards in meld_options(hand, self._rules)
                if self._leaves_a_way_out(len(hand), cards)
            )
        actions.extend(
            LayOff(cards, index)
            for cards, index in lay_off_options(hand, [m.meld for m in self._melds], self._rules)
            if self._leaves_a_way_out(len(hand), cards)
        )
        actions.extend(Discard(card) for card in hand if card != self._taken)
        return actions

    def _leaves_a_way_out(self, held: int, removed: Sequence[Card]) -> bool:
        left = held - len(removed)
        if left == 0:
            return self._rules.go_out is GoOut.ANY
        return not (left == 1 and self._taken is not None and self._taken not in removed)

    # --- moves -----------------------------------------------------------------------
    def why_not(self, player: str, action: Action) -> RummyError | None:
        """Why ``player`` may not make ``action`` now (the error ``apply`` would
        raise), or None if they may; the hand is untouched either way."""
        try:
            self.copy().apply(player, action)
        except RummyError as refused:
            return refused
        return None

    def apply(self, player: str, action: Action) -> list[Event]:
        """Perform ``player``'s move and return what happened.

        Everything is checked before anything changes, so on an error (a subclass of
        ``IllegalMoveError`` with a message for the player) the hand is untouched.
        """
        if self._phase is Phase.OVER:
            raise HandOverError(N_("This hand is over"))
        if player not in self._hands:
            raise NotSeatedError(N_("You are not playing in this hand"))
        if player != self._players[self._turn]:
            raise NotYourTurnError(N_("It is not your turn."))
        match action:
            case DrawStock():
                return self._draw_stock(player)
            case TakeDiscard():
                return self._take_discard(player)
            case MeldCards(cards=cards):
                return self._meld(player, tuple(cards))
            case LayOff(cards=cards, meld=index):
                return self._lay_off(player, tuple(cards), index)
            case Discard(card=card):
                return self._discard_card(player, card)
        raise IllegalMoveError(N_("That is not a move in Rummy"))

    def _draw_stock(self, player: str) -> list[Event]:
        """Draw the stock's top card, first rebuilding an empty stock (house rule
        ``empty_stock``) or ending the hand when it may not be rebuilt any more."""
        if self._phase is not Phase.DRAW:
            raise IllegalMoveError(N_("You have already drawn this turn"))
        events: list[Event] = []
        if not self._stock:
            if self._rules.empty_stock is EmptyStock.TURN_OVER:
                if self._exhaustions >= MAX_TURN_OVERS or not self._discard:
                    return self._end_with_nobody_out(Termination.STOCK_EXHAUSTED)
                # Turned face down as a block: the first card discarded is now on top.
                self._stock = self._discard
                self._discard = []
                self._exhaustions += 1
                events.append(Event("turn_over", player))
            else:
                if self._exhaustions >= MAX_RESHUFFLES or len(self._discard) < 2:
                    return self._end_with_nobody_out(Termination.STOCK_EXHAUSTED)
                self._exhaustions += 1
                cards = self._discard[:-1]
                # A fresh generator per rebuild, seeded from the hand's seed: replayable,
                # and nothing about a generator's internal state has to be saved.
                random.Random(f"rummy-reshuffle:{self._seed}:{self._exhaustions}").shuffle(cards)
                self._stock = cards
                self._discard = self._discard[-1:]
                events.append(Event("reshuffle", player))
        card = self._stock.pop(0)
        insort(self._hands[player], card, key=rank_key)
        self._phase = Phase.PLAY
        events.append(Event("draw_stock", player))
        return events

    def _take_discard(self, player: str) -> list[Event]:
        """Take the discard pile's top card; it may not be discarded this turn."""
        if self._phase is not Phase.DRAW:
            raise IllegalMoveError(N_("You have already drawn this turn"))
        if not self._discard:
            raise IllegalMoveError(N_("The discard pile is empty: draw from the stock"))
        card = self._discard[-1]
        if not self._hands[player]:
            raise IllegalMoveError(
                N_("You cannot take {card}: you would have no other card to discard"), card=card
            )
        self._discard.pop()
        insort(self._hands[player], card, key=rank_key)
        self._taken = card
        self._phase = Phase.PLAY
        return [Event("take_discard", player, (card,))]

    def _check_play(self, player: str, cards: tuple[Card, ...], undrawn: str) -> None:
        """Checks shared by melds and lay-offs: drawn first, cards held, a way out left.

        The last two rules: the player must keep a card they may discard (not the one
        taken from the pile this turn), and under house rule ``go_out = discard_only``
        they must keep at least one card.
        """
        if self._phase is not Phase.PLAY:
            raise IllegalMoveError(undrawn)
        hand = self._hands[player]
        seen: set[Card] = set()
        for card in cards:
            if not isinstance(card, Card):
                raise IllegalMoveError(f"{card!r} is not a card")
            if card in seen:
                raise IllegalMoveError(N_("You named {card} twice"), card=card)
            seen.add(card)
        missing = [card for card in cards if card not in hand]
        if missing:
            raise IllegalMoveError(N_("You don't hold {cards}"), cards=missing)

    def _check_way_out(self, player: str, cards: tuple[Card, ...]) -> None:
        left = len(self._hands[player]) - len(cards)
        if left == 0 and self._rules.go_out is GoOut.DISCARD_ONLY:
            raise IllegalMoveError(N_("At this table you must go out by discarding: keep a card"))
        if left == 1 and self._taken is not None and self._taken not in cards:
            raise IllegalMoveError(
                N_(
                    "That would leave you holding only {card}, which you took"
                    " from the discard pile this turn and may not discard"
                ),
                card=self._taken,
            )

    def _release_taken(self, played: tuple[Card, ...]) -> None:
        # The ban only concerns discarding the taken card; once it is on the table there
        # is nothing left to forbid.
        if self._taken in played:
            self._taken = None

    def _meld(self, player: str, cards: tuple[Card, ...]) -> list[Event]:
        """Put down a new set or run (house rules ``melds_per_turn``, ``ace``, ``go_out``)."""
        if (
            self._phase is Phase.PLAY
            and self._rules.melds_per_turn is MeldsPerTurn.ONE
            and self._melds_this_turn >= 1
        ):
            raise IllegalMoveError(N_("Only one meld per turn at this table"))
        self._check_play(player, cards, N_("You must draw before you meld"))
        meld = make_meld(cards, self._rules)
        self._check_way_out(player, cards)
        hand = self._hands[player]
        for card in cards:
            hand.remove(card)
        self._melds.append(TableMeld(meld, (player,) * len(meld.cards)))
        self._release_taken(cards)
        self._melds_this_turn += 1
        self._played_this_turn = True
        events = [Event("meld", player, meld.cards, len(self._melds) - 1)]
        if not hand:
            events += self._go_out(player)
        return events

    def _lay_off(self, player: str, cards: tuple[Card, ...], index: int) -> list[Event]:
        """Add cards to any meld on the table; they count as the player's (house rules
        ``ace`` and ``go_out``)."""
        if self._phase is not Phase.PLAY:
            raise IllegalMoveError(N_("You must draw before you lay off"))
        if (
            not isinstance(index, int)
            or isinstance(index, bool)
            or not 0 <= index < len(self._melds)
        ):
            raise IllegalMoveError(N_("There is no meld {meld} on the table"), meld=index)
        if not cards:
            raise IllegalMoveError(N_("Choose at least one card to lay off"))
        self._check_play(player, cards, N_("You must draw before you lay off"))
        target = self._melds[index]
        grown = extend_meld(target.meld, cards, self._rules)
        self._check_way_out(player, cards)
        hand = self._hands[player]
        for card in cards:
            hand.remove(card)
        credit = dict(zip(target.meld.cards, target.owners, strict=True))
        credit.update((card, player) for card in cards)
        self._melds[index] = TableMeld(grown, tuple(credit[c] for c in grown.cards))
        self._release_taken(cards)
        self._played_this_turn = True
        added = tuple(c for c in grown.cards if c in cards)
        events = [Event("lay_off", player, added, index)]
        if not hand:
            events += self._go_out(player)
        return events

    def _discard_card(self, player: str, card: Card) -> list[Event]:
        """Discard a card, ending the turn (or the hand, when it was the last card).

        The card taken from the discard pile this turn may not go straight back.
        """
        if self._phase is not Phase.PLAY:
            raise IllegalMoveError(N_("You must draw before you discard"))
        hand = self._hands[player]
        if not isinstance(card, Card) or card not in hand:
            shown = card if isinstance(card, Card) else repr(card)
            raise IllegalMoveError(N_("You don't hold {cards}"), cards=shown)
        if card == self._taken:
            raise IllegalMoveError(
                N_("You took {card} from the discard pile this turn: discard another card"),
                card=card,
            )
        hand.remove(card)
        self._discard.append(card)
        events = [Event("discard", player, (card,))]
        if not hand:
            return events + self._go_out(player)
        self._turns += 1
        if self._turns >= MAX_TURNS:
            return events + self._end_with_nobody_out(Termination.TURN_LIMIT)
        self._end_turn()
        self._turn = (self._turn + 1) % len(self._players)
        return events

    def _end_turn(self) -> None:
        if self._played_this_turn:
            self._played.add(self._players[self._turn])
        self._phase = Phase.DRAW
        self._taken = None
        self._melds_this_turn = 0
        self._played_this_turn = False

    def _go_out(self, player: str) -> list[Event]:
        """The player emptied their hand: score it, with rummy when they had melded and
        laid off nothing before this turn (house rule ``rummy_bonus``)."""
        rummy = player not in self._played
        self._finish(
            score_hand(self._players, self._rules, self._hands, player, rummy, Termination.WENT_OUT)
        )
        return [Event("went_out", player), Event("hand_over", None)]

    def _end_with_nobody_out(self, reason: Termination) -> list[Event]:
        self._finish(score_hand(self._players, self._rules, self._hands, None, False, reason))
        return [Event("hand_over", None)]

    def _finish(self, outcome: HandOutcome) -> None:
        self._end_turn()
        self._phase = Phase.OVER
        self._outcome = outcome

    # --- views -------------------------------------------------------------------------
    def view_for(self, player: str | None) -> HandView:
        """What ``player`` may see now; ``None`` gives the spectator's view, with no hand.

        Other players' cards are never in it, only how many they hold, until the hand
        is over and the outcome shows every remaining card.
        """
        own = player is not None
        if player is not None:
            self._seat(player)
        my_turn = own and self._phase is not Phase.OVER and player == self.turn
        return HandView(
            player=player,
            hand=tuple(self._hands[player]) if player is not None else (),
            players=self._players,
            card_counts=self.card_counts(),
            melds=tuple(self._melds),
            discard_top=self.discard_top,
            discard_pile=tuple(self._discard),
            stock_size=len(self._stock),
            turn=self.turn,
            phase=self._phase,
            dealer=self._players[self._dealer],
            rules=self._rules,
            may_not_discard=self._taken if my_turn else None,
            melded_this_turn=self._melds_this_turn,
            has_melded_this_hand=player in self._played if player is not None else False,
            stock_exhaustions=self._exhaustions,
            outcome=self._outcome,
            legal=tuple(self.legal_actions(player)) if player is not None else (),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal now, maybe not later

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.turn} to {self._phase.value}"
        return f"<Hand {len(self._players)} players, {state}>"
