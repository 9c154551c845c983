"""How ``scopa serve`` hears that it must stop, on every system (the signals: ``scopa.system.stops``).

Linux and macOS: SIGTERM, SIGINT (Ctrl-C) and SIGHUP. Windows: Ctrl-C, Ctrl-Break (SIGBREAK), and
the console closed or the system shut down under a service, which are no signals there.

``loop.add_signal_handler`` exists only on Unix event loops: on Windows it raises
``NotImplementedError``. There each signal gets a plain ``signal.signal`` handler instead, which
hands the stop to the loop with ``call_soon_threadsafe`` (a Python signal handler runs between
two bytecodes of the main thread, possibly in the middle of the loop's own code, so it must not
touch the loop's state itself; ``call_soon_threadsafe`` also wakes a loop waiting for I/O).
"""
from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from types import FrameType

from ... import system
from ...system.stops import on_console_end


def stop_signals() -> tuple[int, ...]:
    """The signals that stop the server here (those of the system's list this Python has)."""
    names = system.current().stop_signals
    return tuple(getattr(signal, name) for name in names if hasattr(signal, name))


def on_stop_signals(loop: asyncio.AbstractEventLoop, stop: Callable[[], None]) -> Callable[[], None]:
    """Call ``stop`` in ``loop`` when the process is told to stop (``stop_signals``; on Windows
    also the console's end). Gives the function that puts the previous handlers back, to be called
    once the server has stopped: a console's end waits for it."""
    undo: list[Callable[[], None]] = []
    for number in stop_signals():
        try:
            loop.add_signal_handler(number, stop)
        except NotImplementedError:  # Windows
            undo.append(_plain_handler(loop, number, stop))
        else:
            undo.append(_loop_handler_remover(loop, number))
    stopped = threading.Event()
    here = system.current()
    if here.is_windows:
        def stop_soon() -> None:  # called on a thread of Windows' own
            loop.call_soon_threadsafe(stop)
        undo.append(on_console_end(here.load("kernel32"), stop_soon, stopped))

    def restore() -> None:
        stopped.set()
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
