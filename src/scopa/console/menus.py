"""Numbered menus: announce the choices, then read one key (or, past ten items, a typed number). Escape backs out.

A screen reader is shown only what is on the screen, so a menu taller than the terminal
(131 voices on one wrapped line) would lose its start. Such a menu is shown a page at a
time, each page fitting the terminal with its title, hint and prompt: N and P (in Italian
S and P) turn the pages, and typed letters keep only the items with a word starting so
("en" for the English voices); Escape then shows the whole list again. The numbers never
change, so a number from any page, or from the full list, picks the same item.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from ..narration import Announcement, Messages
from .announcer import Announcer
from .keys import typed_number
from .terminal import ENTER, ESCAPE, RESUMED, Input, line_token, question, screen_size

KEY_ITEMS = 10  # up to ten items one key picks (0 is the tenth, as for cards); a longer menu's numbers are typed


def menu_listing(items: Sequence[str], numbers: Sequence[str] | None = None) -> str:
    """The numbered items on one line: "1, new match. 2, lessons. 3, quit."

    Heard, a number joined straight to its item ran into it ("1 voice off" as one phrase, "1
    11 points" as one number), "speech rate 175, 4 volume" blurred a value into the next
    number, and a comma inside an item ("the cards, suits and values") blurred where the next
    item starts. So each number is followed by a comma, as the cards' numbers are ("1, seven of
    coins"), and each item ends with a full stop (issue 38). ``numbers`` are the items' numbers
    when not 1, 2, 3 and on."""
    numbers = numbers or [str(i + 1) for i in range(len(items))]
    items = [item.rstrip(".") for item in items]  # a sentence as an item: its own full stop made ".."
    return ". ".join(f"{number}, {item}" for number, item in zip(numbers, items, strict=True)) + "."


def rows_taken(text: str, columns: int) -> int:
    """Terminal rows a line of text fills once wrapped at ``columns``."""
    return max(1, math.ceil(len(text) / max(1, columns)))


class MenuPages:
    """Which items a menu shows now: a page of them, maybe only those a typed word finds."""

    def __init__(self, title: str, items: Sequence[str], numbers: Sequence[str], messages: Messages,
                 size: tuple[int, int] | None, rows: bool = False) -> None:
        self.title, self.items, self.numbers = title, list(items), list(numbers)
        self.rows = rows  # one item per line (a list of rooms), not the items on one line
        self.messages, self.size = messages, size
        self.found: list[int] | None = None  # the items a typed word kept, or None for all
        self.search = ""
        self.page = 0
        self.pages = self._split(list(range(len(items))), title)

    def _split(self, shown: list[int], title: str) -> list[list[int]]:
        """``shown`` in pages that each fit the terminal with the title, the hint and the prompt."""
        if self.size is None or not shown:
            return [shown]
        columns, rows = self.size
        longest_hint = self.messages("menu.page", page=99, pages=99)
        room = rows - rows_taken(title, columns) - rows_taken(longest_hint, columns) - 2  # the prompt, one spare
        pages: list[list[int]] = [[]]
        for index in shown:
            page = pages[-1] + [index]
            taken = (sum(rows_taken(line, columns) for line in self._rows(page)) if self.rows
                     else rows_taken(self._listing(page), columns))
            if pages[-1] and taken > room:
                pages.append([index])
            else:
                pages[-1] = page
        return pages

    def _listing(self, indices: list[int]) -> str:
        return menu_listing([self.items[i] for i in indices], [self.numbers[i] for i in indices])

    def _rows(self, indices: list[int]) -> list[str]:
        return [f"{self.numbers[i]}, {self.items[i]}." for i in indices]

    @property
    def paged(self) -> bool:
        return len(self.pages) > 1

    def lines(self, typed: bool) -> list[Announcement]:
        title = self.title
        if self.found is not None:
            title = self.messages.plural("menu.found", len(self.found), text=self.search)
        shown = self.pages[self.page]
        listing = self._rows(shown) if self.rows else [self._listing(shown)]
        lines = [Announcement(title), *(Announcement(line) for line in listing)]
        if self.paged:
            key = "menu.page" if typed else "menu.page.keys"  # a short menu's keys act without Enter
            lines.append(Announcement(self.messages(key, page=self.page + 1, pages=len(self.pages))))
        elif self.found is not None:
            lines.append(Announcement(self.messages("menu.found_hint")))
        elif typed:
            lines.append(Announcement(self.messages("menu.type_number")))
        return lines

    def turn(self, step: int) -> bool:
        """Go to the next (1) or previous (-1) page; False at the end."""
        if not 0 <= self.page + step < len(self.pages):
            return False
        self.page += step
        return True

    def find(self, text: str) -> bool:
        """Keep the items with a word that starts with ``text``; False, and nothing kept, when none has."""
        wanted = text.casefold()
        found = [i for i, item in enumerate(self.items)
                 if any(word.startswith(wanted) for word in item.casefold().replace(",", " ").split())
                 or item.casefold().startswith(wanted)]
        if not found:
            return False
        self.found, self.search, self.page = found, text, 0
        self.pages = self._split(found, self.messages.plural("menu.found", len(found), text=text))
        return True

    def show_all(self) -> None:
        self.found, self.search, self.page = None, "", 0
        self.pages = self._split(list(range(len(self.items))), self.title)


def _words(messages: Messages, key: str) -> set[str]:
    return set(messages(key).split())


def choose(input: Input, announcer: Announcer, title: str, items: Sequence[str], prompt: str,  # noqa: A002
           default: int | None = None, invalid: str = "", messages: Messages | None = None,
           announce: bool = True, rows: bool = False) -> int | None:
    """The index of the chosen item (Enter takes ``default``), or None for Escape.

    ``announce=False`` asks again without reading the menu (after a change was said); R then reads it.
    ``rows``: each item on a line of its own (a list of rooms), paged the same way."""
    messages = messages or Messages()
    typed = len(items) > KEY_ITEMS
    ten_keys = len(items) == KEY_ITEMS  # 1 to 9, and 0 for the tenth
    numbers = [str((i + 1) % 10) if ten_keys else str(i + 1) for i in range(len(items))]
    invalid = invalid or (messages("menu.invalid.ten") if ten_keys
                          else messages.plural("menu.invalid", len(items), count=len(items)))
    menu = MenuPages(title, items, numbers, messages, screen_size(), rows)
    with question(input, [menu_listing(items, numbers)]):  # open until answered: the page's buttons stay
        if announce:
            announcer.say(menu.lines(typed))
        while True:
            token = line_token(input.read_text(prompt + " ")) if typed else input.read(prompt + " ")
            if token == ESCAPE:
                if menu.found is None:
                    return None
                menu.show_all()
                announcer.say(menu.lines(typed))
                continue
            if token == ENTER and default is not None:
                return default
            if ten_keys and token == "0":
                return 9
            number = typed_number(token)
            if number is not None and 1 <= number <= len(items):
                return number - 1
            if token in {"r", "repeat", RESUMED}:  # the menu itself, never the last hint said; or back from Ctrl-Z
                announcer.say(menu.lines(typed))
                continue
            if token in {"x", "stop"}:
                announcer.stop()
                continue
            step = 1 if token.lower() in _words(messages, "menu.next_words") else (
                -1 if token.lower() in _words(messages, "menu.previous_words") else 0)
            if step and menu.paged:
                if menu.turn(step):
                    announcer.say(menu.lines(typed))
                else:
                    announcer.say([messages("menu.last_page" if step > 0 else "menu.first_page")])
                continue
            if typed and number is None and token != ENTER:
                if menu.find(token):
                    announcer.say(menu.lines(typed))
                else:
                    announcer.say([messages("menu.not_found", text=token)])
                continue
            announcer.say([invalid])
