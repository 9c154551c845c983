"""Crash safety, in every run of the suite (CI included), sized for two cores: a few hundred
mutated imports and a few dozen SIGKILLs of the real program, each followed by a resume that
must go on from exactly the saved position. ``python -m scopa.bench crash`` runs longer.

The seed changes from run to run, so CI keeps exploring; a failure names its seed, and
``SCOPA_CRASH_SEED`` replays it (the kill moments still vary with the machine's timing).
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from scopa.bench.crash import MUTATIONS, CrashSafetyFailure, run_imports, run_kills

pytestmark = pytest.mark.linux  # SIGKILLs of the real program

pytestmark = pytest.mark.crash_safety

SEED = int(os.environ.get("SCOPA_CRASH_SEED", random.randrange(10**6)))
HOOKS = Path(__file__).parent / "fault_hooks"


def test_a_few_hundred_mutated_imports_give_a_legal_position_or_one_line(tmp_path):
    figures = run_imports(tmp_path, 350, seed=SEED, in_match=40)
    assert figures.files == 350
    assert figures.accepted > 0 and figures.refused > 200  # the mutations reach both outcomes
    assert {name for name, _ in figures.by_mutation} == set(MUTATIONS)
    assert figures.refused_in_match == min(40, figures.refused)  # each said inside the match, save unchanged


def test_a_few_dozen_kills_at_random_moments_each_resume_exactly(tmp_path):
    figures = run_kills(tmp_path, 24, seed=SEED)
    assert figures.kills == 24
    assert figures.moves_saved > 0  # the game got far enough to be killed mid-match
    assert figures.resumes_checked >= 5  # resumed programs were seen reading out the saved table


def test_the_kill_checks_catch_a_game_that_stops_saving(tmp_path):
    """The suite itself can fail: when the saves silently stop after the third move (a fault
    injected through a start-up hook), the announced moves outrun the saved ones and the checks
    say so at the first kill."""
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(HOOKS), os.environ.get("PYTHONPATH")])),
           "SCOPA_TEST_FAULT": "stop_saving"}
    with pytest.raises(CrashSafetyFailure, match="announced"):
        run_kills(tmp_path, 2, seed=SEED, earliest=0.5, latest=0.8, env=env, during_start=0.0)
