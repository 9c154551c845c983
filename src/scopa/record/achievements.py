"""Achievements: what the results log shows the player has earned, and the match that earned each.

Worked out from the log every time, so nothing is stored twice and a review changes nothing.
A match played with hints or tips (assisted) earns none. Each achievement belongs to the first
match that earned it; it is announced once, when that match is logged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..players import LEVELS
from .stats import MatchFacts

Condition = Callable[[MatchFacts], bool]


def _beat(level: str) -> Condition:
    return lambda match: match.won and level in match.levels


# In the order Statistics lists them.
ACHIEVEMENTS: tuple[tuple[str, Condition], ...] = (
    ("first_scopa", lambda m: any(d.own_scopa for d in m.deals)),
    ("first_settebello", lambda m: any(d.own_settebello for d in m.deals)),
    ("all_four", lambda m: any(d.all_four for d in m.deals)),
    ("napola", lambda m: any(d.napola for d in m.deals)),
    *((f"beat_{level}", _beat(level)) for level in LEVELS),
    ("won_scopone", lambda m: m.won and m.variant.startswith("scopone")),
    ("won_online", lambda m: m.won and m.online),
)


@dataclass(frozen=True)
class Earned:
    key: str
    when: str  # the date of the match that earned it
    index: int  # that match's place in the log


def earned(matches: Sequence[MatchFacts]) -> list[Earned]:
    """Every achievement earned so far, in the order of ``ACHIEVEMENTS``; assisted matches earn none."""
    found = []
    for key, condition in ACHIEVEMENTS:
        first = next((m for m in matches if not m.assisted and condition(m)), None)
        if first is not None:
            found.append(Earned(key, first.when, first.index))
    return found


def newly_earned(match: MatchFacts, earlier: Iterable[MatchFacts | None]) -> list[Earned]:
    """The achievements ``match`` earned that none of the ``earlier`` matches had.

    ``earlier`` is read lazily, oldest first, and only while some achievement is still in
    question, so logging a match rarely replays the whole log (``None`` stands for an entry
    that cannot be replayed)."""
    if match.assisted:
        return []
    wanted = [(key, condition) for key, condition in ACHIEVEMENTS if condition(match)]
    for other in earlier:
        if not wanted:
            break
        if other is not None and not other.assisted:
            wanted = [(key, condition) for key, condition in wanted if not condition(other)]
    return [Earned(key, match.when, match.index) for key, _ in wanted]
