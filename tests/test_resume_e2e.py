"""A match survives SIGKILL: the real program, killed between turns, resumes exactly."""
from __future__ import annotations

import os
import signal
import sys

import pytest

from scopa.narration import Narrator
from scopa.storage import AutosaveStore

pytestmark = pytest.mark.linux  # the real program in a pty, SIGKILL

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow


def _spawn(tmp_path, *args: str):
    env = dict(os.environ, TERM="xterm", NO_COLOR="1", PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "scopa", "--no-voice", "--plain",
               "--data-dir", str(tmp_path / "data"), "--config-dir", str(tmp_path / "config"), *args]
    return pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=20,
                         dimensions=(50, 200))


def _play_human_turns(child, turns: int) -> None:
    """Answer prompts with the first card and the first capture until ``turns`` cards were played."""
    played = 0
    while played < turns:
        index = child.expect(["Card\\? ", "Capture\\? ", "Play\\? ", "Next\\? "])
        if index == 0 or index == 1:
            child.sendline("1")
        elif index == 2:
            child.sendline("")
            played += 1
        else:
            child.sendline("")


def test_sigkill_between_turns_then_resume_continues_the_same_deal(tmp_path):
    child = _spawn(tmp_path, "--seed", "11", "--seats", "human,computer:easy")
    _play_human_turns(child, 4)
    child.expect("Card\\? ")  # the computer has moved and the turn was saved before this prompt
    before = AutosaveStore(tmp_path / "data").load().record
    assert before is not None and not before.state.is_deal_over
    child.kill(signal.SIGKILL)
    child.wait()

    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved == before, "the autosave changed after the kill"

    child = _spawn(tmp_path, "--resume")
    narrator = Narrator([s.name for s in saved.seats], saved.rules, you=0)
    child.expect_exact(narrator.table_text(saved.state.table))
    _play_human_turns(child, 6)  # far enough to need new cards from the stock
    child.expect("Card\\? ")
    after = AutosaveStore(tmp_path / "data").load().record
    child.kill(signal.SIGKILL)
    child.wait()

    assert after.moves[:len(saved.moves)] == saved.moves
    replayed = saved
    for logged in after.moves[len(saved.moves):]:
        if logged.deal_number != replayed.state.deal_number:
            replayed, _ = replayed.next_deal()
        replayed, _ = replayed.play(logged.move)
    assert replayed.state == after.state  # same stock order: the same cards came out
    assert after.state.round > saved.state.round
