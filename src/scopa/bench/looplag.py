"""How long an asyncio event loop was held: a task that sleeps ``interval`` and notes how late it woke.

Whatever held the loop (a store's write, a burst of sends, a garbage collection) delays every
callback due meanwhile by as much, so the lateness of this task's wake-ups is the loop's lag as
every connection feels it. ``LoopLag`` keeps the worst and a count of wake-ups by lateness since
it was last read (``take``); reading starts a new window. It costs one wake-up each ``interval``
(100 a second: a few thousandths of a core).

The bench's server prints a line each second (``line``) on its standard error, which the bench
reads (``parse``); the bench's client processes keep their own.
"""
from __future__ import annotations

import asyncio
import dataclasses
import gc
import re
import time

INTERVAL = 0.01  # seconds between wake-ups
STEPS = (0.01, 0.03, 0.1)  # lateness counted above each of these (seconds)
LINE = re.compile(r"loop lag worst ([\d.]+) ms, wake-ups (\d+), over 10/30/100 ms (\d+) (\d+) (\d+)"
                  r"(?:, full collections (\d+) worst ([\d.]+) ms)?")


@dataclasses.dataclass
class Lag:
    """One window: the worst lateness (s), the wake-ups, and how many were later than each of ``STEPS``."""

    worst: float = 0.0
    wakeups: int = 0
    over: tuple[int, int, int] = (0, 0, 0)
    collections: int = 0  # the garbage collector's full collections (generation 2) meanwhile
    collection_worst: float = 0.0  # the longest of them (s): the loop waits for each

    def add(self, other: Lag) -> Lag:
        return Lag(max(self.worst, other.worst), self.wakeups + other.wakeups,
                   tuple(a + b for a, b in zip(self.over, other.over, strict=True)),  # type: ignore[arg-type]
                   self.collections + other.collections, max(self.collection_worst, other.collection_worst))

    def line(self) -> str:
        return (f"loop lag worst {self.worst * 1000:.1f} ms, wake-ups {self.wakeups}, over 10/30/100 ms "
                f"{self.over[0]} {self.over[1]} {self.over[2]}, full collections {self.collections} "
                f"worst {self.collection_worst * 1000:.1f} ms")

    def summary(self) -> str:
        if not self.wakeups:
            return "unknown"
        shares = ", ".join(f"{100 * n / self.wakeups:.1f}% over {int(step * 1000)} ms"
                           for n, step in zip(self.over, STEPS, strict=True))
        collections = (f"; {self.collections} full garbage collections, the longest {self.collection_worst * 1000:.0f}"
                       " ms" if self.collections else "")
        return f"worst {self.worst * 1000:.1f} ms ({shares}{collections})"


def parse(text: str) -> Lag | None:
    found = LINE.search(text)
    if found is None:
        return None
    return Lag(float(found.group(1)) / 1000, int(found.group(2)),
               (int(found.group(3)), int(found.group(4)), int(found.group(5))),
               int(found.group(6) or 0), float(found.group(7) or 0) / 1000)


class LoopLag:
    """Samples the running loop's lag until ``stop``."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self.window = Lag()
        self.task = asyncio.get_running_loop().create_task(self._sample())
        self.collecting = 0.0
        gc.callbacks.append(self._collection)

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        """The garbage collector's full collections, timed: each holds the loop (and every room) whole."""
        if info.get("generation") != 2:
            return
        if phase == "start":
            self.collecting = time.perf_counter()
        else:
            self.window.collections += 1
            self.window.collection_worst = max(self.window.collection_worst, time.perf_counter() - self.collecting)

    async def _sample(self) -> None:
        while True:
            due = time.perf_counter() + self.interval
            await asyncio.sleep(self.interval)
            late = max(0.0, time.perf_counter() - due)
            window = self.window
            window.worst = max(window.worst, late)
            window.wakeups += 1
            if late > STEPS[0]:
                window.over = tuple(n + (late > step) for n, step in zip(window.over, STEPS, strict=True))  # type: ignore[assignment]

    def take(self) -> Lag:
        """The window since the last ``take``; a new one starts."""
        window, self.window = self.window, Lag()
        return window

    def stop(self) -> None:
        self.task.cancel()
        if self._collection in gc.callbacks:
            gc.callbacks.remove(self._collection)


async def report_each(seconds: float, write: object) -> None:
    """Sample the loop and ``write(line)`` each ``seconds`` (the bench's server, on its standard error)."""
    lag = LoopLag()
    try:
        while True:
            await asyncio.sleep(seconds)
            write(lag.take().line())  # type: ignore[operator]
    finally:
        lag.stop()
