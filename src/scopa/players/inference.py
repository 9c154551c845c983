"""How likely the other seats' plays were, for one sampled deal: the expert's Bayesian weighting.

Each play another seat made in the current round of dealing was chosen from that seat's view
at the time: the table, piles and plays then (public) and its hand then, which is the hand the
sampled deal gives it now plus the cards it has played since (public too). ``PlayModel``
rebuilds that view for a sampled hand and asks how likely the actual play was if the seat
chooses as the hard level scores its moves (turned round a perdere, as it plays), softened: a softmax of the scores at
``temperature`` points, mixed with a share ``floor`` spread over every legal move, so no deal
is ever impossible (a seat may play as no model foresees).

``last`` reads only the most recent plays. In scopone, where the ten cards of a hand are
dealt at once and the round is the whole deal, reading every play of the round for every
sampled deal (each with the hard level's reading of a ten-card hand) cost so much that the
expert searched one or two deals a move at 0.1 s; there the expert reads the last three (the
other seats' last lap; ``ExpertPlayer.READ_PLAYS``). With hands of three cards it reads them all.

Plays of earlier rounds say nothing that differs between sampled deals: hands are dealt whole
each round, and every card of an earlier round's hand has since been played face up, so the
view that seat had then is the same in every sample. Only the expert's own ``PlayerView`` is
read; the hands it tries are the sampled ones, never the real ones.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from scopa.engine import Card, Move, Phase, PlayerView, moves_for_hand

from .evaluate import WorthTables, every_side_worth_tables
from .heuristic import CaptureSums, HardAnalyser
from .knowledge import initial_table, round_start


class PastPlay(NamedTuple):
    """One play of another seat this round, with the public part of the view it was made from."""

    seat: int
    capture: tuple[Card, ...]        # what the play took
    played_since: tuple[Card, ...]   # the cards this seat played from this play on, this one first
    view: PlayerView                 # that seat's view then, with an empty hand to fill in
    worth: list[list[float]]


def past_plays(view: PlayerView, tables: WorthTables = every_side_worth_tables,
               last: int | None = None) -> list[PastPlay]:
    """The other seats' plays of the current round, each with the public view it was made from
    (``tables``: every side's worth tables of a position, ``every_side_worth_tables`` or a memo of it);
    with ``last``, only the ``last`` most recent of them."""
    rules = view.rules
    sides = rules.sides
    table = sorted(initial_table(view))
    piles: list[tuple[Card, ...]] = [()] * sides
    scope = [0] * sides
    last_capturer = None
    start = round_start(view)
    history = view.history
    read = [i for i in range(start, len(history)) if history[i].seat != view.seat]
    if last is not None:
        read = read[len(read) - last:] if last > 0 else []
    wanted = set(read)
    out = []
    for index, play in enumerate(history):
        if index in wanted:
            later = history[index:]
            counts = list(view.hand_counts)
            for p in later:
                counts[p.seat] += 1
            then = PlayerView(rules, play.seat, view.deal_number, view.dealer, play.seat, view.round, (),
                              tuple(table), tuple(counts), view.stock_count, tuple(piles), tuple(scope),
                              last_capturer, history[:index], view.match_scores, view.deal_totals,
                              Phase.PLAYING, None)
            mine = tuple(p.card for p in later if p.seat == play.seat)
            worth = tables(then.piles, then.scope, rules)[rules.side_of(play.seat)]
            out.append(PastPlay(play.seat, play.capture, mine, then, worth))
        if play.capture:
            side = rules.side_of(play.seat)
            taken = set(play.capture)
            table = [c for c in table if c not in taken]
            piles[side] = piles[side] + play.capture + (play.card,)
            if play.scopa:
                scope[side] += 1
            last_capturer = play.seat
        else:
            table.append(play.card)
    return out


def _with_hand(view: PlayerView, hand: tuple[Card, ...]) -> PlayerView:
    """``view`` holding ``hand``: ``dataclasses.replace(view, hand=hand)``, written out (twice as fast,
    and it is asked for every sampled hand of every play read)."""
    return PlayerView(view.rules, view.seat, view.deal_number, view.dealer, view.to_move, view.round, hand,
                      view.table, view.hand_counts, view.stock_count, view.piles, view.scope, view.last_capturer,
                      view.history, view.match_scores, view.deal_totals, view.phase, view.winner, view.claims)


def _same_move(move: Move, card: Card, capture: Sequence[Card]) -> bool:
    return move.card == card and sorted(move.capture) == sorted(capture)


class PlayModel:
    """The log likelihood of the other seats' plays this round, for a sampled deal's hands."""

    def __init__(self, view: PlayerView, temperature: float, floor: float,
                 tables: WorthTables = every_side_worth_tables, last: int | None = None) -> None:
        self.plays = past_plays(view, tables, last)
        # Each play is read with its own position's worth tables, for every sampled hand.
        self.sums = [CaptureSums(past.worth, view.rules) for past in self.plays]
        self.temperature = temperature
        self.floor = floor
        self.cache: dict[tuple[int, tuple[Card, ...]], float] = {}

    def __bool__(self) -> bool:
        return bool(self.plays)

    def log_likelihood(self, hands: Sequence[Sequence[Card]]) -> float:
        """Sum over the plays of log P(the play | the seat's hand then), the hand from ``hands``."""
        total = 0.0
        for index, past in enumerate(self.plays):
            key = (index, tuple(hands[past.seat]))
            found = self.cache.get(key)
            if found is None:
                found = self.cache[key] = self._log_chance(past, tuple(hands[past.seat]), self.sums[index])
            total += found
        return total

    def _log_chance(self, past: PastPlay, hand_now: tuple[Card, ...], sums: CaptureSums) -> float:
        hand = tuple(sorted(hand_now + past.played_since))
        view = _with_hand(past.view, hand)
        moves = moves_for_hand(hand, view.table, view.rules)
        card = past.played_since[0]
        chosen = [i for i, m in enumerate(moves) if _same_move(m, card, past.capture)]
        if len(moves) <= 1 or not chosen:
            return 0.0  # a forced play says nothing; an inconsistent history (a lesson) neither
        scores = HardAnalyser(view, sums=sums).totals(moves)
        if view.rules.a_perdere:  # the fewest points win: the hard level plays its reading turned round
            scores = [-s for s in scores]
        top = max(scores)
        exps = [math.exp((s - top) / self.temperature) for s in scores]
        p = exps[chosen[0]] / sum(exps)
        return math.log((1.0 - self.floor) * p + self.floor / len(moves))
