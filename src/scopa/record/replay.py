"""A finished match played again from its seed and move log: the events of every play, in order.

The review, the statistics and the coach all read a match through ``replay_match``, so what
they tell is what the engine did, not a copy kept beside it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine import DealScore, DealScored, Event, GameState, MatchWon, Move, new_match
from ..match import MatchRecord


@dataclass(frozen=True)
class Step:
    """One play: who made it, from which position, and every event it caused."""

    number: int  # its place in the match's move log, from 0
    seat: int
    move: Move
    before: GameState  # the position it was played from
    events: tuple[Event, ...]  # may end with a new round dealt, the leftovers, the score, the result


@dataclass(frozen=True)
class DealReplay:
    """One deal: how it was dealt, its plays, and its score."""

    number: int
    opening: tuple[Event, ...]  # the deal started and the first round dealt, with the table
    steps: tuple[Step, ...]
    score: DealScore
    match_scores: tuple[int, ...]
    assisted: bool

    @property
    def result(self) -> MatchWon | None:
        """The end of the match, when this deal ended it."""
        events = self.steps[-1].events if self.steps else ()
        return next((e for e in events if isinstance(e, MatchWon)), None)


def replay_match(record: MatchRecord) -> tuple[DealReplay, ...]:
    """Every finished deal of ``record``, from its seed and move log (``ValueError`` if they disagree).

    Played on the engine's states directly: a ``MatchRecord`` copies its move log at every play."""
    state, opening = new_match(record.rules, record.seed, record.first_dealer)
    deals: list[DealReplay] = []
    steps: list[Step] = []
    for number, logged in enumerate(record.moves):
        if state.is_deal_over:
            deals.append(_deal(state, opening, steps, record))
            state, opening = state.next_deal()
            steps = []
        if logged.deal_number != state.deal_number or logged.seat != state.to_move:
            raise ValueError(f"Move {number + 1} does not belong where the log puts it.")
        before = state
        claimed: list[Event] = []
        if logged.claim is not None:  # Cirulla: the hand was shown just before this move
            if state.claimable() != logged.claim:
                raise ValueError(f"Move {number + 1} carries a claim that cannot be made there.")
            state, claimed = state.claim()
        state, events = state.apply(logged.move)
        steps.append(Step(number, logged.seat, logged.move, before, tuple(claimed + events)))
    if not state.is_deal_over:
        raise ValueError("The move log stops before the end of a deal.")
    deals.append(_deal(state, opening, steps, record))
    return tuple(deals)


def _deal(state: GameState, opening: list[Event], steps: list[Step], record: MatchRecord) -> DealReplay:
    scored = next(e for e in steps[-1].events if isinstance(e, DealScored))
    return DealReplay(state.deal_number, tuple(opening), tuple(steps), scored.score, scored.match_scores,
                      state.deal_number in record.assisted_deals)
