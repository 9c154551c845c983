"""The engine's memos (last legal moves, last deal scored) with many matches in one process.

A server plays many rooms at once: their moves interleave (asyncio tasks, or threads). Each
match must get exactly what it would get alone."""
from __future__ import annotations

import random
import threading

import pytest

from scopa.engine import GameState, IllegalMoveError, Rules, new_match, score_deal


def fresh(state: GameState) -> GameState:
    """An equal state that is another object: the memos, matched by identity, never know it."""
    return GameState._make(list(state))


def random_match(seed: int, rules: Rules) -> list[tuple]:
    """Each position's moves, the move played and the score of each deal, from fresh states only."""
    rng = random.Random(seed)
    state, _ = new_match(rules, seed)
    trace: list[tuple] = []
    while True:
        if state.is_deal_over:
            trace.append(("score", score_deal(state.piles, state.scope, state.rules).totals))
            if state.is_match_over:
                return trace
            state, _ = fresh(state).next_deal()
            continue
        moves = fresh(state).legal_moves()
        chosen = moves[rng.randrange(len(moves))]
        trace.append((tuple(moves), chosen))
        state, _ = fresh(state).apply(chosen)


def test_two_matches_interleaved_move_by_move_get_their_own_moves_and_scores():
    rules_a = rules_b = Rules(target=None)  # one rules object: only the piles tell the two deals apart
    a, _ = new_match(rules_a, seed=11)
    b, _ = new_match(rules_b, seed=12)
    expected_a, expected_b = random_match(11, rules_a), random_match(12, rules_b)
    rng_a, rng_b = random.Random(11), random.Random(12)
    played_a, played_b = [], []
    while not (a.is_deal_over and b.is_deal_over):
        moves_a = a.legal_moves() if not a.is_deal_over else []
        moves_b = b.legal_moves() if not b.is_deal_over else []  # the memo now holds b's moves
        if moves_a:
            foreign = [m for m in moves_b if m not in moves_a]
            for move in foreign[:1]:  # legal in b, just remembered: a must still check it
                with pytest.raises(IllegalMoveError):
                    a.apply(move)
            chosen = moves_a[rng_a.randrange(len(moves_a))]
            played_a.append((tuple(moves_a), chosen))
            a, _ = a.apply(chosen)
        if moves_b:
            chosen = moves_b[rng_b.randrange(len(moves_b))]
            played_b.append((tuple(moves_b), chosen))
            b, _ = b.apply(chosen)
    assert played_a == expected_a[:len(played_a)] and played_b == expected_b[:len(played_b)]
    score_b, score_a = b.deal_score, a.deal_score  # b finished last: a's score is not b's memo
    assert score_a == score_deal(a.piles, a.scope, a.rules) and score_b == score_deal(b.piles, b.scope, b.rules)
    assert (("score", score_a.totals), ("score", score_b.totals)) == (expected_a[len(played_a)],
                                                                      expected_b[len(played_b)])


def _play(seed: int, rules: Rules) -> list[tuple]:
    """The same trace as ``random_match``, but through the memos (legal_moves, then apply)."""
    rng = random.Random(seed)
    state, _ = new_match(rules, seed)
    trace: list[tuple] = []
    while True:
        if state.is_deal_over:
            trace.append(("score", state.deal_score.totals))
            if state.is_match_over:
                return trace
            state, _ = state.next_deal()
            continue
        moves = state.legal_moves()
        chosen = moves[rng.randrange(len(moves))]
        trace.append((tuple(moves), chosen))
        state, _ = state.apply(chosen)


def test_matches_in_threads_get_what_each_gets_alone():
    rules = [Rules(target=None), Rules(players=3, target=None), Rules(players=4, target=None), Rules(target=11)]
    expected = [random_match(20 + i, r) for i, r in enumerate(rules)]
    results: list[list[tuple] | None] = [None] * len(rules)

    def run(i: int) -> None:
        for _ in range(3):  # again and again, so the threads switch in the middle of moves
            results[i] = _play(20 + i, rules[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(rules))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == expected
