"""Words a listener hears: seeded matches played by keys, counted per turn.

``python -m scopa.bench words [--seed 8] [--matches 1] [--verbosity short] [--rate 170] [--only 2p|4p|pass] [--top N]``

It runs the real program (``scopa --plain --no-voice``) in a pseudo-terminal, answers each
prompt as a player would (the first card, the first capture, Enter to confirm, to open or
hide a hand and to go on), and counts the words of every line the program prints. A *turn*
runs from the player's card key to the next ``Card?`` prompt, that prompt included: what a
screen reader says between two decisions. For each table (two players, four players against
three computers, and pass-and-play: two people at one keyboard) it plays ``--matches``
matches from ``--seed`` on (seeds counted up by one) and prints the median and 90th
percentile of words per turn over all their turns, the words of the whole match, and the speaking time at
``--rate`` words per minute (Orca's default is about 170). In pass-and-play it also counts
hands heard between a gate and the Enter that opens it (there must be none). The figures are
for the issue's targets; nothing here asserts them. It also counts the turns that end a deal
(the score sheet, then the new deal's table and first plays), the wordiest: with four players
they are about one turn in eleven, so the 90th percentile is close to the wordiest of the other
turns. ``--top N`` prints the text of each table's N wordiest turns too.

It needs pexpect, one of the test tools (``scopa[test]``; ``python3 dev.py bench words`` has
it), not a dependency of the game: without it the command says so in one line, exit code 2.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

PROMPTS = {"Card?": "1", "Capture?": "1", "Play?": ""}  # any other prompt takes Enter
PROMPT_PATTERN = r"(\S+\?) $"
NEXT_DEAL = "Next?"  # the prompt between deals: a turn holding it ends a deal
ESCAPES = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # the pass-and-play gate clears the screen


@dataclass(frozen=True)
class Table:
    """One table the bench plays: its name in the report and the flags that set it up."""

    name: str
    flags: tuple[str, ...]


TABLES = (
    Table("2p", ("--seats", "human,computer:easy")),
    Table("4p", ("--players", "4", "--seats", "human,computer:easy,computer:medium,computer:hard")),
    Table("pass", ("--seats", "human,human", "--names", "Ann,Ben")),
)


NO_PEXPECT = ("scopa: the words bench drives the game with pexpect, which is not installed here. Install it "
              "beside scopa (pipx inject scopa pexpect, or pip install pexpect), or run python3 dev.py bench words "
              "in the scopa folder.")


def _pexpect() -> Any:
    import pexpect
    return pexpect


def play(seed: int, flags: tuple[str, ...], verbosity: str, timeout: float = 60.0) -> list[str]:
    """Every printed line of one match, prompts as their own lines ("Card?"), typed keys left out."""
    pexpect = _pexpect()
    with tempfile.TemporaryDirectory() as data:
        args = ["-m", "scopa", "--plain", "--no-voice", *flags, "--seed", str(seed),
                "--verbosity", verbosity, "--data-dir", data, "--config-dir", data]
        child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=timeout,
                              env={"NO_COLOR": "1", "TERM": "dumb", "PYTHONUNBUFFERED": "1"})
        lines: list[str] = []
        while True:
            index = child.expect([PROMPT_PATTERN, pexpect.EOF])
            printed = ESCAPES.sub("", str(child.before).replace("\r", ""))
            lines += [line for line in printed.split("\n") if line.strip()]
            if index == 1:
                return lines
            found = child.match
            if not isinstance(found, re.Match):  # index 0 is the prompt pattern: pexpect gives its match
                raise TypeError(f"a prompt without a match: {found!r}")
            prompt = str(found.group(1))
            lines.append(prompt)
            child.sendline(PROMPTS.get(prompt, ""))
            child.expect_exact("\n")  # the echo of what was typed


def turns_of(lines: list[str]) -> list[list[str]]:
    """The lines of each turn: from just after each ``Card?`` up to and including the next one."""
    turns: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        if line == "Card?":
            if current is not None:
                turns.append([*current, line])
            current = []
        elif current is not None:
            current.append(line)
    return turns


def words_of(turn: list[str]) -> int:
    return sum(len(line.split()) for line in turn)


def words_per_turn(lines: list[str]) -> list[int]:
    """Words from just after each ``Card?`` up to and including the next one."""
    return [words_of(turn) for turn in turns_of(lines)]


def longest(matches: list[list[str]], count: int) -> list[str]:
    """The text of the ``count`` wordiest turns, wordiest first, each headed by its words and match."""
    turns = [(words_of(turn), number, turn) for number, lines in enumerate(matches) for turn in turns_of(lines)]
    shown: list[str] = []
    for words, number, turn in sorted(turns, key=lambda item: -item[0])[:count]:
        shown += [f"--- {words} words (match {number + 1})", *(f"    {line}" for line in turn)]
    return shown


def hands_before_gate(lines: list[str]) -> int:
    """Hand lines printed while a pass-and-play hand is closed: from a gate's "Pass to" to its ``Open?``."""
    closed, count = False, 0
    for line in lines:
        if line.startswith("Pass to "):
            closed = True
        elif line == "Open?":
            closed = False
        elif closed and line.startswith(("Hand,", "Your hand.")):
            count += 1
    return count


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))])


def report(table: Table, matches: list[list[str]], rate: float) -> list[str]:
    """The figures of one table's matches, one line each, the table's name first."""
    turns = [words for lines in matches for words in words_per_turn(lines)]
    lines = [line for match in matches for line in match]
    if not turns:
        return [f"{table.name} errors: no turn was played"]
    total = sum(len(line.split()) for line in lines)
    median, p90 = statistics.median(turns), percentile(turns, 0.9)
    figures = [f"{table.name} turns: {len(turns)} in {len(matches)} matches",
               f"{table.name} words per turn: median {median:g}, p90 {p90:g}, max {max(turns)}",
               (f"{table.name} seconds per turn at {rate:g} wpm: median {median * 60 / rate:.1f}, "
                f"p90 {p90 * 60 / rate:.1f}"),
               f"{table.name} words a match: {total / len(matches):.0f} ({total / len(matches) / rate:.1f} minutes)"]
    ends = sum(1 for lines in matches for turn in turns_of(lines) if NEXT_DEAL in turn)
    figures.append(f"{table.name} turns that end a deal (score sheet and new deal): {ends} "
                   f"({100 * ends / len(turns):.0f}%), the wordiest turns")
    if any(line.startswith("Pass to ") for line in lines):
        figures.append(f"{table.name} hands heard before a gate opened: {hands_before_gate(lines)}")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench words", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--matches", type=int, default=1, help="matches per table, from --seed on")
    parser.add_argument("--verbosity", default="short")
    parser.add_argument("--rate", type=float, default=170.0, help="words per minute of the listener's reader")
    parser.add_argument("--only", choices=[t.name for t in TABLES], help="one table instead of all three")
    parser.add_argument("--top", type=int, default=0, metavar="N",
                        help="also print the text of each table's N wordiest turns (to see what sets the p90)")
    args = parser.parse_args(argv)
    try:
        _pexpect()
    except ImportError:
        print(NO_PEXPECT, file=sys.stderr)
        return 2
    failed = False
    for table in TABLES:
        if args.only and table.name != args.only:
            continue
        matches = [play(args.seed + n, table.flags, args.verbosity) for n in range(max(1, args.matches))]
        figures = report(table, matches, args.rate)
        failed = failed or "errors" in figures[0]
        print("\n".join(figures + longest(matches, args.top)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
