"""The pages' consoles in a process of their own, beside the room server's (issue 40).

Each page's console (``session.PageSession``) narrates every update of its seat: Python work that, in
threads of the server's own process, took the server's lock on the interpreter (the GIL) from its event
loop. Measured with ``python3 dev.py bench server --rooms 200 --think 2 --browser-seats`` on this
machine, the consoles took some 50% of a core. So they run in one worker process, started with the
server (``multiprocessing``, spawned; started again if it dies), and the server's loop only moves the
pages' frames to it and back over a pipe, as it hands the computers' turns to their workers
(``net.thinking``).

The worker connects each console to the server on loopback, as any client; if the worker dies, its
pages lose their connection, reconnect, take their seats back (the seat keys are in the pages), and a
new worker serves them.

Pipe messages, server to worker: ("open", id, {first, address, host, server}), ("msg", id, message),
("close", id). Worker to server: ("send", id, message), ("end", id).
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import signal
import threading
from collections.abc import AsyncIterator
from multiprocessing.connection import Connection
from typing import Any, Protocol


class PageLink(Protocol):
    """The page's websocket as the server gives it (``net.server.pages.PageLink``)."""

    address: str
    host: str

    def send(self, message: dict[str, Any]) -> None: ...
    def close(self) -> None: ...
    def messages(self) -> AsyncIterator[dict[str, Any]]: ...


FIRST_WAIT = 10.0  # seconds a page has to send its first message
log = logging.getLogger("scopa.web")


class PageWorkers:
    """The server process's side: one worker process for every page, started when first needed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._links: dict[int, PageLink] = {}
        self._ids = itertools.count(1)

    @classmethod
    def started(cls) -> Any:
        """``net.server.launch``'s ``pages``: the worker started now (so that the first page waits for no
        process to start), and what plays each page in it."""
        workers = cls()
        workers._ensure()
        return workers.session

    def _ensure(self) -> Connection:
        with self._lock:
            if self._conn is not None and self._process is not None and self._process.is_alive():
                return self._conn
            context = multiprocessing.get_context("spawn")
            pipe: tuple[Connection, Connection] = context.Pipe()  # type: ignore[assignment,unused-ignore]
            ours, theirs = pipe  # (a PipeConnection on Windows: the same methods)
            self._process = context.Process(target=worker_main, args=(theirs,), name="scopa-pages", daemon=True)
            _start_deaf_to_ctrl_c(self._process)
            theirs.close()
            self._conn = ours
            threading.Thread(target=self._read, args=(ours,), name="scopa-pages-reader", daemon=True).start()
            return ours

    def _send(self, item: tuple[Any, ...]) -> None:
        conn = self._ensure()
        with self._lock, contextlib.suppress(OSError, ValueError):
            conn.send(item)

    def _read(self, conn: Connection) -> None:
        """The worker's messages to the pages, until it ends; then its pages are closed (they reconnect)."""
        try:
            while True:
                kind, number, payload = conn.recv()
                link = self._links.get(number)
                if link is None:
                    continue
                if kind == "send":
                    link.send(payload)
                else:
                    self._links.pop(number, None)
                    link.close()
        except (EOFError, OSError):
            log.warning("the pages' worker ended; its pages reconnect")
            for link in list(self._links.values()):
                link.close()
            self._links.clear()

    async def session(self, link: PageLink, server: str) -> None:
        """``net.server.pages.PageSession``: one page's frames to its console in the worker, and back."""
        messages = link.messages()
        try:
            first = await asyncio.wait_for(anext(messages), FIRST_WAIT)
        except (TimeoutError, StopAsyncIteration):
            return
        if first.get("type") != "start":
            return
        number = next(self._ids)
        self._links[number] = link
        await asyncio.to_thread(self._send, ("open", number, {"first": first, "address": link.address,
                                                              "host": link.host, "server": server}))
        try:
            async for message in messages:
                self._send(("msg", number, message))
        finally:
            self._send(("close", number, None))
            self._links.pop(number, None)


class WorkerEnd:
    """A session's end of the pipe, in the worker: what it sends goes to its page."""

    def __init__(self, conn: Connection, lock: threading.Lock, number: int, address: str, host: str) -> None:
        self.conn, self.lock, self.number = conn, lock, number
        self.address, self.host = address, host

    def send(self, message: dict[str, Any]) -> None:
        with self.lock, contextlib.suppress(OSError, ValueError):
            self.conn.send(("send", self.number, message))

    def close(self) -> None:
        with self.lock, contextlib.suppress(OSError, ValueError):
            self.conn.send(("end", self.number, None))


def _start_deaf_to_ctrl_c(process: Any) -> None:
    """Start the worker with Ctrl-C ignored from its first instruction: Ctrl-C reaches every process
    of the terminal's group, and a worker still importing when it came printed a traceback on the
    server's terminal (``dev.py play serve``, Ctrl-C just after "listening"). An ignored signal stays
    ignored across the exec that spawns the worker; the server stops, and its worker with it."""
    if threading.current_thread() is not threading.main_thread():
        process.start()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        process.start()
    finally:
        signal.signal(signal.SIGINT, previous)


def worker_main(conn: Connection) -> None:
    """The worker process: a console for each page the server opens, until the server goes."""
    from .session import PageSession
    lock = threading.Lock()
    sessions: dict[int, PageSession] = {}
    try:
        while True:
            kind, number, payload = conn.recv()
            if kind == "open":
                end = WorkerEnd(conn, lock, number, str(payload["address"]), str(payload["host"]))
                session = sessions[number] = PageSession(end, str(payload["server"]))
                session.start(payload["first"])
            elif kind == "msg" and number in sessions:
                sessions[number].feed(payload)
            elif kind == "close" and number in sessions:
                threading.Thread(target=sessions.pop(number).stop, daemon=True).start()
    except (EOFError, OSError, KeyboardInterrupt):  # the server stopped
        for session in sessions.values():
            session.input.close()
