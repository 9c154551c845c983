"""Numbered menus: announce the choices, then read one key. Escape backs out."""
from __future__ import annotations

from typing import Sequence

from ..narration import Announcement, Messages
from .announcer import Announcer
from .terminal import ENTER, ESCAPE, Input


def choose(input: Input, announcer: Announcer, title: str, items: Sequence[str], prompt: str,  # noqa: A002
           default: int | None = None, invalid: str = "", messages: Messages | None = None) -> int | None:
    """The index of the chosen item (Enter takes ``default``), or None for Escape."""
    invalid = invalid or (messages or Messages())("menu.invalid", count=len(items))
    listing = ", ".join(f"{i + 1} {item}" for i, item in enumerate(items))
    announcer.say([Announcement(title), Announcement(listing + ".")])
    while True:
        token = input.read(prompt + " ")
        if token == ESCAPE:
            return None
        if token == ENTER and default is not None:
            return default
        if token.isdigit() and 1 <= int(token) <= len(items):
            return int(token) - 1
        if token in {"r", "repeat"}:
            announcer.repeat()
            continue
        if token in {"x", "stop"}:
            announcer.stop()
            continue
        announcer.say([invalid])
