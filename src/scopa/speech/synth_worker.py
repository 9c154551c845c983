"""The synthesis worker: a separate process that turns text into WAV files with pyttsx3.

Run as a script (``python -P synth_worker.py``) by :class:`scopa.speech.synth.SynthClient`;
it imports nothing from scopa, so it starts fast.

Why a process of its own:
- pyttsx3 and libespeak-ng write to fd 1 and 2 ("Audio saved to ..." on every save,
  ALSA and ctypes noise). Here fd 1 and 2 point at the log, so none of it can reach
  the player's terminal and screen reader.
- espeak-ng can be initialised once per process only, and a stuck or crashed synthesis
  must not take the game with it: the client kills and restarts this process instead.

The file is the one the request names, in the format its engine writes: a WAV from espeak-ng
and SAPI5, AIFF from macOS's NSSpeechSynthesizer, which writes nothing else (the game names it
``.aiff`` there). SAPI5 writes a WAV's header only into a file whose name ends in ``.wav``, so the
file written first (then renamed) keeps the requested name's ending.

Protocol: one JSON object per line on stdin, one JSON reply per line on the original
stdout (duplicated before fd 1 is pointed at the log).
  {"op": "synth", "text": ..., "path": ..., "voice": id|null, "rate": int, "volume": float}
      -> {"ok": true, "path": ...} or {"ok": false, "error": ...}
  {"op": "voices"} -> {"ok": true, "voices": [{"id", "name", "languages"}, ...]}
The first line written is {"ready": true, "driver": ...} or {"ready": false, "error": ...}.
The worker exits when stdin closes.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
import traceback
import wave
from typing import Any, TextIO


def _take_stdout_for_replies() -> TextIO:
    """Keep the real stdout for replies and send fd 1 (and Python's print) to stderr's target."""
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return replies


class Synth:
    """One pyttsx3 engine, with the settings last applied to it."""

    def __init__(self) -> None:
        import pyttsx3  # lazy on purpose: the game process never imports it

        self.engine = pyttsx3.init()
        self.errors: list[str] = []
        self.finished = threading.Event()
        self.completed = False
        self.engine.connect("error", self._on_error)
        self.engine.connect("finished-utterance", self._on_finished)
        self.default_voice = self.engine.getProperty("voice")
        self.applied: dict[str, object] = {}

    def _on_error(self, name: object = None, exception: object = None, **_ignored: object) -> None:
        self.errors.append(repr(exception))

    def _on_finished(self, name: object = None, completed: object = True, **_ignored: object) -> None:
        # A spurious completed=False can follow a real completion: keep any success.
        self.completed = self.completed or bool(completed)
        self.finished.set()

    def _apply(self, name: str, value: object) -> None:
        if self.applied.get(name) != value:
            self.engine.setProperty(name, value)
            self.applied[name] = value

    def synth(self, request: dict[str, Any]) -> dict[str, Any]:
        """Write the request's text to its WAV path; retry when the engine loses the audio."""
        reply: dict[str, Any] = {}
        for attempt in range(3):
            reply = self._synth_once(request, part_name(request["path"], attempt))
            if reply["ok"] or attempt == 2:
                return reply
            print(f"scopa synth worker: retrying ({reply['error']})", file=sys.stderr, flush=True)
            self._settle()
        return reply

    def _synth_once(self, request: dict[str, Any], part: str) -> dict[str, Any]:
        """Synthesise into ``part``, check it, then rename it to the requested path.

        The rename means a player never sees a WAV that is still being written, even if
        a late callback from the engine wrote to the file again.
        """
        self.errors.clear()
        self._apply("voice", request.get("voice") or self.default_voice)
        self._apply("rate", int(request.get("rate", 175)))
        self._apply("volume", float(request.get("volume", 1.0)))
        self._settle(idle_driver=False)  # a fresh engine reports busy until its first run
        self.finished.clear()
        self.completed = False
        self.engine.save_to_file(request["text"], part)
        self.engine.runAndWait()
        if not self._wait_until_written(len(request["text"])):
            return {"ok": False, "error": "synthesis did not finish: " + "; ".join(self.errors)}
        if _frames(part) == 0:
            return {"ok": False, "error": "no audio written: " + "; ".join(self.errors)}
        os.replace(part, request["path"])
        return {"ok": True, "path": request["path"], "warnings": list(self.errors)}

    def _wait_until_written(self, length: int) -> bool:
        """Wait for the WAV to be complete.

        With espeak-ng, runAndWait() can return about 10 ms after synthesis *starts*
        (synthesis is asynchronous and the driver's loop may end first), so the file may
        not exist yet; 'finished-utterance' with completed=True comes once it is written.
        SAPI5 writes synchronously and sends no event; NSSpeechSynthesizer says when it finished
        (runAndWait returns after it).
        """
        if self.engine.driver_name == "nsss":
            return self.finished.wait(5.0 + length / 20) and self.completed
        if self.engine.driver_name != "espeak":
            return True
        self.finished.wait(5.0 + length / 20)
        self._settle()
        return self.completed

    def _settle(self, timeout: float = 2.0, *, idle_driver: bool = True) -> None:
        """Wait until espeak-ng's own thread is idle.

        In espeak-ng's asynchronous mode, rate/volume changes are queued commands run by
        its thread, and the callback sends 'finished-utterance' before it marks the driver
        idle. If runAndWait() starts while that thread is busy, the driver calls
        espeak_Cancel(): the queued setting is lost and the next synthesis is cancelled.
        """
        if self.engine.driver_name != "espeak":
            return
        from pyttsx3.drivers import _espeak

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _espeak.IsPlaying() and not (idle_driver and self.engine.isBusy()):
                return
            time.sleep(0.0005)

    def warm_up(self) -> None:
        """Synthesise one word so the voice is loaded before the first real request."""
        with tempfile.TemporaryDirectory(prefix="scopa-warm-up-") as folder:
            ending = ".aiff" if self.engine.driver_name == "nsss" else ".wav"
            self.synth({"text": "ready", "path": os.path.join(folder, "ready" + ending)})

    def voices(self) -> dict[str, Any]:
        found = []
        for voice in self.engine.getProperty("voices"):
            languages = [_language_text(lang) for lang in (voice.languages or [])]
            found.append({"id": voice.id, "name": voice.name or voice.id, "languages": languages})
        return {"ok": True, "voices": found}


def part_name(path: str, attempt: int) -> str:
    """Where an attempt writes before the rename: ``u1.part0.wav`` for ``u1.wav``, the ending kept
    (SAPI5 writes a WAV's header only into a ``.wav``; macOS's AIFF is named ``.aiff``)."""
    root, ending = os.path.splitext(path)
    return f"{root}.part{attempt}{ending}"


def _frames(path: str) -> int:
    """Audio frames in a WAV file; 0 when it is missing or empty; an AIFF's (macOS) size in bytes."""
    if not os.path.exists(path):
        return 0
    if path.lower().endswith((".aiff", ".aif")):
        return os.path.getsize(path)
    try:
        with wave.open(path, "rb") as audio:
            return audio.getnframes()
    except (wave.Error, EOFError):
        return 0  # named .wav but no WAV (SAPI5's raw samples): no player could play it


def _language_text(language: object) -> str:
    if isinstance(language, bytes):
        return language.decode("utf-8", "ignore").lstrip("\x00\x01\x02\x03\x04\x05")
    return str(language)


def _handle(synth: Synth, request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "synth":
        return synth.synth(request)
    if op == "voices":
        return synth.voices()
    return {"ok": False, "error": f"unknown op {op!r}"}


def main() -> int:
    replies = _take_stdout_for_replies()
    try:
        synth = Synth()
        synth.warm_up()
    except BaseException as exc:  # noqa: BLE001 - any failure means "no engine"
        traceback.print_exc()
        replies.write(json.dumps({"ready": False, "error": f"{type(exc).__name__}: {exc}"}) + "\n")
        return 1
    replies.write(json.dumps({"ready": True, "driver": synth.engine.driver_name}) + "\n")
    for line in sys.stdin:
        try:
            reply = _handle(synth, json.loads(line))
        except Exception as exc:  # noqa: BLE001 - report, keep serving
            traceback.print_exc()
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        replies.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
