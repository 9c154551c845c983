"""Achievements: what the results log shows the player has earned, and the match that earned each.

Worked out from the log every time, so a review changes nothing.
Two kinds: a *deal* achievement (a scopa, the settebello...) is earned by one deal, so it is
known, and announced, when that deal ends; a deal played with a hint or a tip earns none. A
*match* achievement (beating a level, winning a scopone or online) is earned by a whole match,
known when it ends; a match played with any help earns none. In scopa a perdere, where points
count against their taker, the deal that ends the match with the player losing earns none.
Online, a deal in which a computer played some of the player's seat (covered while they were
away, or a turn whose time ran out) is help too: the client logs it assisted for that player
(``net.client.client.checked_record``).
Each achievement belongs to the first match that earned it and is announced once: the log holds
only finished matches, so what was announced in a match not finished yet is recorded apart
(``storage.announced``), and Statistics lists it too.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..players import LEVELS
from .stats import DealFacts, MatchFacts

Condition = Callable[[MatchFacts], bool]
DealCondition = Callable[[DealFacts], bool]


def _beat(level: str) -> Condition:
    return lambda match: match.won and level in match.levels


DEAL_ACHIEVEMENTS: tuple[tuple[str, DealCondition], ...] = (
    ("first_scopa", lambda d: d.own_scopa),
    ("first_settebello", lambda d: d.own_settebello),
    ("all_four", lambda d: d.all_four),
    ("napola", lambda d: d.napola),
)
MATCH_ACHIEVEMENTS: tuple[tuple[str, Condition], ...] = (
    *((f"beat_{level}", _beat(level)) for level in LEVELS),
    ("won_scopone", lambda m: m.won and m.variant.startswith("scopone")),
    ("won_online", lambda m: m.won and m.online),
)
DEAL_KEYS = frozenset(key for key, _ in DEAL_ACHIEVEMENTS)


def _by_a_deal(condition: DealCondition) -> Condition:
    return lambda match: any(condition(deal) and not deal.assisted and not deal.lost_perdere
                             for deal in match.deals)


def _by_the_match(condition: Condition) -> Condition:
    return lambda match: not match.assisted and condition(match)


# In the order Statistics lists them: whether a match (so far) shows each.
ACHIEVEMENTS: tuple[tuple[str, Condition], ...] = (
    *((key, _by_a_deal(condition)) for key, condition in DEAL_ACHIEVEMENTS),
    *((key, _by_the_match(condition)) for key, condition in MATCH_ACHIEVEMENTS),
)


@dataclass(frozen=True)
class Earned:
    key: str
    when: str  # the date of the match that earned it
    index: int  # that match's place in the log


def earned(matches: Sequence[MatchFacts], announced: Mapping[str, str] | None = None) -> list[Earned]:
    """Every achievement earned so far, in the order of ``ACHIEVEMENTS``, each by the first match that shows it.

    ``announced``: the date each achievement was announced (``storage.announced``). One
    announced in a match not finished (so not in the log) is earned all the same, at that date
    (its index is -1); one in the log is dated when it was announced, where that is known."""
    announced = announced or {}
    found = []
    for key, condition in ACHIEVEMENTS:
        first = next((m for m in matches if condition(m)), None)
        if first is not None:
            found.append(Earned(key, announced.get(key, first.when), first.index))
        elif key in announced:
            found.append(Earned(key, announced[key], -1))
    return found


def newly_earned(match: MatchFacts, earlier: Iterable[MatchFacts | None], told: int = 0) -> list[Earned]:
    """The achievements ``match`` earned that none of the ``earlier`` matches had.

    ``told``: the match's first ``told`` deals were announced when they ended, so what one of
    them earned is not new. At the end of a deal that did not end the match, ``match`` is the
    match so far and ``told`` all its deals but the last: only deal achievements can be new.
    ``earlier`` is read lazily, oldest first, and only while some achievement is still in
    question, so a deal or a match that earns nothing reads no log at all, and one that does
    rarely replays the whole log (``None`` stands for an entry that cannot be replayed)."""
    said = replace(match, deals=match.deals[:told])
    wanted = [(key, condition) for key, condition in ACHIEVEMENTS
              if condition(match) and not (key in DEAL_KEYS and condition(said))]
    for other in earlier:
        if not wanted:
            break
        if other is not None:
            wanted = [(key, condition) for key, condition in wanted if not condition(other)]
    return [Earned(key, match.when, match.index) for key, _ in wanted]
