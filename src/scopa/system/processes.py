"""A child process in a group of its own, ended with everything it started.

Started in a new session (Linux, macOS) or a new process group without a window (Windows), a
child and anything it spawns can be ended at once: ``killpg`` with SIGKILL on Linux and macOS,
``kill`` (TerminateProcess) on Windows.
"""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from typing import IO, Any


def popen_quietly(cmd: list[str], log: IO[bytes] | None, **kwargs: Any) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in its own process group, its stdout and stderr going to ``log``.

    Nothing a child prints may reach the terminal: a screen reader would read it aloud.
    """
    target = log if log is not None else subprocess.DEVNULL
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    kwargs.setdefault("stdout", target)
    kwargs.setdefault("stderr", target)
    if sys.platform == "win32":
        flags = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
        return subprocess.Popen(cmd, creationflags=flags, **kwargs)
    else:  # noqa: RET505  (else: mypy --platform win32 then skips this branch, not calls it unreachable)
        return subprocess.Popen(cmd, start_new_session=True, **kwargs)


def kill_group(proc: subprocess.Popen[bytes], reap_timeout: float = 1.0) -> None:
    """Kill ``proc`` and its process group at once, then reap it. Never raises."""
    if proc.returncode is None:
        with contextlib.suppress(OSError):  # gone already, or not ours to kill
            if sys.platform == "win32":
                proc.kill()
            else:
                os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=reap_timeout)
