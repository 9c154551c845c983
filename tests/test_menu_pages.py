"""Nothing falls off the top of the screen: a menu taller than the terminal is paged, and can be searched."""
from __future__ import annotations

import io

import pytest

from helpers.console import ScriptInput, lines_of, program_for
from scopa.config import Settings
from scopa.console.announcer import Announcer
from scopa.console.menus import choose, menu_listing, rows_taken
from scopa.console.terminal import Output
from scopa.narration import Messages
from scopa.speech import RecordingSpeaker, VoiceInfo

M = Messages("en")
LANGUAGES = ["Afrikaans", "Albanian", "Amharic", "Arabic", "Aragonese", "Armenian", "Assamese", "Azerbaijani",
             "Bashkir", "Basque", "Belarusian", "Bengali", "Bishnupriya Manipuri", "Bosnian", "Bulgarian",
             "Burmese", "Catalan", "Cherokee", "Chinese, Cantonese", "Chinese, Mandarin", "Croatian", "Czech",
             "Danish", "Dutch", "English, America", "English, Caribbean", "English, Great Britain",
             "English, Lancaster", "English, Scotland", "English, West Midlands", "English, Received Pronunciation",
             "Esperanto", "Estonian", "Finnish", "French, Belgium", "French, France", "French, Switzerland"]
VOICES = [f"{LANGUAGES[i % len(LANGUAGES)]} {i // len(LANGUAGES) + 1}" for i in range(131)]


