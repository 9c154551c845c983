"""The synthesis worker: a separate process that turns text into WAV files with pyttsx3.

Run as a script (``python -P synth_worker.py``) by :class:`scopa.speech.synth.SynthClient`;
it imports nothing from scopa, so it starts fast.

Why a process of its own:
- pyttsx3 and libespeak-ng write to fd 1 and 2 ("Audio saved to ..." on every save,
  ALSA and ctypes noise). Here fd 1 and 2 point at the log, so none of it can reach
  the player's terminal and screen reader.
- espeak-ng can be initialised once per process only, and a stuck or crashed synthesis
  must not take the game with it: the client kills and restarts this process instead.

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
import traceback


def _take_stdout_for_replies():
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
        self.engine.connect("error", self._on_error)
        self.default_voice = self.engine.getProperty("voice")
        self.applied: dict[str, object] = {}

    def _on_error(self, name=None, exception=None, **_ignored) -> None:
        self.errors.append(repr(exception))

    def _apply(self, name: str, value: object) -> None:
        if self.applied.get(name) != value:
            self.engine.setProperty(name, value)
            self.applied[name] = value

    def synth(self, request: dict) -> dict:
        self.errors.clear()
        self._apply("voice", request.get("voice") or self.default_voice)
        self._apply("rate", int(request.get("rate", 175)))
        self._apply("volume", float(request.get("volume", 1.0)))
        path = request["path"]
        self.engine.save_to_file(request["text"], path)
        self.engine.runAndWait()
        if not os.path.exists(path):
            return {"ok": False, "error": "no audio written: " + "; ".join(self.errors)}
        return {"ok": True, "path": path, "warnings": list(self.errors)}

    def voices(self) -> dict:
        found = []
        for voice in self.engine.getProperty("voices"):
            languages = [_language_text(lang) for lang in (voice.languages or [])]
            found.append({"id": voice.id, "name": voice.name or voice.id, "languages": languages})
        return {"ok": True, "voices": found}


def _language_text(language: object) -> str:
    if isinstance(language, bytes):
        return language.decode("utf-8", "ignore").lstrip("\x00\x01\x02\x03\x04\x05")
    return str(language)


def _handle(synth: Synth, request: dict) -> dict:
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
