"""Numbered menus: announce the choices, then read one key (or, past nine items, a typed number). Escape backs out."""
from __future__ import annotations

from typing import Sequence

from ..narration import Announcement, Messages
from .announcer import Announcer
from .keys import typed_number
from .terminal import ENTER, ESCAPE, Input, line_token

KEY_ITEMS = 9  # a longer menu has numbers that one digit key cannot pick: they are typed, then Enter


def menu_listing(items: Sequence[str]) -> str:
    """The numbered items on one line: "1 New match, 2 Lessons, 3 Quit."

    Heard, "1 11 points" runs the numbers together, "speech rate 175, 4 volume" blurs a value
    into the next number, and a comma inside an item ("the cards, suits and values") blurs where
    the next item starts: such menus get a full stop between items, and a comma after each
    number that a digit follows."""
    crowded = any("," in item or item[:1].isdigit() or item[-1:].isdigit() for item in items)
    parts = [f"{i + 1}{',' if item[:1].isdigit() else ''} {item}" for i, item in enumerate(items)]
    return (". " if crowded else ", ").join(parts) + "."


def choose(input: Input, announcer: Announcer, title: str, items: Sequence[str], prompt: str,  # noqa: A002
           default: int | None = None, invalid: str = "", messages: Messages | None = None) -> int | None:
    """The index of the chosen item (Enter takes ``default``), or None for Escape."""
    messages = messages or Messages()
    invalid = invalid or messages("menu.invalid", count=len(items))
    typed = len(items) > KEY_ITEMS
    lines = [Announcement(title), Announcement(menu_listing(items))]
    if typed:
        lines.append(Announcement(messages("menu.type_number")))
    announcer.say(lines)
    while True:
        token = line_token(input.read_text(prompt + " ")) if typed else input.read(prompt + " ")
        if token == ESCAPE:
            return None
        if token == ENTER and default is not None:
            return default
        number = typed_number(token)
        if number is not None and 1 <= number <= len(items):
            return number - 1
        if token in {"r", "repeat"}:
            announcer.repeat()
            continue
        if token in {"x", "stop"}:
            announcer.stop()
            continue
        announcer.say([invalid])
