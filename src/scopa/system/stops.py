"""What stops a server, on each system.

Linux and macOS: SIGTERM (a service manager's stop), SIGINT (Ctrl-C) and SIGHUP (the terminal
closed, or ``kill -HUP`` meaning "restart": systemd's ``ExecReload`` sends it).

Windows has no SIGTERM from outside and no SIGHUP. A console program hears Ctrl-C (SIGINT) and
Ctrl-Break (SIGBREAK), which is also what service wrappers (NSSM, WinSW) send to stop it; and the
console's own events, which Python does not turn into signals: the console window closed, and
the system shutting down under a service (``CTRL_CLOSE_EVENT``, ``CTRL_SHUTDOWN_EVENT``). Windows
ends the program once its handler returns, so ``on_console_end`` waits there for the clean stop.
A logoff is ignored, as Windows asks of services: another user's logoff reaches them too.
"""
from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from typing import Any

POSIX_STOPS = ("SIGTERM", "SIGINT", "SIGHUP")
WINDOWS_STOPS = ("SIGTERM", "SIGINT", "SIGBREAK")

# wincon.h: the console's control events
CTRL_C_EVENT, CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT = 0, 1, 2, 5, 6
ENDING_EVENTS = (CTRL_CLOSE_EVENT, CTRL_SHUTDOWN_EVENT)
# Windows gives a closed console's handler 5 seconds (a shutdown's, 20 under a service) before
# it ends the process anyway: the clean stop must fit in them.
CONSOLE_END_WAIT = 4.5

_HANDLER_TYPE = getattr(ctypes, "WINFUNCTYPE", ctypes.CFUNCTYPE)(ctypes.c_int, ctypes.c_uint)
_kept: list[Any] = []  # the handlers Windows holds: a collected one would crash the process


def on_console_end(kernel32: Any, stop: Callable[[], None], stopped: threading.Event,
                   wait: float = CONSOLE_END_WAIT) -> Callable[[], None]:
    """Windows: call ``stop`` (from Windows' own thread) when the console closes or the system
    shuts down, and hold that thread until ``stopped`` is set, so the clients are told first.
    Ctrl-C and Ctrl-Break are passed on to Python, which makes them signals. Gives the function
    that takes the handler away."""
    def handle(event: int) -> int:
        if event not in ENDING_EVENTS:
            return 0  # not handled here: the next handler (Python's: SIGINT, SIGBREAK) takes it
        stop()
        stopped.wait(wait)
        return 1

    handler = _HANDLER_TYPE(handle)
    if not kernel32.SetConsoleCtrlHandler(handler, 1):
        return lambda: None
    _kept.append(handler)

    def remove() -> None:
        kernel32.SetConsoleCtrlHandler(handler, 0)
        if handler in _kept:
            _kept.remove(handler)
    return remove
