"""Game state of a whole match: legal moves, transitions, views and serialisation.

A ``GameState`` is immutable. ``apply(move)``, ``next_deal()`` and ``new_match(...)``
return a new state and the list of events the transition caused. The only randomness is
drawn from the match seed and the deal number (``shuffle.py``: the seed's type says which
shuffle), so a seed always gives the same deals and a saved state resumes with the very same stock.

Seats are numbered from 0. Play is counter-clockwise: after seat ``s`` comes seat
``(s - 1) % players``; the seat on the dealer's right (the next one) leads, and the deal
passes to the right after each deal. With two players this is simply alternation.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple, cast

from .captures import capture_plan, captures_for, is_sweep_capture, takes_whole_table
from .cards import ALL_CARDS, Card
from .cirulla import Claim, best_bonus, shown_cards
from .errors import (
    CANNOT_TAKE,
    DEAL_NOT_OVER,
    DEAL_OVER,
    MATCH_FIRST,
    MATCH_OVER,
    MUST_CAPTURE,
    NO_CLAIM,
    NOT_A_MOVE,
    NOT_IN_HAND,
    TAKES_NOTHING,
    IllegalMoveError,
    IllegalReason,
    ScopaError,
)
from .events import (
    CardPlayed,
    CardsCaptured,
    CardsDealt,
    CardStaysOnTable,
    DealScored,
    DealStarted,
    Event,
    HandClaimed,
    LeftoversTaken,
    MatchWon,
    OpeningTableTaken,
    Scopa,
)
from .fifteen import FIFTEEN_MODES, fifteen_captures, opening_scope, opening_taker, variant_redeal
from .rules import Rules
from .scoring import DealScore, score_deal
from .shuffle import Seed, deck_orders, is_seed, seed_json
from .shuffle import first_dealer as draw_first_dealer

FORMAT_VERSION = 1

# Named tuples built with tuple.__new__ skip the generated keyword-handling __new__:
# five times faster, and apply() is the engine's hot path (search calls it millions of times).
_make = tuple.__new__


class Phase(StrEnum):
    PLAYING = "playing"
    DEAL_OVER = "deal_over"
    MATCH_OVER = "match_over"


_PLAYING = Phase.PLAYING  # a global is found faster than an enum member


class Move(NamedTuple):
    """A card to play and the table cards it takes (empty: it stays on the table)."""

    card: Card
    capture: tuple[Card, ...] = ()

    def __str__(self) -> str:
        if not self.capture:
            return str(self.card)
        return f"{self.card} takes {' '.join(map(str, self.capture))}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"7D"``, ``"7D takes 3H 4C"`` or ``"7D 3H 4C"``."""
        words = [w for w in str(text).replace(",", " ").split() if w.lower() not in {"takes", "x", "+"}]
        if not words:
            raise ScopaError("No move given: write a card, then the cards it takes, like 7D takes 3H 4C.")
        cards = [Card.parse(w) for w in words]
        return cls(cards[0], tuple(sorted(cards[1:])))


class Play(NamedTuple):
    """One play of the current deal, as everyone at the table saw it."""

    seat: int
    card: Card
    capture: tuple[Card, ...]
    scopa: bool


# Two one-entry memos serve the usual loop: "moves = state.legal_moves(); state.apply(pick)",
# then "state.deal_score" once the deal is over. Each entry is replaced whole (so a reader never
# sees half of one) and holds the objects it is matched to by identity (so no other object can
# take their place in memory while it is there). So many matches in one process (a server's
# rooms, interleaved by asyncio or in threads) can only miss the memo, never read another
# match's entry: tests/test_engine_memos.py. Thread-local entries would spare threads those
# misses, but cost every call of the hot path a lookup, for a miss at most once per thread switch.
# The state that last answered legal_moves(), with a copy of its moves: apply() trusts those.
_LAST_LEGAL: tuple[Any, tuple[Move, ...]] = (None, ())
# The piles, scope and rules the last deal was scored from, and its DealScore.
_LAST_SCORE: tuple[Any, Any, Any, DealScore | None] = (None, None, None, None)


