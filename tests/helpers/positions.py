"""Positions of random legal play, for the computer players' tests."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from scopa.engine import GameState, Move, Rules, new_deal


def random_positions(rules: Rules, seed: int, every: int = 3) -> Iterator[GameState]:
    """States along a deal of random legal play (every ``every``-th position)."""
    rng = random.Random(seed)
    state, _ = new_deal(rules, seed, dealer=seed % rules.players)
    count = 0
    while not state.is_deal_over:
        if count % every == 0:
            yield state
        count += 1
        moves = state.legal_moves()
        state, _ = state.apply(moves[rng.randrange(len(moves))])


def unique_hard_choices(rules: Rules, best: Callable[[list[float]], float] = max,
                        seeds: range = range(6)) -> Iterator[tuple[GameState, list[Move], Move]]:
    """(state, its legal moves, the hard level's move) at every other position of ``random_positions``
    with two moves or more where the hard level's reading has one ``best`` score: a tie is broken
    with its seed, which no prediction can follow. ``best``: min a perdere (the fewest points)."""
    from scopa.players.heuristic import HardAnalyser, HardPlayer
    for seed in seeds:
        for state in random_positions(rules, seed, every=2):
            moves = state.legal_moves()
            if len(moves) < 2:
                continue
            view = state.view(state.to_move)
            scores = [round(a.total, 9) for a in HardAnalyser(view).analyse_all(moves)]
            if scores.count(best(scores)) == 1:
                yield state, moves, HardPlayer(seed).choose_move(view)
