"""A lesson in the real program: the game's lines follow the player's verbosity, the lesson's own are said whole."""
from __future__ import annotations

import pytest

from helpers.pty import (
    lines_before,
    spawn,
)

pytestmark = pytest.mark.linux  # the real program in a pty

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

TAUGHT = ["Taking every card on the table in one play is a scopa, a sweep.",
          "Each scopa scores a point at the end of the deal.", "Goal. Sweep the table."]
RIGHT = ("Right. With the six of clubs you took every card on the table, since the ace, the two and the three "
         "make 6. Scopa, one point.")


def _first_sweep(tmp_path, verbosity: str) -> tuple[list[str], list[str]]:
    """Lesson 5's first step: what is said before Card?, and after the sweep is played."""
    child = spawn(tmp_path, "--lesson", "5", "--verbosity", verbosity)
    before = lines_before(child, r"Card\?")
    child.send("1")
    child.expect(r"Play\?")
    child.send("\r")
    after = lines_before(child, r"Go on\?")
    child.kill(9)
    return before, after


def test_a_lesson_says_the_game_lines_at_the_players_verbosity_and_its_teaching_whole(tmp_path):
    before, after = _first_sweep(tmp_path / "short", "short")
    assert before[1:4] == TAUGHT
    assert before[-2:] == ["Table, two of hearts, three of spades and ace of clubs.",
                           "Hand, six of clubs, three of diamonds, four of hearts."]
    assert after == ["Your scopa!", RIGHT, "Enter to go on."]  # the move just confirmed is not told back

    before, after = _first_sweep(tmp_path / "full", "full")
    assert before[1:4] == TAUGHT
    assert before[-1] == "Your hand. 1, six of clubs, 2, three of diamonds, 3, four of hearts."
    assert after[0].startswith("Your scopa! You play the six of clubs") and after[1:] == [RIGHT, "Enter to go on."]
