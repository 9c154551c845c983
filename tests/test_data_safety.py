"""Nothing the player keeps is lost or damaged by two copies of the game at once, or by a settings
file that is a symbolic link (a dotfiles folder): the results log is locked, settings are written
as saves are."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from scopa.storage import load_results

RESULTS_EACH = 15

# A child process: waits for the start file, then logs RESULTS_EACH finished matches, one at a time.
LOGGER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from scopa.engine import Rules
    from scopa.match import MatchRecord, SeatSetup
    from scopa.storage import record_result

    data, name, start, count = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
    record, _ = MatchRecord.start(Rules(target=None), (SeatSetup("Ann"), SeatSetup("Bea", "computer", "easy")), 3)
    while not record.state.is_match_over:
        record = record.play(record.state.legal_moves()[0])[0]
    print("ready", flush=True)
    while not start.exists():
        time.sleep(0.001)
    for number in range(count):
        record_result(record, f"{name}-{number}", data, match_id=f"{name}-{number}")
""")


def test_two_copies_logging_results_at_once_keep_every_result(tmp_path: Path) -> None:
    """Without the lock, each copy rewrote the log it had read, and about half the results were lost."""
    data, start = tmp_path / "data", tmp_path / "start"
    children = [subprocess.Popen([sys.executable, "-c", LOGGER, str(data), name, str(start), str(RESULTS_EACH)],
                                 stdout=subprocess.PIPE, text=True) for name in ("one", "two")]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        start.touch()  # both log from the same moment on
        for child in children:
            assert child.wait(timeout=120) == 0
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    logged = sorted(result.when for result in load_results(data))
    assert logged == sorted(f"{name}-{n}" for name in ("one", "two") for n in range(RESULTS_EACH))
