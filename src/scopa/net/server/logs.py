"""The room server's log lines, written to standard error by a thread of their own, in batches.

The server logs a line per room event: a thousand rooms make hundreds a second. Written in the
event loop, each line waited for the pipe or the journal to take it, and a reader slow to empty
the pipe held every room with it; handed to a thread one at a time (``logging.handlers.
QueueHandler``), each line woke the thread, which then took the interpreter's lock from the loop.
Here the loop only appends the record to a list; the first record after a quiet moment wakes the
thread, which formats and writes whatever came, in one write, then rests ``EVERY`` seconds before
it looks again. A line reaches the log at once when the server is quiet and within that time when
busy; a process killed by SIGKILL loses at most that much of its log (never of its rooms: the
store keeps them).
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import TextIO

EVERY = 0.02  # seconds the thread rests after a write


class BatchedLines(logging.Handler):
    """Keeps each record; a thread formats and writes them ``every`` seconds, all at once."""

    def __init__(self, stream: TextIO, every: float = EVERY) -> None:
        super().__init__()
        self.stream, self.every = stream, every
        self.pending: deque[logging.LogRecord] = deque()
        self.waiting = threading.Event()  # set by the first record after the thread emptied the list
        self.stopping = False
        self.thread = threading.Thread(target=self._write_each, name="scopa-log", daemon=True)
        self.thread.start()

    def emit(self, record: logging.LogRecord) -> None:
        self.pending.append(record)
        if not self.waiting.is_set():
            self.waiting.set()

    def _write_each(self) -> None:
        while not self.stopping:
            self.waiting.wait()
            self.waiting.clear()
            self.write()
            time.sleep(self.every)  # lines that come meanwhile are written together
        self.write()

    def write(self) -> None:
        """Format and write every record kept so far, in one write."""
        lines = []
        while self.pending:
            record = self.pending.popleft()
            try:
                lines.append(self.format(record) + "\n")
            except Exception:  # noqa: BLE001 -- a line that cannot be formatted is reported, the rest go on
                self.handleError(record)
        if lines:
            try:
                self.stream.write("".join(lines))
                self.stream.flush()
            except (OSError, ValueError):  # standard error closed: nothing to say it on
                pass

    def close(self) -> None:
        """Write what is left, and stop the thread."""
        self.stopping = True
        self.waiting.set()
        if self.thread is not threading.current_thread():
            self.thread.join(5)
        super().close()
