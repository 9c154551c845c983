"""The facts of each logged match from the player's seat, and the sums the Statistics page says.

Pure: a list of ``MatchResult`` in, numbers out; the words are ``console``'s. The player is the
seat the result names (an online match: the seat this client played), otherwise the first human
seat of the match (the only one, unless several people passed one keyboard round).
A match the log cannot replay (an entry from before matches were kept, or one that does not
check) counts only in the number of matches played.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine import SETTEBELLO, CardsCaptured, Category, Scopa
from ..match import MatchRecord
from ..storage import MatchResult, SaveFileError, recorded_match
from .replay import DealReplay, replay_match

PEOPLE = "people"  # a human sat on the other side
MIXED = "mixed"    # computers of different levels on the other side


@dataclass(frozen=True)
class DealFacts:
    """One deal, for the player's side."""

    points: int
    scope: int
    settebello: bool
    coins: bool
    primiera: bool
    cards: bool
    napola: bool
    own_scopa: bool       # a scopa by the player's own seat
    own_settebello: bool  # the settebello taken by the player's own seat
    assisted: bool = False  # a hint or a tip was used in this deal
    lost_perdere: bool = False  # the deal that ended a scopa a perdere match the player lost: no achievement

    @property
    def all_four(self) -> bool:
        return self.cards and self.coins and self.settebello and self.primiera


@dataclass(frozen=True)
class MatchFacts:
    """One finished match from the player's seat."""

    index: int  # its place in the log, from 0
    when: str
    seat: int
    opponents: tuple[str, ...]  # the names on the other sides
    level: str  # a computer level, PEOPLE or MIXED
    levels: frozenset[str]  # the computer levels on the other sides
    variant: str  # "scopa_2", "scopa_3", "scopa_4", "scopone_scientifico", "scopone_classico", "scopa_15", "cirulla"
    won: bool
    drawn: bool
    scores: tuple[int, ...]  # the player's side first, then the others in seat order
    assisted: bool
    online: bool
    deals: tuple[DealFacts, ...]


def match_facts(result: MatchResult, index: int = 0) -> MatchFacts | None:
    """The facts of one logged match, or ``None`` when it cannot be replayed."""
    try:
        record = recorded_match(result)
    except SaveFileError:
        return None
    if record is None or not record.human_seats:
        return None
    try:
        deals = replay_match(record)
    except ValueError:
        return None
    return facts_of(record, deals, result.when, result.assisted, result.online, index, result.seat)


def facts_so_far(record: MatchRecord) -> MatchFacts | None:
    """The facts of a match being played here, at the end of one of its deals (not logged yet:
    no date, no place in the log); None between two plays or with no human seat."""
    if not record.human_seats:
        return None
    try:
        deals = replay_match(record)
    except ValueError:  # a deal under way
        return None
    return facts_of(record, deals, "", record.assisted, False, -1)


def facts_of(record: MatchRecord, deals: Sequence[DealReplay], when: str, assisted: bool, online: bool,
             index: int = 0, seat: int | None = None) -> MatchFacts:
    """The facts from ``seat`` (None: the first human seat)."""
    rules = record.rules
    seat = record.human_seats[0] if seat is None else seat
    side = rules.side_of(seat)
    others = [s for s in range(rules.players) if rules.side_of(s) != side]
    kinds = [record.seats[s] for s in others]
    levels = frozenset(s.level for s in kinds if not s.is_human and s.level)
    if any(s.is_human for s in kinds):
        level = PEOPLE
    elif len(levels) == 1:
        level = next(iter(levels))
    else:
        level = MIXED
    variant = rules.variant.value
    if variant == "scopa":
        variant = f"scopa_{rules.players}"
    final = record.state.match_scores
    scores = (final[side], *(v for i, v in enumerate(final) if i != side))
    winner = record.state.winner
    return MatchFacts(index, when, seat, tuple(record.seats[s].name for s in others), level, levels,
                      variant, winner == side, winner is None, scores, assisted, online,
                      tuple(_deal_facts(deal, seat, side, rules.a_perdere) for deal in deals))


def _deal_facts(deal: DealReplay, seat: int, side: int, a_perdere: bool = False) -> DealFacts:
    """``a_perdere``: the points of a deal count against the side that takes them, so the deal
    that ends such a match with the player's side losing it earns no achievement."""
    score = deal.score
    mine = score.sides[side]
    events = [e for step in deal.steps for e in step.events]
    own_scopa = any(isinstance(e, Scopa) and e.seat == seat for e in events)
    own_settebello = any(isinstance(e, CardsCaptured) and e.seat == seat and SETTEBELLO in (e.card, *e.cards)
                         for e in events)
    awarded = score.awarded
    return DealFacts(mine.total, mine.scope, awarded[Category.SETTEBELLO] == side, awarded[Category.COINS] == side,
                     awarded[Category.PRIMIERA] == side, awarded[Category.CARDS] == side, mine.napola > 0,
                     own_scopa, own_settebello, deal.assisted,
                     a_perdere and deal.result is not None and deal.result.side != side)


def all_facts(results: Sequence[MatchResult]) -> list[MatchFacts]:
    """The facts of every match the log can replay, oldest first."""
    found = (match_facts(result, index) for index, result in enumerate(results))
    return [facts for facts in found if facts is not None]


@dataclass(frozen=True)
class Totals:
    """Sums over a group of matches."""

    played: int
    won: int
    deals: int
    points: int
    scope: int
    settebello: int
    coins: int
    primiera: int
    best_streak: int

    def per_deal(self, count: int) -> float:
        return count / self.deals if self.deals else 0.0

    def share(self, count: int) -> int:
        """A count of deals as a whole percentage of the deals played."""
        return round(100 * count / self.deals) if self.deals else 0


def totals(matches: Iterable[MatchFacts]) -> Totals:
    """Played, won, and the per-deal sums of a group of matches (oldest first, for the streak)."""
    matches = list(matches)
    deals = [deal for match in matches for deal in match.deals]
    return Totals(len(matches), sum(m.won for m in matches), len(deals), sum(d.points for d in deals),
                  sum(d.scope for d in deals), sum(d.settebello for d in deals), sum(d.coins for d in deals),
                  sum(d.primiera for d in deals), best_streak(matches))


def best_streak(matches: Iterable[MatchFacts]) -> int:
    """The most matches won one after another (a draw or a loss ends a run)."""
    best = run = 0
    for match in matches:
        run = run + 1 if match.won else 0
        best = max(best, run)
    return best


def grouped(matches: Sequence[MatchFacts], key: str) -> dict[str, list[MatchFacts]]:
    """Matches by ``"level"`` or ``"variant"``, in the order each group first appears."""
    groups: dict[str, list[MatchFacts]] = {}
    for match in matches:
        groups.setdefault(getattr(match, key), []).append(match)
    return groups
