"""Audio players: finding one, starting it quietly in its own process group, and killing it.

The game plays each synthesised WAV with a separate player process that it owns. Started
in a new session (its own process group), the player and anything it spawns can be ended
at once with one ``killpg``: that is how Stop silences speech mid-word.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import wave
from pathlib import Path
from typing import IO, Any

# Plays a WAV synchronously with the standard library; used on Windows, where killing
# this small process stops the sound.
_WINSOUND_PLAY = "import sys, winsound; winsound.PlaySound(sys.argv[1], winsound.SND_FILENAME)"

# Linux players, best first. The file name is appended to the command.
_LINUX_PLAYERS = (
    ("aplay", "-q"),
    ("paplay",),
    ("pw-play",),
    ("play", "-q"),
    ("ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet"),
)

def find_players() -> list[list[str]]:
    """Commands of the audio players present on this machine, best first."""
    if sys.platform == "win32":
        return [[sys.executable, "-c", _WINSOUND_PLAY]]
    if sys.platform == "darwin":
        return [["afplay"]] if shutil.which("afplay") else []
    return [list(cmd) for cmd in _LINUX_PLAYERS if shutil.which(cmd[0])]


def popen_quietly(cmd: list[str], log: IO[bytes] | None, **kwargs: Any) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in its own process group, its stdout and stderr going to ``log``.

    Nothing a child prints may reach the terminal: a screen reader would read it aloud.
    """
    target = log if log is not None else subprocess.DEVNULL
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    kwargs.setdefault("stdout", target)
    kwargs.setdefault("stderr", target)
    if sys.platform == "win32":
        flags = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
        return subprocess.Popen(cmd, creationflags=flags, **kwargs)
    return subprocess.Popen(cmd, start_new_session=True, **kwargs)


def kill_group(proc: subprocess.Popen[bytes], reap_timeout: float = 1.0) -> None:
    """Kill ``proc`` and its process group at once, then reap it. Never raises."""
    if proc.returncode is None:
        try:
            if sys.platform == "win32":
                proc.kill()
            else:
                os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=reap_timeout)


def write_silence(path: Path, seconds: float = 0.02, rate: int = 22050) -> Path:
    """Write a short silent WAV, used to check that a player can open the sound device."""
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"\x00\x00" * int(seconds * rate))
    return path


def player_works(cmd: list[str], silent_wav: Path, log: IO[bytes] | None, timeout: float = 3.0) -> bool:
    """True when ``cmd`` plays a short silent WAV and exits cleanly (no sound card: it fails)."""
    try:
        proc = popen_quietly([*cmd, str(silent_wav)], log)
    except OSError:
        return False
    try:
        return proc.wait(timeout=timeout) == 0
    except subprocess.TimeoutExpired:
        kill_group(proc)
        return False


def first_working_player(players: list[list[str]], silent_wav: Path,
                         log: IO[bytes] | None) -> list[str] | None:
    for cmd in players:
        if player_works(cmd, silent_wav, log):
            return cmd
    return None
