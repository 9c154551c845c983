"""Short sounds without the game voice: earcons for a player who listens with a screen reader.

With the game voice on, earcons go into the voice's own queue (``PyttsxSpeaker.play_sound``),
so that each plays in order with the words. With the voice off there is no such queue, and
this player plays them: one at a time, on a thread of its own, so ``play`` never blocks
input, with the same ways of playing as the voice (a player process killed with its group, or
winsound on Windows), so that Stop silences a sound at once.
"""
from __future__ import annotations

import threading
from collections import deque
from pathlib import Path
from typing import IO

from scopa.speech.players import Playback, Playing, as_playback, find_players
from scopa.system.sound import STOPPED


class SoundPlayer:
    """Plays WAV files in order; ``stop`` ends the one playing and drops the rest.

    player: the player command (the WAV path is appended), or a way of playing; default: the
    system's first (winsound on Windows).
    The player is looked for at the first sound; once it fails (no sound device), the
    player gives up quietly: ``can_play`` is then False. ``proven`` says a sound was heard.
    """

    def __init__(self, player: list[str] | Playback | None = None, log: IO[bytes] | None = None) -> None:
        self._playback = as_playback(player) if player else None
        self._log = log
        self._cond = threading.Condition()
        self._queue: deque[Path] = deque()
        self._current: Playing | None = None
        self._thread: threading.Thread | None = None
        self._broken = False
        self._closed = False
        self._busy = False
        self.played: list[Path] = []  # sounds whose player ran to the end

    def can_play(self) -> bool:
        """True while a player is installed and has not failed."""
        if self._broken:
            return False
        if self._playback is None:
            found = find_players()
            if not found:
                return False
            self._playback = found[0]
        return True

    def proven(self) -> bool:
        """True once a sound has played to its end: the player and the sound device work."""
        return bool(self.played) and not self._broken

    def play(self, path: Path) -> None:
        """Queue ``path``; returns at once."""
        with self._cond:
            if self._closed or not self.can_play():
                return
            self._queue.append(path)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="scopa-sounds", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def stop(self) -> None:
        with self._cond:
            self._queue.clear()
            current = self._current
        if current is not None:
            current.stop()

    def is_playing(self) -> bool:
        with self._cond:
            return bool(self._queue) or self._busy

    def wait_until_done(self, timeout: float | None = None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self, drain: float = 0.0) -> None:
        """Stop for good. ``drain``: first let the sounds already queued play, for at most that many
        seconds (the program's end: the last play's capture or scopa is heard, not cut by the exit)."""
        if drain > 0:
            self.wait_until_done(drain)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                path = self._queue.popleft()
                self._busy = True
                try:
                    self._current = self._playback.start(path, self._log) if self._playback else None
                except OSError:
                    self._current = None
                if self._current is None:
                    self._broken = True
            proc = self._current
            code = proc.wait() if proc is not None else 1
            with self._cond:
                stopped = proc is not None and code <= STOPPED
                if code == 0:
                    self.played.append(path)
                elif not stopped:
                    self._broken = True  # no sound device: do not start a player for every sound
                    self._queue.clear()
                self._current = None
                self._busy = False
                self._cond.notify_all()
