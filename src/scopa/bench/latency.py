"""Silence after a move: a four-player match against three experts, timed from Enter to the next prompt.

``python -m scopa.bench latency [--seed 5] [--budget SECONDS] [--turns 0]``

It runs the real program (``scopa --plain --no-voice``, four seats, three of them experts) in
a pseudo-terminal, plays the first card and the first capture at each turn, and measures the
wall-clock time from the Enter that confirms the move at ``Play?`` to the player's next prompt
(``Card?``, or ``Next?`` when the deal ended): the three experts' moves and what the game says
in between. ``--budget`` is passed on to the game (without it, the game's default). It prints
the median, 90th percentile and longest wait, and the load average before and after (the
figures grow on a busy machine). ``--turns`` stops after that many turns (0: the whole
match). Nothing here asserts a time.

Like the words bench it needs pexpect, one of the test tools, not a dependency of the game:
without it the command says so in one line, exit code 2.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from typing import Any

from scopa.bench.machine import load_average

SEATS = "human,computer:expert,computer:expert,computer:expert"
NO_PEXPECT = ("scopa: the latency bench drives the game with pexpect, which is not installed here. Install it "
              "beside scopa (pipx inject scopa pexpect, or pip install pexpect), or run python3 dev.py bench "
              "latency in the scopa folder.")


def _pexpect() -> Any:
    import pexpect
    return pexpect


def waits(seed: int, budget: float | None, turns: int, timeout: float = 120.0) -> list[float]:
    """Seconds from each confirming Enter to the next ``Card?`` or ``Next?``."""
    pexpect = _pexpect()
    with tempfile.TemporaryDirectory() as data:
        args = ["-m", "scopa", "--plain", "--no-voice", "--players", "4", "--seats", SEATS, "--seed", str(seed),
                "--data-dir", data, "--config-dir", data]
        if budget is not None:
            args += ["--budget", str(budget)]
        child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=timeout,
                              env={"NO_COLOR": "1", "TERM": "dumb", "PYTHONUNBUFFERED": "1"})
        timed: list[float] = []
        sent_at: float | None = None
        while not turns or len(timed) < turns:
            index = child.expect([r"Card\? $", r"Capture\? $", r"Play\? $", r"(Next|\S+)\? $", pexpect.EOF])
            now = time.perf_counter()
            if index == 4:
                break
            if sent_at is not None and index in (0, 3):
                timed.append(now - sent_at)
                sent_at = None
            if index == 2:
                sent_at = time.perf_counter()
            child.sendline("1" if index < 2 else "")
        child.close(force=True)
        return timed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench latency", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--budget", type=float, default=None, help="the experts' seconds a move (default: the game's)")
    parser.add_argument("--turns", type=int, default=0, help="stop after this many turns (0: the whole match)")
    args = parser.parse_args(argv)
    try:
        _pexpect()
    except ImportError:
        print(NO_PEXPECT, file=sys.stderr)
        return 2
    load = load_average()
    timed = waits(args.seed, args.budget, args.turns)
    if not timed:
        print("errors: no turn was timed")
        return 1
    budget = "the default" if args.budget is None else f"{args.budget:g} s"
    print(f"expert budget: {budget}; turns timed: {len(timed)}")
    print(f"Enter to the next prompt: median {statistics.median(timed) * 1000:.0f} ms, "
          f"p90 {percentile(timed, 0.9) * 1000:.0f} ms, max {max(timed) * 1000:.0f} ms")
    print(f"load average before {load:.1f}, after {load_average():.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
