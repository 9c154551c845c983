"""How ``scopa serve`` hears SIGTERM and Ctrl-C, on every system.

``loop.add_signal_handler`` exists only on Unix event loops: on Windows it raises
``NotImplementedError``. There each signal gets a plain ``signal.signal`` handler instead, which
hands the stop to the loop with ``call_soon_threadsafe`` (a Python signal handler runs between
two bytecodes of the main thread, possibly in the middle of the loop's own code, so it must not
touch the loop's state itself; ``call_soon_threadsafe`` also wakes a loop waiting for I/O).
"""
from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from types import FrameType

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGBREAK") if hasattr(signal, name))


def on_stop_signals(loop: asyncio.AbstractEventLoop, stop: Callable[[], None]) -> Callable[[], None]:
    """Call ``stop`` in ``loop`` when the process gets SIGTERM, SIGINT (Ctrl-C) or, on Windows,
    SIGBREAK (Ctrl-Break). Gives the function that puts the previous handlers back."""
    undo: list[Callable[[], None]] = []
    for number in STOP_SIGNALS:
        try:
            loop.add_signal_handler(number, stop)
        except NotImplementedError:  # Windows
            undo.append(_plain_handler(loop, number, stop))
        else:
            undo.append(_loop_handler_remover(loop, number))

    def restore() -> None:
        for step in reversed(undo):
            step()
    return restore


def _loop_handler_remover(loop: asyncio.AbstractEventLoop, number: int) -> Callable[[], None]:
    def remove() -> None:
        loop.remove_signal_handler(number)
    return remove


def _plain_handler(loop: asyncio.AbstractEventLoop, number: int, stop: Callable[[], None]) -> Callable[[], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(stop)

    previous = signal.signal(number, handler)

    def restore() -> None:  # None: a handler not set from Python, which cannot be set again
        signal.signal(number, signal.SIG_DFL if previous is None else previous)
    return restore
