"""The saved matches at the console: the menu lists and resumes them, deletes with a confirmation,
an import never destroys the match in progress, and every failure says what is kept and where."""
from __future__ import annotations

import errno
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.console import lines_of, program_for, request_for
from helpers.storage import FOUR, TWO, finish, played
from helpers.storage import saved as _save
from scopa.engine import Rules
from scopa.narration import Messages, Narrator
from scopa.storage import SavedMatches, export_match, load_results
from scopa.storage import saves as saves_module

M = Messages("en")


def _records(tmp_path: Path):
    return [s.record for s in SavedMatches(tmp_path / "data").list().saves]


def _two_saves(tmp_path: Path):
    older, newer = played(Rules(), TWO, 3, turns=5), played(Rules(), TWO, 4, turns=25)
    old_id = _save(tmp_path / "data", older)
    os.utime(SavedMatches(tmp_path / "data").path_of(old_id), (1_000_000, 1_000_000))
    _save(tmp_path / "data", newer)
    return older, newer


def test_the_menu_lists_every_saved_match_and_resumes_the_one_picked(tmp_path: Path) -> None:
    older, newer = _two_saves(tmp_path)
    program, out, _ = program_for(tmp_path, "2\n")  # the second listed: the older match
    program.run()
    lines = lines_of(out)
    listing = lines[1]
    assert listing.startswith("1, resume, against Bruno, ") and ". 2, resume, against Bruno, " in listing
    assert f"deal {newer.state.deal_number}, last played today. 2" in listing
    assert M("resume.position", deal=older.state.deal_number) in lines
    narrator = Narrator([s.name for s in older.seats], older.rules, you=0)
    assert narrator.table_text(older.state.table) in lines
    assert sorted(map(str, _records(tmp_path))) == sorted(map(str, [older, newer]))  # both still saved


def test_a_saved_match_is_deleted_only_after_confirming(tmp_path: Path) -> None:
    _older, newer = _two_saves(tmp_path)
    # Main menu: 1 and 2 the saves, 3 new match, 4 delete. Delete the second, Escape; then Enter.
    program, out, _ = program_for(tmp_path, "4\n2\nesc\n4\n2\n\n")
    program.run()
    lines = lines_of(out)
    assert M("saves.kept") in lines and M("saves.deleted") in lines
    assert lines.index(M("saves.kept")) < lines.index(M("saves.deleted"))
    assert _records(tmp_path) == [newer]


def test_an_import_in_a_match_is_kept_beside_it_or_played_and_nothing_is_lost(tmp_path: Path) -> None:
    other = played(Rules(), TWO, 8, turns=12)
    exported = tmp_path / "other.json"
    export_match(other, exported)
    # Escape keeps the import for later and plays on; the second time, Enter switches to it.
    program, out, _ = program_for(tmp_path, f"import {exported}\nesc\nimport {exported}\n\nq\n\n")
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    assert lines.count(M("import.ask")) == 2 and M("import.kept") in lines
    records = _records(tmp_path)
    assert len(records) == 3 and records.count(other) == 2  # kept, then played and quit unchanged
    assert any(r.seed == 3 for r in records)  # the match in progress is still saved


def test_a_finished_match_is_refused_in_one_line_and_changes_nothing(tmp_path: Path) -> None:
    over = tmp_path / "over.json"
    export_match(finish(played(Rules(), TWO, 4, turns=5), random.Random(2)), over)
    program, out, _ = program_for(tmp_path, f"import {over}\nq\n\n")
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    assert M("import.finished") in lines and M("import.ask") not in lines
    assert [r.seed for r in _records(tmp_path)] == [3]
    assert load_results(tmp_path / "data") == []


def test_scopa_import_of_a_finished_match_exits_with_one_line_and_logs_nothing(tmp_path: Path) -> None:
    over = tmp_path / "over.json"
    export_match(finish(played(Rules(), TWO, 4, turns=5), random.Random(2)), over)
    command = [sys.executable, "-m", "scopa", "--no-voice", "--lang", "en", "--data-dir", str(tmp_path / "data"),
               "--config-dir", str(tmp_path / "config"), "--import", str(over)]
    for _ in range(2):
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, input="", check=False)
        assert done.returncode == 1 and done.stdout.splitlines() == [M("import.finished")]
    assert load_results(tmp_path / "data") == []


def test_resume_with_a_new_match_flag_is_a_usage_error(tmp_path: Path) -> None:
    for flags in (["--players", "2"], ["--seed", "3"]):
        done = subprocess.run([sys.executable, "-m", "scopa", "--no-voice", "--lang", "en", "--data-dir",
                               str(tmp_path / "data"), "--config-dir", str(tmp_path / "c"), "--resume", *flags],
                              capture_output=True, text=True, timeout=60, input="", check=False)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.splitlines() == [
            ("scopa: --resume continues a saved match, so it cannot go with flags that start a new one, "
             "such as --players or --seed.")]


