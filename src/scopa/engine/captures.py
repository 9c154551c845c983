"""Which table cards a played card may take.

The capture rules (docs/rules.md, "Capturing"):
1. A card equal in value to a table card must take exactly one such card.
2. Otherwise it may take any one group of two or more table cards whose values add up to it.
3. Otherwise it stays on the table.
Options change this: *faces match only* (J, Q, K take only an equal card and never join a
sum), *most cards* (among sums only the groups with the most cards are allowed) and
*asso piglia tutto* (an ace takes the whole table, or a table ace as a plain match).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from .cards import VALUES, Card
from .fifteen import FIFTEEN_MODES, fifteen_captures
from .rules import Rules, Variant

Capture = tuple[Card, ...]
Getter = Callable[[list[Card]], Capture]  # from the table sorted, one capture
Plan = tuple[list[Getter], ...]  # by the rank of the played card

_CACHE: dict[tuple[int, int, tuple[Card, ...]], list[Capture]] = {}
_CACHE_LIMIT = 200_000

# Bits of ``Rules.capture_mode``.
_FACES_MATCH_ONLY, _MOST_CARDS, _ASSO_PIGLIA_TUTTO = 1, 2, 4


def legal_captures(card: Card, table: Sequence[Card], rules: Rules) -> list[Capture]:
    """Every legal capture for ``card`` on ``table``; ``[]`` means the card stays on the table.

    Each capture is a tuple of table cards in ascending order. Single matches come
    as one-card tuples, one per matching table card (the player chooses which).
    The answer depends only on the card's value, the table and three options, so it is
    memoised: search asks the same question many times. Treat the list as read-only.
    """
    key = (rules.capture_mode, VALUES[card], tuple(table))
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = captures_for(card, key[2], rules.capture_mode)
    return found


def captures_for(card: Card, table: tuple[Card, ...], mode: int) -> list[Capture]:
    """``legal_captures`` without its memo (``mode`` is ``Rules.capture_mode``); a new list.

    Playing a deal meets a new table at nearly every turn, so the engine calls this directly.
    Scopa a 15 and Cirulla take by their own rules (``fifteen.py``).
    """
    if mode & FIFTEEN_MODES:
        return fifteen_captures(card, table, mode)
    ordered = sorted(table)
    ranks = tuple([c >> 2 for c in ordered])
    rank = card >> 2  # card ids run rank * 4 + suit, so comparing ids compares values
    if rank in ranks:  # a single match comes before any sum (and an ace takes a table ace)
        return [(c,) for c in table if c >> 2 == rank]
    return [get(ordered) for get in capture_plan(ranks, mode)[rank]]


def capture_plan(ranks: tuple[int, ...], mode: int) -> Plan:
    """What each rank takes from a table without an equal card, knowing only the table's ranks.

    ``ranks`` are the ranks of the table cards in ascending order (``ordered``), ``mode`` is
    ``Rules.capture_mode``. ``plan[rank]`` lists one getter per capture, in order: ``get(ordered)``
    is the capture's sorted tuple of cards. An empty list: the card stays on the table. Single
    matches are not in the plan (they come first and depend on the cards themselves).

    Memoised by ranks: a pattern such as (0, 1, 4, 4) recurs far more often than any one table,
    so the sum search runs once per pattern and each capture is built in C by an itemgetter.
    """
    plan = _PLANS.get((ranks, mode))
    if plan is None:
        plan = _make_plan(ranks, mode)
    return plan


_PLANS: dict[tuple[tuple[int, ...], int], Plan] = {}
_PLANS_LIMIT = 50_000


def _make_plan(ranks: tuple[int, ...], mode: int) -> Plan:
    groups: list[list[tuple[int, ...]]] = [[] for _ in range(10)]  # index groups by the rank they make
    _collect_sums(ranks, 0, 0, (), groups)
    plan: list[list[Getter]] = []
    for rank, sums in enumerate(groups):
        found = sums
        if rank == 0:  # no sum makes 1; under asso piglia tutto an ace takes the whole table
            plan.append([tuple] if mode & _ASSO_PIGLIA_TUTTO and ranks else [])
            continue
        if rank >= 7 and mode & _FACES_MATCH_ONLY:  # J, Q and K take only an equal card
            found = []
        if mode & _MOST_CARDS and len(found) > 1:  # only the groups with the most cards
            most = max(len(g) for g in found)
            found = [g for g in found if len(g) == most]
        plan.append([itemgetter(*g) for g in found])  # 2+ indices, so each getter gives a tuple
    if len(_PLANS) >= _PLANS_LIMIT:
        _PLANS.clear()
    result = _PLANS[ranks, mode] = tuple(plan)
    return result


def _collect_sums(ranks: tuple[int, ...], start: int, total: int, chosen: tuple[int, ...],
                  groups: list[list[tuple[int, ...]]]) -> None:
    """Depth-first, in lexicographic order: every group of 2+ indices whose values sum to 10 or less.

    ``ranks`` ascend, so once a card overshoots 10 every later one does too.
    """
    for i in range(start, len(ranks)):
        reached = total + ranks[i] + 1  # value = rank + 1
        if reached > 10:
            return
        picked = (*chosen, i)
        if len(picked) > 1:
            groups[reached - 1].append(picked)
        _collect_sums(ranks, i + 1, reached, picked, groups)


def sum_groups(target: int, pool: Sequence[Card]) -> list[Capture]:
    """Every group of two or more cards of ``pool`` whose values sum to ``target``, each sorted."""
    found: list[Capture] = []
    _extend(sorted(pool), 0, target, (), found)
    return [g for g in found if len(g) > 1]


def _extend(pool: Sequence[Card], start: int, remaining: int, chosen: tuple[Card, ...],
            found: list[Capture]) -> None:
    """Depth-first search for sums over a pool sorted by value (so it can stop early)."""
    for i in range(start, len(pool)):
        c = pool[i]
        v = (c >> 2) + 1
        if v > remaining:
            return
        if v == remaining:
            found.append((*chosen, c))
        else:
            _extend(pool, i + 1, remaining - v, (*chosen, c), found)


def is_sweep_capture(card: Card, capture: Capture, rules: Rules) -> bool:
    """True when this capture may count as a scopa if it clears the table.

    Under asso piglia tutto an ace that takes the whole table (not a table ace) is never a
    scopa. In Cirulla it is one under ``ace_scopa`` (the default), and without it never, even on
    a table worth 14: the ace takes it by its own rule, "without counting" (docs/rules.md, "Cirulla").
    """
    if card < 4 and (rules.asso_piglia_tutto or rules.variant is Variant.CIRULLA):
        return any(c < 4 for c in capture) or (rules.variant is Variant.CIRULLA and rules.ace_scopa)
    return True


def takes_whole_table(card: Card, capture: Capture, rules: Rules) -> bool:
    """An ace taking the whole table by its own rule (asso piglia tutto, Cirulla), not as a match or a sum."""
    return (card < 4 and (rules.asso_piglia_tutto or rules.variant is Variant.CIRULLA)
            and not any(c < 4 for c in capture))

