"""What the captures of a deal are worth: expected deal points from the piles so far.

``material(piles, scope, rules, side)`` estimates, for one side, its expected deal points
minus its opponents': the scope and the single cards that score outright (settebello, re
bello, napola) count exactly, and the races (most cards, most coins, primiera) count as the
chance of winning minus the chance of losing, from the lead so far and what is left to take.
Everything here reads only capture piles, which every player sees, so any level may use it.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from scopa.engine import RE_BELLO, SETTEBELLO, Card, Rules, napola_points
from scopa.engine.cards import PRIMIERA_VALUES

_SQRT2 = math.sqrt(2.0)
_erf = math.erf

# Primiera value of each card id; the best value left in each suit is read from this.
_PRIM = tuple(PRIMIERA_VALUES[i >> 2] for i in range(40))
_SUITS_BY_PRIMIERA = tuple(tuple(sorted(range(s, 40, 4), key=lambda c: -_PRIM[c])) for s in range(4))
_SUIT_ORDER = tuple(tuple((c, _PRIM[c]) for c in cards) for cards in _SUITS_BY_PRIMIERA)

CARD_SPREAD = 1.1   # how widely the split of the cards still to take varies (times the square root)
COIN_SPREAD = 1.1
PRIMIERA_SPREAD = 0.5


def _race(lead: float, spread: float) -> float:
    """Chance of winning minus chance of losing a race whose final lead is lead plus noise."""
    if spread <= 0.0:
        return (lead > 0) - (lead < 0)
    a = _erf((lead - 0.5) / (spread * _SQRT2))
    b = _erf((-lead - 0.5) / (spread * _SQRT2))
    return 0.5 * (a - b)


def side_points(piles: Sequence[Sequence[Card]], scope: Sequence[int], rules: Rules) -> list[float]:
    """Each side's expected deal points relative to the others (sums to about zero with two sides)."""
    return _points(piles, scope, rules, *_pile_counts(piles))


def _pile_counts(piles: Sequence[Sequence[Card]]) -> tuple[list[int], list[int], list[list[int]], int]:
    """What ``_points`` reads of the piles: each side's cards, coins and best primiera value of
    each suit, and the cards taken (bit ``c`` for card ``c``)."""
    n = len(piles)
    counts = [len(p) for p in piles]
    coins = [0] * n
    best = []
    taken = 0
    for s, pile in enumerate(piles):
        b = [0, 0, 0, 0]
        k = 0
        for c in pile:
            taken |= 1 << c
            suit = c & 3
            if not suit:
                k += 1
            v = _PRIM[c]
            if v > b[suit]:
                b[suit] = v
        coins[s] = k
        best.append(b)
    return counts, coins, best, taken


def _suit_reading(suit: int, best: list[list[int]], taken: int) -> tuple[int, list[float]]:
    """The best primiera value still to be taken in ``suit``, and each side's share of its
    expected final primiera from that suit, if each card still to be taken goes to either side alike."""
    order = _SUIT_ORDER[suit]
    top = 0
    for ident, v in order:  # card ids, as in ``taken``
        if not taken >> ident & 1:
            top = v
            break
    terms = []
    for side_best in best:
        have = side_best[suit]
        e, p = 0.0, 0.5
        for ident, v in order:
            if v <= have:
                break
            if not taken >> ident & 1:
                e += p * v
                p *= 0.5
        terms.append(e + 2.0 * p * have)
    return top, terms


def _points(piles: Sequence[Sequence[Card]], scope: Sequence[int], rules: Rules, counts: list[int],
            coins: list[int], best: list[list[int]], taken: int,
            suits: list[tuple[int, list[float]]] | None = None) -> list[float]:
    """``side_points`` from the piles' counts (``_pile_counts``); ``suits``: the four suits'
    ``_suit_reading``, when already known."""
    n = len(piles)
    left = 40 - sum(counts)
    coins_left = 10 - sum(coins)
    if suits is None:
        suits = [_suit_reading(suit, best, taken) for suit in range(4)]
    # Expected final primiera per side (the suits' shares added in suit order); and the best
    # value still to be taken in each suit.
    expect = [0.0] * n
    for _, terms in suits:
        for s_ in range(n):
            expect[s_] += terms[s_]
    top = [reading[0] for reading in suits]
    totals = [b[0] + b[1] + b[2] + b[3] for b in best]
    card_spread = CARD_SPREAD * math.sqrt(left)
    coin_spread = COIN_SPREAD * math.sqrt(coins_left)
    # Outright points: scope, settebello, re bello, napola.
    own = [float(x) for x in scope]
    for s, pile in enumerate(piles):
        if taken >> SETTEBELLO & 1 and SETTEBELLO in pile:
            own[s] += 1.0
        if rules.re_bello and RE_BELLO in pile:
            own[s] += 1.0
        if rules.napola:
            own[s] += napola_points(pile)
    out = [0.0] * n
    for s in range(n):
        if n == 2:
            r_cards = r_coins = r_prim = 1 - s
            own_others = own[1 - s]
        else:
            others = [o for o in range(n) if o != s]
            r_cards = max(others, key=counts.__getitem__)
            r_coins = max(others, key=coins.__getitem__)
            r_prim = max(others, key=totals.__getitem__)
            own_others = sum(own[o] for o in others) / len(others)
        value = _race(counts[s] - counts[r_cards], card_spread)
        value += _race(coins[s] - coins[r_coins], coin_spread)
        mine, theirs = best[s], best[r_prim]
        open_ = 0.0
        for suit in range(4):
            gap = top[suit] - (min(theirs[suit], mine[suit]))
            if gap > 0:
                open_ += gap * gap
        if open_ == 0.0:
            lead = (totals[s] if all(mine) else -1) - (totals[r_prim] if all(theirs) else -1)
            value += (lead > 0) - (lead < 0)
        else:
            value += _race(expect[s] - expect[r_prim], PRIMIERA_SPREAD * math.sqrt(open_) + 1.0)
        out[s] = value + own[s] - own_others
    return out


