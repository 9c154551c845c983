"""Fixtures shared by the online tests: real servers, a real redis-server, the two stores and real
clients, each stopped after its test. And the ``linux`` mark: off Linux, a test so marked is
skipped, and a file marked whole (``pytestmark = pytest.mark.linux``) is not even imported, so
that it may use what only Linux has at its top (SIGKILL in a parameter list, pty through pexpect)."""
from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.net import Server, opened
from helpers.redis import FULL_TRIGGERS, free_port, redis_cli
from scopa.net.client.client import RemoteTable

# The system the tests run as: sys.platform, or SCOPA_TEST_PLATFORM (win32, darwin) to see on Linux which
# tests a Windows or macOS run would collect and skip (tests/test_portable_tests.py counts them).
TEST_PLATFORM = os.environ.get("SCOPA_TEST_PLATFORM") or sys.platform
ON_LINUX = TEST_PLATFORM.startswith("linux")
WHOLE_FILE_MARK = "pytestmark = pytest.mark.linux"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Off Linux, a test file marked Linux's whole is not imported (read as text, not run)."""
    if ON_LINUX or collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    try:
        return WHOLE_FILE_MARK in collection_path.read_text("utf-8") or None
    except OSError:
        return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if ON_LINUX:
        return
    skip = pytest.mark.skip(reason=f"needs Linux (a pty, SIGKILL, FIFOs or /dev/full); this is {TEST_PLATFORM}")
    for item in items:
        if "linux" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """serve(*flags) starts a server (stopped after the test, whatever happens)."""
    started: list[Server] = []

    def start(*flags: str, db: Path | None = None) -> Server:
        server = Server(db or tmp_path / "rooms.sqlite3", *flags)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def tables() -> Iterator[Callable[..., RemoteTable]]:
    """tables(url, first) opens a RemoteTable; all are closed after the test."""
    made: list[RemoteTable] = []

    def make(url: str, first: Any, **options: Any) -> RemoteTable:
        table = opened(url, first, **options)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


@pytest.fixture(scope="module")
def redis_server():
    """A real redis-server on a free loopback port, without persistence; its port."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server); the Redis store is not tested")
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                             "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > end or proc.poll() is not None:
                    raise AssertionError("redis-server did not start") from None
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path):
    """The store under test: ``store.serve(*flags)`` starts a server on it (stopped after the test),
    ``store.fail()`` makes its writes fail (a full store), ``store.heal()`` undoes that."""
    started: list[Server] = []

    class Store:
        kind = request.param

        def serve(self, *flags: str) -> Server:
            server = Server(*self.where, *flags)
            started.append(server)
            return server

    chosen = Store()
    if request.param == "sqlite":
        db = tmp_path / "rooms.sqlite3"
        chosen.where = (db,)

        def fail() -> None:  # every later write of a room (and of the health check) is refused, as by a full disk
            with sqlite3.connect(db) as conn:
                for name, change, table in FULL_TRIGGERS:
                    conn.execute(f"CREATE TRIGGER {name} BEFORE {change} ON {table} BEGIN "
                                 "SELECT RAISE(ABORT, 'database or disk is full'); END")

        def heal() -> None:
            with sqlite3.connect(db) as conn:
                for name, _, _ in FULL_TRIGGERS:
                    conn.execute(f"DROP TRIGGER {name}")
    else:
        port = request.getfixturevalue("redis_server")
        redis_cli(port, "FLUSHALL")
        chosen.where = (None, "--store", f"redis://127.0.0.1:{port}/0")

        def fail() -> None:  # Redis at its memory limit refuses every write
            redis_cli(port, "CONFIG", "SET", "maxmemory-policy", "noeviction")
            redis_cli(port, "CONFIG", "SET", "maxmemory", "1")

        def heal() -> None:
            redis_cli(port, "CONFIG", "SET", "maxmemory", "0")
    chosen.fail, chosen.heal = fail, heal
    yield chosen
    for server in started:
        server.stop()


@pytest.fixture
def processes(redis_server):
    """processes(count, *flags): that many servers on one fresh Redis (stopped after the test)."""
    redis_cli(redis_server, "FLUSHALL")
    started: list[Server] = []

    def serve(count: int, *flags: str) -> list[Server]:
        servers = [Server(None, "--store", f"redis://127.0.0.1:{redis_server}/0", *flags) for _ in range(count)]
        started.extend(servers)
        return servers

    yield serve
    for server in started:
        server.stop()
