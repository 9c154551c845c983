"""An illegal move in an imported file is said in the player's words, not in the engine's notation.

The engine gives every illegal move a reason (``IllegalMoveError.reason``: a code and the cards
involved); the storage line turns it into catalogue sentences with the cards named in words:
"Import failed. Move 12 is not allowed. The settebello must take a single equal card. A match
comes before a sum." Every code is checked in both languages and both namings, through
``import_match``, the console's import command and ``scopa --import``.
"""
from __future__ import annotations

import io
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers.console import ScriptInput, lines_of, request_for
from helpers.spoken import assert_spoken, good_moves, states_of
from helpers.storage import TWO, played
from scopa.config import Settings
from scopa.console.app import Program
from scopa.console.terminal import Output
from scopa.engine import ILLEGAL_CODES, Card, GameState, IllegalMoveError, IllegalReason, Rules, parse_cards
from scopa.narration import NAMINGS, CardNames, Messages, explain_illegal
from scopa.speech import RecordingSpeaker
from scopa.storage import SaveFileError, import_match, match_to_json
from scopa.table.persistence import Persistence

EN, IT = Messages("en"), Messages("it")


def c(text: str) -> Card:
    return Card.parse(text)


# One reason of every kind, with what it says in English and in Italian (French card names).
SAMPLES: dict[str, tuple[IllegalReason, str, str]] = {
    "deal_over": (IllegalReason("deal_over", seat=0),
                  "The deal is over. No card can be played until the next deal.",
                  "La smazzata è finita. Nessuna carta si può giocare prima della prossima smazzata."),
    "not_a_move": (IllegalReason("not_a_move", seat=1),
                   "A move is a card from the hand and the table cards it takes.",
                   "Una mossa è una carta della mano e le carte del tavolo che prende."),
    "not_in_hand": (IllegalReason("not_in_hand", c("KS"), (), 1),
                    "Seat 2 does not hold the king of spades.",
                    "Il giocatore 2 non ha in mano il re di picche."),
    "takes_nothing": (IllegalReason("takes_nothing", c("6C"), (c("KD"),), 1),
                      "The six of clubs takes nothing here. It stays on the table.",
                      "Il sei di fiori qui non prende nulla. Resta sul tavolo."),
    "must_capture": (IllegalReason("must_capture", c("AH"), (), 0),
                     "The ace of hearts must capture. A card that can take must take.",
                     "L'asso di cuori deve prendere. Una carta che può prendere deve farlo."),
    "match_first": (IllegalReason("match_first", c("7D"), parse_cards("3H 4C"), 0),
                    "The settebello must take a single equal card. A match comes before a sum.",
                    "Il settebello deve prendere una sola carta uguale. La carta uguale viene prima della somma."),
    "cannot_take": (IllegalReason("cannot_take", c("QH"), parse_cards("2S 5D"), 1),
                    "The queen of hearts cannot take the two of spades and the five of diamonds.",
                    "La donna di cuori non può prendere il due di picche e il cinque di quadri."),
    "deal_not_over": (IllegalReason("deal_not_over"), "The deal is still being played.",
                      "La smazzata è ancora in corso."),
    "match_over": (IllegalReason("match_over"), "The match is over.", "La partita è finita."),
    "no_claim": (IllegalReason("no_claim", seat=0),
                 ("There is no bonus to claim now. A cirulla or three of a kind is claimed before the hand's first "
                 "card."),
                 ("Ora non c'è nessun bonus da dichiarare. Una cirulla o un tris si dichiara prima della prima carta "
                 "della mano.")),
}


def test_every_reason_the_engine_gives_has_a_sample():
    assert set(SAMPLES) == set(ILLEGAL_CODES)


@pytest.mark.parametrize("code", ILLEGAL_CODES)
def test_every_reason_is_said_in_words_in_both_languages(code):
    reason, english, italian = SAMPLES[code]
    assert explain_illegal(reason, CardNames(EN)) == english
    assert explain_illegal(reason, CardNames(IT)) == italian
    for messages in (EN, IT):
        for naming in NAMINGS:
            assert_spoken(explain_illegal(reason, CardNames(messages, naming)), messages.lang)


@pytest.mark.parametrize("code", ILLEGAL_CODES)
def test_every_reason_makes_a_whole_import_line(code):
    reason, english, italian = SAMPLES[code]
    error = SaveFileError("storage.reason.illegal_move", "storage.heading.import_failed", number=12,
                          detail="7D must take a single equal card: a match comes before a sum.", why=reason)
    assert str(error) == f"Import failed. Move 12 is not allowed. {english}"
    assert error.localised(IT) == f"Importazione non riuscita. La mossa 12 non è ammessa. {italian}"
    for messages in (EN, IT):
        for naming in NAMINGS:
            assert_spoken(error.localised(messages, naming), messages.lang)
    assert error.with_heading("storage.heading.save_unreadable").illegal == reason


def test_the_napoletane_names_are_used_when_the_player_has_them():
    reason = SAMPLES["cannot_take"][0]
    error = SaveFileError("storage.reason.illegal_move", "storage.heading.import_failed", number=3, why=reason)
    assert error.localised(EN, "napoletane") == ("Import failed. Move 3 is not allowed. The cavallo of cups cannot "
                                                 "take the two of swords and the five of coins.")
    assert error.localised(IT, "napoletane") == ("Importazione non riuscita. La mossa 3 non è ammessa. Il cavallo di "
                                                 "coppe non può prendere il due di spade e il cinque di denari.")


