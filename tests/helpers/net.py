"""A real room server on a free loopback port and scripted websocket clients of it."""
from __future__ import annotations

import contextlib
import json
import re
import secrets
import socket
import sqlite3
import ssl
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from scopa.bench.serving import ServerProcess
from scopa.engine import CardsDealt, Rules
from scopa.net.client.client import RemoteTable
from scopa.net.client.link import QUIET_LOG, LinkClosed, open_link
from scopa.net.protocol.client_messages import (
    Contribute,
    CreateRoom,
    Hello,
    Join,
    MoveRequest,
    NextDealRequest,
    Ping,
)
from scopa.net.protocol.client_messages import Ready as ReadyMessage
from scopa.net.protocol.client_messages import Start as StartMessage
from scopa.net.protocol.server_messages import (
    Accepted,
    ChangeEnd,
    ErrorMessage,
    InfoMessage,
    Moved,
    Pong,
    Refused,
    ResyncMessage,
    UpdateMessage,
    Welcome,
    parse_server_message,
)
from scopa.net.protocol.wire import (
    encode,
)
from scopa.table import Notice

ROOT = Path(__file__).resolve().parents[1]
CARD_TEXT = re.compile(r"^(?:A|[2-7]|J|Q|K)[DHSC]$")


class SlowNetwork:
    """A loopback TCP proxy to the server at ``url`` that passes on what the server sends in pieces
    of ``piece`` bytes, ``pause`` seconds apart, as a slow or lossy network may: the messages of one
    change reach the client tens of milliseconds apart. What the client sends goes straight on."""

    def __init__(self, url: str, piece: int = 1024, pause: float = 0.02) -> None:
        self.server_port = int(url.rsplit(":", 1)[1].split("/")[0])
        self.piece, self.pause = piece, pause
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"ws://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(("127.0.0.1", self.server_port))
            threading.Thread(target=self._pass, args=(client, server, 1 << 16, 0.0), daemon=True).start()
            threading.Thread(target=self._pass, args=(server, client, self.piece, self.pause), daemon=True).start()

    @staticmethod
    def _pass(source: socket.socket, target: socket.socket, piece: int, pause: float) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(1 << 16):
                for begin in range(0, len(data), piece):
                    time.sleep(pause)
                    target.sendall(data[begin:begin + piece])
        for end in (source, target):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


CHANGE_MESSAGES = (UpdateMessage, InfoMessage, Moved, ResyncMessage)


def changes_are_ended(messages: list[object]) -> int:
    """How many changes ``messages`` hold, each ended by one change_end before any other message."""
    open_change, ended = False, 0
    for message in messages:
        if isinstance(message, CHANGE_MESSAGES):
            open_change = True
        elif isinstance(message, ChangeEnd):
            assert open_change, "a change_end ends a change, never nothing"
            open_change, ended = False, ended + 1
        else:
            assert not open_change, f"{message!r} came inside a change"
    assert not open_change, "the last change was not ended"
    return ended


def stored_record(db: Path, code: str) -> dict:
    """The match record of room ``code`` as the server stored it in the SQLite file ``db``."""
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT record FROM rooms WHERE code = ?", (code,)).fetchone()
    return json.loads(text)


class Server(ServerProcess):
    """``scopa serve`` on a free loopback port, on the SQLite file ``db`` (None: the store the flags
    name), computers playing at once; its stderr is kept line by line (``scopa.bench.serving``)."""

    def __init__(self, db: Path | None, *flags: str) -> None:
        super().__init__([*(["--db", str(db)] if db else []), "--computer-delay", "0", *flags], wait=20)


class Client:
    """A scripted player: every frame it receives is kept, as bytes on the wire."""

    def __init__(self, url: str, tls: ssl.SSLContext | None = None, **options) -> None:
        self.stack = ExitStack()  # connect() as a context manager, as websockets asks
        if tls is not None:  # websockets' threading client can hang a TLS opening (net/client/link.py): the game's Link
            self.ws = self.stack.enter_context(open_link(url, tls, 20, 2 ** 20))
        else:
            self.ws = self.stack.enter_context(connect(url, max_size=2 ** 20, open_timeout=20, close_timeout=1,
                                                           logger=QUIET_LOG, **options))
        self.frames: list[str] = []
        self.rules: Rules | None = None
        self.seat = self.number = 0
        self.code = self.key = None
        self.view = None
        self.notices: list[Notice] = []
        self.errors: list[ErrorMessage] = []
        self.info = None

    def send(self, message) -> None:
        self.ws.send(message if isinstance(message, str) else encode(message))

    def recv(self, timeout: float = 5.0):
        raw = self.ws.recv(timeout=timeout)
        self.frames.append(raw)
        message = parse_server_message(raw, self.rules)
        if isinstance(message, Welcome):
            self.rules, self.seat = message.info.rules, message.seat
            self.code, self.number = message.code, message.number
            self.key = message.seat_key or self.key
        elif isinstance(message, UpdateMessage):
            assert message.update.number == self.number + 1, "updates arrive in order, none missing"
            self.number = message.update.number
            self.view = message.update.view or self.view
            if isinstance(message.update.event, Notice):
                self.notices.append(message.update.event)
        elif isinstance(message, ResyncMessage):
            self.number, self.view = message.number, message.view
        elif isinstance(message, ErrorMessage):
            self.errors.append(message)
        elif isinstance(message, InfoMessage):
            self.info = message.info
        elif isinstance(message, Moved):  # the host moved this player: the same key, a new seat
            self.seat = message.seat
        return message

    def until(self, test, timeout: float = 10.0):
        """Read until a message passes ``test``; that message."""
        end = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, end - time.monotonic()))
            if test(message):
                return message

    def poll(self, wait: float = 0.0) -> bool:
        """Read what is waiting (after up to ``wait`` seconds for the first); whether anything came."""
        got = False
        while True:
            try:
                self.recv(0 if got else wait)
                got = True
            except TimeoutError:
                return got

    def catch_up(self, number: int) -> None:
        while self.number < number:
            self.recv()

    def closed(self, timeout: float = 5.0) -> bool:
        try:
            while True:
                self.recv(timeout)
        except (ConnectionClosed, LinkClosed):
            return True
        except TimeoutError:
            return False

    def close(self) -> None:
        self.stack.close()


