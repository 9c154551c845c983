"""Scoring a finished deal (docs/rules.md, "Scoring a deal").

Cards, coins and primiera go to the side with strictly the most (with two sides that is
"more than 20 cards" and "more than 5 coins"); ties score nothing. Settebello, re bello,
napola, Cirulla's grande and piccola and each scopa belong to one side outright. Cirulla's
cappotto (an option) is no points: a side that took all ten coins wins the match.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import PRIMIERA_VALUES, RE_BELLO, SETTEBELLO, Card, Suit
from .rules import Rules

# Napola runs through the coins in rank order: A, 2, 3, then 4, 5, 6, 7, J, Q, K.
_COIN_RUN = tuple(Card(rank * 4 + Suit.COINS) for rank in range(10))
# Cirulla's piccola: A, 2, 3 of coins, then the 4, 5 and 6 (the tournament rule stops at the six).
_PICCOLA_RUN = _COIN_RUN[:6]
# Cirulla's grande: K, Q, J of coins, then the 7 and the 6, downward.
_GRANDE_RUN = tuple(reversed(_COIN_RUN[5:]))
GRANDE_BASE, PICCOLA_BASE = 5, 3  # the points of the three cards that make each


class Category(StrEnum):
    """A scoring category, in the order a score sheet lists them."""

    CARDS = "cards"
    COINS = "coins"
    SETTEBELLO = "settebello"
    PRIMIERA = "primiera"
    SCOPE = "scope"
    NAPOLA = "napola"
    RE_BELLO = "re_bello"
    GRANDE = "grande"  # Cirulla: J, Q, K of coins and the run below them
    PICCOLA = "piccola"  # Cirulla: A, 2, 3 of coins and the run above them
    BONUS = "bonus"  # Cirulla's hand bonuses claimed in the deal


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
    bonus: int = 0  # Cirulla: the points of the hands this side claimed
    grande: int = 0  # Cirulla: the grande's points (0: none)
    piccola: int = 0  # Cirulla: the piccola's points (0: none)

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
    cappotto: int | None = None  # Cirulla's cappotto option: the side that took all ten coins wins the match

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.sides)


# Each suit's cards from the best primiera card down (7, 6, A, 5, 4, 3, 2, then K, Q, J: ties
# among the faces take the highest rank). The first card of this order a pile holds is its best.
_PRIMIERA_ORDER = tuple(tuple(sorted(((Card(rank * 4 + suit), PRIMIERA_VALUES[rank]) for rank in range(10)),
                                     key=lambda pair: (pair[1], pair[0]), reverse=True))
                        for suit in range(4))  # (card, primiera value) pairs
_COINS = frozenset(Card(rank * 4 + Suit.COINS) for rank in range(10))


def primiera(pile: Sequence[Card]) -> Primiera:
    """Best primiera card per suit (ties among J/Q/K take the highest rank) and the total."""
    return _primiera(set(pile))


def _primiera(held: set[Card] | frozenset[Card]) -> Primiera:
    chosen: list[Card] = []
    total = 0
    missing: list[Suit] = []
    for suit, order in enumerate(_PRIMIERA_ORDER):
        for card, value in order:
            if card in held:
                chosen.append(card)
                total += value
                break
        else:
            missing.append(Suit(suit))
    if missing:
        return Primiera(tuple(chosen), 0, tuple(missing))
    return Primiera(tuple(chosen), total, ())


def napola_points(pile: Iterable[Card]) -> int:
    """3 for A, 2, 3 of coins, plus one for each further coin in an unbroken run; else 0."""
    held = set(pile)
    run = 0
    for card in _COIN_RUN:
        if card not in held:
            break
        run += 1
    return run if run >= 3 else 0


def _run(held: set[Card], run: tuple[Card, ...]) -> int:
    """How many cards of ``run``, from its first, the pile holds without a gap."""
    count = 0
    for card in run:
        if card not in held:
            break
        count += 1
    return count


def piccola_points(pile: Iterable[Card]) -> int:
    """Cirulla's piccola: 3 for the A, 2, 3 of coins, one more for each next coin up to the six; else 0."""
    run = _run(set(pile), _PICCOLA_RUN)
    return PICCOLA_BASE + run - 3 if run >= 3 else 0


