"""Every line heard right (issue 30): each test fails on the game before its change."""
from __future__ import annotations

from scopa.console.terminal import ENTER
from scopa.narration import Messages
from test_console_loop import lines_of, program_for, request_for

M = Messages("en")


def test_repeat_pressed_again_tells_the_players_move_as_past_never_its_preview(tmp_path):
    """Item 3: the second R used to give "Ace of clubs takes ace of hearts. Enter to play, Escape to cancel."."""
    program, out, _ = program_for(tmp_path, ["1", ENTER, "r", "r"])
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    second = lines.index("Hand, ace of clubs, three of spades, queen of clubs.", lines.index("Card? ", 10))
    assert lines[second + 1] == "You played the ace of clubs and took the ace of hearts."
    told_again = lines[second - 4:second + 2]
    assert not any("Enter to play" in line for line in told_again)
