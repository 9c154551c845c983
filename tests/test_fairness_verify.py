"""``scopa verify FILE``: one line a match, for match files, online records and results logs."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from scopa.engine import Rules
from scopa.engine.shuffle import match_seed
from scopa.match import Fairness, MatchRecord, SeatSetup
from scopa.narration import Messages
from scopa.players import make_player
from scopa.storage import record_result, record_to_dict
from scopa.verify import main, verdict_lines

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "v1"
EN = Messages("en")
FAIR = "Shuffle checked, fair."


def online_record() -> MatchRecord:
    """A finished match as a room plays one: the seed made of a server seed and two shares."""
    server_seed, shares = bytes([7]) * 32, ((0, bytes([1]) * 32), (1, bytes([2]) * 32))
    seats = (SeatSetup("Ann"), SeatSetup("Ben"))
    record, _ = MatchRecord.start(Rules(target=None), seats, match_seed(server_seed, shares))
    record = replace(record, fairness=Fairness(server_seed, shares))
    players = [make_player("easy", seed=1), make_player("easy", seed=2)]
    while not record.state.is_match_over:
        seat = record.state.to_move
        record, _ = record.play(players[seat].choose_move(record.state.view(seat)))
    return record


def test_old_files_and_an_online_record_check_fair(tmp_path: Path, capsys) -> None:
    assert main([str(FIXTURES / "export.json")]) == 0 and main([str(FIXTURES / "save.json")]) == 0
    path = tmp_path / "online.json"
    path.write_text(json.dumps(record_to_dict(online_record())), encoding="utf-8")
    assert main([str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [FAIR] * 3


def test_a_seed_not_made_of_its_parts_or_a_file_that_does_not_replay_fails() -> None:
    data = record_to_dict(online_record())
    other = json.loads(json.dumps(data))
    other["fairness"]["contributions"][1]["value"] = "33" * 32
    assert verdict_lines(other, EN) == (
        ["Shuffle check failed. The match seed is not made of the server's seed and the players' shares."], False)
    dealt = json.loads(json.dumps(data))
    dealt["seed"] = dealt["state"]["seed"] = "44" * 32  # another deck, the same plays
    [line], fair = verdict_lines(dealt, EN)
    assert not fair and line.startswith("Shuffle check failed.")
    local = record_to_dict(online_record()) | {"fairness": None}
    del local["fairness"]
    local["seed"] = local["state"]["seed"] = "44" * 32
    [line], fair = verdict_lines(local, EN)
    assert not fair and line.startswith("Shuffle not checked. The match cannot be loaded.")


def test_a_results_log_is_checked_match_by_match(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "results.json", tmp_path / "results.json")
    record_result(online_record(), "2026-12-02 19:00", tmp_path, online=True, seat=0)
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert verdict_lines(data, EN) == ([f"Match 1 of 2. {FAIR}", f"Match 2 of 2. {FAIR}"], True)
    assert verdict_lines(data, Messages("it"))[0][0] == "Partita 1 di 2. Mescolata controllata, regolare."


def test_the_command_as_the_docs_write_it() -> None:
    done = subprocess.run([sys.executable, "-m", "scopa", "verify", str(FIXTURES / "export.json"), "--lang", "en"],
                          capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src")}, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, FAIR + "\n", "")
    usage = subprocess.run([sys.executable, "-m", "scopa", "verify", "--lang", "en"], capture_output=True, text=True,
                           cwd=ROOT, env={"PYTHONPATH": str(ROOT / "src")}, check=False)
    assert usage.returncode == 2 and usage.stderr.startswith("scopa: scopa verify needs one file")
