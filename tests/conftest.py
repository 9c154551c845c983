"""Fixtures shared by the online tests: real servers and real clients, each stopped after its test."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.net import Server, opened
from scopa.net.client import RemoteTable


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
