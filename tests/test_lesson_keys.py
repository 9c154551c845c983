"""A lesson's Card?, Capture? and Play? prompts are the match's: the same keys give the same lines.

Both are played at full verbosity (a lesson's game lines follow the verbosity as a match's do).

Both are driven through the real key path: ``LineInput`` over a script, as ``scopa --plain``
reads keys; the lesson from the main menu's Lessons, the match from the program's own match loop.
"""
from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest

from helpers.console import program_for
from scopa.config import Settings
from scopa.console.app import Program
from scopa.console.choosing import item_number, unknown_key
from scopa.engine import Card, GameState, Move, legal_captures, new_match, parse_cards
from scopa.lessons import LESSONS
from scopa.lessons.console import extras
from scopa.lessons.content import L2_POSITION, Ctx, Lesson, Outcome, Practice
from scopa.lessons.positions import LESSON_RULES, position
from scopa.match import MatchRecord, SeatSetup

PROMPT = re.compile(r"(Card|Capture|Play)\? ")
KING = Card.parse("KC")


def wide_table() -> GameState:
    """The learner to move with the king of clubs, which can take 13 groups of this table.

    A made-up position (round 1 never has eight cards on the table): lessons and matches take
    it as it is, as the match tests' own made-up positions."""
    state, _ = new_match(LESSON_RULES, seed=1, first_dealer=1)
    hand, table = parse_cards("KC 3H 5D"), parse_cards("AC 2C 3C 4C 5C 6C 7C AD")
    used = set(hand) | set(table) | set(state.hands[1])
    stock = tuple(c for c in state.stock + state.table + state.hands[0] if c not in used)
    return state._replace(hands=(hand, state.hands[1]), table=table, stock=stock[:len(state.stock)])


def program(tmp_path: Path, keys: list[str]) -> tuple[Program, io.StringIO]:
    """The game as ``--plain`` runs it, voice off, with lessons attached, reading ``keys``."""
    program, out, _ = program_for(tmp_path, "".join(k + "\n" for k in keys),
                                  settings=Settings(voice=False, verbosity="full"))
    program.extras = extras()
    return program, out


def turn_transcript(out: io.StringIO, keys: list[str]) -> list[str]:
    """The lines from the first Card? to the prompt that took the last key (the move's Enter)."""
    lines = out.getvalue().splitlines()
    prompts = [i for i, line in enumerate(lines) if PROMPT.match(line)]
    return lines[prompts[0]:prompts[len(keys) - 1] + 1]


def in_a_lesson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state: GameState,
                keys: list[str]) -> tuple[list[str], list[Move]]:
    """Lessons menu, lesson 1 (here a practice at ``state``), then the keys; the lines and the moves made."""
    moves: list[Move] = []

    def judge(ctx: Ctx, outcome: Outcome) -> tuple[bool, list[str]]:
        moves.extend(outcome.moves)
        return True, ["Played."]

    practice = Practice(lambda ctx: [], lambda ctx: "Play a card.", lambda attempt: (state, []), judge)
    monkeypatch.setattr("scopa.lessons.runner.LESSONS", (Lesson(1, (practice,)), *LESSONS[1:]))
    return lesson_transcript(tmp_path, 1, keys), moves


def lesson_transcript(tmp_path: Path, number: int, keys: list[str]) -> list[str]:
    """Main menu, Lessons, lesson ``number``, then the keys: the lines of the learner's turn."""
    learner, out = program(tmp_path / "lesson", ["2", str(number), *keys])
    assert learner.run() == 0
    return turn_transcript(out, keys)


def in_a_match(tmp_path: Path, state: GameState, keys: list[str]) -> tuple[list[str], MatchRecord]:
    """A match at ``state`` against an easy computer, played with the keys; the lines and the record."""
    seats = (SeatSetup("You"), SeatSetup("Robin", "computer", "easy"))
    record, _ = MatchRecord.start(state.rules, seats, seed=1, first_dealer=state.dealer)
    player, out = program(tmp_path / "match", keys)
    played: list[MatchRecord] = []
    player.persistence.save = played.append  # type: ignore[method-assign]
    assert player._play(replace(record, state=state), None) == 0  # the keys run out: saved and left
    return turn_transcript(out, keys), played[-1]


# Every wrong key a turn can meet, then a move: "" is Enter, "\x1b" and "esc" are Escape.
WIDE_KEYS = ["5", "0", "²", ":frobnicate", "12345", "", "t", "h",   # Card?: no card 5 or 0; unknown; Enter
             "1", "²", "99", "", "0", "z", "\x1b",                   # the king's menu: 0 is option 10; Escape
             "2", "z", "0", "esc",                                   # the three of hearts: one choice; cancel
             "1", "12", "0", ""]                                     # option 12, then 10, and Enter plays it


def test_a_lesson_turn_sounds_like_a_match_turn_key_for_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = wide_table()
    lesson, moves = in_a_lesson(tmp_path, monkeypatch, state, WIDE_KEYS)
    match, record = in_a_match(tmp_path, state, WIDE_KEYS)
    assert lesson == match
    tenth = legal_captures(KING, state.table, state.rules)[9]
    assert moves == [Move(KING, tenth)]
    assert record.moves[0].move == Move(KING, tenth)


def test_the_zero_key_picks_option_10_in_a_lesson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = wide_table()
    lesson, moves = in_a_lesson(tmp_path, monkeypatch, state, ["1", "0", ""])
    options = legal_captures(KING, state.table, state.rules)
    assert len(options) > 10
    assert lesson[-2].startswith("Option 10, ")
    assert moves == [Move(KING, options[9])]


def test_lesson_2_keys_match_the_match_at_its_position(tmp_path: Path) -> None:
    """The real lesson 2, as shipped, against a match at its position."""
    keys = ["²", ":frobnicate", "1", "²", "3", "esc", "1", "2", ""]
    lesson = lesson_transcript(tmp_path, 2, keys)
    match, record = in_a_match(tmp_path, position(**L2_POSITION), keys)
    assert lesson == match
    assert "Unknown key, question mark for help." in lesson
    assert "Not a card or a key. Question mark lists the keys." in lesson  # a word at Card?
    assert "Cancelled." in lesson
    assert record.moves[0].move == Move(Card.parse("7S"), (Card.parse("7D"),))


def test_escape_at_card_still_leaves_the_lesson(tmp_path: Path) -> None:
    """The one difference kept on purpose: a lesson has no card to cancel at Card?, so Escape leaves it."""
    learner, out = program(tmp_path, ["2", "2", "\x1b"])
    assert learner.run() == 0
    assert "Lesson left." in out.getvalue()


@pytest.mark.parametrize(("token", "count", "number"), [
    ("1", 3, 1), ("0", 3, 0), ("0", 9, 0), ("0", 10, 10), ("0", 13, 10), ("12", 13, 12),
    ("²", 13, None), ("12345", 13, None), ("z", 3, None), ("enter", 3, None)])
def test_item_number(token: str, count: int, number: int | None) -> None:
    assert item_number(token, count) == number


def test_unknown_key_tells_a_key_from_a_typed_word() -> None:
    assert unknown_key("z") == "error.unknown"
    assert unknown_key("frobnicate") == "error.unknown_command"
