"""``achievements.json``: the achievements already announced to this player, and when.

The results log holds finished matches only, so two matches left unfinished could each earn,
and announce, the same first achievement (a first scopa) before either was logged. An
achievement is earned once per player, that is once per data folder: ``announce_once`` says
which of the achievements a deal or a match just showed were never announced, and records
them, in one step under a lock (``achievements.json.lock``), so two copies of the game ending a
deal at the same moment cannot both announce one. The file is written atomically. One that
cannot be read is kept as ``achievements.json.bad`` when the next achievement is recorded (as
for the results log); the log still shows every achievement a finished match earned, so
nothing it held is announced again unless it came from a match that was never finished.
"""
from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import filelock

from .atomic import atomic_write_text
from .codec import SaveFileError
from .files import free_bad_name, read_text_file, resolve_data_dir

ANNOUNCED_NAME = "achievements.json"
ANNOUNCED_FORMAT = "scopa-achievements"
ANNOUNCED_VERSION = 1
_MAX_BYTES = 100_000  # a few hundred bytes in use
_WAIT = 2.0  # seconds to wait for another copy recording its own


def read_announced(data_dir: str | os.PathLike[str] | None) -> dict[str, str]:
    """Each achievement announced so far, with the date it was announced; empty when none is
    recorded or the file cannot be read."""
    announced = _read(resolve_data_dir(data_dir) / ANNOUNCED_NAME)
    return {} if announced is None else announced


def announce_once(data_dir: str | os.PathLike[str] | None, keys: Iterable[str], when: str) -> list[str]:
    """Of ``keys``, those never announced before, in their order; they are recorded as
    announced ``when``. If the file cannot be written they are all given (said, as before)."""
    keys = list(keys)
    if not keys:
        return []
    path = resolve_data_dir(data_dir) / ANNOUNCED_NAME
    try:
        with _held(path):
            announced = _read(path)
            new = [key for key in keys if key not in (announced or {})]
            if new:
                if announced is None and os.path.lexists(path):
                    os.replace(path, free_bad_name(path))  # keep what could not be read
                _write(path, (announced or {}) | dict.fromkeys(new, when))
            return new
    except OSError:
        return keys


@contextlib.contextmanager
def _held(path: Path) -> Iterator[None]:
    """The lock of the file, or no lock where none can be had (it only guards a rare race)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(str(path) + ".lock", timeout=_WAIT)
    held = True
    try:
        lock.acquire()
    except (filelock.Timeout, OSError):
        held = False
    try:
        yield
    finally:
        if held:
            lock.release()


def _read(path: Path) -> dict[str, str] | None:
    """The recorded achievements; {} when there is no file, None when it cannot be read."""
    if not os.path.lexists(path):
        return {}
    try:
        data = json.loads(read_text_file(path, _MAX_BYTES))
    except (SaveFileError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != ANNOUNCED_FORMAT \
            or data.get("version") != ANNOUNCED_VERSION or not isinstance(data.get("announced"), dict):
        return None
    announced = data["announced"]
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in announced.items()):
        return None
    result: dict[str, str] | None = announced
    return result


def _write(path: Path, announced: dict[str, str]) -> None:
    text = json.dumps({"format": ANNOUNCED_FORMAT, "version": ANNOUNCED_VERSION, "announced": announced},
                      ensure_ascii=False, indent=1)
    atomic_write_text(path, text + "\n")
