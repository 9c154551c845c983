"""The keyboard between two prompts: kept quiet, and asked whether a key is waiting.

prompt_toolkit reads the keys while a prompt is open, on every system. Between two prompts (while
another player moves) the game needs two things of its own: that a key typed then is not echoed
in front of the next prompt ("5Card?"), and to see that a key is waiting, so that the online wait
opens its prompt at once rather than after its quiet time (``KeyInput.pending``).
"""
from __future__ import annotations

import atexit
import contextlib
import ctypes
from collections.abc import Callable
from typing import Any, Protocol

Restore = Callable[[], None]

# GetFileType's answers (winbase.h)
FILE_TYPE_DISK, FILE_TYPE_CHAR, FILE_TYPE_PIPE = 1, 2, 3


class Keys(Protocol):
    def quiet(self, stream: Any) -> Restore | None:
        """Stop ``stream``'s terminal echoing keys typed between prompts; how to undo it, or None
        when ``stream`` is no terminal (then ``waiting`` is not asked of it for single keys)."""
        ...

    def waiting(self, stream: Any) -> bool:
        """Whether input is waiting on ``stream`` now, without reading it; False when it cannot tell."""
        ...


def _fileno(stream: Any) -> int | None:
    try:
        return int(stream.fileno())
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both of the first two
        return None


class PosixKeys:
    """Linux and macOS: termios turns echo and line editing off; select sees a waiting key."""

    def __init__(self, load: Callable[[str], Any]) -> None:
        self._load = load

    def quiet(self, stream: Any) -> Restore | None:
        """Echo and line editing off, so that a single key typed ahead stays silent and can be
        seen waiting; prompt_toolkit's raw mode comes and goes over it. Undone by the function
        given back, and at exit."""
        fd = _fileno(stream)
        if fd is None:
            return None
        try:
            termios = self._load("termios")
        except ImportError:
            return None
        try:
            saved = termios.tcgetattr(fd)
            quiet = termios.tcgetattr(fd)
            quiet[3] &= ~(termios.ECHO | termios.ICANON)
            quiet[6][termios.VMIN], quiet[6][termios.VTIME] = 1, 0
            termios.tcsetattr(fd, termios.TCSANOW, quiet)
        except (termios.error, OSError, ValueError, AttributeError):  # termios.error: no terminal
            return None

        def restore() -> None:
            with contextlib.suppress(OSError, ValueError):
                termios.tcsetattr(fd, termios.TCSANOW, saved)
        atexit.register(restore)
        return restore

    def waiting(self, stream: Any) -> bool:
        fd = _fileno(stream)
        if fd is None:
            return False
        try:
            return bool(self._load("select").select([fd], [], [], 0)[0])
        except (OSError, ValueError):
            return False


def _nothing_to_restore() -> None:
    """The Windows console needs nothing put back."""


class WindowsKeys:
    """Windows: the console echoes a key only while a read is under way (prompt_toolkit's own
    reads turn echo off), so a key typed between prompts already stays silent and in the console's
    input buffer, where ``msvcrt.kbhit`` sees it. ``select`` works on sockets alone there: a pipe
    is asked with ``PeekNamedPipe``, and a file always has its next line."""

    def __init__(self, load: Callable[[str], Any]) -> None:
        self._load = load

    def quiet(self, stream: Any) -> Restore | None:
        if self._kind(stream) != FILE_TYPE_CHAR:
            return None
        return _nothing_to_restore

    def waiting(self, stream: Any) -> bool:
        kind = self._kind(stream)
        if kind == FILE_TYPE_CHAR:
            return bool(self._load("msvcrt").kbhit())
        if kind == FILE_TYPE_PIPE:
            return self._pipe_has_bytes(stream)
        return kind == FILE_TYPE_DISK

    def _handle(self, stream: Any) -> int | None:
        fd = _fileno(stream)
        if fd is None:
            return None
        try:
            return int(self._load("msvcrt").get_osfhandle(fd))
        except (OSError, ImportError):
            return None

    def _kind(self, stream: Any) -> int | None:
        handle = self._handle(stream)
        if handle is None:
            return None
        try:
            return int(self._load("kernel32").GetFileType(ctypes.c_void_p(handle)))
        except (OSError, ImportError, AttributeError):
            return None

    def _pipe_has_bytes(self, stream: Any) -> bool:
        handle = self._handle(stream)
        if handle is None:
            return False
        available = ctypes.c_ulong(0)
        try:
            done = self._load("kernel32").PeekNamedPipe(ctypes.c_void_p(handle), None, 0, None, ctypes.byref(available),
                                                        None)
        except (OSError, ImportError, AttributeError):
            return False
        return bool(done) and available.value > 0  # a writer gone (broken pipe) is no key waiting
