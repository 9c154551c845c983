"""The four rule-of-thumb levels: beginner, easy, medium and hard.

Each one scores its legal moves from its own ``PlayerView`` and plays the best, breaking
ties with its own seeded random generator, so a seed always gives the same game.
``hard_analysis`` is shared with the hints (``suggest_move``) and the expert's tie-breaks.
"""
from __future__ import annotations

import math
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


# Per capture value, what a worth table makes of the captures a card of that value has on a table:
# the largest and smallest sum of worth over a capture's cards among those that do not clear the
# table (``-inf`` and ``inf`` when there is none), the same among those that clear it, and whether
# one clears it. ``None``: a card of that value takes nothing there.
Extremes = tuple[float, float, float, float, bool]


class CaptureSums:
    """Each table's ``Extremes`` by capture value, for one set of worth tables (one row per side).

    The hard level scores a capture as a card's worth plus the sum of worth over the cards it
    takes (plus a sweep's worth when it clears the table), and keeps the best: for a given
    card's worth ``own``, ``own + s`` never decreases as ``s`` grows (floating-point rounding is
    monotonic), so the best capture is the one with the largest sum (the smallest, for a seat
    whose gains count against this side), and its value is the very number the capture-by-capture
    loop found. The sums depend only on the table and the worth tables, so readings that share
    the worth tables (the expert asks the hard level thousands of times a move, with its root's
    tables) share this memo. Treat its answers as read-only. It keeps at most ``LIMIT`` tables
    (about 2 kB each), then starts again: a long budget must not fill the memory.
    """

    LIMIT = 10_000

    def __init__(self, worth: list[list[float]], rules: Rules) -> None:
        self.worth = worth
        self.rules = rules
        self._memo: dict[tuple[int, tuple[Card, ...]], tuple[Extremes | None, ...]] = {}

    def of(self, side: int, table: tuple[Card, ...]) -> tuple[Extremes | None, ...]:
        """Index ``v`` (1..10; 0 unused): the ``Extremes`` of value ``v`` on ``table`` for ``side``'s row."""
        key = (side, table)
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= self.LIMIT:
                self._memo.clear()
            found = self._memo[key] = self._extremes(self.worth[side], table)
        return found

    def _extremes(self, row: list[float], table: tuple[Card, ...]) -> tuple[Extremes | None, ...]:
        out: list[Extremes | None] = [None]
        worth_of = row.__getitem__
        for takes in captures_by_value(table, self.rules)[1:]:
            if not takes:
                out.append(None)
                continue
            hi = hi_clear = -math.inf
            lo = lo_clear = math.inf
            clears = False
            for cap, cap_clears in takes:
                total = sum(map(worth_of, cap))  # sum(), as the hard level adds them (3.12 compensates)
                if cap_clears:  # comparisons rather than max() and min(): no calls
                    clears = True
                    if total > hi_clear:
                        hi_clear = total
                    if total < lo_clear:
                        lo_clear = total
                else:
                    if total > hi:
                        hi = total
                    if total < lo:
                        lo = total
            out.append((hi, lo, hi_clear, lo_clear, clears))
        return tuple(out)


