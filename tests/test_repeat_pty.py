"""Everything can be heard again: the real program in a pseudo-terminal, played by single keys.

R repeats what happened since the player's last move (the opponent's play, the table) and,
pressed again, steps further back; B says the last deal's score sheet again at any time, in a
resumed match too; a resumed match says who is playing and the score."""
from __future__ import annotations

import re

import pytest

from helpers.pty import (
    lines_before,
    play_to_next_deal,
    spawn,
)
from scopa.engine import Rules
from scopa.narration import Narrator
from scopa.storage import AutosaveStore

pytestmark = pytest.mark.linux  # the real program in a pty

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

PRIMIERA_CARDS = re.compile(r"^\w+ \d+ with |^No primiera for ")  # a side's primiera line: B's, not said


def test_repeat_gives_what_happened_since_the_move_then_steps_further_back(tmp_path):
    child = spawn(tmp_path, "--seats", "human,computer:easy", "--seed", "8")
    opening = lines_before(child, r"Card\?")
    child.send("1")
    choice = lines_before(child, r"Play\?")
    child.send("\r")
    since_move = lines_before(child, r"Card\?")
    assert since_move == ["Felix plays four of hearts.",
                          "Table, two of diamonds, king of spades, six of hearts and four of hearts."]

    child.send("r")
    assert lines_before(child, r"Card\?") == since_move  # the opponent's play, not only the table and hand
    child.send("r")
    assert choice == ["Ace of clubs takes ace of spades. Enter to play, Escape to cancel."]
    # the deal, the hand, and the move as made, never its preview (issue 30, item 3)
    assert lines_before(child, r"Card\?") == [*opening[1:], "You played the ace of clubs and took the ace of spades."]
    child.send("r")
    assert lines_before(child, r"Card\?") == opening[:1]  # the new match
    child.send("r")
    assert lines_before(child, r"Card\?") == ["Nothing earlier to repeat."]
    child.send("t")  # something new is said: Repeat starts again from the latest
    lines_before(child, r"Card\?")
    child.send("r")
    assert lines_before(child, r"Card\?")[:2] == since_move
    child.kill(9)


def test_the_deal_score_is_heard_again_with_b_and_with_repeat(tmp_path):
    child = spawn(tmp_path, "--seats", "human,computer:easy", "--seed", "8")
    child.expect(r"Card\?")
    child.send("b")
    assert lines_before(child, r"Card\?") == ["No deal has been scored yet."]
    child.send("1")
    said = play_to_next_deal(child)
    start = said.index("Deal 1 score.")
    sheet = said[start:said.index("Press Enter for the next deal.")]
    assert re.fullmatch(r"Cards (to \w+, \d+ to \d+|tied, \d+ each)\.", sheet[1])  # whose first
    assert any(line.startswith("Primiera") for line in sheet)
    assert not any(PRIMIERA_CARDS.search(line) for line in sheet)  # short words: the primiera's cards are B's

    child.send("b")
    whole = lines_before(child, r"Next\?")  # before the next deal's first play
    assert _whole_of(whole, sheet) and any(" with " in line for line in whole)  # the cards and their values
    child.send("r")
    assert sheet[0] in lines_before(child, r"Next\?")  # Repeat has it too
    child.send("\r")
    child.expect(r"Card\?")
    child.send("1")
    child.expect(r"Play\?")
    child.send("\r")
    child.expect(r"Card\?")  # the next deal is under way
    child.send("b")
    assert lines_before(child, r"Card\?") == whole  # the last deal's sheet, at any time
    child.kill(9)


def test_a_resumed_match_says_who_is_playing_and_the_score(tmp_path):
    child = spawn(tmp_path, "--seats", "human,computer:easy", "--seed", "8")
    child.send("1")
    play_to_next_deal(child)
    child.send("\r")
    child.expect(r"Card\?")
    child.send("q")
    child.expect(r"Quit\?")
    child.send("\r")
    child.expect(pexpect.EOF)
    saved = AutosaveStore(tmp_path / "data").load().record
    scores = saved.state.match_scores
    assert sum(scores) > 0

    child = spawn(tmp_path, "--resume")
    said = lines_before(child, r"Card\?")
    narrator = Narrator([s.name for s in saved.seats], Rules(), you=0)
    at = said.index("Deal 2 resumed.")
    assert said[at + 1:at + 3] == ["You against Felix.", narrator.match_line(scores)]
    assert said[at + 3] == narrator.table_text(saved.state.table)
    child.kill(9)


def _whole_of(whole: list[str], sheet: list[str]) -> bool:
    """Whether B's sheet is the whole of the one said at the deal's end (short words: "Cards to
    Felix, 22 to 18."): the same header, settebello, deal points and match, then each side's
    counts ("Cards. You 18, Felix 22. Point to Felix.") and the primiera's cards."""
    shared = [line for line in sheet if line.startswith(("Deal ", "Settebello", "Nobody", "Match."))]
    return (len(shared) >= 3 and all(line in whole for line in shared) and whole[1].startswith("Cards. You ")
            and any(PRIMIERA_CARDS.search(line) for line in whole) and len(whole) > len(sheet))


def _sheet_of(said: list[str]) -> list[str]:
    """The score sheet among the lines said at the end of a deal."""
    return said[said.index("Deal 1 score."):said.index("Press Enter for the next deal.")]


def _quit(child) -> None:
    child.send("q")
    child.expect(r"Quit\?")
    child.send("\r")
    child.expect(pexpect.EOF)


def test_b_gives_the_last_deal_score_sheet_after_the_match_is_resumed(tmp_path):
    child = spawn(tmp_path, "--seats", "human,computer:easy", "--seed", "8")
    child.send("1")
    sheet = _sheet_of(play_to_next_deal(child))
    _quit(child)  # at Next?: a resumed match goes on with the next deal

    child = spawn(tmp_path, "--resume")
    child.expect(r"Card\?")
    child.send("b")
    whole = lines_before(child, r"Card\?")  # rebuilt from the saved match
    assert _whole_of(whole, sheet)  # whole: each side's counts and the primiera's cards too
    child.send("1")
    child.expect(r"Play\?")
    child.send("\r")
    child.expect(r"Card\?")
    _quit(child)  # in the middle of deal 2

    child = spawn(tmp_path, "--resume")
    child.expect(r"Card\?")
    child.send("b")
    assert lines_before(child, r"Card\?") == whole
    child.kill(9)
