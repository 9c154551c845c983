"""Words a listener hears: a seeded match against a computer, played by keys, counted per turn.

``python -m scopa.bench words [--seed 8] [--level easy] [--verbosity short] [--rate 170]``

It runs the real program (``scopa --plain --no-voice``) in a pseudo-terminal, answers each
prompt as a player would (the first card, the first capture, Enter to confirm and go on),
and counts the words of every line the program prints. A *turn* runs from the player's card
key to the next ``Card?`` prompt, that prompt included: what a screen reader says between
two decisions. Prints the median and 90th percentile of words per turn, the words of the
whole match, and the speaking time at ``--rate`` words per minute (Orca's default is about
170). The figures are for the issue's targets; nothing here asserts them.

It needs pexpect, one of the test tools (``scopa[test]``; ``python3 dev.py bench words`` has
it), not a dependency of the game: without it the command says so in one line, exit code 2.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from typing import Any

PROMPTS = {"Card?": "1", "Capture?": "1", "Play?": ""}  # any other prompt takes Enter
PROMPT_PATTERN = r"(\S+\?) $"


NO_PEXPECT = ("scopa: the words bench drives the game with pexpect, which is not installed here. Install it "
              "beside scopa (pipx inject scopa pexpect, or pip install pexpect), or run python3 dev.py bench words "
              "in the scopa folder.")


def _pexpect() -> Any:
    import pexpect
    return pexpect


def play(seed: int, level: str, verbosity: str, timeout: float = 30.0) -> list[str]:
    """Every printed line of one match, prompts as their own lines ("Card?"), typed keys left out."""
    pexpect = _pexpect()
    with tempfile.TemporaryDirectory() as data:
        args = ["-m", "scopa", "--plain", "--no-voice", "--seats", f"human,computer:{level}", "--seed", str(seed),
                "--verbosity", verbosity, "--data-dir", data, "--config-dir", data]
        child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=timeout,
                              env={"NO_COLOR": "1", "TERM": "dumb", "PYTHONUNBUFFERED": "1"})
        lines: list[str] = []
        while True:
            index = child.expect([PROMPT_PATTERN, pexpect.EOF])
            lines += [line for line in str(child.before).replace("\r", "").split("\n") if line.strip()]
            if index == 1:
                return lines
            found = child.match
            if not isinstance(found, re.Match):  # index 0 is the prompt pattern: pexpect gives its match
                raise TypeError(f"a prompt without a match: {found!r}")
            prompt = str(found.group(1))
            lines.append(prompt)
            child.sendline(PROMPTS.get(prompt, ""))
            child.expect_exact("\n")  # the echo of what was typed


def words_per_turn(lines: list[str]) -> list[int]:
    """Words from just after each ``Card?`` up to and including the next one."""
    turns: list[int] = []
    count = None
    for line in lines:
        words = len(line.split())
        if line == "Card?":
            if count is not None:
                turns.append(count + words)
            count = 0
        elif count is not None:
            count += words
    return turns


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench words", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--verbosity", default="short")
    parser.add_argument("--rate", type=float, default=170.0, help="words per minute of the listener's reader")
    args = parser.parse_args(argv)
    try:
        _pexpect()
    except ImportError:
        print(NO_PEXPECT, file=sys.stderr)
        return 2
    lines = play(args.seed, args.level, args.verbosity)
    turns = words_per_turn(lines)
    total = sum(len(line.split()) for line in lines)
    if not turns:
        print("errors: no turn was played")
        return 1
    median = statistics.median(turns)
    p90 = percentile(turns, 0.9)
    print(f"turns: {len(turns)}")
    print(f"words per turn: median {median:g}, p90 {p90:g}, max {max(turns)}")
    print(f"seconds per turn at {args.rate:g} wpm: median {median * 60 / args.rate:.1f}, "
          f"p90 {p90 * 60 / args.rate:.1f}")
    print(f"words in the match: {total} ({total / args.rate:.1f} minutes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
