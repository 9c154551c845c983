"""KeyInput: single keys through prompt_toolkit, driven by its pipe input (no terminal needed)."""
from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from scopa.config import Settings
from scopa.console.app import Program
from scopa.console.terminal import ENTER, ESCAPE, InputClosed, Interrupted, KeyInput, Output
from scopa.narration import run_command
from scopa.speech import RecordingSpeaker
from scopa.storage import AutosaveStore
from scopa.table.persistence import Persistence


@pytest.fixture
def pipe() -> Iterator:
    with create_pipe_input() as pipe_input:
        yield pipe_input


def key_input(pipe, out: io.StringIO | None = None) -> KeyInput:
    return KeyInput(input=pipe, output=DummyOutput(), out=out or io.StringIO())


@pytest.mark.parametrize("keys, token", [
    ("1", "1"), ("9", "9"), ("t", "t"), ("T", "t"), ("?", "?"), ("\r", ENTER), ("\x1b", ESCAPE),
    (":table\r", "table"), (":last plays\r", "last plays"), (": export game.json\r", "export game.json"),
])
def test_one_key_acts_without_enter_and_typed_words_follow_a_colon(pipe, keys, token):
    pipe.send_text(keys)
    assert key_input(pipe).read("Card? ") == token


def test_the_prompt_words_are_written_once_as_plain_text(pipe):
    """prompt_toolkit draws only the space after the words, so it never redraws them."""
    out = io.StringIO()
    keys = key_input(pipe, out)
    pipe.send_text("1")
    keys.read("Card? ")
    pipe.send_text("\r")
    keys.read("Play? ")
    assert out.getvalue() == "Card?Play?"


class _Terminal(io.StringIO):
    """What a real terminal receives: prompt_toolkit's own bytes, escape sequences and all."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


def _visible(written: str) -> str:
    """The characters a terminal would put on the screen: escape sequences and cursor moves left out."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x08\r]", "", written)


@pytest.mark.parametrize("key", [*"thlspirxvouwq?.,0159", "T", "H", "L", "\x1b"])
def test_a_single_key_is_never_echoed_so_every_key_sounds_the_same(pipe, key):
    """A one-key command leaves nothing after the prompt but the line end.

    The key used to be inserted after the prompt, in the same write as the line end. Orca then
    spoke it before the game's answer only when the terminal reported the key and the line end
    as one insertion (once the screen is full and every line scrolls): some keys were heard,
    others not. With nothing echoed, no key is spoken and the answer comes first."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    screen = _Terminal()
    output = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm", enable_cpr=False)
    keys = KeyInput(input=pipe, output=output, out=io.StringIO())
    pipe.send_text(key)
    assert keys.read("Card? ") in {key.lower(), ESCAPE}
    assert _visible(screen.getvalue()).strip(" ") == "\n"


def test_keys_typed_ahead_are_kept_for_the_next_prompts(pipe):
    keys = key_input(pipe)
    pipe.send_text("2\r")
    assert [keys.read("Card? "), keys.read("Play? ")] == ["2", ENTER]


@pytest.mark.parametrize("control", ["\x03", "\x04"])
def test_ctrl_c_and_ctrl_d_interrupt(pipe, control):
    pipe.send_text(control)
    with pytest.raises(Interrupted):
        key_input(pipe).read("Card? ")


def test_ctrl_c_in_a_typed_command_interrupts_too(pipe):
    pipe.send_text(":tab\x03")
    with pytest.raises(Interrupted):
        key_input(pipe).read("Card? ")


def test_the_end_of_the_input_closes(pipe):
    keys = key_input(pipe)
    pipe.close()
    with pytest.raises((InputClosed, Interrupted)):
        keys.read("Card? ")


def test_read_text_takes_a_whole_line(pipe):
    keys = key_input(pipe)
    pipe.send_text("Alice 2\r")
    assert keys.read_text("Name? ") == "Alice 2"
    pipe.send_text("\r")
    assert keys.read_text("Name? ") == ""
    pipe.send_text("Bo\x1b")
    assert keys.read_text("Name? ") == ESCAPE


def test_a_match_played_by_keys_at_the_key_input(pipe, tmp_path: Path):
    """The whole loop on KeyInput: pick, confirm, a command, then Ctrl-C and Enter save and quit."""
    out = io.StringIO()
    speaker = RecordingSpeaker()
    program = Program(key_input(pipe, out), Output(out), Settings(voice=False), tmp_path / "config",
                      Persistence(tmp_path / "data"), speaker_factory=lambda on, voice: speaker, lang="en")
    from scopa.cli import build_parser, rules_from_args, seats_from_args
    from scopa.console.app import MatchRequest
    args = build_parser().parse_args(["--seed", "3"])
    rules = rules_from_args(args)
    pipe.send_text("1\rt\x03\r")
    code = program.run(MatchRequest(rules, seats_from_args(args, rules), 3))
    text = out.getvalue()
    assert code == 0
    # the key acted at once; Enter played it (the newline is prompt_toolkit's); Giulia's play follows,
    # in short words "Giulia plays two of hearts." or, taking, "Giulia's two of diamonds takes ..."
    assert re.search(r"Play\?Giulia(?: plays |'s )", text)
    assert text.count("Table, ") >= 3  # the deal, the turn and the T key
    assert "Save and quit? Enter to save and quit, Escape to keep playing." in text
    assert text.rstrip().endswith(program.messages("quit.saved", command=run_command()))
    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved is not None and len([m for m in saved.moves if m.seat == 0]) == 1


def test_a_menu_past_nine_items_takes_a_typed_number_and_a_short_one_a_key(pipe):
    """With a hundred voices, "2" must not pick voice 2 at once: past nine items the number
    is typed, then Enter, and the menu says so; up to nine, one digit key acts."""
    from scopa.console.announcer import Announcer
    from scopa.console.menus import choose
    from scopa.narration import Messages
    out = io.StringIO()
    announcer = Announcer(Output(out), RecordingSpeaker())
    keys = key_input(pipe)
    voices = [f"voice {n}" for n in range(1, 31)]
    pipe.send_text("23\r")
    assert choose(keys, announcer, "Voices.", voices, "Choice?", messages=Messages("en")) == 22
    assert "Type the number, then Enter." in out.getvalue()
    pipe.send_text("x\resc\r")  # a word that is not a number, then Escape as a word
    assert choose(keys, announcer, "Voices.", voices, "Choice?", messages=Messages("en")) is None
    pipe.send_text("2")
    assert choose(keys, announcer, "Settings.", voices[:8], "Choice?", messages=Messages("en")) == 1
