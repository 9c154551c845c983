"""Judge a level's moves one by one against a rollout oracle: how many points each choice gives up.

    python -m scopa.bench judge --level expert --against hard --deals 40 --seed 1
                                [--positions 60] [--worlds 100] [--players 2|4] [--budget 0.1] [--jobs 2]

It plays ``--deals`` duplicate deals of LEVEL against AGAINST and keeps every position where
LEVEL had a choice to make. For ``--positions`` of them, picked with the seed, the oracle
values every legal move: over ``--worlds`` deals consistent with what the mover's seat saw
(drawn from its view, as the expert draws them), it plays the rest of the deal with every seat
at the hard level and scores the mover's side points minus the others'. Every move meets the
same worlds and the same continuations, so the differences between moves are sharp even when
the values are not.

A move's regret is the oracle's best value minus that move's value. The report gives LEVEL's
mean regret per decision, AGAINST's at the same positions (the move it would have chosen there),
and how often each picked the oracle's best. The best of noisy values is itself a little high,
so a regret is an upper bound; ``--worlds`` narrows it. Tournaments (``bench ai``) measure a
level's strength; this measures where its choices fall short, with far less noise per
minute, so it is the cheaper way to compare two settings of a level at the same positions.
The last line is ``LEVEL regret per decision: 0.NNN (AGAINST at the same positions: 0.NNN)``.
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from typing import Any, NamedTuple

from scopa.engine import Card, GameState, Move, Variant
from scopa.players import LEVELS, make_player
from scopa.players.expert import sample_world
from scopa.players.heuristic import HardPlayer
from scopa.players.knowledge import side_of

from .ai import bench_rules, check_game_args, deal_seed, play_game


class Decision(NamedTuple):
    state: GameState   # LEVEL to move, with at least two legal moves
    chosen: Move       # what LEVEL played there


class Judged(NamedTuple):
    moves: list[Move]
    values: list[float]  # oracle value of each move, in points for the mover's side
    level: Move
    against: Move


def collect(task: tuple[Any, ...]) -> list[Decision]:
    """Both seatings of one duplicate deal; every choice LEVEL made (a top-level function for workers)."""
    deal, seed, players, variant, level, against, budget = task
    rules = bench_rules(players, variant)
    shuffle = deal_seed(seed, deal)
    decisions: list[Decision] = []

    def keep(state: GameState, move: Move) -> None:
        if len(state.legal_moves()) > 1:
            decisions.append(Decision(state, move))

    for level_first in (True, False):
        play_game(rules, shuffle, deal % players, level, against, level_first, budget, shuffle, on_a_move=keep)
    return decisions


def rollout_value(state: GameState, side: int, seed: int) -> int:
    """``side``'s deal points minus the others', every seat playing on at the hard level."""
    players = [HardPlayer(seed * 8 + s) for s in range(state.rules.players)]
    while not state.is_deal_over:
        seat = state.to_move
        state, _ = state.apply(players[seat].choose_move(state.view(seat)))
    score = state.deal_score
    if score is None:  # the deal was played to its end just above
        raise RuntimeError("a finished deal without a score")
    totals = score.totals
    return 2 * totals[side] - sum(totals)


def oracle_values(state: GameState, moves: list[Move], worlds: int, seed: int) -> list[float]:
    """Each move's mean rollout value over the same ``worlds`` deals drawn from the mover's view."""
    seat = state.to_move
    view = state.view(seat)
    side = side_of(state.rules, seat)
    rng = random.Random(seed)
    sums = [0.0] * len(moves)
    for k in range(worlds):
        world = sample_world(view, rng)
        for i, move in enumerate(moves):
            sums[i] += rollout_value(world.apply(move)[0], side, seed + k)
    return [s / worlds for s in sums]


def judge(task: tuple[Any, ...]) -> Judged:
    """The oracle's values at one position, with LEVEL's move and AGAINST's choice there."""
    decision, against, budget, worlds, seed = task
    state = decision.state
    moves = state.legal_moves()
    other = make_player(against, seed, budget=budget).choose_move(state.view(state.to_move))
    return Judged(moves, oracle_values(state, moves, worlds, seed), decision.chosen, other)


def regret(judged: Judged, move: Move) -> float:
    return max(judged.values) - judged.values[judged.moves.index(move)]


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards) or "empty"


def report(level: str, against: str, judged: list[Judged], positions: list[GameState], decisions: int,
           args: argparse.Namespace, seconds: float) -> list[str]:
    mine = [regret(j, j.level) for j in judged]
    theirs = [regret(j, j.against) for j in judged]
    n = len(judged)
    budget_note = f", expert budget {args.budget:g} s" if "expert" in (level, against) else ""
    differ = sum(j.level != j.against for j in judged)
    lines = []
    if args.details:
        for j, position, r in zip(judged, positions, mine, strict=True):
            if r > 0:
                best = j.moves[j.values.index(max(j.values))]
                lines.append(f"round {position.round}, stock {len(position.stock)}, table {_cards(position.table)}, "
                             f"hand {_cards(position.hands[position.to_move])}: {level} {j.level} "
                             f"(regret {r:.3f}), best {best}, {against} {j.against}")
    return [
        *lines,
        (f"{level} judged at {n} of its {decisions} choices in {args.deals} duplicate deals against {against}, "
         f"{args.players} players, {args.worlds} worlds per move{budget_note}, {seconds:.0f} s"),
        (f"oracle's best chosen: {level} {sum(r == 0 for r in mine)}, {against} {sum(r == 0 for r in theirs)}; "
         f"the two differ at {differ}"),
        f"largest regret: {level} {max(mine, default=0):.3f}, {against} {max(theirs, default=0):.3f}",
        (f"{level} regret per decision: {statistics.fmean(mine) if mine else 0:.3f} "
         f"({against} at the same positions: {statistics.fmean(theirs) if theirs else 0:.3f})"),
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench judge", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", required=True, choices=LEVELS, help="the level judged")
    parser.add_argument("--against", default="hard", choices=LEVELS, help="its opponent, and the comparison")
    parser.add_argument("--deals", type=int, default=40, help="duplicate deals played to find positions")
    parser.add_argument("--positions", type=int, default=60, help="positions judged (0 for all)")
    parser.add_argument("--worlds", type=int, default=100, help="deals drawn per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--variant", choices=[v.value for v in Variant], default="scopa")
    parser.add_argument("--budget", type=float, default=0.1, help="expert's seconds per move")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--details", action="store_true", help="one line for each position where LEVEL lost points")
    args = parser.parse_args(argv)
    check_game_args(parser, args)
    if args.worlds < 1:
        parser.error("--worlds must be at least 1")
    if args.positions < 0:
        parser.error("--positions must be 0 (all) or more")
    start = time.perf_counter()
    games = [(d, args.seed, args.players, args.variant, args.level, args.against, args.budget)
             for d in range(args.deals)]
    jobs = max(1, args.jobs)
    pool = multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else None
    try:
        mapper = pool.map if pool else lambda f, xs: list(map(f, xs))
        decisions = [d for ds in mapper(collect, games) for d in ds]
        picked = decisions
        if args.positions and args.positions < len(decisions):
            picked = random.Random(args.seed).sample(decisions, args.positions)
        tasks = [(d, args.against, args.budget, args.worlds, args.seed * 7919 + i) for i, d in enumerate(picked)]
        judged = mapper(judge, tasks)
    finally:
        if pool:
            pool.close()
            pool.join()
    positions = [d.state for d in picked]
    for line in report(args.level, args.against, judged, positions, len(decisions), args,
                       time.perf_counter() - start):
        print(line)
    return 0
