"""Lessons and the program driven by keys from a list, and the screen they wrote: shared by the
lesson tests."""
from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from scopa.config import Settings
from scopa.console.app import Program
from scopa.console.terminal import InputClosed, Output
from scopa.console.terminal import write as write_screen
from scopa.lessons.console import extras
from scopa.speech import RecordingSpeaker
from scopa.table.persistence import Persistence

Token = str | Callable[[str], str]


class ScriptInput:
    """Keys from a list, as the game's Input returns them. A callable token is given the screen so far.

    With ``auto`` set, once the list is used up the prompts of a deal are answered on their own:
    the first card, the first capture, Enter to play.
    """

    AUTO: ClassVar[dict[str, str]] = {"Card?": "1", "Capture?": "1", "Play?": "enter"}

    def __init__(self, tokens: Sequence[Token], screen: io.StringIO, auto: bool = False) -> None:
        self.tokens = list(tokens)
        self.screen = screen
        self.auto = auto
        self.prompts: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt.strip())
        write_screen(self.screen, prompt + "\n")  # a prompt takes the lines held for it (terminal.held)
        if self.tokens:
            token = self.tokens.pop(0)
            return token(self.screen.getvalue()) if callable(token) else token
        if self.auto and prompt.strip() in self.AUTO:
            return self.AUTO[prompt.strip()]
        raise InputClosed

    def read_text(self, prompt: str) -> str:
        return self.read(prompt)

    def close(self) -> None:
        pass


def make_program(tmp_path: Path, tokens: Sequence[Token], lang: str = "en", naming: str = "french",
                 auto: bool = False, settings: Settings | None = None) -> Program:
    screen = io.StringIO()
    speaker = RecordingSpeaker()
    program = Program(ScriptInput(tokens, screen, auto), Output(screen), settings or Settings(voice=False),
                      tmp_path / "config", Persistence(tmp_path / "data"),
                      speaker_factory=lambda on, voice: speaker, voice_override=False, lang=lang, naming=naming)
    program.test_screen = screen
    program.test_speaker = speaker
    program.extras = extras()
    return program


def screen(program: Program) -> str:
    return program.test_screen.getvalue()
