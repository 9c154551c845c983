"""The real game voice: pyttsx3 synthesis in a worker process, playback by a player we own.

Flow of one utterance:
  say(text)         -> appended to a queue (under a lock; never blocks)
  speech thread     -> takes the text, asks the synthesis worker for a WAV (~10 ms),
                       starts the audio player on it in a new process group, waits for it
  stop()            -> clears the queue, bumps a generation number (so a WAV being
                       synthesised right now is thrown away), and SIGKILLs the player's
                       process group: the sound ends mid-word.

pyttsx3 never plays anything itself here: its own playback (a blocking ``aplay`` inside
espeak's callback) cannot be interrupted, and its say() replaces queued text.
"""
from __future__ import annotations

import atexit
import contextlib
import importlib.util
import itertools
import shutil
import tempfile
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO

from scopa import system
from scopa.speech.base import VoiceInfo, VoiceSettings
from scopa.speech.players import Playback, Playing, as_playback, find_players, first_working, write_silence
from scopa.speech.synth import SynthClient, SynthError

REASON_NO_PYTTSX3 = "The game voice is unavailable. The pyttsx3 package is not installed."
REASON_NO_ESPEAK = "The game voice is unavailable. The eSpeak NG speech engine is not installed."
REASON_ENGINE_FAILED = "The game voice is unavailable. The speech engine did not start."
REASON_NO_PLAYER = "The game voice is unavailable. No audio player such as aplay is installed."
REASON_NO_DEVICE = "The game voice is unavailable. No sound device could be opened."

PlayerStarted = Callable[[int | None, str], None]  # the player's process id (None: no process)


def _engine_reason(error: SynthError) -> str:
    text = str(error).lower()
    if "espeak" in text:
        return REASON_NO_ESPEAK
    if "no module named 'pyttsx3'" in text:
        return REASON_NO_PYTTSX3
    return REASON_ENGINE_FAILED


