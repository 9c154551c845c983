"""Game-side handle on the synthesis worker process (see synth_worker.py)."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from scopa.system.processes import kill_group, popen_quietly

WORKER_SCRIPT = Path(__file__).with_name("synth_worker.py")
START_TIMEOUT = 15.0


class SynthError(Exception):
    """The worker could not start, answered with an error, or did not answer in time."""


class SynthClient:
    """Sends requests to one worker process, one at a time, and restarts it when it fails.

    Thread-safe: the speech thread synthesises while a settings menu may ask for voices.
    """

    def __init__(self, log: IO[bytes] | None) -> None:
        self._log = log
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._closed = False
        self.driver: str | None = None

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the worker and wait for it to load pyttsx3; raise SynthError if it cannot."""
        with self._lock:
            self._ensure_started(timeout)

    def synth(self, text: str, path: Path, voice: str | None, rate: int, volume: float) -> Path:
        request = {"op": "synth", "text": text, "path": str(path),
                   "voice": voice, "rate": rate, "volume": volume}
        self._call(request, timeout=15.0 + len(text) / 10)
        return path

    def voices(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self._call({"op": "voices"}, timeout=10.0)["voices"]
        return result

    def close(self) -> None:
        """End the worker, even while a request waits on it (that request then fails)."""
        self._closed = True
        proc = self._proc
        if proc is not None:
            kill_group(proc)
        with self._lock:
            self._stop_process()

    def _call(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        with self._lock:
            self._ensure_started(START_TIMEOUT)
            try:
                self._send(request)
                reply = self._read_reply(timeout)
            except SynthError:
                self._stop_process()  # stuck or dead: the next call starts a fresh one
                raise
        if not reply.get("ok"):
            raise SynthError(str(reply.get("error", "unknown error")))
        for warning in reply.get("warnings", ()):
            self._write_log(f"speech engine warning: {warning}")
        return reply

    def _write_log(self, message: str) -> None:
        if self._log is None:
            return
        try:
            self._log.write(f"scopa.speech: {message}\n".encode())
            self._log.flush()
        except (OSError, ValueError):
            pass

    def _ensure_started(self, timeout: float) -> None:
        if self._closed:
            raise SynthError("the speech worker was closed")
        if self._proc is not None and self._proc.poll() is None:
            return
        self._stop_process()
        self._proc = popen_quietly(
            [sys.executable, "-P", str(WORKER_SCRIPT)], self._log,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        self._lines = queue.Queue()
        threading.Thread(target=_pump_lines, args=(self._proc.stdout, self._lines),
                         name="scopa-speech-replies", daemon=True).start()
        try:
            hello = self._read_reply(timeout)
        except SynthError:
            self._stop_process()
            raise
        if not hello.get("ready"):
            self._stop_process()
            raise SynthError(str(hello.get("error", "the speech engine did not start")))
        self.driver = hello.get("driver")

    def _send(self, request: dict[str, Any]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
        except OSError as exc:
            raise SynthError(f"the speech worker has gone: {exc}") from exc

    def _read_reply(self, timeout: float) -> dict[str, Any]:
        line = self._read_line(timeout)
        try:
            result: dict[str, Any] = json.loads(line)
            return result
        except ValueError as exc:
            raise SynthError(f"bad reply from the speech worker: {line[:200]!r}") from exc

    def _read_line(self, timeout: float) -> bytes:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise SynthError(f"the speech worker did not answer within {timeout:.0f} s") from None
        if line is None:
            raise SynthError("the speech worker stopped")
        return line

    def _stop_process(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        kill_group(proc)


def _pump_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Move the worker's reply lines into a queue (pipes cannot be polled on Windows)."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)
