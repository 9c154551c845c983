"""News at an open prompt: a ``Wake`` raised by another thread ends the read with ``WOKEN``.

Both input modes: KeyInput (prompt_toolkit, driven by its pipe input) and LineInput (a real OS
pipe, so that the read truly blocks as on a terminal); and the browser page's console's input
(``web.session.PageInput``), whose keys come from the page."""
from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from scopa.console.terminal import ENTER, WOKEN, KeyInput, LineInput, Wake
from scopa.web.session import PageInput, PageStream


def later(action, seconds: float = 0.2) -> threading.Thread:
    thread = threading.Thread(target=lambda: (time.sleep(seconds), action()), daemon=True)
    thread.start()
    return thread


@pytest.fixture
def pipe() -> Iterator:
    with create_pipe_input() as pipe_input:
        yield pipe_input


@pytest.fixture
def os_pipe() -> Iterator:
    read_fd, write_fd = os.pipe()
    reader, writer = os.fdopen(read_fd, "r"), os.fdopen(write_fd, "w")
    yield reader, writer
    writer.close()
    reader.close()


def test_a_wake_ends_an_open_key_prompt_and_the_next_key_goes_to_the_next_prompt(pipe):
    out = io.StringIO()
    keys, wake = KeyInput(input=pipe, output=DummyOutput(), out=out), Wake()
    later(wake.raise_)
    assert keys.read("Card? ", wake) == WOKEN
    pipe.send_text("t")
    assert keys.read("Card? ", wake) == "t"
    assert out.getvalue() == "Card?Card?"  # written once per read, never redrawn


def test_a_wake_never_cuts_a_command_being_typed(pipe):
    keys, wake = KeyInput(input=pipe, output=DummyOutput(), out=io.StringIO()), Wake()
    pipe.send_text(":tab")

    def news_while_typing() -> None:
        # The news comes once the prompt holds the half-typed command (not at a fixed time: on a
        # busy machine the prompt may not have read ":tab" yet after a fifth of a second).
        deadline = time.monotonic() + 10.0
        while keys._session.default_buffer.text != ":tab" and time.monotonic() < deadline:
            time.sleep(0.01)
        wake.raise_()
        time.sleep(0.3)
        pipe.send_text("le\r")
    later(news_while_typing, 0.0)
    assert keys.read("Card? ", wake) == "table"
    assert keys.read("Card? ", wake) == WOKEN  # the news waited for the command, and comes now


def test_a_wake_raised_before_the_prompt_ends_it_at_once_without_writing_it(pipe):
    out = io.StringIO()
    keys, wake = KeyInput(input=pipe, output=DummyOutput(), out=out), Wake()
    wake.raise_()
    assert keys.read("Waiting? ", wake) == WOKEN
    assert out.getvalue() == ""


def test_without_a_wake_the_key_prompt_is_as_before(pipe):
    keys = KeyInput(input=pipe, output=DummyOutput(), out=io.StringIO())
    pipe.send_text("\r")
    assert keys.read("Card? ") == ENTER


def test_a_wake_ends_a_blocked_line_read_on_a_line_of_its_own(os_pipe):
    reader, writer = os_pipe
    out = io.StringIO()
    lines, wake = LineInput(reader, out), Wake()
    later(wake.raise_)
    assert lines.read("Waiting? ", wake) == WOKEN
    assert out.getvalue() == "Waiting? \n"  # the news starts on a new line
    writer.write("l\n")
    writer.flush()
    assert lines.read("Waiting? ", wake) == "l"


def test_a_line_typed_after_a_wake_is_kept_for_the_next_read(os_pipe):
    reader, writer = os_pipe
    lines, wake = LineInput(reader, io.StringIO()), Wake()
    later(wake.raise_)
    assert lines.read("Card? ", wake) == WOKEN
    writer.write("2\n\n")
    writer.flush()
    assert lines.read("Card? ", wake) == "2"
    assert lines.read("Play? ") == ENTER  # a read without a wake takes the reader thread's lines too


def test_news_arriving_as_a_prompt_closes_is_kept_and_never_breaks_the_thread_that_brings_it(pipe):
    """The table's network thread raises the wake whenever a message arrives. One that arrives as
    the prompt's event loop has just closed (the key was read, the read has not returned yet)
    raised "Event loop is closed" in that thread, which then died: the seat heard no news again."""
    keys, wake = KeyInput(input=pipe, output=DummyOutput(), out=io.StringIO()), Wake()
    failures: list[BaseException] = []
    real_prompt = keys._session.prompt

    def prompt_then_news(*args, **kwargs):
        answer = real_prompt(*args, **kwargs)  # its event loop is closed now; the read has not returned
        thread = threading.Thread(target=lambda: _raise_noting(wake, failures))
        thread.start()
        thread.join()
        return answer

    keys._session.prompt = prompt_then_news
    pipe.send_text("t")
    assert keys.read("Card? ", wake) == "t"
    assert failures == []
    assert keys.read("Card? ", wake) == WOKEN  # the news is said before the next prompt


def _raise_noting(wake: Wake, failures: list[BaseException]) -> None:
    try:
        wake.raise_()
    except BaseException as error:  # noqa: BLE001 - what the network thread would have died of
        failures.append(error)


