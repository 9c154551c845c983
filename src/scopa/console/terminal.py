"""The terminal: plain lines out, one key (or one typed command) in.

Two input modes:
- ``KeyInput`` (an interactive terminal): a prompt_toolkit ``PromptSession``, line based,
  never full screen, no cursor-position requests, no toolbar, no completion pop-ups, no
  mouse. A number or letter key acts at once and is not echoed (see ``_finish``); ``:`` opens
  a typed command line; Enter and Escape act; Ctrl-C and Ctrl-D ask to save and quit.
  The prompt text itself is written once as plain text before prompt_toolkit starts, so
  prompt_toolkit never redraws it (a redrawn prompt is spoken twice by screen readers).
- ``LineInput`` (``--plain``, ``TERM=dumb`` or a pipe): every key is a line ending in Enter.
  The prompt is written once and nothing is redrawn: the simplest mode for screen readers
  and scripts (``scopa --seed 1 --no-voice < keys.txt``).
Both return the same tokens: a single character, ``"enter"``, ``"escape"``, or a typed
command line such as ``"table"`` or ``"export game.json"``.

Online, news can arrive while a prompt is open (an opponent played, a player left). The
table's network thread raises a ``Wake``; a read given that wake then ends with ``WOKEN``
instead of a key, on a line of its own, so the console prints the news and asks again, the
prompt written once more after the news (never redrawn in place, which Orca reads twice). A
prompt where the player has started typing a command is never cut short: the wake waits for
the line. A free line of text (``read_text``) may be given a wake of its own that does cut it
short, typed text and all: the table raises it only for what the player must hear at once (their
own turn timer, ``console.chat``); the text is kept and the next ``read_text`` of the same prompt
starts with it, cursor where it was (in line mode the terminal itself keeps the unfinished line).
Keys typed ahead are never lost: prompt_toolkit keeps the keys a woken prompt read
but did not act on for the next prompt, and keys not yet read wait in the terminal. News that
arrives as a prompt's event loop closes leaves the wake raised for the next read (it must never
fail in the network thread that brings it: that thread would die and the seat hear no news).
"""
from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import queue
import string
import sys
import threading
import time
import unicodedata
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TextIO

from .. import system

ENTER = "enter"
ESCAPE = "escape"
WOKEN = "\x00woken"  # a read ended by a ``Wake``: news arrived, no key was taken
INTERRUPT = "\x03"  # KeyInput's token for Ctrl-C and Ctrl-D, turned into ``Interrupted``
REDRAW = "\x0c"  # Ctrl-L: the prompt is written again on a cleared screen
RESUMED = "\x00resumed"  # the game was suspended with Ctrl-Z and is back (``fg``): say where things stand
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"  # home, erase screen, erase scrollback
KEYS = string.digits + string.ascii_lowercase + "?.,"  # keys that act at once, without Enter
ESCAPE_WAIT = 0.05  # seconds to tell a lone Escape from an escape sequence (prompt_toolkit: 0.5)
LINE_END_PAUSE = 0.06  # seconds between a prompt's line end and the next output (see KeyInput._prompt)
WORD_WAIT = 0.3  # seconds a letter key waits for another key: typed together, they are a word, not commands
NEWS_GAP = 0.15  # seconds at least between two writes of news to a terminal (see ``held``)


class InputClosed(Exception):
    """The input ended (end of a piped script, or the terminal went away)."""


class OutputClosed(Exception):
    """The output cannot be written any more (closed, a full device, a reader that went away).

    ``problem`` is the operating system's error; the program stops with one line on stderr and
    leaves the save as the last completed turn wrote it."""

    def __init__(self, problem: OSError | ValueError) -> None:
        super().__init__(str(problem))
        self.problem = problem


class Interrupted(Exception):
    """Ctrl-C (or Ctrl-D at a key prompt): the player wants out; the caller offers to save and quit."""


def _readable(stream: Any) -> bool:
    """A terminal or pipe with input ready now; False for what has no file descriptor (a StringIO).
    select on Linux and macOS, the console's input buffer or the pipe's bytes on Windows."""
    return system.current().keys.waiting(stream)


