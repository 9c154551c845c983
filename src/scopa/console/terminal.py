"""The terminal: plain lines out, one key (or one typed command) in.

Two input modes:
- ``KeyInput`` (an interactive terminal): a prompt_toolkit ``PromptSession``, line based,
  never full screen, no cursor-position requests, no toolbar, no completion pop-ups. A
  number or letter key acts at once; ``:`` opens a typed command line; Enter and Escape act.
- ``LineInput`` (``--plain``, ``TERM=dumb`` or a pipe): every key is a line ending in Enter.
  The prompt is written once and nothing is redrawn: the simplest mode for screen readers
  and scripts (``scopa --seed 1 --no-voice < keys.txt``).
Both return the same tokens: a single character, ``"enter"``, ``"escape"``, or a typed
command line such as ``"table"`` or ``"export game.json"``.
"""
from __future__ import annotations

import os
import sys
from typing import Protocol, TextIO

ENTER = "enter"
ESCAPE = "escape"
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"  # home, erase screen, erase scrollback


class InputClosed(Exception):
    """The input ended (end of a piped script, or the terminal went away)."""


class Interrupted(Exception):
    """Ctrl-C: the player wants out; the caller offers to save and quit."""


class Input(Protocol):
    def read(self, prompt: str) -> str: ...
    def read_text(self, prompt: str) -> str: ...


def _token(text: str) -> str:
    text = text.strip()
    if text.startswith(":"):
        text = text[1:].strip()
    if not text:
        return ENTER
    if text.lower() in {"esc", "escape"}:
        return ESCAPE
    return text


class LineInput:
    """Reads whole lines from a text stream; the prompt is printed once per read."""

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stream = stream or sys.stdin
        self.out = out or sys.stdout

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self.stream.readline()
        except KeyboardInterrupt:
            self.out.write("\n")
            raise Interrupted from None
        if not line:
            self.out.write("\n")
            raise InputClosed
        if not _isatty(self.stream):
            self.out.write(line if line.endswith("\n") else line + "\n")  # echo scripted keys
        return _token(line)

    def read_text(self, prompt: str) -> str:
        """A free line of text (a name, a file); Enter alone gives ""."""
        token = self.read(prompt)
        return "" if token == ENTER else token


class KeyInput:
    """Single keys through prompt_toolkit; ``:`` starts a typed command."""

    def __init__(self, input=None, output=None) -> None:  # noqa: A002 - prompt_toolkit's names
        from prompt_toolkit import PromptSession
        from prompt_toolkit.filters import Condition
        from prompt_toolkit.key_binding import KeyBindings

        os.environ.setdefault("PROMPT_TOOLKIT_NO_CPR", "1")
        bindings = KeyBindings()
        empty = Condition(lambda: self._session.default_buffer.text == "")

        def finish(token: str):
            return lambda event: event.app.exit(result=token)

        keys = "0123456789abcdefghijklmnopqrstuvwxyz?.,"
        for key in keys:
            bindings.add(key, filter=empty)(finish(key))
        bindings.add("escape", eager=True)(finish(ESCAPE))
        options = dict(input=input, output=output, complete_while_typing=False, enable_history_search=False,
                       mouse_support=False, erase_when_done=False)
        self._session = PromptSession(key_bindings=bindings, **options)
        self._text_session = PromptSession(**options)

    def read(self, prompt: str) -> str:
        try:
            text = self._session.prompt(prompt)
        except KeyboardInterrupt:
            raise Interrupted from None
        except EOFError:
            raise InputClosed from None
        return text if text == ESCAPE else _token(text)

    def read_text(self, prompt: str) -> str:
        """A free line of text (a name, a file); Enter alone gives ""."""
        try:
            return self._text_session.prompt(prompt).strip()
        except KeyboardInterrupt:
            raise Interrupted from None
        except EOFError:
            raise InputClosed from None


class Output:
    """Writes announcement lines; clears the screen and scrollback between pass-and-play turns."""

    def __init__(self, stream: TextIO | None = None, colour: bool = False) -> None:
        self.stream = stream or sys.stdout
        self.colour = colour and not os.environ.get("NO_COLOR")

    def line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Erase the screen and the scrollback (prompt_toolkit's own clear leaves the scrollback)."""
        if _isatty(self.stream):
            self.stream.write(CLEAR_ALL)
        self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def make_input(plain: bool, stream: TextIO | None = None, out: TextIO | None = None) -> Input:
    """The input for this terminal: keys when interactive, lines when plain, dumb or piped."""
    stream = stream or sys.stdin
    dumb = os.environ.get("TERM", "") in {"dumb", "unknown"}
    if plain or dumb or not _isatty(stream) or not _isatty(out or sys.stdout):
        return LineInput(stream, out)
    return KeyInput()
