"""The room server as an operator runs it: stopped and started again mid-match, on Windows
(simulated), behind TLS, watched by a health check and metrics. Real servers over loopback."""
from __future__ import annotations

import asyncio
import http.client
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from scopa.bench.serving import ServerProcess, certificate
from scopa.console.online import News, RoomGone
from scopa.engine import Phase, Rules
from scopa.narration import Messages
from scopa.net.client.client import (
    GONE,
    Problem,
    RemoteTable,
    TableClosed,
    reconnect_pause,
    tls_context,
    tls_problem,
)
from scopa.net.protocol.client_messages import CreateRoom, Join
from scopa.net.protocol.server_messages import ErrorMessage, parse_server_message
from scopa.net.server.server import RoomServer, ServerConfig, run, sqlite_rooms

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


Serve = Callable[..., ServerProcess]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    """serve(*flags, db=None) starts ``scopa serve`` on loopback (on ``db``, or a fresh SQLite file),
    computers playing at once; every server is stopped after the test."""
    started: list[ServerProcess] = []

    def start(*flags: str, db: Path | None = None) -> ServerProcess:
        server = ServerProcess(["--db", str(db or tmp_path / "rooms.sqlite3"), "--computer-delay", "0", *flags])
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.mark.linux
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


# Restarts: clients take a stop for a restart ------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def until(condition: Callable[[], object], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def started_pair(url: str, made: list[RemoteTable], **options: Any) -> tuple[RemoteTable, RemoteTable]:
    host = RemoteTable(url, CreateRoom("Ann", Rules(target=None), ("human", "human"), "easy"), **options)
    made.append(host)
    host.open()
    guest = RemoteTable(url, Join(host.code, "Ben"), **options)
    made.append(guest)
    guest.open()
    guest.ready()
    until(lambda: (seat := host.room().seats[1]) is not None and seat.ready)  # type: ignore[union-attr]
    host.start()
    until(lambda: host.has_view() and guest.has_view() and host.latest() == guest.latest()
          and any(t.view(t.seat).is_my_turn for t in (host, guest)))
    return host, guest


def play(host: RemoteTable, guest: RemoteTable, moves: int | None = None) -> None:
    """Each seat plays its first legal move on its turn: ``moves`` of them, or to the match's end."""
    played = 0
    while host.view(host.seat).phase is not Phase.MATCH_OVER and (moves is None or played < moves):
        mover = next(t for t in (host, guest) if t.view(t.seat).is_my_turn)
        assert mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest()).accepted
        played += 1
        until(lambda: host.latest() == guest.latest())


@pytest.fixture
def tables() -> Iterator[list[RemoteTable]]:
    made: list[RemoteTable] = []
    yield made
    for table in made:
        table.close()


