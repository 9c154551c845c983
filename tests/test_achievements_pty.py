"""Achievements are announced when they are earned: a deal's at the end of that deal, once.

The real program in a pseudo-terminal, played by single keys; closed after the first deal and
resumed, so "once" holds across a resumed match too."""
from __future__ import annotations

import pytest

from helpers.pty import CONTROL, PROMPTS, answer, play_to_next_deal, spawn
from scopa.record.stats import all_facts
from scopa.storage import load_results

pytestmark = pytest.mark.linux  # the real program in a pty

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

SCOPA = "Achievement earned. First scopa."
SETTEBELLO = "Achievement earned. First settebello."


def _to_the_end(child) -> list[str]:
    said: list[str] = []
    while True:
        index = child.expect(PROMPTS)
        said += [line for line in CONTROL.sub("", child.before).split("\n") if line.strip()]
        if PROMPTS[index] is pexpect.EOF:
            return said
        answer(child, index)


def test_a_deals_achievements_are_said_after_its_score_sheet_and_never_again(tmp_path):
    # Seed 1 against a medium player (no tips): your first scopa and settebello come in deal 1.
    child = spawn(tmp_path, "--seed", "1", "--seats", "human,computer:medium")
    child.send("1")
    first = play_to_next_deal(child)
    sheet_end = next(i for i, line in enumerate(first) if line.startswith("Match. You "))  # the sheet's last line
    # short: the line itself says a deal follows
    assert first[sheet_end + 1:sheet_end + 4] == [SCOPA, SETTEBELLO, "Press Enter for the next deal."]
    child.send("q")
    child.expect(r"Quit\?")
    child.send("\r")
    child.expect(pexpect.EOF)

    child = spawn(tmp_path, "--resume")
    rest = _to_the_end(child)
    assert any(line.endswith("wins the match. Final score. You 7, Felix 12.") for line in rest)  # as it always ends
    assert SCOPA not in rest and SETTEBELLO not in rest
    [match] = all_facts(load_results(tmp_path / "data"))
    later = match.deals[1:]  # what would have been said again: the player's scopa and settebello after deal 1
    assert any(deal.own_scopa for deal in later) and any(deal.own_settebello for deal in later)


def test_a_second_unfinished_match_does_not_announce_the_first_ones_achievements(tmp_path):
    # Two matches from seed 1, both left after deal 1: only the first says its scopa and settebello.
    said = []
    for _ in range(2):
        child = spawn(tmp_path, "--seed", "1", "--seats", "human,computer:medium")
        child.send("1")
        said.append(play_to_next_deal(child))
        child.send("q")
        child.expect(r"Quit\?")
        child.send("\r")
        child.expect(pexpect.EOF)
    assert SCOPA in said[0] and SETTEBELLO in said[0]
    assert SCOPA not in said[1] and SETTEBELLO not in said[1]
    assert "Deal 1 score." in said[1]  # the same deal was played and scored
    assert load_results(tmp_path / "data") == []  # neither match is finished
