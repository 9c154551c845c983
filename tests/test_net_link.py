"""``net.client.link.Link`` against the real room server over loopback: what the console's threads rely on."""
from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers.net import ROOT
from scopa.bench.serving import certificate
from scopa.net.client.link import UNREACHABLE, LinkClosed, LinkFailed, open_link
from scopa.net.protocol.client_messages import ListTables, Ping
from scopa.net.protocol.server_messages import TablesMessage, parse_server_message
from scopa.net.protocol.wire import MAX_RECORD_MESSAGE, encode


def opened(url: str):
    return open_link(url, None, 10, MAX_RECORD_MESSAGE)


def test_a_link_asks_and_is_answered(serve) -> None:
    with opened(serve().url) as link:
        link.send(encode(ListTables()))
        assert isinstance(parse_server_message(link.recv(10)), TablesMessage)


def test_a_wait_that_times_out_loses_no_message(serve) -> None:
    """Waits cut short as the answer arrives: the answer is still read, whole, by a later wait."""
    with opened(serve().url) as link:
        with pytest.raises(TimeoutError):
            link.recv(0.05)
        link.send(encode(ListTables()))
        answer, deadline = None, time.monotonic() + 10
        while answer is None and time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                answer = link.recv(0)  # a message already there is taken; else the wait is cut short
        assert answer is not None and isinstance(parse_server_message(answer), TablesMessage)


def test_closing_ends_a_wait_in_another_thread_and_every_later_call(serve) -> None:
    link = opened(serve().url)
    ended: list[BaseException] = []

    def wait() -> None:
        try:
            link.recv()
        except LinkClosed as closed:
            ended.append(closed)

    reader = threading.Thread(target=wait)
    reader.start()
    time.sleep(0.2)  # the reader is waiting
    link.close()
    reader.join(5)
    assert not reader.is_alive() and len(ended) == 1
    with pytest.raises(LinkClosed):
        link.send(encode(Ping()))
    assert list(link) == []  # reading a closed link ends at once
    link.close()  # closing twice is no error


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("server", "code"), [
    ("http://127.0.0.1:1", "bad_server"),
    ("ws://", "bad_server"),
    (None, UNREACHABLE),
])
def test_an_opening_that_fails_says_why(server: str | None, code: str) -> None:
    with pytest.raises(LinkFailed) as failed:
        opened(server or f"ws://127.0.0.1:{free_port()}")
    assert failed.value.code == code


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificate")
def test_the_game_never_uses_websockets_threading_client(serve, tmp_path: Path) -> None:
    """That client reads and sends on one TLS socket from two threads, which OpenSSL does not allow;
    it hung about one opening in 700 (``net/client/link.py``). A whole opening over wss, in a process of
    its own, must not import it."""
    cert, key = certificate(tmp_path)
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    script = (
        "import sys\n"
        "from scopa.engine import Rules\n"
        "from scopa.net.client.client import RemoteTable, tls_context\n"
        "from scopa.net.protocol.client_messages import CreateRoom\n"
        f"table = RemoteTable('wss://127.0.0.1:{server.port}', CreateRoom('Ann', Rules(), ('human', 'human'), 'easy'),"
        f" tls=tls_context({str(cert)!r}))\n"
        "print(table.open().code)\n"
        "table.close()\n"
        "print(sorted(name for name in sys.modules if name.startswith('websockets.sync')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    code, modules = done.stdout.splitlines()
    assert len(code) == 6 and modules == "[]", done.stdout + done.stderr
