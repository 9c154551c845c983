"""What differs between Windows, macOS and Linux, and the one place that chooses (``for_platform``).

Only four things differ for scopa, and each has its module here:

- ``keys``: keeping the keyboard quiet between two prompts, and whether a key is waiting
  (termios and select on Linux and macOS, msvcrt and the console's own handles on Windows);
- ``sound``: playing a sound file and stopping it at once (a player process of our own on
  Linux and macOS, ``winsound`` in the game's own process on Windows), and which file the speech
  engine writes (a WAV, or AIFF on macOS, whose engine writes nothing else);
- ``processes``: a child process started in a group of its own, and ended with its group;
- ``stops``: the signals and events that stop a server (SIGTERM, SIGINT and SIGHUP; on Windows
  Ctrl-C, Ctrl-Break, and the console closed or the system shut down under a service).

Each implementation takes the system's own modules through a loader, so that the tests run every
one of them on Linux against a fake of its system's API (a fake msvcrt, winsound, kernel32 or
afplay): every path has run somewhere, though only Linux's runs here on the real thing.
Nothing of scopa is imported here: speech, the console and the server all stand on it.
"""
from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .keys import Keys, PosixKeys, WindowsKeys
from .sound import CommandPlayback, Playback, WinsoundPlayback
from .stops import POSIX_STOPS, WINDOWS_STOPS

Loader = Callable[[str], Any]

# Linux players, best first; the file name is appended to the command.
LINUX_PLAYERS = (
    ("aplay", "-q"),
    ("paplay",),
    ("pw-play",),
    ("play", "-q"),
    ("ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet"),
)
MACOS_PLAYER = ("afplay",)


@dataclass(frozen=True)
class System:
    """One system's ways of doing what differs."""

    name: str                       # "windows", "macos" or "linux"
    keys: Keys
    speech_suffix: str              # the sound file the speech engine writes: ".wav", ".aiff" on macOS
    stop_signals: tuple[str, ...]   # names in ``signal`` that stop a server, where the system has them
    find_players: Callable[[], list[Playback]]
    load: Loader                    # the system's own modules (msvcrt, winsound, kernel32 ...)

    @property
    def is_windows(self) -> bool:
        return self.name == "windows"


def loader(fakes: Mapping[str, Any] | None = None) -> Loader:
    """Import a system module when first asked for it; ``fakes`` stand in for some (the tests')."""
    given = dict(fakes or {})

    def load(name: str) -> Any:
        if name in given:
            return given[name]
        if name == "kernel32":
            import ctypes
            return getattr(ctypes, "windll").kernel32  # noqa: B009  (windll: on Windows alone)
        return importlib.import_module(name)
    return load


def for_platform(platform: str, fakes: Mapping[str, Any] | None = None,
                 which: Callable[[str], str | None] = shutil.which) -> System:
    """The ways of ``platform`` (a ``sys.platform`` value): the one place they are chosen."""
    load = loader(fakes)
    if platform == "win32":
        return System("windows", WindowsKeys(load), ".wav", WINDOWS_STOPS, lambda: [WinsoundPlayback(load)], load)

    def commands(*candidates: tuple[str, ...]) -> Callable[[], list[Playback]]:
        return lambda: [CommandPlayback(list(command)) for command in candidates if which(command[0])]
    if platform == "darwin":
        return System("macos", PosixKeys(load), ".aiff", POSIX_STOPS, commands(MACOS_PLAYER), load)
    return System("linux", PosixKeys(load), ".wav", POSIX_STOPS, commands(*LINUX_PLAYERS), load)


_current: list[System] = []


def current() -> System:
    """This machine's system, chosen once."""
    if not _current:
        _current.append(for_platform(sys.platform))
    return _current[0]


__all__ = ["CommandPlayback", "Keys", "Playback", "PosixKeys", "System", "WindowsKeys", "WinsoundPlayback",
           "current", "for_platform", "loader"]
