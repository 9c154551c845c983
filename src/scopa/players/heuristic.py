"""The four rule-of-thumb levels: beginner, easy, medium and hard.

Each one scores its legal moves from its own ``PlayerView`` and plays the best, breaking
ties with its own seeded random generator, so a seed always gives the same game.
``hard_analysis`` is shared with the hints (``suggest_move``) and the expert's tie-breaks.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from scopa.engine import RE_BELLO, SETTEBELLO, Card, Move, PlayerView, Rules
from scopa.engine.captures import is_sweep_capture

from .evaluate import worth_tables
from .knowledge import (
    captures_by_value,
    chance_holds,
    is_last_play,
    next_hand_size,
    next_to_move,
    side_of,
    sweep_values,
    throw_cost,
    unseen_by_value,
)


def check_view(view: object) -> PlayerView:
    """Refuse anything but a ``PlayerView``: a computer seat never sees the whole game state."""
    if not isinstance(view, PlayerView):
        raise TypeError("A computer player sees only its own seat: give it state.view(seat), not "
                        f"a {type(view).__name__}.")
    return view


def _is_sweep(move: Move, table: Sequence[Card], rules: Rules, last: bool) -> bool:
    return (bool(move.capture) and len(move.capture) == len(table) and not last
            and is_sweep_capture(move.card, move.capture, rules))


def table_after(move: Move, table: Sequence[Card]) -> tuple[Card, ...]:
    if move.capture:
        taken = set(move.capture)
        return tuple(c for c in table if c not in taken)
    return tuple(sorted((*table, move.card)))


class _ScoringPlayer:
    """A level that scores each legal move and plays the best (ties broken by its seed)."""

    level = "base"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose_move(self, view: PlayerView) -> Move:
        check_view(view)
        moves = view.legal_moves()
        if not moves:
            raise ValueError("It is not this seat's turn: there is no move to choose.")
        if len(moves) == 1:
            return moves[0]
        scores = self.score_moves(view, moves)
        if view.rules.a_perdere:  # scopa a perdere: the points a move wins are to be avoided
            scores = [-s for s in scores]
        best = max(scores)
        ties = [m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self._rng.randrange(len(ties))]

    def score_moves(self, view: PlayerView, moves: list[Move]) -> list[float]:
        raise NotImplementedError


class BeginnerPlayer(_ScoringPlayer):
    """Any legal move, at random."""

    level = "beginner"

    def choose_move(self, view: PlayerView) -> Move:
        check_view(view)
        moves = view.legal_moves()
        if not moves:
            raise ValueError("It is not this seat's turn: there is no move to choose.")
        return moves[self._rng.randrange(len(moves))]


class EasyPlayer(_ScoringPlayer):
    """Captures first: the settebello, coins, sweeps and many cards; otherwise throws a plain card."""

    level = "easy"

    def score_moves(self, view: PlayerView, moves: list[Move]) -> list[float]:
        last = is_last_play(view)
        scores = []
        for move in moves:
            if move.capture:
                taken = (*move.capture, move.card)
                score = 10.0 + len(taken) + sum(2.0 for c in taken if not c & 3)
                if SETTEBELLO in taken:
                    score += 10.0
                if _is_sweep(move, view.table, view.rules, last):
                    score += 20.0
            else:
                card = move.card
                score = -(5.0 if card == SETTEBELLO else 0.0) - (2.0 if not card & 3 else 0.0)
            scores.append(score)
        return scores


# Medium: fixed worth of each card in points, by rank (primiera matters), plus coins and the bellos.
_RANK_WORTH = (0.10, 0.02, 0.03, 0.04, 0.05, 0.12, 0.25, 0.0, 0.0, 0.0)  # A..K, primiera weight
CARD_WORTH = 0.12
COIN_WORTH = 0.2


def static_worth(card: Card, rules: Rules) -> float:
    """A card's rough worth in points, the same whatever has been played."""
    worth = CARD_WORTH + _RANK_WORTH[card >> 2]
    if not card & 3:
        worth += COIN_WORTH
        if rules.napola and card < 12:
            worth += 0.3
    if card == SETTEBELLO:
        worth += 1.0
    if rules.re_bello and card == RE_BELLO:
        worth += 1.0
    return worth


