"""The page's buttons are those of the question now open (issue 40).

The console's own menu (``choose``) and capture menu (``MoveChooser``) are played through the page's
input and stream (``web.session.PageInput``, ``PageStream``), as the server plays them for a page, and
the ``say`` messages the page would get are read: a question asked again with no option said (news, a
reading command, a wrong key) keeps its buttons; the same prompt word asked by another question does
not get them. The browser's side of it is tests/test_web_page.py."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from scopa.console.announcer import Announcer
from scopa.console.choosing import MoveChooser
from scopa.console.menus import choose
from scopa.console.terminal import WOKEN, Output, Wake, question
from scopa.engine import Card, Rules
from scopa.narration import Announcement, Messages, Narrator
from scopa.speech.simple import NullSpeaker
from scopa.web.session import PageInput, PageStream, numbered

MENU = ["quick match", "host a new room", "join a room by its code"]


class PageConsole:
    """A page's console without a browser: the messages it would send, and keys put as the page puts them."""

    def __init__(self, on_prompt: Callable[[str], None] = lambda prompt: None) -> None:
        self.sent: list[dict[str, Any]] = []
        self.on_prompt = on_prompt
        self.stream = PageStream(self._send, lambda text: text)
        # the session's rule: a menu's or the capture question's numbered items, none at other prompts
        self.stream.choices = lambda prompt, lines: numbered(lines) if prompt in ("Choice?", "Capture?") else []
        self.input = PageInput(self.stream)
        self.announcer = Announcer(Output(self.stream), NullSpeaker())  # type: ignore[arg-type]

    def _send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if message.get("prompt"):
            self.on_prompt(message["prompt"])

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.input.put({"type": "key", "key": key})

    def asked(self) -> list[tuple[str, list[str]]]:
        """Each prompt sent, with its buttons' labels; then forgotten."""
        asked = [(m["prompt"], [c["label"] for c in m.get("choices", [])]) for m in self.sent if m.get("prompt")]
        self.sent.clear()
        return asked


def test_a_menu_asked_again_after_a_wrong_key_or_stop_keeps_its_buttons() -> None:
    page = PageConsole()
    page.keys("9", "x", "2")  # a number out of range (a line said, no item), Stop (nothing said), then item 2
    assert choose(page.input, page.announcer, "Online.", MENU, "Choice?", messages=Messages()) == 1
    buttons = ["1, quick match", "2, host a new room", "3, join a room by its code"]
    assert page.asked() == [("Choice?", buttons)] * 3


def test_another_question_with_the_same_prompt_word_gets_none_of_them() -> None:
    page = PageConsole()
    page.keys("1", "9", "2")
    assert choose(page.input, page.announcer, "Online.", MENU, "Choice?", messages=Messages()) == 0
    assert page.input.read("Choice? ") == "9"  # a question of no numbered items ("2, 3 or 4 players")
    page.announcer.say([Announcement("How many players? 2, 3 or 4.")])
    assert page.input.read("Choice? ") == "2"
    assert [buttons for _, buttons in page.asked()] == [[f"{i + 1}, {item}" for i, item in enumerate(MENU)], [], []]
    page.keys("escape")  # a menu asked without saying it (after a change was said): its own items, not the last
    assert choose(page.input, page.announcer, "Voice.", ["on", "off"], "Choice?", messages=Messages(),
                  announce=False) is None
    assert page.asked() == [("Choice?", ["1, on", "2, off"])]
    page.keys("5")
    assert page.input.read("Choice? ") == "5"  # answered (cancelled): its buttons went with it
    assert page.asked() == [("Choice?", [])]


def test_the_capture_menu_keeps_its_buttons_through_news_a_reading_command_and_a_menu_opened_from_it() -> None:
    wake = Wake()
    news = iter([True])  # news comes once, while the first Capture? is open (another seat's chat)
    page = PageConsole(lambda prompt: prompt == "Capture?" and next(news, False) and wake.raise_())
    narrator = Narrator(["Ann", "Bob"], Rules(), you=0)
    seven, options = Card.parse("7D"), [(Card.parse("7C"),), (Card.parse("3S"), Card.parse("4S"))]
    table = [Card.parse("7C"), Card.parse("3S"), Card.parse("4S")]

    def read(key: str) -> str:  # as OnlineMatch reads: news ends the prompt, is said, and the prompt is asked again
        while True:
            token = page.input.read(narrator.messages(key) + " ", wake)
            if token != WOKEN:
                return token
            page.announcer.say([Announcement("Bob: hello")])

    def command(token: str) -> bool:
        if token == "t":  # a reading command: the table said
            page.announcer.say([Announcement(narrator.table_text(table))])
        elif token == "s":  # a command that asks a menu of its own (the settings) at Capture?
            choose(page.input, page.announcer, "Settings.", ["voice", "speed"], "Choice?", messages=Messages())
        return token in ("t", "s")

    chooser = MoveChooser(read, lambda *lines: page.announcer.say(list(lines)), narrator, command,
                          question=lambda: question(page.input))
    page.announcer.say(narrator.capture_choice(0, seven, options, table))
    chosen: list[tuple[Card, ...] | None] = []
    worker = threading.Thread(target=lambda: chosen.append(chooser.capture_menu(0, options)))
    worker.start()
    wait_for_prompts(page, 2)  # Capture?, and Capture? again after the news
    page.keys("t", "s", "1", "2", "escape")  # the table; the settings menu and its item; option 2; cancelled
    worker.join(10)
    assert chosen == [None]
    asked = page.asked()
    captures = [buttons for prompt, buttons in asked if prompt == "Capture?"]
    assert len(captures) == 4 and all(len(buttons) == 2 and buttons[0].startswith("1, ") for buttons in captures)
    assert [b.split(",")[0] for b in captures[0]] == ["1", "2"]
    assert ("Choice?", ["1, voice", "2, speed"]) in asked  # the menu opened from it has its own buttons
    assert [prompt for prompt, _ in asked][-1] == "Play?" and asked[-1][1] == []
    page.keys("1")
    assert page.input.read("Capture? ") == "1"  # answered: the same prompt later is another question's
    assert page.asked() == [("Capture?", [])]


def wait_for_prompts(page: PageConsole, count: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while sum(1 for m in page.sent if m.get("prompt")) < count:
        assert time.monotonic() < deadline, page.sent
        time.sleep(0.01)


def test_the_help_at_capture_makes_no_button_and_leaves_the_capture_buttons() -> None:
    """The help's "1 to 9 pick a card or a capture" is a range, no item: said at Capture?, it took the
    options' place with one button "1, to 9 pick a card or a capture"."""
    page = PageConsole()
    help_lines = [Messages()(f"help.{n}") for n in (1, 2)]
    assert help_lines[0].startswith("Keys. 1 to 9") and numbered(help_lines) == []
    page.keys("?", "escape")
    narrator = Narrator(["Ann", "Bob"], Rules(), you=0)
    options = [(Card.parse("7C"),), (Card.parse("3S"), Card.parse("4S"))]

    def command(token: str) -> bool:
        page.announcer.say([Announcement(line) for line in help_lines])
        return True
    chooser = MoveChooser(lambda key: page.input.read(narrator.messages(key) + " "), page.announcer.say, narrator,
                          command, question=lambda: question(page.input))
    page.announcer.say(narrator.capture_choice(0, Card.parse("7D"), options, [c for o in options for c in o]))
    assert chooser.capture_menu(0, options) is None
    first, again = (buttons for prompt, buttons in page.asked() if prompt == "Capture?")
    assert again == first and len(first) == 2
