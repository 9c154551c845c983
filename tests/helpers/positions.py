"""Positions of random legal play, for the computer players' tests."""
from __future__ import annotations

import random
from collections.abc import Iterator

from scopa.engine import GameState, Rules, new_deal


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