def host(url: str, rules: Rules = Rules(target=None), seats: tuple[str, ...] | None = None, level: str = "easy",
         name: str = "Ann") -> Client:
    client = Client(url)
    client.send(CreateRoom(name, rules, seats or ("human",) * rules.players, level))
    client.until(lambda m: isinstance(m, Welcome))
    contribute(client)
    return client


def contribute(client: Client) -> None:
    """The seat's share of the seed, as RemoteTable sends it (docs/fairness.md), and a ping answered
    after it: the server has taken (and stored) the share before the test goes on. Without the
    round trip, a test that makes the store fail next could fail the share's write instead."""
    client.send(Contribute(secrets.token_bytes(32)))
    client.send(Ping())
    client.until(lambda m: isinstance(m, Pong))


def join(url: str, code: str, name: str = "Bob", ready: bool = True) -> Client:
    client = Client(url)
    client.send(Join(code, name))
    client.until(lambda m: isinstance(m, Welcome))
    contribute(client)
    if ready:
        client.send(ReadyMessage())
        client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", client.seat, name))
    return client


def reclaim(url: str, old: Client, last: int | None = None) -> Client:
    """Take ``old``'s seat back with its key; ``last``: the number it says it has (its own)."""
    client = Client(url)
    client.rules, client.key, client.code, client.view = old.rules, old.key, old.code, old.view
    client.send(Hello(old.code, old.key, old.number if last is None else last))
    welcome = client.until(lambda m: isinstance(m, Welcome))
    assert welcome.seat_key is None  # a key is given once, never sent again
    client.number = old.number if last is None else last
    return client


def start(hosting: Client, *others: Client) -> None:
    hosting.send(StartMessage())
    for client in (hosting, *others):
        client.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, CardsDealt))


def error(client: Client, timeout: float = 5.0) -> ErrorMessage:
    return client.until(lambda m: isinstance(m, ErrorMessage), timeout)


def play_out(clients: list[Client], hosting: Client, stop=lambda: False, timeout: float = 60.0) -> None:
    """Each client plays its first legal move on its turn, the host deals on, until the match ends
    (or ``stop()``); after each move every client has read up to it."""
    end = time.monotonic() + timeout
    requests = iter(range(1, 10 ** 6))
    while time.monotonic() < end:
        for client in clients:
            client.poll()
        if all(c.view is not None and c.view.phase.value == "match_over" for c in clients) or stop():
            return
        acted = False
        for client in clients:
            view = client.view
            if view is not None and view.is_my_turn:
                client.send(MoveRequest(next(requests), view.legal_moves()[0], client.number))
            elif client is hosting and view is not None and view.phase.value == "deal_over":
                client.send(NextDealRequest(next(requests), client.number))
            else:
                continue
            answer = client.until(lambda m: isinstance(m, (Accepted, Refused)))
            assert isinstance(answer, Accepted), answer
            for other in clients:
                other.catch_up(answer.number)
            acted = True
            break
        if not acted:
            clients[0].poll(0.01)
    raise AssertionError("the match did not end in time")


SINGLE = Rules(target=None)


def opened(url: str, first, **options) -> RemoteTable:
    table = RemoteTable(url, first, **options)
    table.open()
    return table


@pytest.fixture
def tables():
    """tables(url, first) opens a RemoteTable; all are closed after the test."""
    made: list[RemoteTable] = []

    def make(url: str, first, **options) -> RemoteTable:
        table = opened(url, first, **options)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


def until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def started_pair(url: str, tables, rules: Rules = SINGLE) -> tuple[RemoteTable, RemoteTable]:
    host = tables(url, CreateRoom("Ann", rules, ("human",) * rules.players, "easy"))
    guest = tables(url, Join(host.code.lower(), "Ben"))
    guest.ready()
    until(lambda: host.room().seats[1] is not None and host.room().seats[1].ready)
    host.start()
    until(lambda: host.has_view() and guest.has_view() and host.latest() == guest.latest()
          and any(t.view(t.seat).is_my_turn for t in (host, guest)))
    return host, guest


def mover_of(*tables: RemoteTable) -> RemoteTable:
    return next(t for t in tables if t.view(t.seat).is_my_turn)
