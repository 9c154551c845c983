"""Engine speed: random legal two-player deals through the public API.

Runs the plain reference loop ``shared/bench_naive_deals.py`` (when it is found beside the
repository) in the same run, alternating short slices of both so that machine load hits
both alike, and prints both rates. The last line is ``deals/s: N``.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import time
from pathlib import Path
from types import ModuleType

from scopa.engine import Rules, new_deal

NAIVE_PATH = Path(__file__).resolve().parents[3].parent / "shared" / "bench_naive_deals.py"


def play_random_deal(rules: Rules, seed: int, rng: random.Random) -> tuple[int, ...]:
    """One deal of random legal moves, scored; returns the deal's points per side."""
    state, _ = new_deal(rules, seed)
    while not state.is_deal_over:
        moves = state.legal_moves()
        state, _ = state.apply(moves[rng.randrange(len(moves))])
    score = state.deal_score
    assert score is not None
    return score.totals


def _load_naive(path: Path) -> ModuleType | None:
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("bench_naive_deals", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(seconds: float, naive: ModuleType | None, slices: int = 10) -> tuple[float, float | None]:
    """Deals per second of the engine and of the naive loop, interleaved in slices."""
    rules, rng, naive_rng = Rules(), random.Random(1), random.Random(1)
    engine_deals = naive_deals = 0
    engine_time = naive_time = 0.0
    seed = 0
    for _ in range(slices):
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / slices:
            play_random_deal(rules, seed, rng)
            seed += 1
            engine_deals += 1
        engine_time += time.perf_counter() - start
        if naive is not None:
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / slices:
                naive.play_deal(naive_rng)
                naive_deals += 1
            naive_time += time.perf_counter() - start
    return engine_deals / engine_time, (naive_deals / naive_time if naive is not None else None)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="time for each of the two loops")
    parser.add_argument("--naive", type=Path, default=NAIVE_PATH, help="path of bench_naive_deals.py")
    args = parser.parse_args(argv)
    naive = _load_naive(args.naive)
    engine_rate, naive_rate = measure(args.seconds, naive)
    if naive_rate is None:
        print(f"naive deals/s: not run ({args.naive} not found)")
    else:
        print(f"naive deals/s: {naive_rate:.0f}")
        print(f"engine/naive: {engine_rate / naive_rate:.2f}")
    print(f"deals/s: {engine_rate:.0f}")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
