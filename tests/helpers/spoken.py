"""Spoken-line checks shared by the tests of refused moves and damaged files."""
from __future__ import annotations

import json
import re
from typing import Any

from helpers.i18n import english_in
from helpers.storage import TWO, played
from scopa.engine import GameState, Rules
from scopa.match import MatchRecord
from scopa.storage import match_to_json

CARD_CODE = re.compile(r"\b(10|[1-7]|[JQKA])[CDHS]\b")  # the engine's short notation: 7D, KC, AS


def assert_spoken(line: str, lang: str) -> None:
    """One line a screen reader and a voice say well: sentences, no card code, no colon or bracket."""
    assert line and "\n" not in line and line.endswith("."), line
    assert "..." not in line, line
    assert not CARD_CODE.search(line), line
    assert not re.search(r"[:;()\[\]{}\"]", line), line
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", line), line  # no field name such as first_dealer
    if lang == "it":
        assert english_in(line.replace("scopa-match", "")) == [], line


def good_moves(turns: int = 30, seed: int = 9) -> tuple[MatchRecord, dict[str, Any]]:
    record = played(Rules(), TWO, seed, turns=turns)
    return record, json.loads(match_to_json(record))


def states_of(record: MatchRecord) -> list[GameState]:
    """The position before each logged move, replayed from the seed."""
    again, _ = MatchRecord.start(record.rules, record.seats, record.seed, record.first_dealer)
    states = []
    for logged in record.moves:
        if again.state.is_deal_over:
            again, _ = again.next_deal()
        states.append(again.state)
        again, _ = again.play(logged.move)
    return states
