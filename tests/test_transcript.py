"""The match's transcript (issue 30, "A transcript"): one announcement a line with its deal and
turn, beside the save, written as the match goes, never a hand its owner had not opened, none in
pass-and-play unless chosen, removed with the match; --transcript last and the menu read it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers.console import lines_of, program_for, request_for
from scopa.config import Settings
from scopa.console.terminal import ENTER, ESCAPE
from scopa.storage import SavedMatches
from scopa.storage.transcripts import TRANSCRIPT_SUFFIX, Transcript, latest_transcript, prune_finished


def _transcript(tmp_path: Path) -> tuple[Path, list[str]]:
    found = latest_transcript(SavedMatches(tmp_path / "data").folder)
    assert found is not None
    return found, found.read_text(encoding="utf-8").splitlines()


def test_each_line_said_is_written_with_its_deal_and_turn_beside_the_save(tmp_path: Path) -> None:
    program, _, _ = program_for(tmp_path, ["1", ENTER] * 5 + ["t", "?"])
    program.run(request_for("--seed", "3"))
    path, lines = _transcript(tmp_path)
    saved = SavedMatches(tmp_path / "data").list().saves
    assert path == saved[0].path.with_name(saved[0].match_id + TRANSCRIPT_SUFFIX)  # next to the match
    assert lines[0].startswith("New match. You against Giulia.")
    assert "Deal 1. You deal." in lines and "Deal 1. Deal 1. You deal." not in lines  # said once (issue 38)
    assert any(line.startswith("Deal 1, turn 1. Giulia plays ") for line in lines)
    assert any(line.startswith("Deal 1, turn 1. Hand, ") for line in lines)  # one human: the hand as heard
    assert any(line.startswith("Deal 1, turn 2. You play ace of clubs") for line in lines)  # not said back, but kept
    assert not any(line.endswith("Your turn.") for line in lines)
    assert not any("T table. H your hand." in line for line in lines)  # answers to keys are not part of it


def test_pass_and_play_keeps_no_hand_unless_the_players_chose_to(tmp_path: Path) -> None:
    flags = ("--seats", "human,human", "--names", "Ann,Ben", "--seed", "8")
    program, _, _ = program_for(tmp_path / "no", "\n1\n\n\n" * 6)
    program.run(request_for(*flags))
    _, lines = _transcript(tmp_path / "no")
    assert lines and not any(" Hand, " in line or "no capture" in line for line in lines)  # a picked card is a hand's
    assert any("Ben played " in line for line in lines)
    kept_hands = Settings(voice=False, transcript_hands=True)
    program, _, _ = program_for(tmp_path / "yes", "\n1\n\n\n" * 6, settings=kept_hands)
    program.run(request_for(*flags))
    _, kept = _transcript(tmp_path / "yes")
    assert any(" Hand, " in line for line in kept)


def test_a_line_is_on_disk_as_soon_as_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "saves" / f"m{TRANSCRIPT_SUFFIX}"
    writer = Transcript(path)
    writer.write("Deal 1. Felix deals.")
    assert path.read_text(encoding="utf-8") == "Deal 1. Felix deals.\n"  # flushed, not held in a buffer
    writer.write("Deal 1, turn 1.\nFelix plays")
    assert path.read_text(encoding="utf-8").splitlines()[-1] == "Deal 1, turn 1. Felix plays"  # one line each
    writer.close()


def test_the_transcript_goes_with_a_deleted_match_and_stays_after_one_finished(tmp_path: Path) -> None:
    program, _, _ = program_for(tmp_path, ["1", ENTER] * 2)
    program.run(request_for("--seed", "3"))
    store = SavedMatches(tmp_path / "data")
    [saved] = store.list().saves
    path = saved.path.with_name(saved.match_id + TRANSCRIPT_SUFFIX)
    assert path.exists()
    store.delete(saved.match_id)
    assert not path.exists()
    program, _, _ = program_for(tmp_path / "done", "1\n\n" * 600)
    program.run(request_for("--seed", "3"))
    assert SavedMatches(tmp_path / "done" / "data").list().saves == []  # finished: the save is gone
    _, lines = _transcript(tmp_path / "done")
    assert any("win" in line for line in lines[-3:])  # ... and the transcript is there to read, to the end


def test_only_the_newest_transcripts_of_finished_matches_are_kept(tmp_path: Path) -> None:
    import os
    for n in range(8):
        path = tmp_path / f"m{n}{TRANSCRIPT_SUFFIX}"
        path.write_text("x\n")
        os.utime(path, (n, n))
    prune_finished(tmp_path, saved_ids={"m0"}, keep=5)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(f"m{n}{TRANSCRIPT_SUFFIX}" for n in (0, 3, 4, 5, 6, 7))  # a saved match's always stays


def test_transcript_last_prints_the_path_and_the_menu_reads_it_a_page_at_a_time(tmp_path: Path) -> None:
    program, _, _ = program_for(tmp_path, ["1", ENTER] * 3)
    program.run(request_for("--seed", "3"))
    path, lines = _transcript(tmp_path)
    run = subprocess.run([sys.executable, "-m", "scopa", "--transcript", "last", "--data-dir", str(tmp_path / "data"),
                          "--config-dir", str(tmp_path / "config"), "--lang", "en"],
                         check=False, capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout.strip()) == (0, str(path))
    empty = subprocess.run([sys.executable, "-m", "scopa", "--transcript", "last", "--data-dir", str(tmp_path / "e"),
                            "--config-dir", str(tmp_path / "config"), "--lang", "en"],
                           check=False, capture_output=True, text=True, timeout=60)
    assert empty.returncode == 1 and empty.stdout.startswith("No transcript yet.")
    from scopa.narration import Messages
    m = Messages("en")
    menu, out, _ = program_for(tmp_path, [ESCAPE, ENTER])  # the main menu, then quit
    menu.main_menu()
    listing = next(line for line in lines_of(out) if m("app.menu.transcript") in line)
    number = listing.split(m("app.menu.transcript"))[0].rstrip(", .").split()[-1]
    reader, out, _ = program_for(tmp_path, [number, "n", ESCAPE, ESCAPE, ENTER])
    reader.main_menu()
    shown = lines_of(out)
    assert m("transcript.title", count=len([line for line in lines if line.strip()])) in shown
    assert lines[0] in shown and lines[-1] in shown
    assert any(line.startswith(("Page 1 of", "End of the transcript.")) for line in shown)
    assert m("transcript.closed") in shown