class PyttsxSpeaker:
    """Speaks through pyttsx3 (espeak-ng on Linux, SAPI5 on Windows, NSSpeech on macOS).

    Check ``available`` after construction: when False, ``unavailable_reason`` says why
    and every method is a harmless no-op.

    player: the player command to use (the sound file is appended), or a way of playing;
        default: the first of the system's that can open the sound device (on Windows,
        winsound in this process).
    check_player: play a 20 ms silent WAV first to make sure the player works.
    on_player_start: called as (pid, text) right after a player starts on a ready sound
        file (pid None where no process plays it); for the benchmark and tests.
    """

    def __init__(self, settings: VoiceSettings = VoiceSettings(), *,
                 log_path: Path | None = None, player: list[str] | Playback | None = None,
                 check_player: bool = True, on_player_start: PlayerStarted | None = None,
                 start_timeout: float = 15.0) -> None:
        self.available = False
        self.unavailable_reason: str | None = None
        self.last_error: str | None = None
        self.spoken: list[str] = []  # utterances whose playback ran to the end
        self._settings = settings
        self._on_player_start = on_player_start
        self._cond = threading.Condition()
        self._queue: deque[str | Path] = deque()  # a Path is a ready sound (an earcon)
        self._generation = 0
        self._busy = False
        self._closed = False
        self._player: Playing | None = None
        self._playback: Playback | None = None
        self._suffix = system.current().speech_suffix  # the file the engine writes: AIFF on macOS
        self._voice_cache: list[VoiceInfo] | None = None
        self._counter = itertools.count()
        self._log: IO[bytes] | None = open(log_path, "ab") if log_path else None  # noqa: SIM115
        self._dir = Path(tempfile.mkdtemp(prefix="scopa-speech-"))
        self._synth = SynthClient(self._log)
        self._thread: threading.Thread | None = None
        reason = self._start(player, check_player, start_timeout)
        if reason is not None:
            self.unavailable_reason = reason
            self._release()
            return
        self.available = True
        self._thread = threading.Thread(target=self._run, name="scopa-speech", daemon=True)
        self._thread.start()
        atexit.register(self.close)

    # ----- start-up -------------------------------------------------------------

    def _start(self, player: list[str] | Playback | None, check_player: bool, timeout: float) -> str | None:
        if importlib.util.find_spec("pyttsx3") is None:
            return REASON_NO_PYTTSX3
        candidates = [as_playback(player)] if player else find_players()
        if not candidates:
            return REASON_NO_PLAYER
        if not check_player:
            self._playback = candidates[0]
            return self._start_synth(timeout)
        silent = write_silence(self._dir / "silence.wav")
        with ThreadPoolExecutor(max_workers=1) as pool:  # probe players while the engine loads
            probe = pool.submit(first_working, candidates, silent, self._log)
            reason = self._start_synth(timeout)
            working = probe.result()
        if reason is not None:
            return reason
        if working is None:
            return REASON_NO_DEVICE
        self._playback = working
        return None

    def _start_synth(self, timeout: float) -> str | None:
        try:
            self._synth.start(timeout)
        except SynthError as exc:
            self._note(f"speech engine did not start: {exc}")
            return _engine_reason(exc)
        return None

    # ----- public API -----------------------------------------------------------

    @property
    def player_command(self) -> list[str]:
        """The audio player in use (the file is appended to it), or the library's name (winsound)."""
        return self._playback.command if self._playback is not None else []

    def say(self, text: str) -> None:
        text = str(text).strip()
        if not text or not self.available:
            return
        with self._cond:
            if self._closed:
                return
            self._queue.append(text)
            self._cond.notify_all()

    def play_sound(self, path: Path) -> None:
        """Queue a ready WAV (an earcon) to play in order with the words; never blocks.

        Stop drops it or cuts it short like an utterance; the file is left where it is."""
        if not self.available:
            return
        with self._cond:
            if self._closed:
                return
            self._queue.append(Path(path))
            self._cond.notify_all()

    def stop(self) -> None:
        try:
            with self._cond:
                self._queue.clear()
                self._generation += 1
                proc = self._player
            if proc is not None:
                proc.stop()
        except Exception:  # noqa: BLE001 - Stop must never fail in the player's hands
            self._note("stop failed:\n" + traceback.format_exc())

    def is_speaking(self) -> bool:
        with self._cond:
            return bool(self._queue) or self._busy

    def wait_until_done(self, timeout: float | None = None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def configure(self, settings: VoiceSettings) -> None:
        with self._cond:
            self._settings = settings

    def voices(self) -> list[VoiceInfo]:
        if not self.available:
            return []
        if self._voice_cache is None:
            try:
                found = self._synth.voices()
            except SynthError as exc:
                self._note(f"could not list voices: {exc}")
                return []
            self._voice_cache = [VoiceInfo(v["id"], v["name"], tuple(v["languages"])) for v in found]
        return list(self._voice_cache)

    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        self.stop()
        self._synth.close()  # also ends a synthesis under way
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self._release()
        atexit.unregister(self.close)

    # ----- the speech thread ----------------------------------------------------

    def _run(self) -> None:
        while True:
            job = self._next_job()
            if job is None:
                return
            try:
                self._speak(*job)
            except Exception:  # noqa: BLE001 - keep the voice alive for the next line
                self._note("speaking failed:\n" + traceback.format_exc())
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _next_job(self) -> tuple[str | Path, int, VoiceSettings] | None:
        with self._cond:
            while not self._queue and not self._closed:
                self._cond.wait()
            if self._closed:
                return None
            self._busy = True
            return self._queue.popleft(), self._generation, self._settings

    def _speak(self, text: str | Path, generation: int, settings: VoiceSettings) -> None:
        if isinstance(text, Path):
            self._play_sound(text, generation)
            return
        wav = self._dir / f"u{next(self._counter)}{self._suffix}"
        try:
            try:
                self._synth.synth(text, wav, settings.voice_id, _rate(settings), _volume(settings))
            except SynthError as exc:
                self._note(f"synthesis failed for {text!r}: {exc}")
                return
            proc = self._start_player(wav, generation)
            if proc is None:
                return
            self._report_start(proc.pid, text)
            self._finish_player(proc, text, generation)
        finally:
            with contextlib.suppress(OSError):  # Windows: a file still open elsewhere stays; rmtree ends it
                wav.unlink(missing_ok=True)

    def _play_sound(self, sound: Path, generation: int) -> None:
        proc = self._start_player(sound, generation)
        if proc is not None:
            proc.wait()
            with self._cond:
                if self._player is proc:
                    self._player = None

    def _start_player(self, wav: Path, generation: int) -> Playing | None:
        """Start the player unless stop() came first. Under the lock, so stop() sees it."""
        with self._cond:
            if generation != self._generation or self._closed or self._playback is None:
                return None
            try:
                self._player = self._playback.start(wav, self._log)
            except OSError as exc:
                self._note(f"could not start {self._player_name()}: {exc}")
                return None
            return self._player

    def _player_name(self) -> str:
        return self.player_command[0] if self.player_command else "the player"

    def _report_start(self, pid: int | None, text: str) -> None:
        if self._on_player_start is None:
            return
        try:
            self._on_player_start(pid, text)
        except Exception:  # noqa: BLE001 - Stop must never fail in the player's hands
            self._note("on_player_start failed:\n" + traceback.format_exc())

    def _finish_player(self, proc: Playing, text: str, generation: int) -> None:
        code = proc.wait()
        with self._cond:
            if self._player is proc:
                self._player = None
            stopped = generation != self._generation
        if code == 0 and not stopped:
            self.spoken.append(text)
        elif not stopped:
            self._note(f"{self._player_name()} exited with status {code}")

    # ----- housekeeping -----------------------------------------------------------

    def _note(self, message: str) -> None:
        self.last_error = message.splitlines()[0]
        if self._log is None:
            return
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        try:
            self._log.write(f"{stamp} scopa.speech: {message}\n".encode())
            self._log.flush()
        except (OSError, ValueError):
            pass

    def _release(self) -> None:
        self._synth.close()
        shutil.rmtree(self._dir, ignore_errors=True)
        if self._log is not None:
            self._log.close()
            self._log = None


def _rate(settings: VoiceSettings) -> int:
    return max(80, min(500, int(settings.rate)))


def _volume(settings: VoiceSettings) -> float:
    return max(0.0, min(1.0, float(settings.volume)))
