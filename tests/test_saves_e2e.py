"""The real program with several saved matches, two copies on one data folder, and odd files."""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from helpers.storage import TWO, played
from helpers.storage import saved as _save
from scopa.engine import Rules
from scopa.narration import Messages, Narrator
from scopa.storage import SavedMatches

pytestmark = pytest.mark.linux  # the real program in a pty, SIGKILL

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow
M = Messages("en")


def _spawn(tmp_path: Path, *args: str):
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "scopa", "--no-voice", "--plain", "--lang", "en",
               "--data-dir", str(tmp_path / "data"), "--config-dir", str(tmp_path / "config"), *args]
    return pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=20, dimensions=(50, 250))


def _stop(*children) -> None:
    for child in children:
        if child.isalive():
            child.kill(signal.SIGKILL)
        child.wait()


def test_two_saved_matches_are_listed_and_the_one_picked_is_resumed(tmp_path: Path) -> None:
    older, newer = played(Rules(), TWO, 3, turns=5), played(Rules(), TWO, 4, turns=25)
    old_id = _save(tmp_path / "data", older)
    os.utime(SavedMatches(tmp_path / "data").path_of(old_id), (1_000_000, 1_000_000))
    _save(tmp_path / "data", newer)
    child = _spawn(tmp_path)
    try:
        child.expect_exact(M("app.menu.title"))
        child.expect_exact("1, resume, against Bruno, ")
        child.expect_exact(f"deal {newer.state.deal_number}, last played today. 2, resume, against Bruno, ")
        child.expect("Choice\\? ")
        child.sendline("2")
        child.expect_exact(M("resume.position", deal=older.state.deal_number))
        narrator = Narrator([s.name for s in older.seats], older.rules, you=0)
        child.expect_exact(narrator.table_text(older.state.table))
        child.expect("Card\\? ")
    finally:
        _stop(child)


def test_a_second_copy_says_the_match_is_open_and_offers_the_others(tmp_path: Path) -> None:
    first = _spawn(tmp_path, "--seed", "3")
    second = None
    try:
        first.expect("Card\\? ")  # the new match is saved and locked by the first copy
        second = _spawn(tmp_path, "--resume")
        second.expect_exact(M("saves.all_locked"))
        second.expect_exact(", open in another copy. 2, new match")
        second.expect("Choice\\? ")
        second.sendline("1")
        second.expect_exact(M("saves.locked"))
        second.expect_exact(M("app.menu.title"))  # and the menu again, with the other choices
    finally:
        _stop(first, *([second] if second else []))
    assert len(SavedMatches(tmp_path / "data").list().saves) == 1  # neither copy wrote over the other


def test_resume_with_players_is_a_usage_error_exit_2(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--resume", "--players", "2")
    child.expect_exact("scopa: --resume continues a saved match")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_importing_a_fifo_in_a_match_is_answered_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    child = _spawn(tmp_path, "--seed", "3")
    try:
        child.expect("Card\\? ")
        child.sendline(f"import {fifo}")
        child.expect_exact("Import failed. That is not a plain file. It may be a pipe or a device.", timeout=5)
        child.expect("Card\\? ", timeout=5)  # and the match goes on
    finally:
        _stop(child)