@pytest.fixture
def terminal(monkeypatch):
    """A terminal of 24 rows and 80 columns, as the game reads it."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    return 80, 24


def run_menu(tokens, items=VOICES, **kwargs):
    out = io.StringIO()
    announcer = Announcer(Output(out), RecordingSpeaker())
    script = ScriptInput(list(tokens), out)
    index = choose(script, announcer, "Voices.", items, "Choice?", messages=M, **kwargs)
    return index, out.getvalue().splitlines()


def announcements(lines: list[str]) -> list[list[str]]:
    """The screen cut at each prompt: what was shown before each answer."""
    blocks, block = [], []
    for line in lines:
        if line.startswith("Choice?"):
            blocks.append(block)
            block = []
        else:
            block.append(line)
    return blocks


def test_each_page_fits_the_terminal_with_its_title_hint_and_prompt(terminal):
    columns, rows = terminal
    _, lines = run_menu(["n", "n", "escape"])
    pages = announcements(lines)
    for page in pages:
        assert sum(rows_taken(line, columns) for line in page) + 1 <= rows  # the prompt's own row
    first, second = pages[0], pages[1]
    assert first[0] == "Voices." and first[1].startswith("1, Afrikaans 1")
    assert first[-1].startswith("Page 1 of ") and second[-1].startswith("Page 2 of ")
    last_on_first = int(first[1].rsplit(". ", 1)[-1].split(",")[0])
    assert second[1].startswith(f"{last_on_first + 1}, ")  # the numbers go on; nothing is skipped


def test_a_number_from_any_page_picks_that_item_and_p_goes_back(terminal):
    index, lines = run_menu(["p", "n", "p", "117"])
    assert index == 116
    assert M("menu.first_page") in lines
    pages = announcements(lines)
    assert pages[1] == [M("menu.first_page")]
    assert pages[2][1] != pages[0][1] and pages[3][1] == pages[0][1]  # N went on, P came back


def test_the_last_page_says_so_and_stays(terminal):
    tokens = ["n"] * 30 + ["escape"]
    index, lines = run_menu(tokens)
    assert index is None
    assert M("menu.last_page") in lines
    assert lines.count(M("menu.last_page")) >= 20  # each N past the end says so, once
    assert any(line.endswith(f"131, {VOICES[130]}.") for line in lines)


def test_typed_letters_keep_the_items_with_a_word_so_begun_and_escape_shows_all_again(terminal):
    index, lines = run_menu(["en", "escape", "zz", "en", "27"])
    assert index == 26
    found = announcements(lines)[1]
    english = [i + 1 for i, voice in enumerate(VOICES) if voice.startswith("English")]
    assert found[0] == M.plural("menu.found", len(english), text="en")
    listed = [int(part.split(",")[0]) for part in found[1].rstrip(".").split(". ")]
    assert listed == english  # "en" finds English, not Slovenian or Armenian, and keeps the numbers
    assert announcements(lines)[2][0] == "Voices."  # Escape: the whole list again
    assert M("menu.not_found", text="zz") in lines


def test_without_a_terminal_nothing_is_paged(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    index, lines = run_menu(["5"])
    assert index == 4
    assert lines[1].startswith("1, Afrikaans 1.") and lines[1].endswith(f"131, {VOICES[130]}.")  # all on one line
    assert lines[2] == M("menu.type_number")


def test_a_short_menu_on_a_tiny_terminal_turns_pages_with_single_keys(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("LINES", "7")
    items = ["new match", "lessons", "settings", "quit", "the rules", "results"]
    index, lines = run_menu(["n", "6"], items=items)
    assert index == 5
    assert announcements(lines)[0][-1] == M("menu.page.keys", page=1, pages=2)


def test_ten_items_take_one_key_each_with_0_for_the_tenth():
    items = [f"item {n}" for n in range(1, 11)]
    index, lines = run_menu(["0"], items=items)
    assert index == 9
    assert lines[1].endswith("9, item 9. 0, item 10.")
    assert M("menu.type_number") not in lines
    index, lines = run_menu(["11", "escape"], items=items)
    assert M("menu.invalid.ten") in lines


def test_the_voice_list_in_settings_is_paged_and_found_by_letters(tmp_path, terminal):
    voices = [VoiceInfo(f"v/{i}", name, ("xx",)) for i, name in enumerate(VOICES)]
    speaker = RecordingSpeaker(voice_list=voices)
    program, out, _ = program_for(tmp_path, ["3", "2", "en", "25", "0", "4"], settings=Settings(voice=True))
    program.speaker_factory = lambda on, voice: speaker
    assert program.run() == 0
    lines = lines_of(out)
    assert any(line.startswith("Page 1 of ") for line in lines)
    assert M.plural("menu.found", sum(v.startswith("English") for v in VOICES), text="en") in lines
    assert program.settings.voice_id == "v/24"


def test_menu_listing_takes_the_numbers_it_is_given():
    assert menu_listing(["a", "b"], ["9", "0"]) == "9, a. 0, b."


@pytest.mark.linux
@pytest.mark.slow
def test_the_real_help_fits_a_24_row_terminal(tmp_path):
    """`scopa --help` in a pseudo-terminal of 24 rows: its first line is still on the screen."""
    import math
    import os
    import sys
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", LANG="C.UTF-8")
    env.pop("COLUMNS", None), env.pop("LINES", None)
    child = pexpect.spawn(sys.executable, ["-m", "scopa", "--help", "--lang", "en", "--config-dir", str(tmp_path)],
                          env=env, encoding="utf-8", timeout=30, dimensions=(24, 80))
    text = child.read()
    child.close()
    assert child.exitstatus == 0
    lines = text.replace("\r\n", "\n").rstrip("\n").split("\n")
    assert sum(max(1, math.ceil(len(line) / 80)) for line in lines) < 24
    assert lines[0] == M("cli.description") and "scopa --help all" in lines[-1]


@pytest.mark.linux
@pytest.mark.slow
def test_the_real_settings_menu_is_paged_by_single_keys_on_a_small_terminal(tmp_path):
    """The real program in a pseudo-terminal of 7 rows: the settings come a page at a time, N turns
    the page at once, and 0 still picks the tenth item (tips) from the second page."""
    import os
    import sys
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    for name in ("COLUMNS", "LINES", "PROMPT_TOOLKIT_NO_CPR"):
        env.pop(name, None)
    child = pexpect.spawn(sys.executable, ["-m", "scopa", "--no-voice", "--lang", "en", "--data-dir",
                                           str(tmp_path / "data"), "--config-dir", str(tmp_path / "config")],
                          env=env, encoding="utf-8", timeout=30, dimensions=(7, 60))
    child.expect("Choice\\?")
    child.send("3")
    child.expect("Page 1 of 2\\.")
    child.expect("Choice\\?")
    child.send("n")
    child.expect("Page 2 of 2\\.")
    child.expect("Choice\\?")
    child.send("0")
    child.expect("Tips on\\.")  # the tenth item, picked from the second page (tips start off)
    child.expect("Choice\\?")
    child.send("\x1b")
    child.expect("Settings closed\\.")
    child.expect("Choice\\?")
    child.send("6")  # quit, after play online and quick match
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
