"""Fewer words at the end of a deal, nothing lost (issue 30, "Every line heard right"): at short
verbosity the score sheet leaves the cards behind each side's primiera to B, and the last cards
taken are said without "on the table" and the articles."""
from __future__ import annotations

import re
from pathlib import Path

from helpers.console import lines_of, program_for, request_for
from scopa.config import Settings
from scopa.engine import GameState, LeftoversTaken, Rules, new_match, parse_cards
from scopa.narration import Messages, Narrator

M = Messages("en")
PRIMIERA_CARDS = re.compile(r"^[A-Z][a-z]+ \d+ with ")  # "You 78 with the settebello, ...": the detail line


def _deal_over(seed: int = 1) -> GameState:
    state, _ = new_match(Rules(), seed)
    while not state.is_deal_over:
        state, _ = state.apply(state.legal_moves()[0])
    return state


def _sheet(verbosity: str, asked: bool = False) -> list[str]:
    state = _deal_over()
    narrator = Narrator(["You", "Robin"], state.rules, 0, "en", verbosity=verbosity)  # type: ignore[arg-type]
    assert state.deal_score is not None
    return [a.text for a in narrator.score_lines(1, state.deal_score, state.match_scores, asked=asked)]


def test_short_words_leave_the_primiera_cards_to_b_and_keep_its_totals_and_point() -> None:
    short = _sheet("short")
    assert any(re.fullmatch(r"Primiera (to \w+, \d+ to \d+|tied, \d+ each)\.", line)
               for line in short)  # whose point, with both totals
    assert not any(PRIMIERA_CARDS.match(line) for line in short)  # the old sheet read both sides' cards here


def test_the_primiera_cards_are_there_when_asked_and_at_full_verbosity() -> None:
    assert sum(bool(PRIMIERA_CARDS.match(line)) for line in _sheet("short", asked=True)) == 2
    assert sum(bool(PRIMIERA_CARDS.match(line)) for line in _sheet("full")) == 2


def test_the_last_cards_are_said_without_on_the_table_and_articles_at_short_and_whole_at_full() -> None:
    event = LeftoversTaken(1, 1, tuple(parse_cards("2C 5H")))
    short = Narrator(["You", "Robin"], Rules(), 0, "en").events([event])
    assert [a.text for a in short] == ["Robin takes the last cards, two of clubs and five of hearts."]
    mine = Narrator(["You", "Robin"], Rules(), 0, "en").events([LeftoversTaken(0, 0, event.cards)])
    assert [a.text for a in mine] == ["You take the last cards, two of clubs and five of hearts."]
    full = Narrator(["You", "Robin"], Rules(), 0, "en", verbosity="full").events([event])
    assert [a.text for a in full] == [
        "Robin takes the last cards on the table, the two of clubs and the five of hearts."]


def test_after_a_deal_the_sheet_said_has_no_primiera_cards_and_b_reads_them(tmp_path: Path) -> None:
    program, out, _ = program_for(tmp_path, "1\n\n" * 22 + "b\n", settings=Settings(voice=False))
    program.run(request_for("--seed", "3"))
    lines = [line.strip() for line in lines_of(out) if line.strip()]
    start = next(at for at, line in enumerate(lines) if line == M("score.header", number=1))
    said = lines[start:next(at for at in range(start, len(lines)) if lines[at].startswith("Next?"))]
    assert any(line.startswith("Primiera") for line in said)
    assert not any(PRIMIERA_CARDS.match(line) for line in said)
    asked = lines[start + len(said):]
    assert sum(bool(PRIMIERA_CARDS.match(line)) for line in asked) == 2  # B: the whole sheet


def _deal_over_of(players: int, seed: int) -> GameState:
    state, _ = new_match(Rules(players=players), seed)
    while not state.is_deal_over:
        state, _ = state.apply(state.legal_moves()[0])
    return state


def test_a_two_sided_sheet_says_whose_each_point_is_first_with_both_counts_in_fewer_words() -> None:
    """Short words, two sides (two players, or four in partnerships): "Cards to Felix and Greta, 25
    to 15." in place of "Cards. You and Elena 15, Felix and Greta 25. Point to Felix and Greta.";
    scopas only for a side that made one. B (asked) and three players keep a count for every side."""
    state = _deal_over_of(4, 3)
    assert state.deal_score is not None
    names = ["You", "Felix", "Elena", "Greta"]
    narrator = Narrator(names, state.rules, 0, "en")
    short = [a.text for a in narrator.score_lines(1, state.deal_score, state.match_scores)]
    whole = [a.text for a in narrator.score_lines(1, state.deal_score, state.match_scores, asked=True)]
    assert short[1:5] == ["Cards to Felix and Greta, 25 to 15.", "Diamonds to Felix and Greta, 6 to 4.",
                          "Settebello to Felix and Greta.", "Primiera to Felix and Greta, 84 to 65."]
    assert short[5] == "No scopas."
    assert short[-2:] == whole[-2:]  # deal points and the match, as before
    words = [sum(len(line.split()) for line in sheet) for sheet in (short, whole)]
    assert words[0] <= words[1] - 20, words
    two = _deal_over_of(2, 3)
    assert two.deal_score is not None
    lines = [a.text for a in Narrator(["You", "Robin"], two.rules, 0, "en").score_lines(
        1, two.deal_score, two.match_scores)]
    assert lines[1:3] == ["Cards tied, 20 each.", "Diamonds tied, 5 each."] and "Scopas, Robin 1." in lines
    three = _deal_over_of(3, 3)
    assert three.deal_score is not None
    lines = [a.text for a in Narrator(["You", "Felix", "Elena"], three.rules, 0, "en").score_lines(
        1, three.deal_score, three.match_scores)]
    assert lines[1] == "Cards. You 14, Felix 16, Elena 10. Point to Felix."  # three counts: each named
