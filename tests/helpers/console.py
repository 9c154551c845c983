"""The program and its console driven by scripted input, and what it wrote: shared by the console tests."""
from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from scopa.cli import build_parser, rules_from_args, seats_from_args
from scopa.config import Settings
from scopa.console.app import MatchRequest, Program
from scopa.console.terminal import CLEAR_ALL, InputClosed, Interrupted, LineInput, Output
from scopa.console.terminal import write as write_screen
from scopa.narration import Messages
from scopa.speech import RecordingSpeaker
from scopa.table.persistence import Persistence

M = Messages("en")


class Screen(io.StringIO):
    """Captured output that says it is a terminal, so the screen clears are written."""

    def isatty(self) -> bool:
        return True


class ScriptInput:
    """Tokens as KeyInput returns them; ``Interrupted`` in the script raises it (Ctrl-C)."""

    def __init__(self, tokens: Sequence[object], out: io.StringIO) -> None:
        self.tokens = list(tokens)
        self.out = out
        self.prompts: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt.strip())
        write_screen(self.out, prompt + "\n")  # a prompt takes the lines held for it (terminal.held)
        if not self.tokens:
            raise InputClosed
        token = self.tokens.pop(0)
        if token is Interrupted:
            raise Interrupted
        return str(token)

    def read_text(self, prompt: str) -> str:
        return self.read(prompt)

    def close(self) -> None:
        pass


def program_for(tmp_path: Path, script: str | Sequence[object], screen: io.StringIO | None = None,
                settings: Settings | None = None) -> tuple[Program, io.StringIO, RecordingSpeaker]:
    out = screen if screen is not None else io.StringIO()
    source = LineInput(io.StringIO(script), out) if isinstance(script, str) else ScriptInput(script, out)
    speaker = RecordingSpeaker()
    program = Program(source, Output(out), settings or Settings(voice=False), tmp_path / "config",
                      Persistence(tmp_path / "data"), speaker_factory=lambda on, voice: speaker, lang="en")
    return program, out, speaker


def request_for(*flags: str) -> MatchRequest:
    args = build_parser().parse_args(list(flags))
    rules = rules_from_args(args)
    return MatchRequest(rules, seats_from_args(args, rules), args.seed)


def lines_of(out: io.StringIO) -> list[str]:
    return out.getvalue().replace(CLEAR_ALL, "\n").splitlines()
