"""``python -m scopa.bench record [--matches N] [--seed S] [--fill-mb MB]``: what the results log costs.

Logs N seeded matches to 11 (every seat playing the easy level's moves, the first seat as the
human) in a temporary folder, then prints the log's size, how long the Statistics page takes
to open the first time (every match replayed, its facts kept in ``results-cache.json``) and
again (from the kept facts), and how long the coach takes over one match. With ``--fill-mb``
it then fills the log to about that size with copies of those matches (20 is the most the game
reads) and prints how long reading it takes and the memory it needs at most: read a result at
a time, as the game does, and kept whole as a list, as ``load_results`` gives it; then the
Statistics page over that log, with the cache deleted first and again.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from ..engine import Rules
from ..match import MatchRecord, SeatSetup
from ..players import make_player
from ..storage import load_results, record_result, recorded_match
from ..storage.results_cache import CACHE_NAME


def played_match(seed: int) -> MatchRecord:
    seats = (SeatSetup("You"), SeatSetup("Robin", "computer", "easy"))
    record, _ = MatchRecord.start(Rules(), seats, seed)
    players = [make_player("easy", seed), make_player("easy", seed + 1)]
    while not record.state.is_match_over:
        if record.state.is_deal_over:
            record = record.next_deal()[0]
        else:
            seat = record.state.to_move
            record = record.play(players[seat].choose_move(record.state.view(seat)))[0]
    return record


def main(argv: list[str] | None = None) -> int:
    from ..narration import Narrator
    from ..record.review import ReviewScript
    from ..record.text import RecordText

    parser = argparse.ArgumentParser(prog="python -m scopa.bench record")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fill-mb", type=float, default=0.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.matches):
            record_result(played_match(args.seed + n), "2026-01-01T10:00:00+00:00", folder)
        size = len(Path(folder, "results.json").read_text(encoding="utf-8"))
        stats, lines = _opening(folder)  # every match replayed, and its facts kept
        again, _ = _opening(folder)  # from the kept facts
        record = recorded_match(load_results(folder)[-1])  # the latest match, for the coach
        if record is None:
            raise SystemExit("the latest match of the log does not replay")
        script = ReviewScript(record, Narrator([s.name for s in record.seats], record.rules, 0), RecordText("en"))
        start = time.perf_counter()
        for deal in range(len(script.deals)):
            script.advice(deal)
        coach = time.perf_counter() - start
        reading = _reading(folder, args.fill_mb) if args.fill_mb > 0 else []
    print(f"matches logged: {args.matches}")
    print(f"results.json: {size / 1024:.0f} KB, {size / 1024 / max(args.matches, 1):.1f} KB a match")
    print(f"statistics page, first opened: {stats:.2f} s, {1000 * stats / max(args.matches, 1):.1f} ms a match, "
          f"{len(lines)} lines")
    print(f"statistics page, opened again: {again:.2f} s, {1000 * again / max(args.matches, 1):.2f} ms a match")
    print(f"coach over one match: {coach:.2f} s for {len(script.deals)} deals")
    for line in reading:
        print(line)
    return 0


def _reading(folder: str, megabytes: float) -> list[str]:
    """The log filled to about ``megabytes`` with copies of its lines; the time and peak memory of reading it."""
    import tracemalloc

    from ..storage import iter_results
    path = f"{folder}/results.json"
    head, *entries, tail = Path(path).read_text(encoding="utf-8").splitlines()
    entries = [line.rstrip(",") for line in entries]
    copies = max(1, int(megabytes * 1_000_000 / (sum(map(len, entries)) / len(entries))))
    with open(path, "w", encoding="utf-8") as log:
        log.write(head + "\n" + ",\n".join(entries[i % len(entries)] for i in range(copies)) + "\n" + tail + "\n")
    lines = [f"results.json filled: {os.path.getsize(path) / 1e6:.1f} MB, {copies} results"]
    def one_at_a_time() -> int:
        return sum(1 for _ in iter_results(folder))

    def as_a_list() -> int:
        return len(load_results(folder))

    for how, read in (("a result at a time", one_at_a_time), ("kept as a list", as_a_list)):
        start = time.perf_counter()
        read()
        seconds = time.perf_counter() - start
        tracemalloc.start()
        read()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        lines.append(f"reading it {how}: {seconds:.2f} s, peak memory {peak / 1e6:.1f} MB")
    os.remove(os.path.join(folder, CACHE_NAME))
    for how in ("with no cache", "again"):
        seconds, _ = _opening(folder)
        lines.append(f"statistics page {how}: {seconds:.2f} s, {1000 * seconds / copies:.2f} ms a result")
    return lines


def _opening(folder: str) -> tuple[float, list[str]]:
    """How long opening the Statistics page takes, and its lines."""
    from ..record.console import page
    start = time.perf_counter()
    lines = page(folder, "en").lines
    return time.perf_counter() - start, lines
