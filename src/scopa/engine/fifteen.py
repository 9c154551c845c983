"""Captures and deal rules of the games that capture by making fifteen: Scopa a 15 and Cirulla.

docs/rules.md, "Scopa a 15" and "Cirulla":

* **Scopa a 15** (Escoba): a card takes any group of one or more table cards whose values,
  added to its own, make 15. There is no single-card priority: every such group may be taken.
* **Cirulla**: a card takes as in Scopa (an equal card first; otherwise a group adding up to
  it, and among those only the groups with the fewest cards), or any group that makes 15 with
  it. An ace takes the whole table unless an ace lies on it; with an ace on it the played ace
  takes as any other card does.
* In both, a card that can take must take, and the four cards first laid on the table go to
  the dealer when they make 15 (one scopa) or 30 (two scopas). In Cirulla two or more aces
  among them mean the cards are shuffled and dealt again. The options of the first table
  (``opening_scope``): Scopa a 15's ``opening_to_leader`` and ``opening_pairs``, Cirulla's
  ``matta_table`` and ``table_nine``.

Like ``captures.capture_plan`` the sum search depends only on the ranks of the table, so it is
memoised by the table's ranks; ``captures.captures_for`` hands these games over to ``fifteen_captures``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import Card
from .cirulla import MATTA
from .rules import Rules, Variant

Capture = tuple[Card, ...]
Getter = Callable[[list[Card]], Capture]

# Bits of ``Rules.capture_mode`` (captures.py has the others).
SCOPA_15_MODE, CIRULLA_MODE = 8, 16
FIFTEEN_MODES = SCOPA_15_MODE | CIRULLA_MODE
FIFTEEN_TOTAL = 15


def fifteen_captures(card: Card, table: Sequence[Card], mode: int) -> list[Capture]:
    """Every legal capture of ``card`` on ``table`` in Scopa a 15 or Cirulla (``mode`` says which).

    Each capture is a sorted tuple of table cards; ``[]`` means the card stays on the table.
    Cirulla's single matches come first, in table order, then the plan's captures.
    """
    ordered = sorted(table)
    ranks = tuple([c >> 2 for c in ordered])
    rank = card >> 2
    found: list[Capture] = []
    if mode & CIRULLA_MODE and rank in ranks:
        found = [(c,) for c in table if c >> 2 == rank]
    found.extend(get(ordered) for get in fifteen_plan(ranks, mode)[rank])
    return found


def fifteen_plan(ranks: tuple[int, ...], mode: int) -> tuple[list[Getter], ...]:
    """What each rank takes from a table of these ranks (ascending), but Cirulla's single matches.

    ``plan[rank]`` holds one getter per capture: ``get(ordered)`` is its sorted tuple of cards.
    """
    key = (ranks, mode)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= _PLANS_LIMIT:
            _PLANS.clear()
        plan = _PLANS[key] = _make_plan(ranks, mode)
    return plan


_PLANS: dict[tuple[tuple[int, ...], int], tuple[list[Getter], ...]] = {}
_PLANS_LIMIT = 50_000


def _make_plan(ranks: tuple[int, ...], mode: int) -> tuple[list[Getter], ...]:
    by_total: list[list[tuple[int, ...]]] = [[] for _ in range(FIFTEEN_TOTAL)]  # index groups by their total
    _collect(ranks, 0, 0, (), by_total)
    cirulla = bool(mode & CIRULLA_MODE)
    has_ace = 0 in ranks
    plan: list[list[Getter]] = []
    for rank in range(10):
        value = rank + 1
        groups: list[tuple[int, ...]] = []
        if cirulla and rank == 0 and not has_ace:
            plan.append([tuple] if ranks else [])  # the ace takes the whole table
            continue
        if cirulla and rank not in ranks:  # Scopa's sum, with the fewest cards
            sums = [g for g in by_total[value] if len(g) > 1]
            if sums:
                fewest = min(len(g) for g in sums)
                groups = [g for g in sums if len(g) == fewest]
        groups.extend(by_total[FIFTEEN_TOTAL - value])  # what makes fifteen with the card (never a sum's total)
        plan.append([_getter(g) for g in groups])
    return tuple(plan)


def _getter(group: tuple[int, ...]) -> Getter:
    """A function from the sorted table to the capture's tuple of cards (one index too)."""
    if len(group) == 1:
        index = group[0]
        return lambda ordered: (ordered[index],)
    return lambda ordered: tuple([ordered[i] for i in group])


def _collect(ranks: tuple[int, ...], start: int, total: int, chosen: tuple[int, ...],
             by_total: list[list[tuple[int, ...]]]) -> None:
    """Depth-first in lexicographic order: every group of 1+ indices whose values total 14 or less."""
    for i in range(start, len(ranks)):
        reached = total + ranks[i] + 1
        if reached >= FIFTEEN_TOTAL:  # ranks ascend: every later card overshoots too
            return
        picked = (*chosen, i)
        by_total[reached].append(picked)
        _collect(ranks, i + 1, reached, picked, by_total)


def opening_scope(table: Sequence[Card], rules: Rules) -> int:
    """How many scope the first table is worth to whoever takes it (``opening_taker``); 0: it stays.

    15 is one scopa and 30 two (in Scopa a 15 under ``opening_pairs`` only as two pairs of 15);
    in Cirulla under ``table_nine`` a table worth 9 or less is three, and under ``matta_table``
    the matta among the four counts as whatever value is worth the most (docs/rules.md)."""
    if not rules.fifteen or not table:
        return 0
    values = [(c >> 2) + 1 for c in table]
    if rules.matta_table and MATTA in table:
        at = table.index(MATTA)
        return max(_opening_worth([*values[:at], v, *values[at + 1:]], rules) for v in range(1, 11))
    return _opening_worth(values, rules)


def _opening_worth(values: list[int], rules: Rules) -> int:
    total = sum(values)
    if total == FIFTEEN_TOTAL:
        return 1
    if total == 2 * FIFTEEN_TOTAL:  # two pairs of fifteen: some pair makes 15, and so do the other two
        pairs = any(values[i] + values[j] == FIFTEEN_TOTAL for i in range(len(values)) for j in range(i))
        return 2 if pairs or not rules.opening_pairs else 0
    if rules.table_nine and total <= TABLE_NINE:
        return 3
    return 0


TABLE_NINE = 9  # Cirulla's table_nine: a first table worth this much or less is three scope


def opening_taker(rules: Rules, dealer: int) -> int:
    """The seat that takes a first table worth scope: the dealer, or the leader under ``opening_to_leader``."""
    return (dealer - 1) % rules.players if rules.opening_to_leader else dealer


def variant_redeal(table: Sequence[Card], rules: Rules) -> bool:
    """Cirulla: two or more aces among the first table cards mean a new shuffle and deal."""
    return rules.variant is Variant.CIRULLA and sum(1 for c in table if c < 4) >= 2
