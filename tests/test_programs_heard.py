"""Everyone at the table hears that a seat is played by a program (docs/protocol.md, Programs at the
table): the console's own lobby, on a real RemoteTable of a real server, says "Bip is a program."
once, after "Bip joined the table." when the program comes later, and as soon as the server has
told it when the program was there first (the welcome comes before the client asks for the
feature); the roster names it too. In English and in Italian."""
from __future__ import annotations

import io
import time
from collections.abc import Callable

import pytest

from helpers.net import SINGLE, Client, contribute
from scopa.console.announcer import Announcer
from scopa.console.online import LeaveRoom, Lobby, News
from scopa.console.terminal import ENTER, WOKEN, Output, Wake
from scopa.engine import Rules
from scopa.narration import Messages
from scopa.net.client.client import RemoteTable
from scopa.net.protocol.client_messages import CreateRoom, Join, Quick
from scopa.net.protocol.server_messages import Welcome


class Silent:
    def say(self, text: str) -> None:
        pass

    def stop(self) -> None:
        pass


class Keys:
    """Each key waits for its condition first (the server's news has arrived), then is pressed."""

    def __init__(self, steps: list[tuple[Callable[[], bool], str]]) -> None:
        self.steps, self.prompts = steps, []

    def read(self, prompt: str, wake: Wake | None = None) -> str:
        self.prompts.append(prompt.strip())
        ready, key = self.steps.pop(0)
        deadline = time.monotonic() + 10
        while not ready():
            assert time.monotonic() < deadline, f"waited in vain at {prompt!r}"
            time.sleep(0.02)
        return key


def _lobby(table: RemoteTable, keys: Keys, lang: str) -> tuple[Lobby, io.StringIO]:
    out, m = io.StringIO(), Messages(lang)
    return Lobby(table, keys, Announcer(Output(out), Silent()), m, Wake(), News(table, m, "ws://127.0.0.1:1")), out


def _program_seated(table: RemoteTable, seat: int) -> Callable[[], bool]:
    return lambda: (table.room().seats[seat] is not None and table.room().seats[seat].program
                    and table.latest() >= 2)


@pytest.mark.parametrize(("lang", "joined", "program"), [("en", "Bip joined the table.", "Bip is a program."),
                                                         ("it", "Al tavolo arriva Bip.", "Bip è un programma.")])
def test_a_program_that_joins_is_heard_as_one(serve, tables, lang: str, joined: str, program: str) -> None:
    server = serve()
    ann = tables(server.url, CreateRoom("Ann", SINGLE, ("human", "human"), "easy"))
    keys = Keys([(lambda: True, WOKEN), (_program_seated(ann, 1), WOKEN), (lambda: True, "q"), (lambda: True, ENTER)])
    lobby, out = _lobby(ann, keys, lang)
    bip = Client(server.url)
    bip.send(Join(ann.code, "Bip", program=True))
    bip.until(lambda m: isinstance(m, Welcome))
    with pytest.raises(LeaveRoom):
        lobby.run()
    lines = out.getvalue().splitlines()
    assert lines.index(program) == lines.index(joined) + 1 and lines.count(program) == 1


def test_a_program_there_first_is_heard_and_named_in_the_roster(serve, tables) -> None:
    server = serve()
    bip = Client(server.url)
    bip.send(CreateRoom("Bip", SINGLE, ("human", "human"), "easy", program=True))
    bip.until(lambda m: isinstance(m, Welcome))
    contribute(bip)
    ben = tables(server.url, Join(bip.code, "Ben"))
    keys = Keys([(_program_seated(ben, 0), WOKEN), (lambda: True, ENTER), (lambda: True, ENTER), (lambda: True, "q"),
                 (lambda: True, ENTER)])
    lobby, out = _lobby(ben, keys, "en")
    with pytest.raises(LeaveRoom):
        lobby.run()
    text = out.getvalue()
    assert text.count("Bip is a program.") == 1
    assert "Seat 1, Bip, a program, the host." in text
    assert keys.prompts[:2] == ["Ready?", "Ready?"] and ben.share_kept is True  # its share, acknowledged


def test_a_quick_match_that_starts_at_once_still_says_its_program(serve, tables) -> None:
    """In a quick match the second seat taken starts the match: the lobby is gone by the time the
    server tells who is a program, so the match console's news says it, once."""
    server = serve("--quick-wait", "30")
    bip = Client(server.url)
    bip.send(Quick("Bip", Rules(), "easy", program=True))
    bip.until(lambda m: isinstance(m, Welcome))
    contribute(bip)
    ben = tables(server.url, Quick("Ben", Rules(), "easy"))
    news = News(ben, Messages("en"), "ws://127.0.0.1:1")
    heard: list[str] = []
    deadline = time.monotonic() + 10
    while "Bip is a program." not in heard:
        assert time.monotonic() < deadline, heard
        heard += [line.text for line in news.lines()]
        time.sleep(0.05)
    assert ben.room().phase != "lobby"
    heard += [line.text for line in news.lines()]
    assert heard.count("Bip is a program.") == 1
