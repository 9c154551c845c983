"""A long text read a page at a time (a match's transcript): each page fits the terminal.

A screen reader reads only what is on the screen, so a text taller than the terminal would
lose its start; it is shown a page at a time, as long menus are (``menus.MenuPages``): N or
Enter the next page, P the previous, a number jumps to that page, R says the page again,
Escape goes back. Each page ends with the line saying where it is and which keys turn it.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..narration import Announcement, Messages
from .announcer import Announcer
from .keys import typed_number
from .menus import rows_taken
from .terminal import ENTER, ESCAPE, Input, screen_size

PLAIN_PAGE = 20  # lines a page when the terminal's size is unknown (a pipe)


def pages_of(lines: Sequence[str], size: tuple[int, int] | None, hint: str) -> list[list[str]]:
    """``lines`` in pages that each fit ``size`` (columns, rows) with the hint and the prompt."""
    if size is None:
        return [list(lines[i:i + PLAIN_PAGE]) for i in range(0, len(lines), PLAIN_PAGE)] or [[]]
    columns, rows = size
    room = max(1, rows - rows_taken(hint, columns) - 2)  # the prompt, one spare
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        taken = rows_taken(line, columns)
        if pages[-1] and used + taken > room:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += taken
    return pages


def read_pages(input: Input, announcer: Announcer, m: Messages, title: str,  # noqa: A002
               lines: Sequence[str]) -> None:
    """Say ``title`` and the first page, then turn pages until Escape."""
    pages = pages_of(lines, screen_size(), m("transcript.page", page=99, pages=99))
    index = 0

    def show() -> None:
        hint = m("transcript.page" if index + 1 < len(pages) else "transcript.end", page=index + 1,
                 pages=len(pages))
        announcer.say([Announcement(line) for line in pages[index]] + [Announcement(hint)])

    announcer.say([Announcement(title)])
    show()
    while True:
        token = input.read(m("prompt.page") + " ")
        key = token.lower()
        if token == ESCAPE:
            announcer.say([Announcement(m("transcript.closed"))])
            return
        number = typed_number(token)
        if token == ENTER or key in {"n", "s"}:  # S: "successiva" in Italian
            if index + 1 < len(pages):
                index += 1
            show()
        elif key == "p":
            if index == 0:
                announcer.say([Announcement(m("transcript.first"))])
            else:
                index -= 1
                show()
        elif number is not None and 1 <= number <= len(pages):
            index = number - 1
            show()
        elif key in {"x", "stop"}:
            announcer.stop()
        else:
            show()
