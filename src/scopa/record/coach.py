"""The coach: the expert level's opinion of each of the player's own plays in a finished deal.

The expert reads only the view its seat had at the time (``before.view(seat)``) and searches a
fixed number of sampled deals with a seed made from the match's seed and the play's place in
the log, so a review says the same every time and whichever deal it starts from. A play is
*marked* when the expert would have played differently and the difference is among the largest
of the deal (at most ``MARKS_PER_DEAL``, each worth at least ``MIN_COST`` points by its count).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..engine import SETTEBELLO, Card, GameState, Move, Scopa
from ..engine.scoring import grande_points, piccola_points
from ..engine.shuffle import Seed, seed_number
from ..players.expert import ExpertPlayer
from ..players.knowledge import sweep_values
from .replay import DealReplay, Step

SAMPLES = 48          # sampled deals per play: the same every time, about a hundredth of a second
MIN_COST = 0.25       # expected points a play must lose to be marked
MARKS_PER_DEAL = 2

Reason = Literal["scopa", "settebello", "runs", "sweep_left", "coins", "seven", "cards", "threw_coin",
                 "threw_primiera", "value"]
_PRIMIERA_RANKS = ("7", "6", "A")  # the cards worth most in the primiera


@dataclass(frozen=True)
class Advice:
    """What the expert thought of one play."""

    step: int  # the play's place in the match's move log
    seat: int
    played: Move
    better: Move | None  # None when the expert would have played the same
    cost: float  # expected points the play gave up, by the expert's count (0 when it agrees)
    reason: Reason | None
    marked: bool = False


def coach_deal(deal: DealReplay, seats: Iterable[int], match_seed: Seed, samples: int = SAMPLES) -> dict[int, Advice]:
    """Advice for every play of ``seats`` in the deal, by the play's place in the log; the most
    costly few marked."""
    seats = set(seats)
    advice = {step.number: advise(step, match_seed, samples) for step in deal.steps if step.seat in seats}
    costly = sorted((a for a in advice.values() if a.better is not None and a.cost >= MIN_COST),
                    key=lambda a: (-a.cost, a.step))[:MARKS_PER_DEAL]
    for a in costly:
        advice[a.step] = Advice(a.step, a.seat, a.played, a.better, a.cost, a.reason, marked=True)
    return advice


def advise(step: Step, match_seed: Seed, samples: int = SAMPLES) -> Advice:
    """The expert's opinion of one play, from the view its seat had."""
    view = step.before.view(step.seat)
    # Sample by sample: the review waits for the coach, and reading public trees across samples
    # doubles its time for no gain measured at this many samples (docs/opponents.md).
    expert = ExpertPlayer(seed=(seed_number(match_seed) * 1_000_003 + step.number) % 2**32, iterations=samples,
                          information_sets=False)
    values = dict(expert.move_values(view))
    best = next(iter(values))
    played = _same_move(step.move, values)
    if best == played:
        return Advice(step.number, step.seat, step.move, None, 0.0, None)
    cost = round(values[best] - values[played], 2)
    return Advice(step.number, step.seat, step.move, best, cost, reason(step.before, played, best))


def _same_move(move: Move, values: dict[Move, float]) -> Move:
    """The legal move equal to the logged one (its capture may be written in another order)."""
    return next((m for m in values if m.card == move.card and sorted(m.capture) == sorted(move.capture)), move)


def reason(before: GameState, played: Move, better: Move) -> Reason:
    """Why ``better`` beats ``played``, from what each does at once (the first that applies);
    between two cards thrown, what the one played gave the next seat a chance at."""
    after_played, events_played = before.apply(played)
    after_better, events_better = before.apply(better)
    if _sweeps(events_better) and not _sweeps(events_played):
        return "scopa"
    if _takes(better, SETTEBELLO) and not _takes(played, SETTEBELLO):
        return "settebello"
    if before.rules.grande_piccola:  # Cirulla: the grande and the piccola, points of their own
        side = before.rules.side_of(before.to_move)
        if _runs(after_better.piles[side]) > _runs(after_played.piles[side]):
            return "runs"
    if not after_played.is_deal_over and _sweepable(after_played) and not _sweepable(after_better):
        return "sweep_left"
    if _coins(better) > _coins(played):
        return "coins"
    if _sevens(better) > _sevens(played):
        return "seven"
    if len(_taken(better)) > len(_taken(played)):
        return "cards"
    if not played.capture and not better.capture:
        if played.card.suit == 0 and better.card.suit != 0:
            return "threw_coin"
        if played.card.rank in _PRIMIERA_RANKS and better.card.rank not in _PRIMIERA_RANKS:
            return "threw_primiera"
    return "value"


def _runs(pile: Iterable[Card]) -> int:
    """What a pile's grande and piccola are worth so far."""
    pile = tuple(pile)
    return grande_points(pile) + piccola_points(pile)


def _sweeps(events: Iterable[object]) -> bool:
    return any(isinstance(e, Scopa) for e in events)


def _taken(move: Move) -> tuple[Card, ...]:
    return (move.card, *move.capture) if move.capture else ()


def _takes(move: Move, card: Card) -> bool:
    return card in _taken(move)


def _coins(move: Move) -> int:
    return sum(1 for c in _taken(move) if c.suit == 0)


def _sevens(move: Move) -> int:
    return sum(1 for c in _taken(move) if c.rank == "7")


def _sweepable(state: GameState) -> bool:
    """The next seat could clear this table with a card of some value."""
    return bool(state.table) and bool(sweep_values(state.table, state.rules))