def material(piles: Sequence[Sequence[Card]], scope: Sequence[int], rules: Rules, side: int) -> float:
    """``side``'s expected deal points minus its opponents', from the piles and scope so far."""
    return side_points(piles, scope, rules)[side]


def worth_tables(piles: Sequence[Sequence[Card]], scope: Sequence[int], rules: Rules,
                 side: int) -> list[list[float]]:
    """For every side ``t`` and card ``c``: how much ``side``'s material changes if ``t`` takes ``c``.

    A linear picture of the position around the current piles, cheap to add up for a capture
    of several cards: positive for cards this side takes, negative for cards others take.
    """
    return every_side_worth_tables(piles, scope, rules)[side]


def every_side_worth_tables(piles: Sequence[Sequence[Card]], scope: Sequence[int],
                            rules: Rules) -> list[list[list[float]]]:
    """``worth_tables`` for each side in turn (``[side]``), for the price of one: every trial
    capture's ``side_points`` gives every side's material at once."""
    sides = len(piles)
    counts, coins, best, taken = _pile_counts(piles)
    suits = [_suit_reading(suit, best, taken) for suit in range(4)]
    base = _points(piles, scope, rules, counts, coins, best, taken, suits)
    tables: list[list[list[float]]] = [[] for _ in range(sides)]
    held: set[Card] = set()
    for pile in piles:
        held.update(pile)
    for t in range(sides):
        rows = [[0.0] * 40 for _ in range(sides)]
        pile = tuple(piles[t])
        for c in range(40):
            if c in held:
                continue
            trial = list(piles)
            trial[t] = (*pile, Card(c))
            # The trial's counts are the position's with card c added to pile t (as _pile_counts would count it).
            trial_counts = counts.copy()
            trial_counts[t] += 1
            trial_coins = coins.copy()
            suit = c & 3
            if not suit:
                trial_coins[t] += 1
            trial_best = best.copy()
            if _PRIM[c] > best[t][suit]:
                trial_best[t] = best[t].copy()
                trial_best[t][suit] = _PRIM[c]
            # Only the suit of card c reads differently.
            trial_suits = suits.copy()
            trial_suits[suit] = _suit_reading(suit, trial_best, taken | 1 << c)
            points = _points(trial, scope, rules, trial_counts, trial_coins, trial_best, taken | 1 << c, trial_suits)
            for side in range(sides):
                rows[side][c] = points[side] - base[side]
        for side in range(sides):
            tables[side].append(rows[side])
    return tables  # cards already in a pile stay at 0: they can never be taken again


WorthTables = Callable[[Sequence[Sequence[Card]], Sequence[int], Rules], list[list[list[float]]]]


class WorthMemo:
    """``every_side_worth_tables`` kept by position (piles, scope and rules) for a player's moves.

    The expert reads the worth tables of the position before each play of the round that it
    weighs, and of its own position: from one of its moves to the next most of those positions
    are the same. The tables are the same numbers whenever they are asked for; treat them as
    read-only. At most ``LIMIT`` positions are kept (then it starts again).
    """

    LIMIT = 256

    def __init__(self) -> None:
        self._tables: dict[Any, list[list[list[float]]]] = {}

    def every_side(self, piles: Sequence[Sequence[Card]], scope: Sequence[int],
                   rules: Rules) -> list[list[list[float]]]:
        key = (tuple([tuple(pile) for pile in piles]), tuple(scope), rules)
        found = self._tables.get(key)
        if found is None:
            if len(self._tables) >= self.LIMIT:
                self._tables.clear()
            found = self._tables[key] = every_side_worth_tables(piles, scope, rules)
        return found
