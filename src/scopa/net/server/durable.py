"""Group commit for the SQLite store: what the server sends waits until the writes before it are on disk.

A move used to be written with ``synchronous=FULL``: its transaction's commit waited for the disk
(an fsync of the write-ahead log, 4 ms on a quiet disk of the bench's machine, tens of milliseconds
on a busy one) inside the event loop, so every room waited for every other room's disk write, one
at a time. At a thousand rooms those waits added up to most of a second each second (docs/
architecture.md, "Costs").

Now each write commits with ``synchronous=NORMAL``: the transaction is in the log file when the
commit returns (a server killed at that moment, even by SIGKILL, keeps it: the operating system
has it), but not yet flushed to the disk. Then:

- every frame any connection is sent (an answer, an update, a chat line, a close) goes through
  this ``Outbox`` in the order it was sent; at the end of the loop's turn it is tagged with the
  store's count of changed rows (``RoomStore.changes``), which covers every write made before it;
- one task flushes the log to the disk in a thread of its own (``RoomStore.sync``: one fsync for
  every write made since the last, however many rooms made them), then lets out, in order, the
  frames whose writes that flush covered;
- a frame with nothing unflushed before it goes out at once.

So a move is on the disk before its answer or any update of it leaves the server, as before; the
order of every frame is the order they were sent; a write that fails still fails in the loop, at
once (the change is undone and refused, as before); and the disk is asked for one flush per batch
of writes rather than one per write: the loop never waits for it. The flush runs in one thread:
the loop hands it nothing but the moment to flush.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

log = logging.getLogger("scopa.serve")
RETRY = 0.5  # seconds before a failed flush is tried again (the frames wait meanwhile)


class Receiver(Protocol):
    """A connection: takes a frame (or a close) to queue for its socket."""

    def deliver(self, item: Any) -> None: ...


class Outbox:
    """Frames held until the store's writes before them are flushed to the disk.

    ``changes()`` counts the store's changes so far (SQLite's ``total_changes``); ``sync()`` flushes
    them to the disk (it blocks: it runs in a thread of its own); ``failed`` is called when a flush fails."""

    def __init__(self, changes: Callable[[], int], sync: Callable[[], None],
                 failed: Callable[[BaseException], None] = lambda error: None) -> None:
        self.changes, self.sync, self.failed = changes, sync, failed
        self.synced = changes()  # every change up to this count is on the disk
        self.sent: list[tuple[Receiver, Any]] = []  # sent in this turn of the loop, not yet tagged
        self.held: deque[tuple[int, Receiver, Any]] = deque()  # tagged, waiting for a flush
        self.turn_end: asyncio.Handle | None = None
        self.wanted: asyncio.Event | None = None
        self.task: asyncio.Task[None] | None = None
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="scopa-sync")
        self.syncs = 0  # flushes done
        self.failing = False  # the last flush failed (``GET /healthz`` then answers 503)

    def put(self, receiver: Receiver, item: Any) -> None:
        """Send ``item`` to ``receiver`` once every write made before the end of this turn is on the disk."""
        self.sent.append((receiver, item))
        if self.turn_end is None:
            self.turn_end = asyncio.get_running_loop().call_soon(self._tag)

    def _tag(self) -> None:
        """The end of the loop's turn: what was sent in it waits for the writes made so far."""
        self.turn_end = None
        sent, self.sent = self.sent, []
        changes = self.changes()
        if changes <= self.synced and not self.held:
            for receiver, item in sent:
                receiver.deliver(item)
            return
        self.held.extend((changes, receiver, item) for receiver, item in sent)
        if self.task is None:
            self.wanted = asyncio.Event()
            self.task = asyncio.get_running_loop().create_task(self._flushing())
        assert self.wanted is not None
        self.wanted.set()

    async def _flushing(self) -> None:
        assert self.wanted is not None
        loop = asyncio.get_running_loop()
        while True:
            await self.wanted.wait()
            self.wanted.clear()
            await self.flush(loop)

    async def flush(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Flush every change made so far, then let out what waited for it."""
        loop = loop or asyncio.get_running_loop()
        target = self.changes()
        if target > self.synced:
            try:
                await loop.run_in_executor(self.thread, self.sync)
            except Exception as error:  # noqa: BLE001 -- a disk that fails to flush: said, and tried again
                self.failing = True
                self.failed(error)
                log.error("the store cannot be flushed to the disk (%s); answers wait", error)
                await asyncio.sleep(RETRY)
                if self.wanted is not None:
                    self.wanted.set()
                return
            self.syncs += 1
            self.failing = False
            self.synced = max(self.synced, target)
        held = self.held
        while held and held[0][0] <= self.synced:
            _, receiver, item = held.popleft()
            receiver.deliver(item)
        if held and self.wanted is not None:
            self.wanted.set()

    async def close(self) -> None:
        """Let out what is held (a last flush), then stop."""
        if self.turn_end is not None:
            self.turn_end.cancel()
            self._tag()
        if self.held:
            with contextlib.suppress(Exception):
                await self.flush()
        if self.task is not None:
            self.task.cancel()
        self.thread.shutdown(wait=True)