class Wake:
    """A flag another thread raises to end the prompt open now, or the next one, with ``WOKEN``.

    ``raise_`` may be called from any thread; the reading thread ``take``s the flag."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._raised = False
        self._end: Callable[[], None] | None = None

    def raise_(self) -> None:
        with self._lock:
            self._raised = True
            end = self._end
        if end is not None:
            end()

    def take(self) -> bool:
        """True once for each time it was raised since the last ``take``."""
        with self._lock:
            raised, self._raised = self._raised, False
            return raised

    def watch(self, end: Callable[[], None] | None) -> None:
        """What ``raise_`` calls to end the prompt now open (None: no prompt is open).

        Raised already (news that came after the read found no wake, while its prompt was written),
        ``end`` is called at once: with no one watching, that ``raise_`` ended nothing, and the prompt
        would have waited for a key with the news unsaid (the other seat's play, at ``Waiting?``)."""
        with self._lock:
            self._end = end
            raised = self._raised
        if end is not None and raised:
            end()


class Input(Protocol):
    def read(self, prompt: str, wake: Wake | None = None, urgent: Wake | None = None) -> str: ...
    def read_text(self, prompt: str, wake: Wake | None = None) -> str: ...
    def close(self) -> None: ...


@contextmanager
def question(input: object, listing: Sequence[str] = ()) -> Iterator[None]:  # noqa: A002
    """One question open until it is answered or cancelled (a menu, the capture menu).

    Its prompt may be asked again with its options said only once: after news, a reading command
    or a wrong key. An input that shows the options beside the prompt (the page's buttons) keeps
    them with the question while it is open, and offers them again then; any other input ignores it.
    ``listing``: the options as a menu says them, for a question asked without saying them."""
    opened = getattr(input, "question", None)
    if opened is None:
        yield
        return
    with opened(list(listing)):
        yield


def line_token(text: str) -> str:
    """A typed line as a token: "" is Enter, "esc" or the Escape key is Escape, a leading colon goes."""
    text = text.strip()
    if text.startswith(":"):
        text = text[1:].strip()
    if not text:
        return ENTER
    if text.lower() in {"esc", "escape"} or not text.strip("\x1b"):
        return ESCAPE  # the word, or the Escape key itself, which line mode passes on as ^[
    return text


class LineInput:
    """Reads whole lines from a text stream; the prompt is printed once per read."""

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stream = stream or sys.stdin
        self.out = out or sys.stdout
        self._lines: queue.Queue[str | BaseException | None] | None = None  # from the reader thread

    def read(self, prompt: str, wake: Wake | None = None, urgent: Wake | None = None) -> str:
        """A key or a typed line as a token. ``urgent`` changes nothing here: in line mode ``wake``
        ends the read even while a line is typed (the terminal keeps the line until Enter)."""
        line = self._line(prompt, wake)
        return line if line == WOKEN else line_token(line)

    def read_text(self, prompt: str, wake: Wake | None = None) -> str:
        """A free line of text (a name, a file); Enter alone gives "". ``wake`` ends it with
        ``WOKEN`` on a line of its own; what was typed of the line stays with the terminal (a
        terminal in line mode gives the program a line only at Enter), so it is the start of the
        line read next."""
        line = self._line(prompt, wake)
        return line if line == WOKEN else line.strip()

    def _line(self, prompt: str, wake: Wake | None = None) -> str:
        if wake is not None and wake.take():
            return WOKEN
        write(self.out, prompt)
        try:
            line = self.stream.readline() if wake is None and self._lines is None else self._waited_line(wake)
        except KeyboardInterrupt:
            write(self.out, "\n")
            raise Interrupted from None
        except (OSError, ValueError):  # a closed or unreadable input is its end
            line = ""
        if line == WOKEN:
            return line
        if not line:
            write(self.out, "\n")
            raise InputClosed
        if not _isatty(self.stream):
            write(self.out, line if line.endswith("\n") else line + "\n")  # echo scripted keys
        return line

    def pending(self) -> bool:
        """Whether a line is waiting to be read (typed ahead), without reading it; a wake left in
        the reader's queue by an earlier prompt is no line."""
        if self._lines is not None:
            with self._lines.mutex:
                return any(item != WOKEN for item in self._lines.queue)
        return _readable(self.stream)

    def _waited_line(self, wake: Wake | None) -> str:
        """The next line from the reader thread, or ``WOKEN`` (after a line end) if woken first.

        Lines are read by a thread from the first wakeable read on, so that the main thread can
        wait for a line and a wake at once; a line typed after a wake is kept for the next read."""
        lines = self._reader()
        if wake is not None:
            wake.watch(lambda: lines.put(WOKEN))
        try:
            while True:
                item = lines.get()
                if item == WOKEN:
                    if wake is None or not wake.take():
                        continue  # a wake already taken, or one of an earlier read
                    write(self.out, "\n")
                    if _isatty(self.out):
                        time.sleep(LINE_END_PAUSE)  # the line end on its own, as KeyInput does (Orca)
                    return WOKEN
                if isinstance(item, BaseException):
                    raise item
                return item or ""
        finally:
            if wake is not None:
                wake.watch(None)

    def _reader(self) -> queue.Queue[str | BaseException | None]:
        if self._lines is None:
            self._lines = queue.Queue()
            threading.Thread(target=self._read_lines, args=(self._lines,), daemon=True, name="line-reader").start()
        return self._lines

    def _read_lines(self, lines: queue.Queue[str | BaseException | None]) -> None:
        while True:
            try:
                line = self.stream.readline()
            except (OSError, ValueError) as error:
                lines.put(error)
                return
            lines.put(line)
            if not line:
                return

    def close(self) -> None:
        pass


class KeyInput:
    """Single keys through prompt_toolkit; ``:`` starts a typed command.

    ``input``/``output`` are prompt_toolkit's (tests pass a pipe input and ``DummyOutput``);
    ``out`` is where the prompt text is written, as a plain line start.
    """

    def __init__(self, input: Any = None, output: Any = None, out: TextIO | None = None) -> None:  # noqa: A002
        from prompt_toolkit import PromptSession

        os.environ.setdefault("PROMPT_TOOLKIT_NO_CPR", "1")
        self.out = out or sys.stdout
        options = {"input": input, "output": output, "complete_while_typing": False, "enable_history_search": False,
                   "mouse_support": False, "erase_when_done": False, "enable_suspend": False}
        self._session: Any = PromptSession(key_bindings=self._key_bindings(), **options)
        self._text_session: Any = PromptSession(key_bindings=self._text_bindings(), **options)
        for session in (self._session, self._text_session):
            session.app.ttimeoutlen = ESCAPE_WAIT
        self._letter: str | None = None  # a letter pressed at an empty prompt, waiting for the key after it
        self._letter_timer: asyncio.TimerHandle | None = None
        self._unfinished: tuple[str, Any] | None = None  # (prompt, Document) of a text line a wake cut short
        self._restore_echo = _silence_echo(sys.stdin) if input is None else None
        self.pause = LINE_END_PAUSE if input is None else 0.0

    def _key_bindings(self) -> Any:
        from prompt_toolkit.filters import Condition
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys

        bindings = KeyBindings()
        empty = Condition(lambda: self._session.default_buffer.text == "" and self._letter is None)
        holding = Condition(lambda: self._letter is not None)
        for key in KEYS:
            if key in string.ascii_lowercase:
                bindings.add(key, filter=empty)(self._hold_letter)
            else:
                bindings.add(key, filter=empty)(_finish(key))
        for key in string.ascii_uppercase:
            bindings.add(key, filter=empty)(self._hold_letter)
        bindings.add(Keys.Any, filter=holding)(self._after_letter)
        for key in ("enter", "c-j", "backspace", "tab"):  # keys with bindings of their own, which Any loses to
            bindings.add(key, filter=holding)(self._letter_acts)
        bindings.add("escape", eager=True)(self._unless_letter(_finish(ESCAPE, clear=True)))
        bindings.add("c-c")(self._unless_letter(_finish(INTERRUPT, clear=True)))
        bindings.add("c-d")(self._unless_letter(_finish(INTERRUPT, clear=True)))
        bindings.add("c-l")(self._unless_letter(_finish(REDRAW, clear=True)))
        bindings.add("c-z")(self._unless_letter(_suspend))
        return bindings

    # A letter pressed at an empty prompt waits WORD_WAIT for the key after it. A printable key
    # makes the two the start of a typed word ("six", "re di spade", a pasted line), read up to
    # Enter; anything else, or no key in time, lets the letter act as its command, and a key that
    # followed it is kept for the next prompt. So a word is never split into key commands.
    def _hold_letter(self, event: Any) -> None:
        self._letter = event.data
        app, letter = event.app, event.data

        def act() -> None:
            if self._letter == letter and app.is_running and not app.future.done():
                self._letter = None
                app.exit(result=letter.lower())
        self._letter_timer = asyncio.get_running_loop().call_later(WORD_WAIT, act)

    def _release_letter(self) -> str | None:
        letter, self._letter = self._letter, None
        if self._letter_timer is not None:
            self._letter_timer.cancel()
            self._letter_timer = None
        return letter

    def _after_letter(self, event: Any) -> None:
        """The key after a held letter: a printable one starts a typed word with it."""
        if event.data and event.data.isprintable():
            event.current_buffer.insert_text((self._release_letter() or "") + event.data)
            return
        self._letter_acts(event)

    def _letter_acts(self, event: Any) -> None:
        """The held letter acts as its key; the key that came after it waits for the next prompt."""
        letter = self._release_letter() or ""
        for press in reversed(event.key_sequence):
            event.app.key_processor.feed(press, first=True)
        event.app.exit(result=letter.lower())

    def _unless_letter(self, handler: Callable[[Any], None]) -> Callable[[Any], None]:
        def handle(event: Any) -> None:
            if self._letter is not None:
                self._letter_acts(event)
            else:
                handler(event)
        return handle

    @staticmethod
    def _text_bindings() -> Any:
        from prompt_toolkit.key_binding import KeyBindings

        bindings = KeyBindings()
        bindings.add("escape", eager=True)(_finish(ESCAPE, clear=True))
        bindings.add("c-c")(_finish(INTERRUPT, clear=True))
        bindings.add("c-d")(_finish(INTERRUPT, clear=True))
        return bindings

    def read(self, prompt: str, wake: Wake | None = None, urgent: Wake | None = None) -> str:
        """A key, or a typed word up to Enter, as a token. ``wake`` ends the prompt while nothing is
        typed in it; ``urgent`` (the player's own turn timer) ends it even while a word is typed:
        the word is kept, and the next read of the same prompt starts with it (as ``read_text``).

        A wake already raised ends the read before the prompt opens: nothing was typed at it, so
        nothing is kept (the session's buffer still holds the last line sent, ``:c 3``, which was
        kept and typed again at the next prompt, so that Enter sent the phrase again)."""
        if wake is not None and wake.take():
            return WOKEN
        text = self._prompt(self._session, prompt, wake, default=self._take_unfinished(prompt), urgent=urgent)
        while text == REDRAW:  # Ctrl-L: a cleared screen with the prompt on it, as a terminal program does
            write(self.out, "\x1b[H\x1b[2J")
            text = self._prompt(self._session, prompt, wake, urgent=urgent)
        if text == WOKEN:
            self._keep_unfinished(self._session, prompt)
        return text if text in (ESCAPE, WOKEN, RESUMED) else line_token(text)

    def _take_unfinished(self, prompt: str) -> Any:
        """The text a wake cut short at ``prompt``, to start it again with ("" if none); taken, so
        that a read of another prompt between drops it: what was typed there is over."""
        kept, self._unfinished = self._unfinished, None
        return kept[1] if kept is not None and kept[0] == prompt else ""

    def _keep_unfinished(self, session: Any, prompt: str) -> None:
        """Keep what is typed at ``prompt``, which a wake has just cut short, for its next read."""
        typed = session.default_buffer.document
        self._unfinished = (prompt, typed) if typed.text else None

    def forget_unfinished(self) -> None:
        """Drop the word a wake cut short: the prompt it was typed at is over (the turn was played)."""
        self._unfinished = None

    def read_text(self, prompt: str, wake: Wake | None = None) -> str:
        """A free line of text (a name, a file); Enter alone gives "", Escape gives ``ESCAPE``.

        ``wake`` ends the line with ``WOKEN`` even while text is typed in it: the text (and where
        the cursor was in it) is kept, and the next ``read_text`` of the same prompt starts with
        it, written after the prompt's words, so nothing typed is lost and what is heard is the
        prompt with the line so far."""
        if wake is not None and wake.take():  # before the prompt is written: it is not written, the text kept
            return WOKEN
        text = self._prompt(self._text_session, prompt, wake, typing=True, default=self._take_unfinished(prompt))
        if text != WOKEN:
            return text.strip()
        self._keep_unfinished(self._text_session, prompt)
        return WOKEN

    def _prompt(self, session: Any, prompt: str, wake: Wake | None = None, typing: bool = False,
                default: Any = "", urgent: Wake | None = None) -> str:
        # The words are written once as plain text; prompt_toolkit draws only the trailing space,
        # so that its redraws never touch the words and the cursor ends where the text ends.
        # ``typing``: the wake ends the prompt even when text is typed in it (``read_text``).
        if wake is not None and not typing and wake.take():
            return WOKEN
        words = prompt.rstrip()
        self._release_letter()
        write(self.out, words)
        try:
            text = session.prompt(prompt[len(words):] or " ", default=default,
                                  pre_run=self._watcher(session, wake, typing, urgent))
        except KeyboardInterrupt:
            raise Interrupted from None
        except (EOFError, OSError):  # OSError: the terminal went away under prompt_toolkit
            raise InputClosed from None
        finally:
            for watched in (wake, urgent):
                if watched is not None:
                    watched.watch(None)
        self._let_the_line_end()
        if text == INTERRUPT:
            raise Interrupted
        result: str = text
        return result

    def pending(self) -> bool:
        """Whether a key is waiting in the terminal, without reading it (False for a test's pipe)."""
        return self._restore_echo is not None and _readable(sys.stdin)

    def _watcher(self, session: Any, wake: Wake | None, typing: bool = False,
                 urgent: Wake | None = None) -> Callable[[], None] | None:
        """A pre-run hook letting ``wake`` end this prompt from another thread, unless typing began
        (``typing``: even then); and ``urgent`` end it while a word is typed (not while a letter
        waits for the key after it: that ends the prompt, or starts the word, within WORD_WAIT)."""
        if wake is None and urgent is None:
            return None

        def end_if_idle() -> None:
            app = session.app
            if not app.is_running or app.future.done():
                return
            idle = typing or (session.default_buffer.text == "" and self._letter is None)
            if idle and wake is not None and wake.take():
                app.exit(result=WOKEN)
            elif not idle and self._letter is None and urgent is not None and urgent.take():
                if wake is not None:
                    wake.take()  # the news it came with is said now, the urgent line among it
                app.exit(result=WOKEN)

        def watch() -> None:
            loop = asyncio.get_running_loop()

            def end_soon() -> None:
                # RuntimeError: the prompt's loop closed as the news came: the wake stays raised,
                # so the next read ends at once and the news is said.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(end_if_idle)
            for watched in (wake, urgent):
                if watched is not None:
                    watched.watch(end_soon)
            end_if_idle()  # raised between the check above and now
        return watch

    def _let_the_line_end(self) -> None:
        """Give the terminal the prompt's line end on its own before the answer is printed.

        Orca reads a multi-line insertion from the start of the line it begins on: if the
        prompt's newline and the next announcement reach the terminal together, "Card?" is
        spoken a second time in front of the answer. A short pause lets the terminal report the
        two separately, as it does when a line-mode program echoes Enter.
        """
        if self.pause:
            time.sleep(self.pause)

    def close(self) -> None:
        if self._restore_echo is not None:
            self._restore_echo()
            self._restore_echo = None


def _finish(token: str, clear: bool = False) -> Callable[[Any], None]:
    """A key handler that ends the prompt with ``token``; nothing is left after the prompt.

    A one-key command is never echoed. An echoed key reaches the terminal in the same write as
    the line end, and Orca spoke it ("l.") before the game's answer only when the terminal
    reported the two as one insertion, which happens once the screen is full and every new
    line scrolls; a lone character is treated as typing and stays silent with key echo off.
    So the same key was heard or not depending on where the screen was. With no echo, no key
    is ever spoken by the game and the answer comes first; the answer itself says which key
    acted.
    """
    def handler(event: Any) -> None:
        if clear:
            event.current_buffer.reset()
        event.app.exit(result=token)
    return handler


def _suspend(event: Any) -> None:
    """Ctrl-Z: stop as a terminal program does (the shell's ``fg`` brings it back), then end the
    prompt with ``RESUMED``, for the console to say where things stand and ask again."""
    import signal

    from prompt_toolkit.application import run_in_terminal

    stop = getattr(signal, "SIGTSTP", None)
    if stop is None:  # Windows has no job control: nothing to suspend
        return
    app = event.app

    async def suspend_then_resume() -> None:
        await run_in_terminal(lambda: os.kill(0, stop))
        if app.is_running and not app.future.done():
            app.exit(result=RESUMED)
    app.create_background_task(suspend_then_resume())


def _silence_echo(stream: TextIO) -> Callable[[], None] | None:
    """Stop the terminal echoing keys typed between two prompts ("5Card?"); a restore function,
    None when ``stream`` is no terminal.

    prompt_toolkit puts the terminal in raw mode while a prompt is open and then restores the
    settings it found, so with echo off here, keys typed ahead stay silent until the next prompt
    reads them. Line editing is off too, so that a single key typed ahead can be seen waiting
    (``KeyInput.pending``: the online wait opens its prompt for it at once). The original
    settings come back on ``close`` and at exit. Windows' console echoes nothing between two
    reads: there this changes nothing, and a waiting key is seen in the console's buffer
    (``scopa.system.keys``).
    """
    return system.current().keys.quiet(stream)


class Output:
    """Writes announcement lines; clears the screen and scrollback between pass-and-play turns."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout

    def line(self, text: str) -> None:
        write(self.stream, text + "\n", hold=True)

    def held(self) -> contextlib.AbstractContextManager[None]:
        """A context in which every line goes out in one write (``held``)."""
        return held(self.stream)

    def pace(self) -> None:
        """Wait, on a terminal, until ``NEWS_GAP`` after the last news written (see ``held``)."""
        _pace(self.stream)

    def clear(self) -> None:
        """Erase the screen and the scrollback (prompt_toolkit's own clear leaves the scrollback)."""
        write(self.stream, CLEAR_ALL if _isatty(self.stream) else "")


_held: dict[int, list[str]] = {}  # id of a stream -> the lines held back for its next write
# a terminal stream -> when news was last written to it; weak, because an id is reused once its
# stream is gone (a stream made later was paced by a dead one's time)
_last_news: weakref.WeakKeyDictionary[TextIO, float] = weakref.WeakKeyDictionary()


@contextmanager
def held(stream: TextIO) -> Iterator[None]:
    """All that is said inside goes out as a single write: with the first prompt written (which
    it comes before), or at the end.

    Orca reads the screen when the terminal reports new text; two writes a few milliseconds
    apart let the second scroll the first away before it was read (a four-player line was
    never heard, the next spoken twice). So what one step announces is written at once, and
    the console waits (``Output.pace``) before it tells the next step that came on its own at
    once (a computer's move), so that two writes of news are ``NEWS_GAP`` apart at least.
    Holds nest: the outermost one writes."""
    key = id(stream)
    if key in _held:
        yield
        return
    _held[key] = []
    try:
        yield
    finally:
        text = "".join(_held.pop(key, []))
        if text:
            _news_written(stream)
            _write_now(stream, text)


def write(stream: TextIO | None, text: str, hold: bool = False) -> None:
    """Write and flush; a stream that cannot take it any more raises ``OutputClosed``.

    Inside ``held``, a line (``hold``) waits, and anything else (a prompt) takes the waiting
    lines with it, in one write."""
    if stream is None:  # no stream at all (sys.stdout is None when started without one)
        raise OutputClosed(ValueError("there is no output stream"))
    waiting = _held.get(id(stream))
    if waiting is not None:
        if hold:
            waiting.append(text)
            return
        if waiting:
            text = "".join(waiting) + text
            waiting.clear()
            _news_written(stream)
    elif hold:
        _news_written(stream)
    _write_now(stream, text)


def _news_written(stream: TextIO) -> None:
    with contextlib.suppress(TypeError):  # a stream that takes no weak reference is not paced
        _last_news[stream] = time.monotonic()


def _pace(stream: TextIO) -> None:
    """On a terminal, wait until ``NEWS_GAP`` after the last news written to it."""
    if not _isatty(stream):
        return
    try:
        last = _last_news.get(stream)
    except TypeError:
        return
    wait = 0.0 if last is None else min(NEWS_GAP, last + NEWS_GAP - time.monotonic())
    if wait > 0:
        time.sleep(wait)


def _write_now(stream: TextIO, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError, AttributeError) as error:  # AttributeError: no stream at all (None)
        raise OutputClosed(error if not isinstance(error, AttributeError) else ValueError(str(error))) from None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def screen_size(stream: TextIO | None = None) -> tuple[int, int] | None:
    """(columns, rows) of the terminal the game writes to; None when it writes to no terminal.

    ``COLUMNS`` and ``LINES``, when both are set, win (as for ``shutil.get_terminal_size``)."""
    try:
        columns, rows = int(os.environ["COLUMNS"]), int(os.environ["LINES"])
        if columns > 0 and rows > 0:
            return columns, rows
    except (KeyError, ValueError):
        pass
    stream = stream or sys.stdout
    if not _isatty(stream):
        return None
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return (size.columns, size.lines) if size.columns > 0 and size.lines > 0 else None


def is_dumb_terminal() -> bool:
    return os.environ.get("TERM", "") in {"dumb", "unknown"}


def make_input(plain: bool, stream: TextIO | None = None, out: TextIO | None = None) -> Input:
    """The input for this terminal: keys when interactive, lines when plain, dumb or piped."""
    stream = stream or sys.stdin
    out = out or sys.stdout
    if plain or is_dumb_terminal() or not _isatty(stream) or not _isatty(out):
        return LineInput(stream, out)
    return KeyInput(out=out)


# Terminals whose encoding is not UTF-8 ----------------------------------------------------------
PLAIN_RENDERING = "scopa-plain"  # the codec error handler registered below
_PLAIN_LETTERS = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u00ab": '"', "\u00bb": '"',
                  "\u2013": "-", "\u2014": "-", "\u2026": "...", "\u00a0": " ", "\u20ac": "EUR", "\u00df": "ss",
                  "\u00e6": "ae", "\u00c6": "AE", "\u0153": "oe", "\u0152": "OE", "\u00f8": "o", "\u00d8": "O"}


def plain_letter(char: str, encoding: str) -> str:
    """``char`` as the encoding can write it: è as e, ’ as ', anything else as ?."""
    plain = _PLAIN_LETTERS.get(char)
    if plain is None:
        plain = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    try:
        plain.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return "?"
    return plain or "?"


def _plain_rendering(error: UnicodeError) -> tuple[str | bytes, int]:
    """A codec error handler: letters the output cannot encode are written without their accents.

    A byte the input could not decode (kept as a lone surrogate, Python's ``surrogateescape``)
    goes back out as that byte, so a name typed in the terminal's own encoding shows as typed.
    """
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    if all(0xDC80 <= ord(c) <= 0xDCFF for c in text):
        return bytes(ord(c) - 0xDC00 for c in text), error.end
    return "".join(plain_letter(c, error.encoding) for c in text), error.end


codecs.register_error(PLAIN_RENDERING, _plain_rendering)


def use_safe_rendering(*streams: TextIO | None) -> None:
    """Let each stream write every line even when its encoding has no accents (``LC_ALL=C``).

    UTF-8 streams are left as they are; others get the plain rendering for what they cannot
    encode. An input stream that would refuse bytes outside its encoding keeps them instead
    (``surrogateescape``), so a typed name never stops the game."""
    for stream in streams:
        if stream is None:
            continue
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            if reconfigure is None or codecs.lookup(encoding).name == "utf-8":
                continue
            if getattr(stream, "readable", lambda: False)():
                if stream.errors == "strict":
                    reconfigure(errors="surrogateescape")
            else:
                reconfigure(errors=PLAIN_RENDERING)
        except (LookupError, ValueError, OSError):
            continue