def grande_points(pile: Iterable[Card]) -> int:
    """Cirulla's grande: 5 for the K, Q, J of coins, one more for the 7 and one more for the 6; else 0."""
    run = _run(set(pile), _GRANDE_RUN)
    return GRANDE_BASE + run - 3 if run >= 3 else 0


def _strict_winner(values: Sequence[int]) -> int | None:
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    return winners[0] if len(winners) == 1 else None


def _holder(held: list[set[Card]], card: Card) -> int | None:
    """The side whose pile holds this card, if any."""
    for side, pile in enumerate(held):
        if card in pile:
            return side
    return None


_CARDS, _COINS_CAT, _SETTEBELLO, _PRIMIERA, _SCOPE, _NAPOLA, _RE_BELLO, _GRANDE, _PICCOLA, _BONUS = Category


def score_deal(piles: Sequence[Sequence[Card]], scope: Sequence[int], rules: Rules,
               bonus: Sequence[int] | None = None) -> DealScore:
    """Score complete capture piles (leftovers already taken) with each side's scope count.

    ``bonus``: each side's points from Cirulla's claimed hands (a category of Cirulla's sheet)."""
    held = [set(p) for p in piles]  # a pile holds each card once
    cards = [len(p) for p in piles]
    coins = [len(h & _COINS) for h in held]
    prims = [_primiera(h) for h in held]
    holder_7 = _holder(held, SETTEBELLO)
    holder_k = _holder(held, RE_BELLO)
    eligible = [pr.total if pr.eligible else -1 for pr in prims]
    prim_winner = _strict_winner(eligible) if max(eligible) >= 0 else None

    categories = [_CARDS, _COINS_CAT, _SETTEBELLO, _PRIMIERA, _SCOPE]
    awarded: dict[Category, int | None] = {
        _CARDS: _strict_winner(cards),
        _COINS_CAT: _strict_winner(coins),
        _SETTEBELLO: holder_7,
        _PRIMIERA: prim_winner,
    }
    napola = [napola_points(h) for h in held] if rules.napola else [0] * len(piles)
    if rules.napola:
        categories.append(_NAPOLA)
    if rules.re_bello:
        categories.append(_RE_BELLO)
        awarded[_RE_BELLO] = holder_k
    grande = piccola = (0,) * len(piles)
    if rules.grande_piccola:
        categories += [_GRANDE, _PICCOLA]
        grande = tuple(grande_points(h) for h in held)
        piccola = tuple(piccola_points(h) for h in held)
    cirulla = rules.variant.value == "cirulla"
    bonus = tuple(bonus) if bonus is not None else (0,) * len(piles)
    if cirulla:
        categories.append(_BONUS)
    cappotto = coins.index(len(_COINS)) if rules.cappotto and len(_COINS) in coins else None

    sides = []
    for side in range(len(piles)):
        # Keys in the order of ``categories``: the four single-winner ones, scope, then the options.
        points = {cat: int(awarded[cat] == side) for cat in (_CARDS, _COINS_CAT, _SETTEBELLO, _PRIMIERA)}
        points[_SCOPE] = scope[side]
        if rules.napola:
            points[_NAPOLA] = napola[side]
        if rules.re_bello:
            points[_RE_BELLO] = int(holder_k == side)
        if rules.grande_piccola:
            points[_GRANDE] = grande[side]
            points[_PICCOLA] = piccola[side]
        if cirulla:
            points[_BONUS] = bonus[side]
        sides.append(SideScore(side, cards[side], coins[side], holder_7 == side, prims[side],
                               scope[side], napola[side], holder_k == side, points, bonus[side],
                               grande[side], piccola[side]))
    return DealScore(tuple(sides), awarded, tuple(categories), cappotto)
