"""Import cost: time and peak memory to check the largest match files scopa accepts or refuses.

``python -m scopa.bench saves`` writes the files to a temporary folder and imports each in a
fresh process, so that the peak memory (``ru_maxrss``) is that import's own. Cases: the longest
of a few random four-player matches to 21 (a real file, accepted), the same padded to the size
cap (accepted), and a file of deal results filling the size cap (refused, as before the caps
it took 5.8 s and 637 MB at 20 MB). The last line is the estimate for a match of ``MAX_DEALS``
deals, from the time per deal of the real file.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scopa.match import MatchRecord

MEASURE = """
import resource, sys, time
from scopa.storage import SaveFileError, import_match
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    import_match(sys.argv[1]); verdict = "accepted"
except SaveFileError as error:
    verdict = "refused: " + error.reason
seconds = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{seconds:.3f}\\t{(after - before) / 1024:.1f}\\t{verdict}")
"""


def longest_match(tries: int) -> MatchRecord:
    """The match with the most moves among ``tries`` random four-player matches to 21."""
    from scopa.engine import Rules
    from scopa.match import MatchRecord, SeatSetup
    seats = (SeatSetup("Ann"), *(SeatSetup(f"C{i}", "computer", "easy") for i in range(3)))
    best = None
    for seed in range(tries):
        record, _ = MatchRecord.start(Rules(players=4, target=21), seats, seed)
        rng = random.Random(seed)
        while not record.state.is_match_over:
            if record.state.is_deal_over:
                record, _ = record.next_deal()
            else:
                record, _ = record.play(rng.choice(record.state.legal_moves()))
        if best is None or len(record.moves) > len(best.moves):
            best = record
    if best is None:
        raise ValueError("no match to measure: tries must be at least 1")
    return best


def measure(path: Path) -> tuple[float, float, str]:
    done = subprocess.run([sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, check=True)
    seconds, megabytes, verdict = done.stdout.strip().split("\t")
    return float(seconds), float(megabytes), verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench saves")
    parser.add_argument("--tries", type=int, default=10, help="random matches to pick the longest from")
    args = parser.parse_args(argv)
    from scopa.storage import files, match_to_json
    from scopa.storage.codec import MAX_DEALS
    record = longest_match(args.tries)
    text = match_to_json(record)
    folder = Path(tempfile.mkdtemp(prefix="scopa-bench-saves-"))
    cases = {
        f"real match, {record.state.deal_number} deals": text,
        "real match padded to the size cap": text + " " * (files.MAX_FILE_BYTES - len(text.encode()) - 1),
    }
    data = json.loads(text)
    count = (files.MAX_FILE_BYTES - len(text)) // len("[0, 0], ")
    data["state"]["deal_totals"] = [[0, 0]] * count
    cases["deal results filling the size cap"] = json.dumps(data)
    per_deal: float | None = None
    for number, (name, content) in enumerate(cases.items()):
        path = folder / f"case{number}.json"
        path.write_text(content, encoding="utf-8")
        seconds, megabytes, verdict = measure(path)
        size = path.stat().st_size / 1e6
        print(f"{name}: {size:.2f} MB, {seconds:.3f} s, peak memory +{megabytes:.1f} MB, {verdict}")
        if per_deal is None:
            per_deal = seconds / record.state.deal_number
    if per_deal is not None:
        print(f"estimated for a match of {MAX_DEALS} deals: {per_deal * MAX_DEALS:.2f} s")
    return 0
