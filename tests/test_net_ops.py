"""The room server as an operator runs it: stopped and started again mid-match, on Windows
(simulated), behind TLS, watched by a health check and metrics. Real servers over loopback."""
from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LISTENING = re.compile(r"listening on wss?://[^\s:]+:(\d+)")

# ``scopa serve`` as Windows runs it: its event loop has no add_signal_handler.
WINDOWS_SERVE = """
import asyncio, sys
def add_signal_handler(self, *args, **kwargs):
    raise NotImplementedError
asyncio.SelectorEventLoop.add_signal_handler = add_signal_handler
from scopa.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


class Child:
    """A Python child process whose standard error is read line by line; ready once it listens."""

    def __init__(self, code: str, *argv: str) -> None:
        self.lines: list[str] = []
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.proc = subprocess.Popen([sys.executable, "-c", code, *argv], stderr=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, text=True, env=env)
        self.port = 0
        listening = threading.Event()
        threading.Thread(target=self._read, args=(listening,), daemon=True).start()
        if not listening.wait(30):
            self.proc.kill()
            self.proc.wait(10)
            raise AssertionError("the server did not start:\n" + "".join(self.lines))

    def _read(self, listening: threading.Event) -> None:
        for line in self.proc.stderr:  # type: ignore[union-attr]
            self.lines.append(line)
            found = LISTENING.search(line)
            if found and not listening.is_set():
                self.port = int(found.group(1))
                listening.set()

    def stop(self, number: int) -> int:
        self.proc.send_signal(number)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            return -1


def get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read().decode()
    finally:
        conn.close()


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_serve_starts_and_stops_cleanly_where_the_loop_has_no_signal_handlers(tmp_path: Path, number: int) -> None:
    server = Child(WINDOWS_SERVE, "serve", "--port", "0", "--db", str(tmp_path / "rooms.sqlite3"))
    try:
        assert get(server.port, "/healthz") == (200, "ok\n")  # it serves
    finally:
        code = server.stop(number)
    assert code == 0, "".join(server.lines)
    assert any(line.rstrip().endswith("stopped") for line in server.lines)
    assert not any("Traceback" in line for line in server.lines)
