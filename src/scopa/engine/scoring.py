"""Scoring a finished deal (rules.md, "Scoring a deal").

Cards, coins and primiera go to the side with strictly the most (with two sides that is
"more than 20 cards" and "more than 5 coins"); ties score nothing. Settebello, re bello,
napola and each scopa belong to one side outright.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from .cards import PRIMIERA_VALUES, RE_BELLO, SETTEBELLO, Card, Suit
from .rules import Rules

# Napola runs through the coins in rank order: A, 2, 3, then 4, 5, 6, 7, J, Q, K.
_COIN_RUN = tuple(Card(rank * 4 + Suit.COINS) for rank in range(10))


class Category(str, Enum):
    """A scoring category, in the order a score sheet lists them."""

    CARDS = "cards"
    COINS = "coins"
    SETTEBELLO = "settebello"
    PRIMIERA = "primiera"
    SCOPE = "scope"
    NAPOLA = "napola"
    RE_BELLO = "re_bello"


@dataclass(frozen=True)
class Primiera:
    """A side's primiera: its best card in each suit and their total, or the suits it lacks."""

    cards: tuple[Card, ...]
    total: int
    missing: tuple[Suit, ...]

    @property
    def eligible(self) -> bool:
        return not self.missing


@dataclass(frozen=True)
class SideScore:
    """Everything one side counted in a deal, and the points it earned."""

    side: int
    cards: int
    coins: int
    settebello: bool
    primiera: Primiera
    scope: int
    napola: int
    re_bello: bool
    points: dict[Category, int]

    @property
    def total(self) -> int:
        return sum(self.points.values())


@dataclass(frozen=True)
class DealScore:
    """The whole breakdown of a deal: one ``SideScore`` per side and who took each category.

    ``awarded[category]`` is the side that scored that single-winner category, or ``None``
    when it was tied or nobody qualified. Scope and napola are in each side's points.
    """

    sides: tuple[SideScore, ...]
    awarded: dict[Category, int | None]
    categories: tuple[Category, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.sides)


def primiera(pile: Sequence[Card]) -> Primiera:
    """Best primiera card per suit (ties among J/Q/K take the highest rank) and the total."""
    best_value = [0, 0, 0, 0]
    best: list[Card | None] = [None, None, None, None]
    for card in pile:
        suit = card & 3
        value = PRIMIERA_VALUES[card >> 2]
        if value > best_value[suit] or (value == best_value[suit] and card > best[suit]):
            best_value[suit] = value
            best[suit] = card
    chosen = tuple(c for c in best if c is not None)
    if len(chosen) < 4:
        return Primiera(chosen, 0, tuple(Suit(s) for s in range(4) if best[s] is None))
    return Primiera(chosen, sum(best_value), ())


def napola_points(pile: Sequence[Card]) -> int:
    """3 for A, 2, 3 of coins, plus one for each further coin in an unbroken run; else 0."""
    held = set(pile)
    run = 0
    for card in _COIN_RUN:
        if card not in held:
            break
        run += 1
    return run if run >= 3 else 0


def _strict_winner(values: Sequence[int]) -> int | None:
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    return winners[0] if len(winners) == 1 else None


def score_deal(piles: Sequence[Sequence[Card]], scope: Sequence[int], rules: Rules) -> DealScore:
    """Score complete capture piles (leftovers already taken) with each side's scope count."""
    n = len(piles)
    cards = [len(p) for p in piles]
    coins = [sum(1 for c in p if not c & 3) for p in piles]  # suit bits 0 are coins
    prims = [primiera(p) for p in piles]
    holder_7 = next((i for i, p in enumerate(piles) if SETTEBELLO in p), None)
    holder_k = next((i for i, p in enumerate(piles) if RE_BELLO in p), None)
    eligible = [pr.total if pr.eligible else -1 for pr in prims]
    prim_winner = _strict_winner(eligible) if max(eligible) >= 0 else None

    categories = [Category.CARDS, Category.COINS, Category.SETTEBELLO, Category.PRIMIERA, Category.SCOPE]
    awarded: dict[Category, int | None] = {
        Category.CARDS: _strict_winner(cards),
        Category.COINS: _strict_winner(coins),
        Category.SETTEBELLO: holder_7,
        Category.PRIMIERA: prim_winner,
    }
    napola = [napola_points(p) if rules.napola else 0 for p in piles]
    if rules.napola:
        categories.append(Category.NAPOLA)
    if rules.re_bello:
        categories.append(Category.RE_BELLO)
        awarded[Category.RE_BELLO] = holder_k

    sides = []
    for side in range(n):
        points = {cat: int(awarded.get(cat) == side) for cat in categories if cat in awarded}
        points[Category.SCOPE] = scope[side]
        if rules.napola:
            points[Category.NAPOLA] = napola[side]
        ordered = {cat: points[cat] for cat in categories}
        sides.append(SideScore(side, cards[side], coins[side], holder_7 == side, prims[side],
                               scope[side], napola[side], holder_k == side, ordered))
    return DealScore(tuple(sides), awarded, tuple(categories))