def test_not_saved_names_the_folder_and_quitting_says_the_older_save_is_still_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program, out, _ = program_for(tmp_path, "1\n\nq\n\n\n")  # play a card, quit, then quit unsaved
    real_write = saves_module.atomic_write_text
    writes = []

    def fail_after_the_first(path, text):
        writes.append(path)
        if len(writes) > 1:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        real_write(path, text)
    monkeypatch.setattr(saves_module, "atomic_write_text", fail_after_the_first)
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    folder = tmp_path / "data" / "saves"
    assert f"Not saved in the folder {folder}. Permission denied." in lines
    assert lines[-1] == M("quit.unsaved_older")
    assert len(_records(tmp_path)) == 1  # the older save, as the line says


def test_whatever_is_set_aside_is_said_when_a_match_starts_from_flags(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "autosave.json").write_text("{ not json")
    program, out, _ = program_for(tmp_path, "q\n\n")
    program.run(request_for("--seed", "3"))
    [line] = [line for line in lines_of(out) if line.startswith("The saved match cannot be read.")]
    kept = Path(line[line.rindex(" as ") + 4:-1])
    assert kept.read_text() == "{ not json"


def test_whatever_is_set_aside_is_said_when_an_imported_match_starts(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "autosave.json").write_text("[]")
    program, out, _ = program_for(tmp_path, "q\n\n")
    program.run(imported=played(Rules(), TWO, 8, turns=12))
    [line] = [line for line in lines_of(out) if line.startswith("The saved match cannot be read.")]
    assert Path(line[line.rindex(" as ") + 4:-1]).read_text() == "[]"
    assert [r.seed for r in _records(tmp_path)] == [8]


@pytest.mark.linux
def test_scopa_export_to_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    _save(tmp_path / "data", played(Rules(), TWO, 8, turns=12))
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "scopa", "--lang", "en", "--data-dir", str(tmp_path / "data"),
                           "--config-dir", str(tmp_path / "c"), "--export", str(fifo)],
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == ["scopa: Export failed. That is not a plain file. It may be a pipe or a device."]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_resume_with_a_budget_and_no_expert_says_once_that_the_budget_is_not_used(tmp_path: Path, lang: str) -> None:
    """--budget is the expert's thinking time: for a resumed match with no expert it would be
    ignored without a word (a new match from the flags refuses it at once)."""
    def resumed(seats) -> str:
        data = tmp_path / f"data{len(seats)}"
        _save(data, played(Rules(players=len(seats)), seats, 3, turns=5))
        done = subprocess.run([sys.executable, "-m", "scopa", "--no-voice", "--plain", "--lang", lang, "--data-dir",
                               str(data), "--config-dir", str(tmp_path / "c"), "--resume", "--budget", "2"],
                              capture_output=True, text=True, timeout=60, input="", check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    said = [line for line in resumed(TWO).splitlines() if line.startswith("--budget ")]
    assert len(said) == 1 and said[0] == Messages(lang)("budget.unused")
    assert "--budget " not in resumed(FOUR)  # Carla is an expert: the budget is hers


def test_resume_replays_the_move_log_once_and_b_still_reads_the_last_deal_score_sheet(tmp_path, monkeypatch):
    import scopa.match
    from scopa.engine import DealScored
    record = next(r for turns in range(38, 60) if (r := played(Rules(), TWO, 3, turns=turns)).state.deal_number == 2
                  and r.state.to_move == 0)
    replayed, _ = scopa.match.MatchRecord.start(record.rules, record.seats, record.seed, record.first_dealer)
    sheets = []
    for logged in record.moves:  # the score of deal 1, as the match said it when the deal ended
        if replayed.state.is_deal_over:
            replayed = replayed.next_deal()[0]
        replayed, events = replayed.play(logged.move)
        sheets += [e for e in events if isinstance(e, DealScored)]
    _save(tmp_path / "data", record)
    starts = []  # every replay of a move log starts a match from its seed
    start = scopa.match.new_match
    monkeypatch.setattr(scopa.match, "new_match", lambda *args: starts.append(args) or start(*args))
    program, out, _ = program_for(tmp_path, "b\nq\n\n")
    program.run(resume=True)
    assert len(starts) == 1  # the load check; the open and the B key reuse it
    [scored] = sheets
    sheet = Narrator(["Ann", "Bruno"], Rules(), you=0).score_lines(1, scored.score, scored.match_scores,
                                                                   asked=True)  # B: whole, the primiera's cards too
    lines = lines_of(out)
    at = lines.index(sheet[0].text)
    assert lines[at:at + len(sheet)] == [line.text for line in sheet]