def next_seat(seat: int, players: int) -> int:
    """The seat that plays after ``seat`` (counter-clockwise: to the right)."""
    return (seat - 1) % players


def _shuffled_deal(rules: Rules, seed: Seed, deal_number: int) -> tuple[list[Card], int]:
    """The deck order for a deal and how many times it was reshuffled for kings on the table."""
    for redeals, deck in enumerate(deck_orders(seed, deal_number)):
        table = deck[:rules.table_size]
        if (not (rules.kings_redeal and sum(1 for c in table if c >= _FIRST_KING) >= 3)
                and not variant_redeal(table, rules)):
            return deck, redeals
    raise AssertionError("deck_orders never ends")


_FIRST_KING = 36  # card ids run rank * 4 + suit; the king is rank 9


class GameState(NamedTuple):
    """The whole position: rules, the current deal, and the match so far.

    Use ``new_match`` to make one. Hands, stock order and seed are private to the
    state: players see a ``PlayerView`` from ``view(seat)``. It is an immutable named
    tuple because search plays many thousands of deals a second through it.
    """

    rules: Rules
    seed: Seed  # a whole number: shuffle 1; 32 bytes: shuffle 2 (engine/shuffle.py)
    deal_number: int
    dealer: int
    to_move: int
    round: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    scope: tuple[int, ...]
    last_capturer: int | None
    history: tuple[Play, ...]
    match_scores: tuple[int, ...]
    deal_totals: tuple[tuple[int, ...], ...]
    phase: Phase
    winner: int | None
    redeals: int
    claims: tuple[Claim, ...] = ()  # Cirulla: the hands shown to claim a bonus in this deal

    # Queries ----------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def leader(self) -> int:
        return next_seat(self.dealer, self.rules.players)

    @property
    def is_deal_over(self) -> bool:
        return self.phase is not _PLAYING

    @property
    def is_match_over(self) -> bool:
        return self.phase is Phase.MATCH_OVER

    @property
    def deal_score(self) -> DealScore | None:
        """The score of the deal just finished (``None`` while it is being played)."""
        if self.phase is Phase.PLAYING:
            return None
        piles, scope, rules, score = _LAST_SCORE
        if piles is self.piles and scope is self.scope and rules is self.rules:
            return score  # the deal just finished: the very piles it was scored from
        return score_deal(self.piles, self.scope, self.rules, self.bonus_points())

    def bonus_points(self) -> tuple[int, ...]:
        """Each side's points from the Cirulla bonuses claimed in this deal."""
        points = [0] * self.rules.sides
        for claim in self.claims:
            points[self.rules.side_of(claim.seat)] += claim.points
        return tuple(points)

    def claimable(self) -> str | None:
        """Cirulla: the bonus the seat to move may claim now ("cirulla" or "tris"), else None.

        Only before the first card of a hand is played, once a hand, and only for a hand worth it."""
        if self.rules.variant.value != "cirulla" or self.phase is not _PLAYING:
            return None
        hand = self.hands[self.to_move]
        if len(hand) != self.rules.hand_size:
            return None
        if any(c.seat == self.to_move and c.round == self.round for c in self.claims):
            return None
        return best_bonus(hand)

    def claim(self) -> tuple[GameState, list[Event]]:
        """The seat to move shows its hand to claim its Cirulla bonus; ``IllegalMoveError`` if it has none.

        The seat is still to move: it plays a card next, its hand now public."""
        kind = self.claimable()
        if kind is None:
            raise IllegalMoveError("There is no bonus to claim now: a cirulla or three of a kind, shown "
                                   "before the hand's first card.", IllegalReason(NO_CLAIM, seat=self.to_move))
        seat = self.to_move
        claim = Claim(seat, self.round, kind, self.hands[seat])
        event = HandClaimed(seat, self.rules.side_of(seat), kind, claim.points, claim.cards)
        return self._replace(claims=(*self.claims, claim)), [event]

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    def legal_moves(self) -> list[Move]:
        """Every legal move for the seat to move, card by card in hand order."""
        global _LAST_LEGAL  # noqa: PLW0603 -- a module-wide memo on purpose (docs/architecture.md)
        if self.phase is not _PLAYING:
            return []
        moves = moves_for_hand(self.hands[self.to_move], self.table, self.rules)
        _LAST_LEGAL = (self, tuple(moves))  # a copy: the caller may change its list
        return moves

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know at a real table: never another hand, the stock order or the seed."""
        if not 0 <= seat < self.rules.players:
            raise ScopaError(f"There is no seat {seat + 1}: this game has {self.rules.players} seats.")
        return PlayerView(self.rules, seat, self.deal_number, self.dealer, self.to_move, self.round,
                          self.hands[seat], self.table, tuple(map(len, self.hands)), len(self.stock),
                          self.piles, self.scope, self.last_capturer, self.history, self.match_scores,
                          self.deal_totals, self.phase, self.winner, self.claims)

    # Transitions ------------------------------------------------------------
    def apply(self, move: Move | tuple[Card, Iterable[Card]]) -> tuple[GameState, list[Event]]:
        """Play a move for the seat to move. An illegal move raises ``IllegalMoveError``."""
        if self.phase is not _PLAYING:
            raise IllegalMoveError("The deal is over: no card can be played until the next deal.",
                                   IllegalReason(DEAL_OVER, seat=self.to_move))
        # Usually the move was just picked from this state's legal_moves(): then it needs no
        # checking, only swapping for the engine's own equal move (its own Card objects).
        last_state, last_moves = _LAST_LEGAL
        if last_state is self and move in last_moves:
            card, capture = last_moves[last_moves.index(move)]
        else:
            card, capture = self._checked(move)
        return self._play(card, capture)

    def apply_legal(self, move: Move) -> tuple[GameState, list[Event]]:
        """``apply`` for one of this very state's legal moves (from ``legal_moves()``, or ``moves_for_hand``
        of its hand and table), without checking it.

        For search, which applies each of a state's moves in turn and searches below each one
        between them: by the second move ``legal_moves`` has answered other states, so ``apply``
        would check every move again. Any other move gives a state no deal can reach."""
        if self.phase is not _PLAYING:
            raise IllegalMoveError("The deal is over: no card can be played until the next deal.",
                                   IllegalReason(DEAL_OVER, seat=self.to_move))
        return self._play(move[0], move[1])

    def _play(self, card: Card, capture: tuple[Card, ...]) -> tuple[GameState, list[Event]]:
        """The transition of ``apply``, for a legal card and capture (the engine's own cards)."""
        # One unpacking instead of a dozen field lookups (each a descriptor call on a named tuple).
        (rules, seed, deal_number, dealer, seat, round_, hands, table, stock, piles, scope, last_capturer,
         history, match_scores, deal_totals, _, _, redeals, claims) = self
        hand = hands[seat]
        i = hand.index(card)
        hands = (*hands[:seat], hand[:i] + hand[i + 1:], *hands[seat + 1:])
        hands_left = any(hands)
        last_play = not hands_left and not stock
        scopa = False
        if capture:
            side = seat % 2 if rules.players == 4 else seat
            left = []
            for c in table:  # the table without the capture (a loop: see moves_for_hand)
                if c not in capture:
                    left.append(c)
            table = tuple(left)
            piles = (*piles[:side], piles[side] + capture + (card,), *piles[side + 1:])
            # An ace taking the whole table: never a scopa under asso piglia tutto, in Cirulla as
            # the rules say (only aces ask).
            whole_table = no_scopa = False
            if card < 4:
                whole_table = takes_whole_table(card, capture, rules)
                no_scopa = not is_sweep_capture(card, capture, rules)
            events: list[Event] = [_make(CardPlayed, (seat, card)),
                                   _make(CardsCaptured, (seat, card, capture, whole_table))]
            last_capturer = seat
            if not table and not last_play and not no_scopa:
                scopa = True
                scope = (*scope[:side], scope[side] + 1, *scope[side + 1:])
                events.append(Scopa(seat, side, scope[side]))
        else:
            table = (*table, card)
            events = [_make(CardPlayed, (seat, card)), _make(CardStaysOnTable, (seat, card))]
        history = (*history, _make(Play, (seat, card, capture, scopa)))
        state = _make(GameState, (rules, seed, deal_number, dealer, (seat - 1) % rules.players, round_, hands,
                                  table, stock, piles, scope, last_capturer, history, match_scores, deal_totals,
                                  _PLAYING, None, redeals, claims))
        if last_play:
            return state._finish_deal(events)
        if not hands_left:
            return state._deal_round(events)
        return state, events

    def _checked(self, move: Any) -> tuple[Card, tuple[Card, ...]]:
        """The card and capture of a legal move (with the engine's own cards), or IllegalMoveError."""
        try:
            card, capture = move
        except (TypeError, ValueError):
            raise _not_a_move(self.to_move) from None
        if card.__class__ is not Card or capture.__class__ is not tuple:
            card, capture = _checked_move(move, self.to_move)
        seat = self.to_move
        if card not in self.hands[seat]:
            raise IllegalMoveError(f"Seat {seat + 1} does not hold {card}.", IllegalReason(NOT_IN_HAND, card, (), seat))
        options = captures_for(card, self.table, self.rules.capture_mode)
        if options:
            if capture not in options:
                capture = tuple(sorted(capture))
                if capture not in options:
                    raise _illegal_capture(card, capture, options, seat)
            return card, options[options.index(capture)]  # the engine's own Card objects
        if capture:
            raise _illegal_capture(card, capture, options, seat)
        return card, capture

    def next_deal(self) -> tuple[GameState, list[Event]]:
        """Start the next deal of the match: the deal passes to the right."""
        if self.phase is Phase.PLAYING:
            raise IllegalMoveError("The deal is still being played.", IllegalReason(DEAL_NOT_OVER))
        if self.phase is Phase.MATCH_OVER:
            raise IllegalMoveError("The match is over.", IllegalReason(MATCH_OVER))
        return _start_deal(self.rules, self.seed, self.deal_number + 1, next_seat(self.dealer, self.rules.players),
                           self.match_scores, self.deal_totals)

    def _deal_round(self, events: list[Event]) -> tuple[GameState, list[Event]]:
        rules = self.rules
        n, size, stock = rules.players, rules.hand_size, self.stock
        leader = (self.dealer - 1) % n  # self.leader, inlined
        hands: list[tuple[Card, ...]] = [()] * n
        for k in range(n):  # from the leader round to the right, ``size`` cards each
            hands[(leader - k) % n] = tuple(sorted(stock[k * size:(k + 1) * size]))
        stock = stock[n * size:]
        events.append(_make(CardsDealt, (self.round + 1, rules.rounds, size, len(stock), None)))
        return (_make(GameState, (rules, self.seed, self.deal_number, self.dealer, leader, self.round + 1,
                                  tuple(hands), self.table, stock, self.piles, self.scope, self.last_capturer,
                                  self.history, self.match_scores, self.deal_totals, Phase.PLAYING, None,
                                  self.redeals, self.claims)), events)

    def _finish_deal(self, events: list[Event]) -> tuple[GameState, list[Event]]:
        rules = self.rules
        piles, table = self.piles, self.table
        side = None if self.last_capturer is None else rules.side_of(self.last_capturer)
        if table and side is not None:
            piles = (*piles[:side], piles[side] + table, *piles[side + 1:])
            events.append(LeftoversTaken(self.last_capturer, side, tuple(sorted(table))))
            table = ()
        elif table:
            events.append(LeftoversTaken(None, None, tuple(sorted(table))))
        global _LAST_SCORE  # noqa: PLW0603 -- a module-wide memo on purpose (docs/architecture.md)
        score = score_deal(piles, self.scope, rules, self.bonus_points())
        _LAST_SCORE = (piles, self.scope, rules, score)
        totals = tuple(a + b for a, b in zip(self.match_scores, score.totals, strict=True))
        events.append(DealScored(self.deal_number, score, totals))
        winner, over = match_result(totals, rules, score.cappotto)
        if over:
            events.append(MatchWon(winner, totals))
        state = GameState(rules, self.seed, self.deal_number, self.dealer, self.to_move, self.round,
                          self.hands, table, self.stock, piles, self.scope, self.last_capturer, self.history,
                          totals, (*self.deal_totals, score.totals),
                          Phase.MATCH_OVER if over else Phase.DEAL_OVER, winner, self.redeals, self.claims)
        return state, events

    # Serialisation ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data holding everything, including the exact stock order and seed."""
        def cards(cs: Iterable[Card]) -> list[str]:
            return [str(c) for c in cs]

        return {
            "rules": self.rules.to_dict(), "seed": seed_json(self.seed), "deal_number": self.deal_number,
            "dealer": self.dealer, "to_move": self.to_move, "round": self.round,
            "hands": [cards(h) for h in self.hands], "table": cards(self.table), "stock": cards(self.stock),
            "piles": [cards(p) for p in self.piles], "scope": list(self.scope),
            "last_capturer": self.last_capturer,
            "history": [{"seat": p.seat, "card": str(p.card), "capture": cards(p.capture), "scopa": p.scopa}
                        for p in self.history],
            "match_scores": list(self.match_scores), "deal_totals": [list(t) for t in self.deal_totals],
            "phase": self.phase.value, "winner": self.winner, "redeals": self.redeals,
            "claims": [{"seat": c.seat, "round": c.round, "kind": c.kind, "cards": cards(c.cards)}
                       for c in self.claims],
        }

    # ``state_from_dict(data)`` (``scopa.engine``, from ``validation``) rebuilds a state from
    # ``to_dict`` data; anything inconsistent raises ``ScopaError``. It is a function and not a
    # method because validation builds on this module, and this module does not import it back.


def _as_card(card: Any) -> Card:
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 40:
        return ALL_CARDS[card]
    if isinstance(card, str):
        return Card.parse(card)
    raise TypeError(card)


def _not_a_move(seat: int | None = None) -> IllegalMoveError:
    return IllegalMoveError("A move is a card from the hand and the table cards it takes.",
                            IllegalReason(NOT_A_MOVE, seat=seat))


def _checked_move(move: Any, seat: int | None = None) -> tuple[Card, tuple[Card, ...]]:
    """The card and sorted capture of a move-like pair, or a clear error."""
    try:
        card, capture = move
        return _as_card(card), tuple(sorted(_as_card(c) for c in capture))
    except (TypeError, ValueError, IndexError):
        raise _not_a_move(seat) from None


def _illegal_capture(card: Card, capture: tuple[Card, ...], options: list[tuple[Card, ...]],
                     seat: int | None = None) -> IllegalMoveError:
    """The error for a capture the rules do not allow: an English sentence and its ``IllegalReason``."""
    if not options:
        code, text = TAKES_NOTHING, f"{card} takes nothing here: it stays on the table."
    elif not capture:
        code, text = MUST_CAPTURE, f"{card} must capture: a card that can take must take."
    elif len(options[0]) == 1 and len(capture) > 1 and options[0][0] >> 2 == card >> 2:
        code, text = MATCH_FIRST, f"{card} must take a single equal card: a match comes before a sum."
    else:
        code, text = CANNOT_TAKE, f"{card} cannot take {' '.join(map(str, capture))}."
    return IllegalMoveError(text, IllegalReason(code, card, tuple(capture), seat))


def moves_for_hand(hand: Iterable[Card], table: tuple[Card, ...], rules: Rules) -> list[Move]:
    """Every legal move for a hand on a table."""
    moves: list[Move] = []
    table = tuple(table)
    if rules.capture_mode & FIFTEEN_MODES:
        return _fifteen_moves(hand, table, rules.capture_mode)
    ordered = sorted(table)
    ranks = tuple([c >> 2 for c in ordered])
    plan = capture_plan(ranks, rules.capture_mode)  # as captures_for, once for the whole hand
    # Plain loops rather than comprehensions: with one to three items each, a comprehension's
    # own set-up (a function object and a frame in Python 3.11) costs more than its work.
    for card in hand:
        rank = card >> 2
        if rank in ranks:  # single matches come first
            matches = _MATCH_MOVES[card]
            for c in table:
                if c in matches:
                    moves.append(matches[c])
        elif plan[rank]:
            for get in plan[rank]:
                moves.append(_make(Move, (card, get(ordered))))
        else:
            moves.append(_STAY_MOVES[card])
    return moves


def _fifteen_moves(hand: Iterable[Card], table: tuple[Card, ...], mode: int) -> list[Move]:
    """``moves_for_hand`` in Scopa a 15 and Cirulla (fifteen.py has their captures)."""
    moves: list[Move] = []
    for card in hand:
        captures = fifteen_captures(card, table, mode)
        if captures:
            for capture in captures:
                moves.append(_make(Move, (card, capture)))
        else:
            moves.append(_STAY_MOVES[card])
    return moves


# Moves are immutable, so the commonest ones are made once: a card that stays on the table, and
# a card taking one table card of its rank (_MATCH_MOVES[card][table_card]).
_DECK = frozenset(ALL_CARDS)  # every card: ``PlayerView.unseen_cards`` takes the seen ones away
_STAY_MOVES = tuple(_make(Move, (card, ())) for card in ALL_CARDS)
_MATCH_MOVES = tuple({other: _make(Move, (card, (other,))) for other in ALL_CARDS if other >> 2 == card >> 2}
                     for card in ALL_CARDS)


def match_result(totals: tuple[int, ...], rules: Rules, cappotto: int | None = None) -> tuple[int | None, bool]:
    """(winning side or None, whether the match is over) after a complete deal.

    The leader is the side with the highest total, or with *a perdere* the lowest. A match
    ends once some side has reached the target and one side alone leads, by two points or
    more under *win by two* (which a single deal never has). ``cappotto``: the side that took
    all ten coins in the deal under Cirulla's cappotto option (``DealScore.cappotto``), which
    wins the match at once, whatever the totals.
    """
    if cappotto is not None:
        return cappotto, True
    standing = [-t for t in totals] if rules.a_perdere else list(totals)
    best = max(standing)
    leaders = [side for side, t in enumerate(standing) if t == best]
    if rules.target is None:
        return (leaders[0] if len(leaders) == 1 else None), True
    if max(totals) < rules.target or len(leaders) != 1:
        return None, False
    if rules.win_by_two and best - max(t for side, t in enumerate(standing) if side != leaders[0]) < 2:
        return None, False
    return leaders[0], True


def _start_deal(rules: Rules, seed: Seed, deal_number: int, dealer: int, match_scores: tuple[int, ...],
                deal_totals: tuple[tuple[int, ...], ...]) -> tuple[GameState, list[Event]]:
    deck, redeals = _shuffled_deal(rules, seed, deal_number)
    n = rules.players
    table = tuple(deck[:rules.table_size])
    stock = tuple(deck[rules.table_size:])
    leader = next_seat(dealer, n)
    empty = tuple(() for _ in range(rules.sides))
    state = GameState(rules, seed, deal_number, dealer, leader, 0, tuple(() for _ in range(n)), table, stock,
                      empty, (0,) * rules.sides, None, (), match_scores, deal_totals, Phase.PLAYING, None,
                      redeals)
    events: list[Event] = [DealStarted(deal_number, dealer, leader, redeals)]
    state, events = state._deal_round(events)
    first = cast(CardsDealt, events[-1])  # _deal_round ends with the round it dealt
    events[-1] = CardsDealt(first.round, first.rounds, first.cards_each, first.stock_left, table)
    scope = opening_scope(table, rules)
    if scope:  # Scopa a 15 and Cirulla: a first table making 15 or 30 goes to the dealer (or the leader)
        taker = opening_taker(rules, dealer)
        side = rules.side_of(taker)
        piles = tuple(table if s == side else () for s in range(rules.sides))
        scores = tuple(scope if s == side else 0 for s in range(rules.sides))
        state = state._replace(table=(), piles=piles, scope=scores, last_capturer=taker)
        events.append(OpeningTableTaken(taker, side, tuple(sorted(table)), scope))
    return state, events


def new_match(rules: Rules | None = None, seed: Seed = 0, first_dealer: int | None = None
              ) -> tuple[GameState, list[Event]]:
    """Start a match and deal its first deal. The first dealer is drawn from the seed unless given."""
    rules = rules or Rules()
    if not is_seed(seed):
        raise ScopaError("The seed must be a whole number or 32 bytes.")
    if first_dealer is None:
        first_dealer = draw_first_dealer(seed, rules.players)
    elif not 0 <= first_dealer < rules.players:
        raise ScopaError(f"There is no seat {first_dealer + 1} to deal.")
    zero = (0,) * rules.sides
    return _start_deal(rules, seed, 1, first_dealer, zero, ())


def new_deal(rules: Rules | None = None, seed: Seed = 0, dealer: int = 0) -> tuple[GameState, list[Event]]:
    """A single deal (whatever the target) for puzzles, lessons and benchmarks."""
    rules = rules or Rules()
    return new_match(rules, seed, dealer)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat knows at a real table.

    Its own hand, the table, how many cards every hand and the stock hold, every side's
    captured cards and scope (each capture was seen as it happened), this deal's plays,
    and the scores. Never another hand, never the stock order, never the seed.
    """

    rules: Rules
    seat: int
    deal_number: int
    dealer: int
    to_move: int
    round: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    piles: tuple[tuple[Card, ...], ...]
    scope: tuple[int, ...]
    last_capturer: int | None
    history: tuple[Play, ...]
    match_scores: tuple[int, ...]
    deal_totals: tuple[tuple[int, ...], ...]
    phase: Phase
    winner: int | None
    claims: tuple[Claim, ...] = ()  # Cirulla: hands shown to claim a bonus, public to every seat

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    @property
    def is_my_turn(self) -> bool:
        return self.phase is Phase.PLAYING and self.to_move == self.seat

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves when it is to move; otherwise an empty list."""
        if not self.is_my_turn:
            return []
        return moves_for_hand(self.hand, self.table, self.rules)

    def claimable(self) -> str | None:
        """Cirulla: the bonus this seat may claim now, as ``GameState.claimable`` says, from its own view."""
        if self.rules.variant.value != "cirulla" or not self.is_my_turn or len(self.hand) != self.rules.hand_size:
            return None
        if any(c.seat == self.seat and c.round == self.round for c in self.claims):
            return None
        return best_bonus(self.hand)

    def shown_hand(self, seat: int) -> tuple[Card, ...] | None:
        """Cirulla: what ``seat`` still holds of a hand it showed to claim a bonus this round, else None."""
        if not self.claims:
            return None
        return shown_cards(self.claims, seat, self.round, {p.card for p in self.history})

    def unseen_cards(self) -> frozenset[Card]:
        """Cards this seat has not seen: the other hands and the stock together (less any hand shown)."""
        # Set operations in C (the search asks this at every modelled reply); ``_DECK`` holds
        # ``ALL_CARDS`` themselves, so the answer holds the engine's own Card objects.
        unseen = _DECK.difference(self.hand, self.table, *self.piles)
        if self.claims:  # Cirulla: a hand shown to claim a bonus
            for other in range(self.rules.players):
                if other != self.seat:
                    unseen = unseen.difference(self.shown_hand(other) or ())
        return unseen
