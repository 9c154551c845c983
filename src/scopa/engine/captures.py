"""Which table cards a played card may take.

The capture rules (rules.md, "Capturing"):
1. A card equal in value to a table card must take exactly one such card.
2. Otherwise it may take any one group of two or more table cards whose values add up to it.
3. Otherwise it stays on the table.
Options change this: *faces match only* (J, Q, K take only an equal card and never join a
sum), *most cards* (among sums only the groups with the most cards are allowed) and
*asso piglia tutto* (an ace takes the whole table, or a table ace as a plain match).
"""
from __future__ import annotations

from typing import Sequence

from .cards import VALUES, Card
from .rules import Rules

Capture = tuple[Card, ...]

_ACE_RANK = 0
_FACE_MIN_ID = 28  # J is rank index 7: 7 * 4


_CACHE: dict[tuple[int, int, tuple[Card, ...]], list[Capture]] = {}
_CACHE_LIMIT = 200_000


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
        found = cache_captures(key, card, rules)
    return found


def cache_captures(key: tuple[int, int, tuple[Card, ...]], card: Card, rules: Rules) -> list[Capture]:
    """Compute and remember the captures for a cache key (see ``legal_captures``)."""
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    found = _CACHE[key] = _compute_captures(card, key[2], rules)
    return found


def _compute_captures(card: Card, table: tuple[Card, ...], rules: Rules) -> list[Capture]:
    rank = card >> 2  # card ids run rank * 4 + suit, so comparing ids compares values
    singles = [(c,) for c in table if c >> 2 == rank]
    if rank == 0 and rules.asso_piglia_tutto:
        if singles or not table:
            return singles
        return [tuple(sorted(table))]
    if singles:
        return singles
    if rules.faces_match_only and card >= _FACE_MIN_ID:
        return []
    limit = rank * 4  # only cards of lower value can be part of a sum (faces are >= 28 anyway)
    pool = sorted([c for c in table if c < limit])
    groups: list[Capture] = []
    _extend(pool, 0, rank + 1, (), groups)
    if rules.most_cards and len(groups) > 1:
        most = max(len(g) for g in groups)
        groups = [g for g in groups if len(g) == most]
    return groups


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
            found.append(chosen + (c,))
        else:
            _extend(pool, i + 1, remaining - v, chosen + (c,), found)


def is_sweep_capture(card: Card, capture: Capture, rules: Rules) -> bool:
    """True when this capture may count as a scopa if it clears the table.

    Under asso piglia tutto an ace that takes the whole table (not a table ace) is never a scopa.
    """
    if card < 4 and rules.asso_piglia_tutto:
        return any(c < 4 for c in capture)
    return True