def test_a_server_stopped_with_sigterm_and_started_again_mid_match_is_a_restart(serve: Serve, tables: list[RemoteTable],
                                                                               tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "restart.sqlite3"
    server = serve("--port", str(port), db=db)
    host, guest = started_pair(server.url, tables)
    play(host, guest, moves=3)
    assert server.stop() == 0  # SIGTERM, as an operator stops it for an upgrade
    until(lambda: not host.connected and not guest.connected)
    assert host.restarting and guest.restarting  # the server said it was stopping: a restart
    assert host.problem is None and guest.problem is None  # not the end of the match
    again = serve("--port", str(port), db=db)  # the same port and store
    assert any("1 restored" in line for line in again.lines)
    until(lambda: host.connected and guest.connected)
    assert (host.drops, guest.drops, host.restarting, guest.restarting) == (1, 1, False, False)
    play(host, guest)
    assert guest.view(guest.seat).phase is Phase.MATCH_OVER
    assert host.view(host.seat).match_scores == guest.view(guest.seat).match_scores


@pytest.mark.linux
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sighup_and_sigterm_stop_the_server_cleanly_and_its_players_hear_server_restarting(
        serve: Serve, tables: list[RemoteTable], name: str) -> None:
    """SIGHUP (a closed terminal, ``kill -HUP``) ended the server at once, without its clean stop:
    its players heard the connection lost, not a restart. Real servers, real clients, over loopback."""
    server = serve()
    host, guest = started_pair(server.url, tables)
    messages = Messages("en")
    heard = [News(table, messages, server.url) for table in (host, guest)]
    server.proc.send_signal(getattr(signal, name))
    assert server.proc.wait(15) == 0
    until(lambda: not host.connected and not guest.connected)
    assert [[line.text for line in news.lines()] for news in heard] == [[messages("online.restarting")]] * 2
    assert any(line.rstrip().endswith("stopped") for line in server.lines)
    assert not any("Traceback" in line for line in server.lines)


def test_a_server_that_does_not_come_back_is_given_up_after_the_reconnection_time(serve: Serve,
                                                                                  tables: list[RemoteTable]) -> None:
    server = serve()
    host, guest = started_pair(server.url, tables, reconnect_for=1.5)
    assert server.stop() == 0
    until(lambda: host.problem is not None and guest.problem is not None, seconds=15)
    assert host.problem is not None and host.problem.code == GONE


def test_a_stopping_server_tells_clients_that_reconnect_in_its_last_moments_to_try_again(tmp_path: Path) -> None:
    """In the tenth of a second a stopping server still listens, a reconnecting client is told
    ``server_stopping`` (and tries again later) rather than seated, and /healthz says ``stopping``."""
    async def scenario() -> tuple[tuple[int, str], str, int]:
        opened: asyncio.Future[RoomServer] = asyncio.get_running_loop().create_future()

        async def open_rooms(config: ServerConfig) -> RoomServer:
            rooms = await sqlite_rooms(config)
            opened.set_result(rooms)
            return rooms

        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        serving = asyncio.create_task(run(ServerConfig(port=0, db=tmp_path / "rooms.sqlite3"), ready, open_rooms))
        port = await ready
        rooms = await opened
        rooms.is_stopping = True  # as ``stopping`` sets it, before the listening socket closes
        health = await async_get(port, "/healthz")
        async with connect(f"ws://127.0.0.1:{port}") as ws:  # told at once, before it says anything
            told = parse_server_message(await ws.recv())
        os.kill(os.getpid(), signal.SIGTERM)  # the server's own handler: a clean stop
        code = await serving
        return health, told.code if isinstance(told, ErrorMessage) else repr(told), code

    assert asyncio.run(scenario()) == ((503, "stopping\n"), "server_stopping", 0)


async def async_get(port: int, path: str) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    answer = await reader.read()
    writer.close()
    head, _, body = answer.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_the_reconnection_pauses_double_up_to_the_cap_and_are_cut_at_random_by_up_to_half() -> None:
    assert [reconnect_pause(n, share=0.0) for n in range(8)] == [0.2, 0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert [reconnect_pause(n, share=1.0) for n in range(4)] == [0.1, 0.25, 0.5, 1.0]
    pauses = {reconnect_pause(3) for _ in range(50)}
    assert len(pauses) > 1 and all(1.0 <= pause <= 2.0 for pause in pauses)


class FakeTable:
    """What ``News`` reads of a ``RemoteTable``."""

    code = "K7MQ3T"

    def __init__(self) -> None:
        self.connected, self.restarting, self.problem = True, False, None

    def take_errors(self) -> list[object]:
        return []


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_restart_is_said_once_and_a_server_gone_keeps_the_seat(lang: str) -> None:
    messages = Messages(lang)
    table = FakeTable()
    news = News(table, messages, "ws://localhost:8765")
    table.restarting, table.connected = True, False
    assert [line.text for line in news.lines()] == [messages("online.restarting")]
    assert news.lines() == []  # the tries that follow say nothing
    table.connected, table.restarting = True, False
    assert [line.text for line in news.lines()] == [messages("online.back")]
    table.problem = Problem(GONE, {})  # type: ignore[assignment]
    with pytest.raises(RoomGone) as gone:
        news.lines()
    assert gone.value.keep_seat and "scopa join K7MQ3T" in gone.value.line.text
    table.problem = Problem("wrong_key", {})  # type: ignore[assignment]
    with pytest.raises(RoomGone) as refused:
        news.lines()
    assert not refused.value.keep_seat


# TLS: a client says what is wrong with a certificate ---------------------------------------------

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificates")


def problem_of(url: str, tls: ssl.SSLContext | None = None) -> str | None:
    """The problem code opening a table at ``url`` gives, or None when it opens."""
    table = RemoteTable(url, CreateRoom("Ann", Rules(), ("human", "human"), "easy"), tls=tls)
    try:
        table.open(timeout=30)
    except TableClosed as closed:
        return closed.problem.code
    table.close()
    return None


@needs_openssl
def test_a_self_signed_certificate_is_said_untrusted_and_cafile_trusts_it(serve: Serve, tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    url = f"wss://127.0.0.1:{server.port}"
    assert problem_of(url) == "certificate_untrusted"
    assert problem_of(url, tls_context(cert)) is None


@needs_openssl
def test_a_certificate_for_another_name_is_said_so(serve: Serve, tmp_path: Path) -> None:
    cert, key = certificate(tmp_path, "other.example", "DNS:other.example")
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    trusted = tls_context(cert)  # trusted, but not for this address
    assert problem_of(f"wss://127.0.0.1:{server.port}", trusted) == "certificate_name"
    assert problem_of(f"wss://localhost:{server.port}", trusted) == "certificate_name"


def test_wss_to_a_server_without_tls_is_no_secure_connection(serve: Serve) -> None:
    server = serve()
    assert problem_of(f"wss://127.0.0.1:{server.port}") == "tls_failed"


@needs_openssl
def test_scopa_host_names_the_certificate_problem_and_takes_cafile(serve: Serve, tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    url = f"wss://127.0.0.1:{server.port}"
    refused = scopa(tmp_path, "host", "--server", url, "--name", "Ann")
    assert refused.returncode == 1
    assert f"Certificate not trusted. The server at {url} sent a certificate" in refused.stdout
    assert "--cafile FILE" in refused.stdout
    hosted = scopa(tmp_path, "host", "--server", url, "--name", "Ann", "--cafile", str(cert))
    assert "Room code" in hosted.stdout, hosted.stdout + hosted.stderr + "".join(server.lines)


@needs_openssl
def test_scopa_watch_names_the_certificate_problem_and_takes_cafile(serve: Serve, tmp_path: Path) -> None:
    """A spectator hears the same line as a player, not "Cannot reach": it connects through net as they do."""
    cert, key = certificate(tmp_path)
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    url = f"wss://127.0.0.1:{server.port}"
    refused = scopa(tmp_path, "watch", "K7MQ3T", "--server", url, "--name", "Sam")
    assert refused.returncode == 1
    assert f"Certificate not trusted. The server at {url} sent a certificate" in refused.stdout
    trusted = scopa(tmp_path, "watch", "K7MQ3T", "--server", url, "--name", "Sam", "--cafile", str(cert))
    assert trusted.returncode == 1 and "No room has this code." in trusted.stdout  # through TLS, the server's answer


@needs_openssl
def test_ws_to_a_server_that_serves_wss_says_it_wants_wss(serve: Serve, tmp_path: Path) -> None:
    """Before, "Cannot reach the server": the server was there, speaking TLS."""
    cert, key = certificate(tmp_path)
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    url = f"ws://127.0.0.1:{server.port}"
    assert problem_of(url) == "wants_wss"
    refused = scopa(tmp_path, "join", "K7MQ3T", "--server", url, "--name", "Ben")
    assert refused.returncode == 1
    assert f"The server at {url} wants a secure connection. Write wss:// in place of ws://." in refused.stdout
    plain = serve()  # a plain server is reached, and nothing listening is not taken for a wss one
    assert problem_of(f"ws://127.0.0.1:{plain.port}") is None
    assert problem_of(f"ws://127.0.0.1:{free_port()}") == "unreachable"


def serve_fails(tmp_path: Path, *flags: str) -> str:
    """What ``scopa serve`` with these flags wrote before ending with code 1 (it must not start)."""
    result = subprocess.run([sys.executable, "-m", "scopa", "serve", "--port", "0", "--db",
                             str(tmp_path / "rooms.sqlite3"), *flags], capture_output=True, text=True, timeout=60,
                            stdin=subprocess.DEVNULL, cwd=tmp_path, check=False,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


@needs_openssl
def test_the_server_names_the_certificate_file_and_its_problem(tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    other_cert, other_key = certificate(tmp_path, "other.example", "DNS:other.example")
    missing = tmp_path / "missing.pem"
    assert f"--certfile {missing}: no such file" in serve_fails(tmp_path, "--certfile", str(missing))  # was "[Errno 2]"
    assert f"--keyfile {missing}: no such file" in serve_fails(tmp_path, "--certfile", str(cert), "--keyfile",
                                                               str(missing))
    alone = serve_fails(tmp_path, "--certfile", str(cert))  # was "PEM lib (_ssl.c:3926)"
    assert f"--certfile {cert}: no private key in it; give the certificate's key with --keyfile FILE" in alone
    assert f"--keyfile {other_key}: not the key of the certificate in {cert}" in serve_fails(
        tmp_path, "--certfile", str(cert), "--keyfile", str(other_key))
    assert f"--certfile {key}: no certificate in it" in serve_fails(tmp_path, "--certfile", str(key), "--keyfile",
                                                                   str(key))
    assert other_cert.exists()


@needs_openssl
def test_a_certificate_near_or_past_its_date_is_warned_of_at_start(serve: Serve, tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """This machine's openssl 3.0 cannot make a certificate already expired: a one-day one is warned
    of as expiring at a real start, and the same file read two days on is said expired."""
    from scopa.net.server.server import _warn_of_expiry
    cert, key = certificate(tmp_path)
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    assert any(f"the certificate in {cert} expires on" in line for line in server.lines), "".join(server.lines)
    with caplog.at_level("WARNING", logger="scopa.serve"):
        _warn_of_expiry(cert, now=time.time() + 2 * 86400)
    assert f"the certificate in {cert} expired on" in caplog.text and "Certificate expired" in caplog.text


@pytest.mark.parametrize(("flags", "said"), [
    (("--server", "ws://127.0.0.1:9", "--cafile", "cert.pem"), "--cafile is for a wss:// server"),
    (("--server", "wss://127.0.0.1:9", "--cafile", "missing.pem"), "cannot be read as a certificate"),
])
def test_a_cafile_that_cannot_be_used_is_one_line_and_exit_2(tmp_path: Path, flags: tuple[str, ...],
                                                              said: str) -> None:
    (tmp_path / "cert.pem").write_text("not a certificate\n")
    result = scopa(tmp_path, "join", "K7MQ3T", *flags)
    assert result.returncode == 2 and result.stderr.startswith("scopa: ") and said in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def scopa(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The real program with no terminal: what it printed (input closed: a hosted room is left at once)."""
    return subprocess.run([sys.executable, "-m", "scopa", *argv, "--no-voice", "--lang", "en", "--data-dir",
                           str(folder / "data"), "--config-dir", str(folder / "config")], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=folder, check=False,
                          env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))


@pytest.mark.parametrize(("verify_code", "problem"), [(10, "certificate_expired"), (62, "certificate_name"),
                                                       (64, "certificate_name"), (18, "certificate_untrusted"),
                                                       (20, "certificate_untrusted")])
def test_each_verification_failure_has_its_problem(verify_code: int, problem: str) -> None:
    """An expired certificate cannot be made with this machine's openssl 3.0: the mapping alone."""
    error = ssl.SSLCertVerificationError(1, "certificate verify failed")
    error.verify_code = verify_code
    assert tls_problem(error) == problem
    assert tls_problem(ssl.SSLError(1, "wrong version number")) == "tls_failed"
