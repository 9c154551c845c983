"""Crash-safe file writes: a crash leaves either the old file or the new one, never half of one.

The text goes to a temporary file in the same folder, is flushed and synced to disk, then
``os.replace`` swaps it in over the old file in one step; the folder itself is synced too
where the platform allows it, so the swap survives a power cut.

A symbolic link is written through: the file it names is replaced (the temporary file sits
beside that file), and the link stays a link. Anything that is not a plain file (a folder, a
pipe, a device) is refused with ``NotAPlainFileError`` before anything is written.
"""
from __future__ import annotations

import contextlib
import errno
import glob
import os
import stat
import tempfile
import time
from pathlib import Path

TEMP_SUFFIX = ".tmp"


def temp_prefix(path: Path) -> str:
    """The name every temporary file for ``path`` starts with (hidden, beside the target)."""
    return f".{path.name}."


class NotAPlainFileError(OSError):
    """The path names a pipe, a device or a socket: nothing is read from it or written over it."""

    problem = "problem.not_plain_file"  # the catalogue key narration.problem_key gives it

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(None, "Not a plain file", os.fspath(path))


def write_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` must replace: the file a symbolic link names, or ``path``.

    A folder raises ``IsADirectoryError`` and a pipe, device or socket ``NotAPlainFileError``;
    a path with nothing there yet (or a link to nothing yet) is fine."""
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", os.fspath(path))
    if not stat.S_ISREG(mode):
        raise NotAPlainFileError(path)
    return target


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically. The folder must exist.

    A symbolic link is written through to the file it names. On any failure the temporary
    file is removed, the old file is untouched and the ``OSError`` is raised to the caller.
    """
    target = write_target(path)
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=temp_prefix(target), suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    sync_folder(target.parent)


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable; a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temps(path: Path, older_than: float = 60.0) -> None:
    """Remove temporary files for ``path`` left behind by a crash in the middle of a write.

    Only files named like this module's own temporary files and older than ``older_than``
    seconds are removed, so a write in progress elsewhere is left alone.
    """
    now = time.time()
    with contextlib.suppress(OSError):
        for temp in path.parent.glob(glob.escape(temp_prefix(path)) + "*" + TEMP_SUFFIX):
            with contextlib.suppress(OSError):
                if now - temp.stat().st_mtime > older_than:
                    temp.unlink()
