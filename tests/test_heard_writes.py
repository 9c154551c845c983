"""All that one step announces reaches the terminal in one write (issue 30, item 2).

Orca reads the screen when the terminal reports new text. Lines written a few milliseconds
apart let the next write scroll the last away before it was read: in a four-player match a
scopa line was never heard and the next table line was heard twice. Each test here fails on
the game before the change, which wrote every line on its own."""
from __future__ import annotations

import io
import json
import os
import re
import sys

import pytest

from helpers.console import program_for, request_for
from scopa.console import terminal
from scopa.console.terminal import Output, held, write

pytestmark = pytest.mark.linux  # the real program in a pty

FOUR = ("--players", "4", "--seats", "human,computer:medium,computer:easy,computer:hard", "--seed", "5",
        "--target", "single")
PROMPT = re.compile(r"(Card|Capture|Play|Next)\? $")


class Writes(io.StringIO):
    """A screen that keeps each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


def _news(writes: list[str], keys: set[str]) -> list[str]:
    """The writes that are not the echo of a scripted key."""
    return [w for w in writes if w.strip() not in keys and w]


def test_a_four_player_match_writes_each_step_at_once(tmp_path):
    screen = Writes()
    program, _, _ = program_for(tmp_path, "1\n\n" * 200, screen=screen)
    assert program.run(request_for(*FOUR)) == 0
    news = _news(screen.writes, {"1", ""})
    plays = re.compile(r"^(?:Your scopa! |Scopa for \w+! )?(?:You play |\w+ plays )", re.MULTILINE)
    assert all(len(plays.findall(w)) <= 1 for w in news)  # one move a step, never two in one write
    hands = [w for w in news if "\nHand, " in "\n" + w]
    assert hands and all(PROMPT.search(w) for w in hands)  # the hand goes with the prompt after it
    [sheet] = [w for w in news if "Deal 1 score." in w]
    assert plays.search(sheet) and "Deal points." in sheet  # the last play, then the whole score sheet
    for w in news:  # a write is whole lines, or whole lines and a prompt
        assert w.endswith(("\n", "? ")) or PROMPT.search(w), repr(w)


def test_a_held_write_takes_the_prompt_with_it_and_nested_holds_write_once():
    screen = Writes()
    output = Output(screen)
    with output.held():
        output.line("Felix plays king of clubs.")
        with output.held():
            output.line("Table, two of hearts.")
        assert screen.writes == []
        write(screen, "Card? ")  # what a prompt writes
        output.line("Escape cancels.")
    assert screen.writes == ["Felix plays king of clubs.\nTable, two of hearts.\nCard? ", "Escape cancels.\n"]


def test_news_written_to_a_terminal_waits_for_the_gap_after_the_last(monkeypatch):
    """The console paces the next step that came at once (a computer 20 ms after the last): no
    clock is read by the test, the sleeps asked for are recorded."""
    clock = [100.0]
    slept: list[float] = []
    monkeypatch.setattr(terminal.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(terminal.time, "sleep", lambda s: (slept.append(s), clock.__setitem__(0, clock[0] + s)))

    class Tty(Writes):
        def isatty(self) -> bool:
            return True

    screen = Tty()
    output = Output(screen)
    for line in ("Rosa plays king of spades, takes king of clubs.", "Felix plays two of hearts."):
        output.pace()
        with held(screen):
            output.line(line)
        clock[0] += 0.02  # the next computer plays 20 ms later
    assert len(screen.writes) == 2
    assert slept == [pytest.approx(terminal.NEWS_GAP - 0.02)]
    output.pace()
    assert slept == [pytest.approx(terminal.NEWS_GAP - 0.02), pytest.approx(terminal.NEWS_GAP - 0.02)]
    clock[0] += 1
    output.pace()  # long after: no wait
    assert len(slept) == 2


def test_a_new_terminal_is_not_paced_by_one_that_is_gone(monkeypatch):
    """Pacing is kept per stream, and a stream that is gone is forgotten: CI once slept 8,395
    seconds on a test's new screen, paced by a dead stream whose id it had been given."""
    import gc

    clock = [5000.0]
    slept: list[float] = []
    monkeypatch.setattr(terminal.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(terminal.time, "sleep", slept.append)

    class Tty(Writes):
        def isatty(self) -> bool:
            return True

    gone = Tty()
    Output(gone).line("Rosa plays king of spades.")
    del gone
    gc.collect()
    assert len(terminal._last_news) == 0
    clock[0] = 100.0  # another clock (the test above sets its own)
    screen = Tty()
    Output(screen).pace()
    assert slept == []
    Output(screen).line("Felix plays two of hearts.")
    clock[0] = 50.0  # a clock that went back never makes a wait longer than the gap
    Output(screen).pace()
    assert slept == [pytest.approx(terminal.NEWS_GAP)]


@pytest.mark.slow
def test_the_real_program_in_a_terminal_writes_each_step_once(tmp_path):
    """The real game in a pseudo-terminal (KeyInput): each write is logged by the program itself."""
    pexpect = pytest.importorskip("pexpect")
    log = tmp_path / "writes.jsonl"
    runner = (
        "import json, sys\n"
        "from scopa.console import terminal\n"
        "now = terminal._write_now\n"
        "def logged(stream, text):\n"
        f"    with open({str(log)!r}, 'a') as f: f.write(json.dumps(text) + '\\n')\n"
        "    now(stream, text)\n"
        "terminal._write_now = logged\n"
        "from scopa.__main__ import main\n"
        "sys.exit(main(sys.argv[1:]))\n")
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    command = ["-c", runner, "--no-voice", "--lang", "en", "--data-dir", str(tmp_path / "data"),
               "--config-dir", str(tmp_path / "config"), *FOUR]
    child = pexpect.spawn(sys.executable, command, env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.logfile_read = io.StringIO()
    turns = 0
    while turns < 6:
        index = child.expect(["Card\\?", "Play\\?", "Capture\\?", pexpect.EOF])
        if index == 3:
            break
        if index == 0:
            turns += 1
        child.send("1" if index in (0, 2) else "\r")
    child.sendcontrol("c")
    child.expect("Save and quit")
    child.send("\r")
    child.expect(pexpect.EOF)
    writes = [json.loads(line) for line in log.read_text().splitlines()]
    cards = [w for w in writes if w.endswith("Card?")]
    assert len(cards) >= 6
    assert sum("\nHand, " in "\n" + w for w in cards) >= 1  # the turn's lines and its prompt, one write
    plays = re.compile(r"^(?:Your scopa! |Scopa for \w+! )?(?:You play |\w+ plays )", re.MULTILINE)
    assert all(len(plays.findall(w)) <= 1 for w in writes)
    assert "Traceback" not in child.logfile_read.getvalue()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))


def test_a_lesson_writes_what_it_says_before_a_prompt_with_the_prompt(tmp_path):
    from helpers.lessons import ScriptInput
    from scopa.config import Settings
    from scopa.console.app import Program
    from scopa.lessons.console import extras
    from scopa.speech import RecordingSpeaker
    from scopa.table.persistence import Persistence
    screen = Writes()
    speaker = RecordingSpeaker()
    program = Program(ScriptInput(["escape"], screen), Output(screen), Settings(voice=False), tmp_path / "config",
                      Persistence(tmp_path / "data"), speaker_factory=lambda on, voice: speaker, voice_override=False,
                      lang="en")
    program.extras = extras()  # the lessons hand the program their entry points
    program.run_lesson(3)
    [first] = [w for w in screen.writes if "Lesson 3 of 8." in w]
    assert "Hand, " in first and first.rstrip().endswith("Card?")  # heading, teaching, table, hand and Card?
