"""Match files on disk: reading one safely, export and import (the saved matches: ``saves``).

The data folder is ``platformdirs.user_data_dir("scopa")`` unless a folder is given. Reading
opens only plain files, without waiting on a pipe or a device, and refuses a file too large
to be a match from its size alone.
"""
from __future__ import annotations

import errno
import os
import stat
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import BinaryIO

from platformdirs import user_data_dir

from ..match import MatchRecord
from ..narration.problems import problem_key
from .atomic import atomic_write_text, write_target
from .codec import SaveFileError, Term, match_from_json, match_to_json

AUTOSAVE_NAME = "autosave.json"  # the one save of earlier versions: saves.SavedMatches moves it
BAD_SUFFIX = ".bad"
MAX_FILE_BYTES = 1_000_000  # a match of MAX_DEALS deals takes about half of it


def default_data_dir() -> Path:
    """The platform's folder for scopa's saves and results."""
    return Path(user_data_dir("scopa", appauthor=False))


def user_path(path: str | os.PathLike[str]) -> Path:
    """A path as the player typed it, with ``~`` for their home folder.

    ``~name`` for someone with no home folder here is left as typed (as a shell leaves it),
    and a name no file can have (a NUL character) raises ``OSError`` (``EINVAL``), so the
    callers' usual disk-error handling words it."""
    text = os.fspath(path)
    if "\x00" in text:
        raise OSError(errno.EINVAL, "A file name cannot hold a NUL character", text)
    try:
        return Path(text).expanduser()
    except RuntimeError:
        return Path(text)


def resolve_data_dir(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """``data_dir`` when given (``--data-dir DIR``), otherwise the platform's folder."""
    return default_data_dir() if data_dir is None else user_path(data_dir)


def read_text_file(path: str | os.PathLike[str], limit: int | None = None) -> str:
    """The text of a file, or ``SaveFileError`` saying in one line why it cannot be read.

    Only a plain file is read: the file is opened without waiting (``O_NONBLOCK``), so a pipe
    with no writer or a device cannot hang the game, and anything but a plain file is refused
    before a byte is read. A file larger than ``limit`` bytes (``MAX_FILE_BYTES``) is refused
    from its size alone."""
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        fd = os.open(user_path(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise _unreadable(error) from None
    try:
        raw = _read_plain(fd, limit)
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise SaveFileError("storage.reason.too_large")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SaveFileError("storage.reason.not_utf8") from None


def read_text_lines(path: str | os.PathLike[str], limit: int) -> Generator[str, None, None]:
    """The lines of a text file one at a time, each with its line break, so that reading a large
    file keeps only one line in memory; the same checks and ``SaveFileError`` as ``read_text_file``
    (a file over ``limit`` bytes refused from its size alone, before a line is given)."""
    try:
        fd = os.open(user_path(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise _unreadable(error) from None
    try:
        _check_plain(fd, limit)
        with os.fdopen(os.dup(fd), "rb") as stream:
            size = 0
            for number, raw in enumerate(_lines_of(stream), 1):
                size += len(raw)
                if size > limit:  # it grew while it was read
                    raise SaveFileError("storage.reason.too_large")
                try:
                    yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError:
                    raise SaveFileError("storage.reason.not_utf8") from None
    finally:
        os.close(fd)


def _lines_of(stream: BinaryIO) -> Iterator[bytes]:
    try:
        yield from stream
    except OSError as error:
        raise _unreadable(error) from None


def _check_plain(fd: int, limit: int) -> None:
    """A plain file of at most ``limit`` bytes, or ``SaveFileError`` saying what it is instead."""
    mode = os.fstat(fd)
    if stat.S_ISDIR(mode.st_mode):
        raise SaveFileError("storage.reason.folder")
    if not stat.S_ISREG(mode.st_mode):
        raise SaveFileError("storage.reason.not_plain")
    if mode.st_size > limit:
        raise SaveFileError("storage.reason.too_large")


def _read_plain(fd: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of an open file, once it is known to be a plain one."""
    _check_plain(fd, limit)
    chunks, size = [], 0
    try:
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise _unreadable(error) from None
    return b"".join(chunks)


def _unreadable(error: OSError) -> SaveFileError:
    """Why a file could not be opened or read, as a ``SaveFileError``."""
    if isinstance(error, FileNotFoundError):
        return SaveFileError("storage.reason.no_file")
    if isinstance(error, IsADirectoryError):
        return SaveFileError("storage.reason.folder")
    if isinstance(error, PermissionError):
        return SaveFileError("storage.reason.not_allowed")
    key = problem_key(error)  # the system's own words follow its locale, not the player's language
    if key is None:
        return SaveFileError("storage.reason.unreadable", detail=str(error.strerror or error))
    return SaveFileError("storage.reason.unreadable_because", problem=Term(key), detail=str(error.strerror or error))


def read_match_file(path: str | os.PathLike[str]) -> MatchRecord:
    """Read and completely check a match file (``SaveFileError`` otherwise)."""
    return match_from_json(read_text_file(path))


def export_match(record: MatchRecord, path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """Write the match to ``path`` as versioned JSON, atomically; returns the path written.

    Show ``EXPORT_WARNING`` first: the file shows every hand. An existing file is replaced
    only with ``overwrite=True`` (``FileExistsError`` otherwise); disk errors raise ``OSError``.
    """
    target = user_path(path)
    text = match_to_json(record)
    write_target(target)  # a folder, a pipe or a device is refused before anything else
    if os.path.exists(target) and not overwrite:
        raise FileExistsError(f"{target} already exists.")
    atomic_write_text(target, text)
    return target


def import_match(path: str | os.PathLike[str]) -> MatchRecord:
    """Read a match file and check everything; nothing is written.

    Raises ``SaveFileError`` with one line such as ``Import failed. Move 12 is not allowed. The
    settebello must take a single equal card. A match comes before a sum.``
    (``localised(messages, naming)`` gives it in the player's language and card names).
    """
    try:
        return read_match_file(path)
    except SaveFileError as error:
        raise error.with_heading("storage.heading.import_failed") from None


def free_bad_name(path: Path) -> Path:
    """``autosave.json.bad``, or ``autosave.json.2.bad`` and so on when that is taken."""
    candidate = path.with_name(path.name + BAD_SUFFIX)
    number = 2
    while os.path.lexists(candidate):
        candidate = path.with_name(f"{path.name}.{number}{BAD_SUFFIX}")
        number += 1
    return candidate
