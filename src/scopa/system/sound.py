"""Playing a sound file, and stopping it at once.

Linux and macOS start a player process of the game's own per sound (aplay, paplay ... or macOS's
afplay) in a group of its own, and Stop kills the group: the sound ends mid-word. Windows plays in
the game's own process with ``winsound``: no process is started per line (a Python started for each
line cost the time of its start-up before every sound), the sound is played asynchronously from
its file, and Stop is ``PlaySound(None)``, which Windows documents as the way to end it.
"""
from __future__ import annotations

import contextlib
import subprocess
import threading
import wave
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Protocol

from .processes import kill_group, popen_quietly

PLAYED, STOPPED, FAILED = 0, -1, 1

# winsound's flags (the values of winsound.SND_*; Windows' own, so they never change)
SND_FILENAME, SND_ASYNC, SND_NODEFAULT = 0x20000, 0x0001, 0x0002
# A sound started asynchronously is heard a little after PlaySound returns: the wait for its end
# is its length and this much.
WINSOUND_MARGIN = 0.05


class Playing(Protocol):
    """One sound being played."""

    pid: int | None  # the player process, when there is one

    def wait(self) -> int:
        """Wait for its end: ``PLAYED`` (0) played to its end, negative stopped, positive failed."""
        ...

    def stop(self) -> None:
        """End it now (from any thread); never raises."""
        ...


class Playback(Protocol):
    """One way of playing sound files on this system."""

    @property
    def command(self) -> list[str]:
        """What plays: a player's command (the file is appended), or the library's name."""
        ...

    def start(self, path: Path, log: IO[bytes] | None) -> Playing:
        """Start playing ``path``; OSError when it cannot."""
        ...

    def works(self, silent: Path, log: IO[bytes] | None) -> bool:
        """Whether a short silent file plays to its end (no sound device: it does not)."""
        ...


class ProcessPlaying:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.pid: int | None = proc.pid

    def wait(self) -> int:
        return self.proc.wait()

    def stop(self) -> None:
        kill_group(self.proc, reap_timeout=0.5)


class CommandPlayback:
    """A player program started for each sound (Linux's aplay and the others, macOS's afplay)."""

    def __init__(self, command: list[str]) -> None:
        self._command = list(command)

    @property
    def command(self) -> list[str]:
        return list(self._command)

    def start(self, path: Path, log: IO[bytes] | None) -> Playing:
        return ProcessPlaying(popen_quietly([*self._command, str(path)], log))

    def works(self, silent: Path, log: IO[bytes] | None, timeout: float = 3.0) -> bool:
        try:
            proc = popen_quietly([*self._command, str(silent)], log)
        except OSError:
            return False
        try:
            return proc.wait(timeout=timeout) == 0
        except subprocess.TimeoutExpired:
            kill_group(proc)
            return False


class WinsoundPlaying:
    """A sound ``winsound`` plays asynchronously; it tells no end, so its end is its length."""

    pid: int | None = None

    def __init__(self, winsound: Any, seconds: float) -> None:
        self._winsound = winsound
        self._seconds = seconds
        self._stopped = threading.Event()

    def wait(self) -> int:
        return STOPPED if self._stopped.wait(self._seconds + WINSOUND_MARGIN) else PLAYED

    def stop(self) -> None:
        self._stopped.set()
        with contextlib.suppress(RuntimeError):
            self._winsound.PlaySound(None, 0)  # ends the waveform sound this process plays


class WinsoundPlayback:
    """Windows: ``winsound.PlaySound`` in the game's own process, from the file, asynchronously;
    never the default beep in its place (SND_NODEFAULT) when the file cannot be played."""

    def __init__(self, load: Callable[[str], Any]) -> None:
        self._load = load

    @property
    def command(self) -> list[str]:
        return ["winsound"]

    def start(self, path: Path, log: IO[bytes] | None) -> Playing:
        winsound = self._load("winsound")
        seconds = wav_seconds(path)
        try:
            winsound.PlaySound(str(path), SND_FILENAME | SND_ASYNC | SND_NODEFAULT)
        except RuntimeError as error:  # "Failed to play sound": no sound device, or not a WAV it can play
            raise OSError(f"winsound: {error}") from error
        return WinsoundPlaying(winsound, seconds)

    def works(self, silent: Path, log: IO[bytes] | None) -> bool:
        try:
            self._load("winsound").PlaySound(str(silent), SND_FILENAME | SND_NODEFAULT)  # to its end
        except (RuntimeError, ImportError):
            return False
        return True


def wav_seconds(path: Path) -> float:
    """How long the WAV at ``path`` plays; OSError when it is no WAV that can be read."""
    try:
        with wave.open(str(path), "rb") as audio:
            return audio.getnframes() / max(1, audio.getframerate())
    except (wave.Error, EOFError) as error:
        raise OSError(f"{path.name}: not a WAV file ({error})") from error


def write_silence(path: Path, seconds: float = 0.02, rate: int = 22050) -> Path:
    """Write a short silent WAV, used to check that a player can open the sound device."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"\x00\x00" * int(seconds * rate))
    return path


def first_working(players: list[Playback], silent: Path, log: IO[bytes] | None) -> Playback | None:
    for player in players:
        if player.works(silent, log):
            return player
    return None
