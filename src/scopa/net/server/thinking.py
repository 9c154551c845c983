"""Where a room's computers think: worker processes, off the server's event loop.

An expert thinks for its whole budget (0.3 s by default, in pure Python); in the event loop that
held every other room's messages for as long. So each computer move is worked out in a process
pool sized to the machine's cores: the loop sends the seat's view and gets the move back, and
meanwhile reads and answers every other room. The workers run at a lower priority than the
server (``WORKER_NICE``), so that on a busy machine the loop is given a core first.

A move depends only on its ``ComputerTurn``: the level, the seat's view, and a seed of its own
for that one move (``rooms.move_seed``), so it is the same whether it is worked out in the pool
or in the loop (``workers=0``, or the fallback below). A move that is not back within the cap
(``cap`` seconds: the pool is busy, or a worker died) is chosen in the loop instead by the easy
level, from the same seed, so a room never waits for longer than that.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from ...engine import Move, PlayerView
from ...players import make_player

log = logging.getLogger("scopa.serve")
T = TypeVar("T")

WORKER_NICE = 10  # how much lower the workers' priority is than the server's
PARENT_CHECK = 0.5  # seconds between a worker's checks that the server still runs
FALLBACK_LEVEL = "easy"  # a move past the cap is chosen by this level, in the loop (well under a millisecond)


@dataclass(frozen=True)
class ComputerTurn:
    """Everything a computer's move depends on. ``key`` says which position it is for, so a move
    worked out while the table changed (a player came back, a deal was dealt) is not played."""

    key: tuple[int, int, int, int]  # seat, deal number, moves played in the match, hands shown this deal
    level: str
    seed: int
    budget: float
    view: PlayerView
    iterations: int | None = None  # a fixed number of samples for the expert (tests), instead of its time

    @property
    def claim(self) -> bool:
        """Cirulla: the seat's hand is worth a bonus before its first card. Every level claims it,
        a step of its own with nothing to think: the table makes it, the pool is not asked."""
        return self.view.claimable() is not None


def think(turn: ComputerTurn) -> Move:
    """The move of ``turn``: a fresh player of its level, seeded for this move alone (for a turn
    that claims, the move that follows the claim: the claim changes no hand and no table)."""
    player = make_player(turn.level, turn.seed, budget=turn.budget, iterations=turn.iterations)
    return player.choose_move(turn.view)


def fallback(turn: ComputerTurn) -> Move:
    """The move played when the pool's is late: the easy level's, from the same seed."""
    return make_player(FALLBACK_LEVEL, turn.seed).choose_move(turn.view)


def default_workers() -> int:
    """The cores this process may run on (Linux alone can say; elsewhere the machine's)."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError):
            return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _start_worker(server: int) -> None:
    """A worker thinks at a lower priority than the server, and ends when the server (process id
    ``server``) does, even killed (SIGKILL), even before this worker had started: a worker left
    waiting for moves that never come would hold its memory.

    Ctrl-C is the server's to handle: it reaches every process of the terminal's group, and a
    worker that took it died with a ``SpawnProcess`` traceback on the server's terminal (issue
    38). A worker ignores it; the server stops, and its workers with it."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform != "win32":  # Windows: the server's priority
        with contextlib.suppress(OSError):  # not allowed: the server's priority
            os.nice(WORKER_NICE)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="scopa-parent-watch").start()


class Thinkers:
    """The process pool of a server's computers (none: ``workers`` 0, every move in the loop).

    The pool starts its workers when the first move is asked ("spawn": a fresh interpreter each,
    nothing of the server's sockets or threads inherited)."""

    def __init__(self, workers: int, cap: float) -> None:
        self.workers, self.cap = workers, cap
        self.pool: Executor | None = None
        self.late = 0  # moves chosen by the fallback: late, or their worker died

    def _pool(self) -> Executor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_start_worker, initargs=(os.getpid(),))
        return self.pool

    async def move(self, turn: ComputerTurn) -> Move:
        """The move of ``turn``, worked out in the pool, or by the fallback past the cap."""
        if self.workers <= 0:
            return think(turn)
        try:
            future = self._pool().submit(think, turn)
            return await asyncio.wait_for(asyncio.wrap_future(future), self.cap)
        except TimeoutError:
            self.late += 1
            log.warning("a computer move took over %g s in the pool: the easy level's move is played", self.cap)
        except BrokenProcessPool:
            self.late += 1
            log.error("a computer worker process died: the pool is started again")
            self.close()
        return fallback(turn)

    async def work(self, job: Callable[..., T], *args: Any) -> T:
        """A longer piece of computer play (the daily deal's par: a few seconds) in the pool, so
        that it holds neither the loop nor, through the GIL, the loop's thread; in a thread when
        there is no pool (``workers`` 0). No cap: its caller waits for it whole."""
        if self.workers <= 0:
            return await asyncio.to_thread(job, *args)
        return await asyncio.get_running_loop().run_in_executor(self._pool(), job, *args)

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
