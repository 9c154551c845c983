"""The process's first and last milliseconds: Ctrl-C never prints a traceback, from the first line to the last.

Python turns Ctrl-C into ``KeyboardInterrupt`` from its start, so one pressed while the game's
modules load would print a traceback from whichever module was loading. The first thing done
on import is to make a Ctrl-C in that time end the program with one line and code 130 (nothing has
been read or written yet, so nothing is lost). Once ``main`` runs it handles Ctrl-C itself (a
match offers to save first). When ``main`` has returned, Ctrl-C is ignored: the program is
already ending, and Python's own shutdown (the last flush, restoring the terminal) must not be cut.

What Python does before this module's first line (a few milliseconds of its own start-up) is
out of the game's reach. Only the command imports this module (``scopa.launch`` for the
installed ``scopa``, ``scopa.__main__`` run as ``python -m scopa``); it imports no other part of
scopa, so that it loads first.
"""
import os
import signal
import stat
from collections.abc import Callable

INTERRUPTED = 130
STANDARD_STREAMS = (0, 1, 2)


def _say_interrupted() -> None:
    try:  # noqa: SIM105 -- not contextlib.suppress: this module loads first, with as few imports as it can
        os.write(2, b"scopa: Interrupted.\n")
    except OSError:
        pass


def _interrupted_early(signum: int, frame: object) -> None:
    _say_interrupted()
    os._exit(INTERRUPTED)


signal.signal(signal.SIGINT, _interrupted_early)


def _tell_the_starter() -> None:
    """``python3 dev.py play`` starts the game with Ctrl-C ignored, so that Python's own start-up
    cannot turn one into a traceback, and waits on a pipe to hear that it is handled from now on
    (a Ctrl-C pressed meanwhile is passed on then). Started otherwise, there is no such pipe."""
    fd = os.environ.pop("SCOPA_STARTED_FD", "")
    if not fd.isdigit() or int(fd) in STANDARD_STREAMS:  # never a byte into the game's own output
        return
    try:
        if stat.S_ISFIFO(os.fstat(int(fd)).st_mode):
            os.write(int(fd), b".")
            os.close(int(fd))
    except OSError:
        pass


_tell_the_starter()


def run(load_main: Callable[[], Callable[[], int]]) -> int:
    """The command: the ``main`` that ``load_main`` imports, run with the command line's flags,
    between the two Ctrl-C rules (its modules load under the first)."""
    _plug_closed_streams()
    main = load_main()

    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = main()
    except KeyboardInterrupt:  # in the instant before main's own handling started
        _say_interrupted()
        code = INTERRUPTED
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code


def _plug_closed_streams() -> None:
    """Open the null device on a closed standard descriptor (``0<&-``), so that no file the game
    opens later lands on descriptor 0, 1 or 2 and is read as keys or written over by output.
    Python has already set ``sys.stdin`` (or ``stdout``) to None for it, which ``main`` reports."""
    for fd in STANDARD_STREAMS:
        try:
            os.fstat(fd)
        except OSError:
            try:
                opened = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if opened != fd:  # the lowest free descriptor is the closed one; anything else, undo
                os.dup2(opened, fd)
                os.close(opened)
