"""Card symbols for sighted players: an extra printed line for the table and the hand, never spoken,
never in screen-reader mode, never for a closed hand, and no colour under NO_COLOR."""
from __future__ import annotations

import io
import re

import pytest

from helpers.console import Screen, lines_of, program_for, request_for
from scopa.config import Settings, load_settings
from scopa.console.card_symbols import CardNotation, CardSymbolsOutput, compact
from scopa.console.terminal import Output
from scopa.engine import Card
from scopa.narration import Messages

SYMBOLS = re.compile(r"[♦♥♠♣]")
COLOUR = "\x1b["


def test_a_card_is_its_rank_and_suit_symbol_red_for_diamonds_and_hearts():
    assert compact(Card.parse("7D")) == "7♦"
    assert compact(Card.parse("KC"), colour=True) == "K♣"  # black suits keep the terminal's colour
    assert compact(Card.parse("AH"), colour=True) == "\x1b[31mA♥\x1b[0m"
    assert compact(Card.parse("JS"), symbols=False) == "JS"


@pytest.mark.parametrize("lang, naming, text, expected", [
    ("en", "french", "On the table, settebello, king of clubs.", "7♦ K♣"),  # the seven of diamonds' own name
    ("en", "french", "Your hand. 1, ace of hearts, 2, two of spades, 3, queen of clubs.", "A♥ 2♠ Q♣"),
    ("en", "french", "Three cards each. On the table, six of hearts.", "6♥"),
    ("it", "napoletane", "Sul tavolo asso di coppe, re di bastoni.", "A♥ K♣"),
    ("it", "french", "Carte in mano. 1, sei di quadri, 2, fante di picche.", "6♦ J♠"),
])
def test_the_table_and_the_hand_are_read_back_from_their_printed_words(lang, naming, text, expected):
    notation = CardNotation(Messages(lang), naming)
    assert notation.line_for(text) == expected


@pytest.mark.parametrize("text", [
    "Robin plays the king of clubs and takes the whole table, the king of hearts.",
    "Your turn.", "The table is empty.", "No hand is open now.", "Settebello to you."])
def test_other_lines_get_no_symbols(text):
    assert CardNotation(Messages("en"), "french").line_for(text) is None


def _symbol_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if SYMBOLS.search(line)]


def test_with_the_voice_on_each_table_and_hand_gets_a_printed_symbol_line_that_is_never_spoken(tmp_path):
    program, out, speaker = program_for(tmp_path, ["1", "enter", "enter", "t", "h"] * 3,
                                        settings=Settings(voice=True, card_symbols=True))
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    found = _symbol_lines(lines)
    assert len(found) >= 8
    for i in found:
        assert lines[i - 1].startswith(("Table, ", "Hand, ", "Three cards each")), lines[i - 1]
        assert COLOUR not in lines[i]  # not a terminal: no colour
    assert speaker.said and not any(SYMBOLS.search(said) for said in speaker.said)
    assert "Table, " in " ".join(speaker.said)  # the words above each symbol line are spoken


def test_screen_reader_mode_never_shows_symbols_even_when_chosen(tmp_path):
    program, out, _ = program_for(tmp_path, ["1", "enter", "enter", "t", "h"],
                                  settings=Settings(voice=False, card_symbols=True))
    program.run(request_for("--seed", "3"))
    assert not SYMBOLS.search(out.getvalue())


def test_symbols_are_off_by_default(tmp_path):
    program, out, _ = program_for(tmp_path, ["1", "enter", "enter", "t", "h"], settings=Settings(voice=True))
    program.run(request_for("--seed", "3"))
    assert not SYMBOLS.search(out.getvalue())


def test_a_terminal_gets_red_and_no_color_gets_none(tmp_path, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    screen = Screen()
    output = CardSymbolsOutput(Output(screen), lambda: CardNotation(Messages("en"), "french"))
    output.line("On the table, ace of hearts, king of clubs.")
    assert screen.getvalue().splitlines()[1] == "\x1b[31mA♥\x1b[0m K♣"
    monkeypatch.setenv("NO_COLOR", "1")
    screen = Screen()
    CardSymbolsOutput(Output(screen), lambda: CardNotation(Messages("en"), "french")).line(
        "On the table, ace of hearts, king of clubs.")
    assert screen.getvalue().splitlines()[1] == "A♥ K♣"


def test_a_terminal_without_the_symbols_gets_letters(tmp_path):
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    output = CardSymbolsOutput(Output(stream), lambda: CardNotation(Messages("en"), "french"))
    output.line("On the table, ace of hearts, king of clubs.")
    stream.seek(0)
    assert stream.read().splitlines()[1] == "AH KC"


def test_pass_and_play_shows_symbols_only_for_the_open_hand(tmp_path):
    """At the gate nothing private is printed, so no symbol line can show a hand there either."""
    screen = Screen()
    program, out, _ = program_for(tmp_path, ["h", "enter", "1", "enter", "enter", "enter", "h"], screen=screen,
                                  settings=Settings(voice=True, card_symbols=True))
    program.run(request_for("--seats", "human,human", "--names", "Ada,Bo", "--seed", "3"))
    lines = lines_of(out)
    gate = lines.index("No hand is open now.")
    assert not SYMBOLS.search(lines[gate + 1])
    hands = [i for i, line in enumerate(lines) if line.startswith("Your hand.")]
    for i in _symbol_lines(lines):
        assert lines[i - 1].startswith(("Table, ", "Hand, ", "Three cards each"))
    assert all(SYMBOLS.search(lines[i + 1]) for i in hands)


def test_the_settings_menu_switches_symbols_and_says_when_they_stay_hidden(tmp_path):
    program, out, _ = program_for(tmp_path, "3\n9\n0\n4\n", settings=Settings(voice=False))
    program.run()
    lines = lines_of(out)
    m = Messages("en")
    assert m("settings.symbols.now.on") + " " + m("settings.symbols.hidden") in " ".join(lines)
    assert load_settings(tmp_path / "config")[0].card_symbols
