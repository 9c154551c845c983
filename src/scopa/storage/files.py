"""Match files on disk: the autosave, export and import.

The autosave is ``autosave.json`` in the data folder (``platformdirs.user_data_dir("scopa")``
unless a folder is given). An unreadable autosave is never deleted or overwritten behind the
player's back: ``load`` reports the problem and leaves the file as it is; only an explicit
``save(record, replace_bad=True)`` (a new match, an import) replaces it, and then the old file
is kept beside it as ``autosave.json.bad``.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import NamedTuple

from platformdirs import user_data_dir

from ..match import MatchRecord
from .atomic import atomic_write_text, remove_stale_temps, sync_folder
from ..narration.problems import problem_key
from .codec import SaveFileError, Term, match_from_json, match_to_json

AUTOSAVE_NAME = "autosave.json"
BAD_SUFFIX = ".bad"
MAX_FILE_BYTES = 20_000_000


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


def read_text_file(path: str | os.PathLike[str]) -> str:
    """The text of a file, or ``SaveFileError`` saying in one line why it cannot be read."""
    try:
        with open(user_path(path), "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise SaveFileError("storage.reason.no_file") from None
    except IsADirectoryError:
        raise SaveFileError("storage.reason.folder") from None
    except PermissionError:
        raise SaveFileError("storage.reason.not_allowed") from None
    except OSError as error:
        key = problem_key(error)  # the system's own words follow its locale, not the player's language
        if key is None:
            raise SaveFileError("storage.reason.unreadable", detail=str(error.strerror or error)) from None
        raise SaveFileError("storage.reason.unreadable_because", problem=Term(key),
                            detail=str(error.strerror or error)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise SaveFileError("storage.reason.too_large")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SaveFileError("storage.reason.not_utf8") from None


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
    if target.exists() and not overwrite:
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


class LoadResult(NamedTuple):
    """What ``AutosaveStore.load`` found: a match, or the reason the file cannot be read."""

    record: MatchRecord | None
    problem: str | None  # in English; ``AutosaveStore.error.localised(messages)`` in the player's language
    exists: bool


class AutosaveBlockedError(SaveFileError):
    """``save`` was asked to overwrite an unreadable autosave without ``replace_bad=True``."""


class AutosaveStore:
    """The autosave of the match in progress: ``load``, ``save`` after every turn, ``discard``."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        self.folder = resolve_data_dir(data_dir)
        self.path = self.folder / AUTOSAVE_NAME
        self._looked = False  # whether load() has looked at the file on disk
        self._error: SaveFileError | None = None  # why the file on disk cannot be read, if it cannot

    @property
    def problem(self) -> str | None:
        """Why the autosave on disk cannot be read (after ``load``), in English, or ``None``."""
        return None if self._error is None else str(self._error)

    @property
    def error(self) -> SaveFileError | None:
        """The same as an error, for ``error.localised(messages)`` in the player's language."""
        return self._error

    def load(self) -> LoadResult:
        """The saved match; an unreadable file is reported and left exactly as it is."""
        self._looked = True
        self._error = None
        remove_stale_temps(self.path)
        if not os.path.lexists(self.path):
            return LoadResult(None, None, False)
        try:
            record = read_match_file(self.path)
        except SaveFileError as error:
            self._error = error.with_heading("storage.heading.save_unreadable")
            return LoadResult(None, self.problem, True)
        return LoadResult(record, None, True)

    def save(self, record: MatchRecord, *, replace_bad: bool = False) -> Path | None:
        """Save the match atomically. Returns where an unreadable old autosave was kept, if one was.

        An unreadable autosave is replaced only with ``replace_bad=True`` (an explicit new match
        or import), which first moves it to ``autosave.json.bad``; otherwise this raises
        ``AutosaveBlockedError``. Disk errors raise ``OSError``; the old save is then intact.
        """
        if not self._looked:
            self.load()
        kept = None
        if self._error is not None:
            if not replace_bad:
                raise AutosaveBlockedError("storage.reason.autosave_blocked", "storage.heading.not_saved")
            kept = self._set_aside()
        text = match_to_json(record)
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.path, text)
        return kept

    def discard(self) -> bool:
        """Remove the autosave when its match is over. An unreadable autosave is kept."""
        if not self._looked:
            self.load()
        if self._error is not None:
            return False
        try:
            self.path.unlink()
        except FileNotFoundError:
            return False
        sync_folder(self.folder)
        return True

    def _set_aside(self) -> Path | None:
        """Move the unreadable autosave to a free ``.bad`` name beside it."""
        target = free_bad_name(self.path)
        try:
            os.replace(self.path, target)
        except FileNotFoundError:
            target = None  # someone removed it meanwhile: nothing to keep
        sync_folder(self.folder)
        self._error = None
        return target


def free_bad_name(path: Path) -> Path:
    """``autosave.json.bad``, or ``autosave.json.2.bad`` and so on when that is taken."""
    candidate = path.with_name(path.name + BAD_SUFFIX)
    number = 2
    while os.path.lexists(candidate):
        candidate = path.with_name(f"{path.name}.{number}{BAD_SUFFIX}")
        number += 1
    return candidate
