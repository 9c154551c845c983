"""The real program in a pseudo-terminal (pexpect): shared by the end-to-end tests."""
from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")


PROMPTS = ["Open\\?", "Card\\?", "Capture\\?", "Play\\?", "Hide\\?", "Next\\?", pexpect.EOF]


def spawn(tmp_path: Path, *flags: str):
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    env.pop("PROMPT_TOOLKIT_NO_CPR", None)
    command = [sys.executable, "-m", "scopa", "--no-voice", "--lang", "en", "--data-dir", str(tmp_path / "data"),
               "--config-dir", str(tmp_path / "config"), *flags]
    child = pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.logfile_read = io.StringIO()
    child.delaybeforesend = 0.005  # the game reads keys typed ahead, so no settling time is needed
    return child


def answer(child, index: int) -> None:
    """The first card, the first capture, Enter for everything else: keys only, no Enter after a digit."""
    child.send("1" if index in (1, 2) else "\r")


CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x08\r]")


def lines_before(child, prompt: str) -> list[str]:
    """The lines printed before the next ``prompt``, without the terminal's control codes."""
    child.expect(prompt)
    return [line for line in CONTROL.sub("", child.before).split("\n") if line.strip()]


def play_to_next_deal(child) -> list[str]:
    """First card, first capture, Enter, until the pause between deals; the lines said last."""
    said: list[str] = []
    while True:
        index = child.expect([r"Card\?", r"Capture\?", r"Play\?", r"Next\?"])
        said += [line for line in CONTROL.sub("", child.before).split("\n") if line.strip()]
        if index == 3:
            return said
        child.send("1" if index < 2 else "\r")