class MediumPlayer(_ScoringPlayer):
    """Card worth with primiera, plus the risk of leaving a table the next player can sweep.

    A table "can be swept" when one card could clear it and a card of that value is still
    unseen (when all four are in sight, nobody can hold one).
    """

    level = "medium"
    SWEEP_RISK = 0.4  # about the chance the next player holds the one value that sweeps
    GIFT = 0.5        # share of a thrown card's worth the opponents may take

    def score_moves(self, view: PlayerView, moves: list[Move]) -> list[float]:
        rules = view.rules
        last = is_last_play(view)
        unseen = unseen_by_value(view.unseen_cards())
        scores = []
        for move in moves:
            if move.capture:
                score = sum(static_worth(c, rules) for c in move.capture) + static_worth(move.card, rules)
                if _is_sweep(move, view.table, rules, last):
                    score += 1.0
            else:
                score = -self.GIFT * static_worth(move.card, rules)
            rest = table_after(move, view.table)
            if not last and any(unseen[v] for v in sweep_values(rest, rules)):
                # The next player may clear it: a point for the scopa, and the cards go too.
                score -= self.SWEEP_RISK * (1.0 + sum(static_worth(c, rules) for c in rest))
            scores.append(score)
        return scores


@dataclass(frozen=True)
class MoveAnalysis:
    """The hard level's reading of one move, from public information only."""

    move: Move
    gain: float              # material this move takes for the side (sweep included)
    sweep: bool              # it clears the table for a scopa
    reply_loss: float        # expected best capture of the next player (an opponent), sweeps included
    sweep_risk: float        # chance the next player holds a card that clears the table left
    follow: float            # the seat after next: partner's chance (+) or another opponent's (-)
    plan: float              # what the rest of this hand could take from the table left
    table_left: tuple[Card, ...]
    sweep_with: tuple[int, ...]  # capture values that would clear the table left
    total: float