def test_a_text_line_woken_while_typed_is_asked_again_with_its_text_and_cursor(pipe):
    """``read_text`` with a wake (the seat's own turn timer at ``Message?``): the wake ends the
    line even with text typed in it; the next read of the same prompt starts with that text, the
    cursor where it was, so what is typed next goes where the player was typing."""
    out = io.StringIO()
    keys, wake = KeyInput(input=pipe, output=DummyOutput(), out=out), Wake()
    pipe.send_text("hello Bn\x1b[D")  # typed, then the cursor one to the left, before the n

    def news_while_typing() -> None:
        deadline = time.monotonic() + 10.0
        buffer = keys._text_session.default_buffer
        while buffer.cursor_position != 7 and time.monotonic() < deadline:
            time.sleep(0.01)
        wake.raise_()
    later(news_while_typing, 0.0)
    assert keys.read_text("Message? ", wake) == WOKEN
    pipe.send_text("e\r")
    assert keys.read_text("Message? ", wake) == "hello Ben"
    assert out.getvalue() == "Message?Message?"  # the words written once per read
    pipe.send_text("\r")
    assert keys.read_text("Message? ", wake) == ""  # sent: the next line starts empty


def test_a_text_line_woken_before_it_is_asked_is_not_written_and_keeps_its_text(pipe):
    out = io.StringIO()
    keys, wake = KeyInput(input=pipe, output=DummyOutput(), out=out), Wake()
    later(wake.raise_)
    pipe.send_text("hi")
    assert keys.read_text("Message? ", wake) == WOKEN
    wake.raise_()  # news again before the line is asked again: not written, the text still kept
    assert keys.read_text("Message? ", wake) == WOKEN
    pipe.send_text("\r")
    assert keys.read_text("Message? ", wake) == "hi"
    assert out.getvalue() == "Message?Message?"


def test_text_kept_from_a_woken_line_is_not_given_to_another_prompt(pipe):
    keys, wake = KeyInput(input=pipe, output=DummyOutput(), out=io.StringIO()), Wake()
    pipe.send_text("hi")
    later(wake.raise_, 0.3)
    assert keys.read_text("Message? ", wake) == WOKEN
    pipe.send_text("x\r")
    assert keys.read_text("Name? ") == "x"


def test_a_text_line_without_a_wake_is_as_before(pipe):
    keys = KeyInput(input=pipe, output=DummyOutput(), out=io.StringIO())
    pipe.send_text("a few words\r")
    assert keys.read_text("Message? ") == "a few words"


def test_a_wake_ends_a_line_read_of_text_and_the_line_typed_comes_next(os_pipe):
    """Line mode: the terminal keeps what is typed until Enter, so a wake cannot lose it; the
    line ends on a line of its own, and the whole line typed is the next read's."""
    reader, writer = os_pipe
    out = io.StringIO()
    lines, wake = LineInput(reader, out), Wake()
    later(wake.raise_)
    assert lines.read_text("Message? ", wake) == WOKEN
    assert out.getvalue() == "Message? \n"
    writer.write("hello Ben\n")
    writer.flush()
    assert lines.read_text("Message? ", wake) == "hello Ben"


# News that arrives while the prompt is being written: after the read found no wake raised, before it
# watches for one. It ended no prompt: the seat sat at its prompt, the news unsaid, until a key came
# (at Waiting?, the other seat's play never heard). The prompt's write raises the wake, so the moment
# is exact.

def read_within(read: Callable[[], str], seconds: float = 10.0) -> str | None:
    """What ``read`` gives, or None when it is still waiting after ``seconds`` (it would wait forever)."""
    given: list[str] = []
    threading.Thread(target=lambda: given.append(read()), daemon=True).start()
    deadline = time.monotonic() + seconds
    while not given and time.monotonic() < deadline:
        time.sleep(0.01)
    return given[0] if given else None


class NewsWhileWritten(io.StringIO):
    """An output on which the news comes as the prompt is written."""

    def __init__(self, wake: Wake, prompt: str) -> None:
        super().__init__()
        self.wake, self.prompt = wake, prompt

    def write(self, text: str) -> int:
        written = super().write(text)
        if text.endswith(self.prompt):
            self.wake.raise_()
        return written


def test_a_wake_raised_as_its_prompt_is_watched_is_not_lost() -> None:
    wake, ended = Wake(), []
    wake.raise_()
    wake.watch(lambda: ended.append(True))  # raised before the prompt watched it: it ends the prompt at once
    assert ended == [True]
    assert wake.take()
    wake.watch(lambda: ended.append(True))
    assert ended == [True]  # taken: nothing to end


def test_news_while_a_line_prompt_is_written_ends_it(os_pipe):
    reader, _writer = os_pipe
    wake = Wake()
    lines = LineInput(reader, NewsWhileWritten(wake, "Waiting? "))
    assert read_within(lambda: lines.read("Waiting? ", wake)) == WOKEN


def test_news_while_the_pages_prompt_is_written_ends_it() -> None:
    wake = Wake()

    def send(message: dict[str, Any]) -> None:
        if message.get("prompt") == "Waiting?":
            wake.raise_()
    page = PageInput(PageStream(send, lambda text: text))
    assert read_within(lambda: page.read("Waiting? ", wake)) == WOKEN
    page.put({"type": "key", "key": "t"})
    assert page.read("Waiting? ", wake) == "t"  # the key after it goes to the prompt asked again