def test_an_unknown_code_leaves_the_plain_sentence():
    error = SaveFileError("storage.reason.illegal_move", number=4, why=IllegalReason("from_the_future"))
    assert str(error) == "The match cannot be loaded. Move 4 is not allowed."
    assert error.localised(IT) == "La partita non si può caricare. La mossa 4 non è ammessa."


# Real files -------------------------------------------------------------------------------


def _refusal(state: GameState, card: Card, capture: tuple[Card, ...]) -> IllegalMoveError | None:
    try:
        state.apply((card, capture))
    except IllegalMoveError as error:
        return error
    return None


def _bad_file(code: str) -> tuple[dict[str, Any], int, IllegalReason]:
    """A file whose move list ends with a move refused for ``code``, its number and the reason."""
    for seed in range(9, 40):
        record, data = good_moves(seed=seed)
        for index, state in enumerate(states_of(record)):
            hand = state.hands[state.to_move]
            others = [x for x in state.table if x not in hand] + list(state.stock)
            tries = [(card, ()) for card in others]
            tries += [(card, capture) for card in hand for size in range(4)
                      for capture in itertools.combinations(sorted(state.table), size)]
            for card, capture in tries:
                error = _refusal(state, card, capture)
                if error is not None and error.code == code:
                    bad = {"deal": state.deal_number, "seat": state.to_move, "card": str(card),
                           "capture": [str(x) for x in capture]}
                    data["moves"] = [*data["moves"][:index], bad]
                    return data, index + 1, error.reason
    raise AssertionError(f"no position found for {code}")


def _deal_over_file() -> tuple[dict[str, Any], int, IllegalReason]:
    """A whole first deal, then one more move marked for that deal."""
    record = played(Rules(), TWO, 5, turns=36)  # two players play 36 cards in a deal
    assert record.state.is_deal_over and not record.state.is_match_over
    data = json.loads(match_to_json(record))
    hand_card = str(record.moves[-1].move.card)
    data["moves"].append({"deal": 1, "seat": record.state.to_move, "card": hand_card, "capture": []})
    return data, len(data["moves"]), IllegalReason("deal_over", seat=record.state.to_move)


REACHABLE = ("deal_over", "not_in_hand", "takes_nothing", "must_capture", "match_first", "cannot_take")


def _file_for(code: str) -> tuple[dict[str, Any], int, IllegalReason]:
    return _deal_over_file() if code == "deal_over" else _bad_file(code)


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("code", REACHABLE)
def test_an_imported_illegal_move_is_said_in_words(tmp_path, code):
    data, number, reason = _file_for(code)
    with pytest.raises(SaveFileError) as caught:
        import_match(_write(tmp_path, data))
    error = caught.value
    assert error.illegal == reason
    names_en, names_it = CardNames(EN), CardNames(IT)
    assert str(error) == f"Import failed. Move {number} is not allowed. {explain_illegal(reason, names_en)}"
    assert error.localised(IT) == (f"Importazione non riuscita. La mossa {number} non è ammessa. "
                                   f"{explain_illegal(reason, names_it)}")
    for messages in (EN, IT):
        for naming in NAMINGS:
            assert_spoken(error.localised(messages, naming), messages.lang)
    if reason.card is not None:
        assert names_en.name(reason.card) in str(error)


def test_the_console_import_command_speaks_the_players_language_and_names(tmp_path):
    data, number, reason = _file_for("must_capture")
    path = _write(tmp_path, data)
    out_lines = []
    for lang, naming in (("it", "napoletane"), ("en", "french")):
        out = io.StringIO()
        program = Program(ScriptInput([f"import {path}"], out), Output(out), Settings(voice=False),
                          tmp_path / "config", Persistence(tmp_path / "data"),
                          speaker_factory=lambda on, voice: RecordingSpeaker(), lang=lang, naming=naming)
        program.run(request_for("--seed", "3"))
        messages = Messages(lang)
        expected = SaveFileError("storage.reason.illegal_move", "storage.heading.import_failed", number=number,
                                 why=reason).localised(messages, naming)
        assert expected in lines_of(out)
        assert_spoken(expected, lang)
        out_lines.append(expected)
    assert re.search(r"\b(denari|coppe|spade|bastoni)\b", out_lines[0]), out_lines[0]


def test_scopa_import_on_the_command_line(tmp_path):
    data, number, reason = _file_for("match_first")
    path = _write(tmp_path, data)
    base = [sys.executable, "-m", "scopa", "--no-voice", "--data-dir", str(tmp_path / "d"),
            "--config-dir", str(tmp_path / "c"), "--import", str(path)]
    for lang, naming in (("en", "french"), ("it", "napoletane")):
        done = subprocess.run([*base, "--lang", lang, "--cards", naming], capture_output=True, text=True,
                              timeout=60, input="", check=False)
        expected = SaveFileError("storage.reason.illegal_move", "storage.heading.import_failed", number=number,
                                 why=reason).localised(Messages(lang), naming)
        assert done.returncode == 1, done.stderr
        assert done.stdout.splitlines() == [expected]
        assert_spoken(expected, lang)
    assert not (tmp_path / "d" / "autosave.json").exists()
