"""Benchmarks that print their figures: ``python -m scopa.bench NAME [options]``, NAME one of
engine, ai, expert, judge, speech, words, latency, record, saves, crash, server, leaderboard,
openings, encoding."""
from __future__ import annotations

import importlib
import sys

COMMANDS = {"engine": "scopa.bench.engine", "ai": "scopa.bench.ai", "expert": "scopa.bench.expert",
            "judge": "scopa.bench.judge",
            "speech": "scopa.bench.speech", "words": "scopa.bench.words", "latency": "scopa.bench.latency",
            "record": "scopa.bench.record",
            "saves": "scopa.bench.saves", "crash": "scopa.bench.crash",
            "server": "scopa.bench.server", "leaderboard": "scopa.bench.leaderboard",
            "openings": "scopa.bench.openings", "encoding": "scopa.bench.encoding"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print("usage: python -m scopa.bench engine|ai|expert|judge|speech|words|latency|record|saves|crash|server|"
              "leaderboard|openings|encoding [options]")
        return 2
    module = importlib.import_module(COMMANDS[argv[0]])
    result: int = module.main(argv[1:])
    return result


if __name__ == "__main__":
    sys.exit(main())
