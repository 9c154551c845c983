"""A room server in a child process on a free loopback port: the one the tests and the load bench start.

``ServerProcess(flags)`` runs ``scopa serve --port 0 --message-rate 1000 FLAGS`` (the real
command, as a player's server runs it, but with room for scripted clients' pace), reads its
standard error line by line in a thread, and is ready once the log says ``listening on``: its
``port``, ``url`` and ``pid`` are then known. ``unlimited=True`` serves through the same
``server.run`` with no cap on the rooms one address may create or the joins it may fail, for the
bench's hundreds of rooms from one address. ``stop()`` sends SIGTERM (what an operator does) and
gives the exit code; ``kill()`` sends SIGKILL (a crash).

Not part of the game: nothing of scopa imports it but the bench and the tests. It opens no socket
of its own; the child is the server. ``certificate`` makes a self-signed one, with ``openssl``,
for a server that serves ``wss://`` (``--certfile``, ``--keyfile``).
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

UNLIMITED = """
import asyncio, dataclasses, os, sys
from scopa.net.server import launch, server
config = server.config_from_args(sys.argv[1:])
config = dataclasses.replace(config, rooms_per_address=10 ** 9, join_failures=10 ** 9,
                             **{name: 10 ** 9 for name in ("watch_arrivals",) if hasattr(config, name)})
if hasattr(server, "log_to_stderr"):
    stop_log = server.log_to_stderr()
else:  # a server from before the log's own thread (the bench measuring an older commit against this one)
    import logging
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    server.log.addHandler(handler)
    server.log.setLevel(logging.INFO)
    stop_log = handler.flush
async def serving():
    if os.environ.get("SCOPA_LOOP_LAG"):  # the load bench: the loop's lag, a line a second (bench.looplag)
        from scopa.bench.looplag import report_each
        lag = asyncio.get_running_loop().create_task(report_each(1.0, server.log.warning))
    try:  # the browser page's consoles, in their worker (a server from before the page has none)
        from scopa.web.workers import PageWorkers
        opened = launch.with_pages(PageWorkers.started)
    except ImportError:
        opened = launch.open_rooms
    return await server.run(config, open_rooms=opened)
profile = os.environ.get("SCOPA_PROFILE")  # the load bench's --profile: cProfile over the whole run
if profile:
    import cProfile
    profiler = cProfile.Profile()
    profiler.enable()
try:
    if os.environ.get("SCOPA_LOOP") == "uvloop":  # the load bench's --uvloop: a measured extra, not a dependency
        import uvloop
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            code = runner.run(serving())
    else:
        code = asyncio.run(serving())
finally:
    if profile:
        profiler.disable()
        profiler.dump_stats(profile)
    stop_log()
sys.exit(code)
"""
LISTENING = re.compile(r"listening on wss?://[^\s:]+:(\d+)")
PROBLEM_WORDS = ("Traceback", "Error", "cannot", "lost")  # lines kept past ``keep``
SRC = Path(__file__).resolve().parents[2]
# How an operator stops it: SIGTERM; on Windows Ctrl-Break, which reaches a child started in a
# process group of its own (SIGTERM there is TerminateProcess: no clean stop).
if sys.platform == "win32":
    STOP, NEW_GROUP = signal.CTRL_BREAK_EVENT, subprocess.CREATE_NEW_PROCESS_GROUP
else:
    STOP, NEW_GROUP = signal.SIGTERM, 0


def certificate(folder: Path, name: str = "localhost", alt: str = "DNS:localhost,IP:127.0.0.1") -> tuple[Path, Path]:
    """A self-signed certificate for ``name`` (subjectAltName ``alt``) and its key, made by openssl."""
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", f"/CN={name}", "-addext", f"subjectAltName={alt}"],
                   check=True, capture_output=True)
    return cert, key


class ServerDidNotStart(RuntimeError):
    """The server exited or said nothing of listening in time; the message is what it wrote."""


class ServerProcess:
    """``scopa serve`` in a child process; ``lines`` is what it wrote to standard error.

    ``keep``: keep only the first ``keep`` lines and, after them, the lines naming a problem (a
    long bench logs a line a move); None keeps them all (the tests read them)."""

    def __init__(self, flags: Sequence[str], unlimited: bool = False, keep: int | None = None,
                 wait: float = 30.0, environment: Mapping[str, str] | None = None) -> None:
        self.flags, self.unlimited, self.keep = list(flags), unlimited, keep
        self.lines: list[str] = []
        self.port = 0
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(SRC), os.environ.get("PYTHONPATH")))),
                   **(environment or {}))
        head = ["-c", UNLIMITED] if unlimited else ["-m", "scopa", "serve"]
        self.proc = subprocess.Popen([sys.executable, *head, "--port", "0", "--message-rate", "1000", *self.flags],
                                     stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
                                     creationflags=NEW_GROUP)
        listening = threading.Event()
        threading.Thread(target=self._read, args=(listening,), daemon=True).start()
        if not listening.wait(wait):
            self.kill()
            raise ServerDidNotStart("the server did not start:\n" + "".join(self.lines))

    def _read(self, listening: threading.Event) -> None:
        for line in self.proc.stderr or ():  # the server's stderr is piped: there is one
            self.heard(line)
            if self.keep is None or len(self.lines) < self.keep or any(word in line for word in PROBLEM_WORDS):
                self.lines.append(line)
            found = None if listening.is_set() else LISTENING.search(line)
            if found:
                self.port = int(found.group(1))
                listening.set()

    def heard(self, line: str) -> None:
        """Each line the server writes, as it comes (in the reading thread): for a subclass to watch."""

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self, timeout: float = 15.0) -> int:
        """SIGTERM (Ctrl-Break on Windows), then the exit code (SIGKILL when it has not stopped within ``timeout``)."""
        if self.proc.poll() is None:
            self.proc.send_signal(STOP)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return self.kill()

    def kill(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()  # SIGKILL; TerminateProcess on Windows
        return self.proc.wait(10)