class HardAnalyser:
    """Reads a view the way the hard level does: card counting, replies, partners, own hand."""

    SWEEP = 2.0    # what another seat's scopa is worth to it (a point; more counts the tempo too)
    REPLY = 1.0    # weight of the next player's expected best capture
    PLAN = 0.25    # weight of what the rest of the hand could take from the table left
    FOLLOW = 0.3   # weight of the seat after next (partner +, second opponent -)
    KEEP = 0.2     # cost of throwing a high card (it could take a sum later), per 10 of value

    def __init__(self, view: PlayerView, worth: list[list[float]] | None = None) -> None:
        self.view = view
        self.rules = rules = view.rules
        self.side = side_of(rules, view.seat)
        self.last = is_last_play(view)
        self.unseen = sorted(view.unseen_cards())
        self._unseen_of_value: list[list[Card]] = [[] for _ in range(11)]  # in the order of ``unseen``
        for card in self.unseen:
            self._unseen_of_value[(card >> 2) + 1].append(card)
        self.counts = [len(cards) for cards in self._unseen_of_value]  # as ``unseen_by_value``
        # The capture values of which some card is unseen: the only ones another hand may hold.
        self._values_unseen = [v for v in range(1, 11) if self.counts[v]]
        # ``worth`` may come from a nearby position (the expert's root) to save recomputing it.
        self.worth = worth if worth is not None else worth_tables(view.piles, view.scope, rules, self.side)
        n = rules.players
        self.next_seat = next_to_move(view.seat, n)
        self.after_seat = next_to_move(self.next_seat, n)
        plays_left = sum(view.hand_counts) + view.stock_count
        self.next_hand = next_hand_size(view, self.next_seat) if plays_left > 1 else 0
        self.next_last = plays_left == 2  # the next play ends the deal: no scopa for it
        self.after_hand = (next_hand_size(view, self.after_seat) if plays_left > 2 and self.after_seat != view.seat
                           else 0)
        # Per (seat, hand size), per capture value: the mean worth of that value's unseen cards to
        # the seat and the chance it holds one; the same for every move read (``_value_odds``).
        self._odds: dict[tuple[int, int], list[tuple[float, float] | None]] = {}

    def _expected_best(self, seat: int, hand: int, table: tuple[Card, ...], last: bool) -> tuple[float, float]:
        """Expected best capture (in this side's material) of ``seat`` drawing ``hand`` unseen cards.

        Returns (expected gain signed for this side, chance that it can sweep).
        """
        if hand <= 0 or not table:
            return 0.0, 0.0
        rules = self.rules
        row = self.worth[side_of(rules, seat)]
        mine = side_of(rules, seat) == self.side
        sign = 1.0 if mine else -1.0
        sweep_worth = self.SWEEP
        takes = captures_by_value(table, rules)
        odds = self._odds.get((seat, hand))
        if odds is None:
            odds = self._odds[seat, hand] = [None] * 11
        options = []
        sweep_chance = 0.0
        for v in self._values_unseen:
            caps = takes[v]
            if not caps:
                continue
            found = odds[v]
            if found is None:
                found = odds[v] = self._value_odds(v, hand, row)
            own, p = found
            best = None
            sweeps = False
            for cap, clears in caps:
                value = sign * (own + sum([row[c] for c in cap]))
                if clears and not last:
                    value += sweep_worth
                    sweeps = True
                if best is None or value > best:
                    best = value
            if sweeps:
                sweep_chance = 1.0 - (1.0 - sweep_chance) * (1.0 - p)
            if best is not None and best > 0:
                options.append((best, p))
        options.sort(reverse=True)
        expected, none_better = 0.0, 1.0
        for value, p in options:
            expected += value * p * none_better
            none_better *= 1.0 - p
        return sign * expected, sweep_chance

    def _value_odds(self, v: int, hand: int, row: list[float]) -> tuple[float, float]:
        """The mean worth (``row``) of the unseen cards of value ``v``, and the chance that a hand
        of ``hand`` unseen cards holds at least one of them."""
        cards_v = self._unseen_of_value[v]
        own = sum([row[c] for c in cards_v]) / len(cards_v)
        return own, chance_holds(len(self.unseen), self.counts[v], hand)

    def _read(self, move: Move) -> tuple[float, bool, tuple[Card, ...], float, float, float, float, float]:
        """``analyse`` but the table's sweep values: gain, sweep, table left, reply, risk, follow,
        plan and total."""
        view, rules = self.view, self.rules
        card, capture = move
        mine = self.worth[self.side]
        gain = (mine[card] + sum([mine[c] for c in capture])) if capture else 0.0
        sweep = _is_sweep(move, view.table, rules, self.last)
        if sweep:
            gain += 1.0
        rest = table_after(move, view.table)
        reply, risk = self._expected_best(self.next_seat, self.next_hand, rest, self.next_last)
        follow = 0.0
        if self.after_hand:
            follow, _ = self._expected_best(self.after_seat, self.after_hand, rest, False)
        plan = 0.0
        hand_left = list(view.hand)
        hand_left.remove(card)
        if hand_left and rest:
            takes = captures_by_value(rest, rules)
            best = 0.0
            for held in hand_left:
                for cap, clears in takes[(held >> 2) + 1]:
                    value = mine[held] + sum([mine[c] for c in cap])
                    if clears:
                        value += 1.0
                    best = max(best, value)
            plan = best
        total = gain + self.REPLY * reply + self.FOLLOW * follow + self.PLAN * plan
        if not capture and hand_left:
            # High cards take sums later: throw low ones, other things equal.
            total -= throw_cost(card, self.KEEP)
        return gain, sweep, rest, reply, risk, follow, plan, total

    def analyse(self, move: Move) -> MoveAnalysis:
        gain, sweep, rest, reply, risk, follow, plan, total = self._read(move)
        return MoveAnalysis(move, gain, sweep, -reply, risk, follow, plan, rest,
                            tuple(sweep_values(rest, self.rules)) if rest and not self.next_last else (), total)

    def analyse_all(self, moves: list[Move]) -> list[MoveAnalysis]:
        return [self.analyse(m) for m in moves]

    def totals(self, moves: list[Move]) -> list[float]:
        """Each move's ``MoveAnalysis.total`` alone: what the levels that play by it need, without
        the rest of the reading (the search asks it at every reply it models)."""
        return [self._read(m)[7] for m in moves]


class HardPlayer(_ScoringPlayer):
    """Counts cards to weigh each reply, plays for its side, and plans with the rest of its hand."""

    level = "hard"

    def score_moves(self, view: PlayerView, moves: list[Move]) -> list[float]:
        return [round(total, 9) for total in HardAnalyser(view).totals(moves)]
