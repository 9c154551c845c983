"""``scopa --stats`` and ``scopa --review last``, the real program in a pseudo-terminal."""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from helpers.record import random_match
from scopa.engine import Rules
from scopa.record.text import RecordText
from scopa.storage import record_result

pytestmark = pytest.mark.linux  # the real program in a pty

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow
T = RecordText("en")


def logged(tmp_path: Path):
    record = random_match(Rules(), "medium", 5, 2)
    record_result(record, "2026-04-02T18:30:00+00:00", tmp_path / "data")
    return record


def spawn(tmp_path: Path, *flags: str):
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "scopa", "--no-voice", "--lang", "en", "--data-dir", str(tmp_path / "data"),
               "--config-dir", str(tmp_path / "config"), *flags]
    child = pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.logfile_read = io.StringIO()
    return child


def test_stats_prints_the_count_first_and_exits(tmp_path):
    logged(tmp_path)
    child = spawn(tmp_path, "--plain", "--stats")
    child.expect(pexpect.EOF)
    child.close()
    lines = child.logfile_read.getvalue().splitlines()
    assert child.exitstatus == 0
    assert lines[0].startswith("1 match played, ")
    assert any(line.startswith("1, 2 April 2026 against ") for line in lines)
    heading = lines.index(T("stats.level.medium") + ".")
    assert lines[heading + 1].startswith("1 played, ")


def test_review_last_in_plain_mode_walks_and_leaves_on_escape(tmp_path):
    record = logged(tmp_path)
    child = spawn(tmp_path, "--plain", "--review", "last")
    child.expect_exact("Next play?")
    assert "Deal 1." in child.before
    child.sendline("")
    child.expect_exact("Next play?")
    first = record.moves[0]
    assert (" play" in child.before) and (record.seats[first.seat].name in child.before or "You play" in child.before)
    child.sendline("d")
    child.expect_exact("Next play?")
    assert "Deal 2." in child.before
    child.sendline("esc")
    child.expect_exact(T("review.left"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in child.logfile_read.getvalue()


def test_review_last_by_single_keys(tmp_path):
    logged(tmp_path)
    child = spawn(tmp_path, "--review", "last")
    child.expect_exact("Next play?")
    child.send("n")
    child.expect_exact("Next play?")
    child.send("w")
    child.expect(r"The expert would have|The coach looks at your own plays")
    child.expect_exact("Next play?")
    child.send("\x1b")
    child.expect_exact(T("review.left"))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_review_of_a_match_that_is_not_there_says_so(tmp_path):
    logged(tmp_path)
    child = spawn(tmp_path, "--plain", "--review", "4")
    child.expect_exact(T.plural("review.out_of_range", 1, asked=4))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    child = spawn(tmp_path, "--plain", "--review", "first")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "--review takes last or the number of a match" in child.logfile_read.getvalue()