class HardAnalyser:
    """Reads a view the way the hard level does: card counting, replies, partners, own hand.

    ``worth`` may come from a nearby position (the expert's root) to save recomputing it, and
    ``sums`` (``CaptureSums`` of those same worth tables) from earlier readings that used them.
    """

    SWEEP = 2.0    # what another seat's scopa is worth to it (a point; more counts the tempo too)
    REPLY = 1.0    # weight of the next player's expected best capture
    PLAN = 0.25    # weight of what the rest of the hand could take from the table left
    FOLLOW = 0.3   # weight of the seat after next (partner +, second opponent -)
    KEEP = 0.2     # cost of throwing a high card (it could take a sum later), per 10 of value

    def __init__(self, view: PlayerView, worth: list[list[float]] | None = None,
                 sums: CaptureSums | None = None) -> None:
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
        if sums is not None:
            if worth is not None and worth is not sums.worth:
                raise ValueError("sums must be read from the worth tables given.")
            self.worth = sums.worth
            self.sums = sums
        else:
            self.worth = worth if worth is not None else worth_tables(view.piles, view.scope, rules, self.side)
            self.sums = CaptureSums(self.worth, rules)
        n = rules.players
        self._four = n == 4
        self.next_seat = next_to_move(view.seat, n)
        self.after_seat = next_to_move(self.next_seat, n)
        plays_left = sum(view.hand_counts) + view.stock_count
        self.next_hand = next_hand_size(view, self.next_seat) if plays_left > 1 else 0
        self.next_last = plays_left == 2  # the next play ends the deal: no scopa for it
        self.after_hand = (next_hand_size(view, self.after_seat) if plays_left > 2 and self.after_seat != view.seat
                           else 0)
        # For the next seat and the one after, per capture value: the mean worth of that value's
        # unseen cards to the seat and the chance it holds one; the same for every move read
        # (filled in by ``_expected_best`` as values are met).
        self._next_odds: list[tuple[float, float] | None] = [None] * 11
        self._after_odds: list[tuple[float, float] | None] = [None] * 11

    def _expected_best(self, seat: int, hand: int, table: tuple[Card, ...], last: bool,
                       odds: list[tuple[float, float] | None]) -> tuple[float, float]:
        """Expected best capture (in this side's material) of ``seat`` drawing ``hand`` unseen cards
        (``odds``: that seat's, ``_next_odds`` or ``_after_odds``).

        Returns (expected gain signed for this side, chance that it can sweep).
        """
        if hand <= 0 or not table:
            return 0.0, 0.0
        side = seat % 2 if self._four else seat  # side_of
        mine = side == self.side
        sweep_worth = 0.0 if last else self.SWEEP
        by_value = self.sums.of(side, table)
        options = []
        sweep_chance = 0.0
        for v in self._values_unseen:
            extremes = by_value[v]
            if extremes is None:
                continue
            found = odds[v]
            if found is None:  # the mean worth of this value's unseen cards, and the chance of one
                cards_v = self._unseen_of_value[v]
                row = self.worth[side]
                found = odds[v] = (sum([row[c] for c in cards_v]) / len(cards_v),
                                   chance_holds(len(self.unseen), len(cards_v), hand))
            own, p = found
            hi, lo, hi_clear, lo_clear, clears = extremes
            # The best capture of this value (``CaptureSums``: the largest sum, or the smallest
            # for a seat of another side, whose gain counts against this one), signed for this side.
            if mine:
                best = own + hi
                value = own + hi_clear + sweep_worth
            else:
                best = -(own + lo)
                value = -(own + lo_clear) + sweep_worth
            if value > best:
                best = value
            if clears and not last:
                sweep_chance = 1.0 - (1.0 - sweep_chance) * (1.0 - p)
            if best > 0:
                options.append((best, p))
        options.sort(reverse=True)
        expected, none_better = 0.0, 1.0
        for value, p in options:
            expected += value * p * none_better
            none_better *= 1.0 - p
        return (expected if mine else -expected), sweep_chance

    def _read(self, move: Move) -> tuple[float, bool, tuple[Card, ...], float, float, float, float, float]:
        """``analyse`` but the table's sweep values: gain, sweep, table left, reply, risk, follow,
        plan and total."""
        view = self.view
        card, capture = move
        mine = self.worth[self.side]
        table = view.table
        if capture:
            gain = mine[card] + sum([mine[c] for c in capture])
            sweep = len(capture) == len(table) and not self.last and is_sweep_capture(card, capture, self.rules)
            if sweep:
                gain += 1.0
            rest = tuple([c for c in table if c not in capture])  # table_after
        else:
            gain = 0.0
            sweep = False
            rest = tuple(sorted((*table, card)))
        reply, risk = self._expected_best(self.next_seat, self.next_hand, rest, self.next_last, self._next_odds)
        follow = 0.0
        if self.after_hand:
            follow, _ = self._expected_best(self.after_seat, self.after_hand, rest, False, self._after_odds)
        plan = 0.0
        hand_left = list(view.hand)
        hand_left.remove(card)
        if hand_left and rest:
            by_value = self.sums.of(self.side, rest)
            best = 0.0
            for held in hand_left:
                extremes = by_value[(held >> 2) + 1]
                if extremes is not None:  # its best capture there (``CaptureSums``), a sweep a point more
                    best = max(best, mine[held] + extremes[0], mine[held] + extremes[2] + 1.0)
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
