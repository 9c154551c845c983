"""Saved matches: one file per match in the ``saves`` folder of the data folder, each kept until
the player deletes it or the match ends.

Quick tour::

    store = SavedMatches(data_dir)          # data_dir None: the platform's user data folder
    listing = store.list()                  # Listing(saves, set_aside): most recently played first
    lock = store.create(record)             # a new saved match, locked by this copy of the game
    store.save(lock.match_id, record)       # after every turn; atomic
    lock = store.lock(match_id)             # SaveLockedError: another copy has it open
    store.delete(match_id)                  # SaveLockedError while another copy has it open
    lock.release()

A match open in one copy of the game is locked with an operating-system lock (``filelock``)
on ``<id>.json.lock``; the system lets go of it when the process ends in any way, a kill
included, so a stale lock never blocks a save. The lock file stays while its save does, also
after release: filelock keeps it on purpose, since removing a lock file while another copy has
it open (waiting for it) lets that copy lock the removed file while a third locks a new one, two
holders at once. It is removed, only while this copy holds it, when its save is deleted, and
``list`` removes those of saves that are gone (deleted by hand, set aside, or left by a copy
stopped between removing a save and its lock); the worst such a race can do then is let two
copies hold the lock of a match that no longer exists. A file that cannot be read as a match (broken,
from a newer scopa, a pipe or a folder) is never deleted: ``list`` sets it aside as
``<id>.json.bad`` and says so in ``Listing.set_aside``. The single ``autosave.json`` of
earlier versions becomes one saved match the first time the folder is listed.
"""
from __future__ import annotations

import builtins
import contextlib
import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import filelock

from ..match import MatchRecord
from .atomic import atomic_write_text, remove_stale_temps, sync_folder
from .codec import SaveFileError, match_from_json, match_to_json
from .files import AUTOSAVE_NAME, free_bad_name, read_text_file, resolve_data_dir
from .transcripts import prune_finished, remove_transcript

SAVES_FOLDER = "saves"
SAVE_SUFFIX = ".json"
LOCK_SUFFIX = ".lock"


class SaveLockedError(Exception):
    """The saved match is open in another copy of the game."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"The saved match {match_id} is open in another copy of scopa.")
        self.match_id = match_id


@dataclass(frozen=True)
class SavedMatch:
    """One saved match as listed: its id (the file name without ``.json``), where it is, when
    it was last saved (seconds since the epoch) and whether another copy of the game has it open."""

    match_id: str
    path: Path
    record: MatchRecord
    played: float
    locked: bool


@dataclass(frozen=True)
class SetAside:
    """A save that could not be read: why, and where it is kept now (``None``: it could not be
    moved, and stays where it was)."""

    path: Path
    kept: Path | None
    error: SaveFileError


class Listing(NamedTuple):
    saves: list[SavedMatch]  # most recently played first
    set_aside: list[SetAside]


class MatchLock:
    """This copy's hold on one saved match; ``release`` lets another copy open it."""

    def __init__(self, match_id: str, lock: filelock.BaseFileLock | None) -> None:
        self.match_id = match_id
        self._lock = lock

    @property
    def held(self) -> bool:
        """Whether this copy holds the operating-system lock (not so where none could be made)."""
        return self._lock is not None

    def release(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock.release()
            self._lock = None


class SavedMatches:
    """Every saved match in one data folder."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        self.data_dir = resolve_data_dir(data_dir)
        self.folder = self.data_dir / SAVES_FOLDER
        self._checked: dict[Path, tuple[str, MatchRecord]] = {}  # each file's text (a digest) when last checked

    def path_of(self, match_id: str) -> Path:
        return self.folder / f"{match_id}{SAVE_SUFFIX}"

    # Reading ---------------------------------------------------------------------------
    def list(self) -> Listing:
        """Every readable saved match, most recently played first; unreadable ones set aside."""
        self.migrate()
        saves: builtins.list[SavedMatch] = []  # ``list`` here is this class's method
        set_aside: builtins.list[SetAside] = []
        for path in self._files():
            remove_stale_temps(path)
            try:
                record = self._read(path)
                played = os.stat(path).st_mtime
            except SaveFileError as error:
                set_aside.append(self._set_aside(path, error.with_heading("storage.heading.save_unreadable")))
                continue
            except OSError:
                continue  # gone meanwhile: another copy deleted it
            match_id = path.name[:-len(SAVE_SUFFIX)]
            saves.append(SavedMatch(match_id, path, record, played, self.is_locked(match_id)))
        saves.sort(key=lambda saved: saved.played, reverse=True)
        self._remove_stale_locks()
        prune_finished(self.folder, {saved.match_id for saved in saves} | {s.path.name for s in set_aside})
        return Listing(saves, set_aside)

    def _remove_stale_locks(self) -> None:
        """Remove the lock file of every save that is gone, unless another copy holds it."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        ending = SAVE_SUFFIX + LOCK_SUFFIX
        for name in names:
            match_id = name[:-len(ending)]
            if not name.endswith(ending) or name.startswith(".") or os.path.lexists(self.path_of(match_id)):
                continue
            try:
                own = self.lock(match_id, wait=0)
            except SaveLockedError:
                continue  # another copy holds it: a match it is creating, or one whose save failed
            try:
                if not os.path.lexists(self.path_of(match_id)):  # held now, so no copy can be saving it
                    self._remove_lock_file(match_id, own)
            finally:
                own.release()

    def load(self, match_id: str) -> MatchRecord:
        """The saved match as it is on disk now (``SaveFileError`` if it cannot be read): read it
        again once it is locked, since another copy may have played on since it was listed."""
        return self._read(self.path_of(match_id))

    def _read(self, path: Path) -> MatchRecord:
        """Read and check a save. Checking replays its whole move log, so a file whose text is
        the same as when this store last checked it (a match listed, then opened) is not checked
        again: the same text is the same match."""
        text = read_text_file(path)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        known = self._checked.get(path)
        if known is not None and known[0] == digest:
            return known[1]
        record = match_from_json(text)
        self._checked[path] = (digest, record)
        return record

    def _files(self) -> builtins.list[Path]:
        try:
            names = sorted(os.listdir(self.folder))
        except OSError:
            return []
        return [self.folder / name for name in names if name.endswith(SAVE_SUFFIX) and not name.startswith(".")]

    def migrate(self) -> Path | None:
        """Move the ``autosave.json`` of earlier versions into the saves folder, as one saved match."""
        old = self.data_dir / AUTOSAVE_NAME
        if not os.path.lexists(old):
            return None
        target = self.path_of(new_match_id())
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            os.replace(old, target)
        except OSError:
            return None  # another copy moved it first, or the folder cannot be written: it stays
        sync_folder(self.folder)
        sync_folder(self.data_dir)
        return target

    def _set_aside(self, path: Path, error: SaveFileError) -> SetAside:
        target = free_bad_name(path)
        kept: Path | None = target
        try:
            os.replace(path, target)
        except OSError:
            kept = None
        sync_folder(self.folder)
        return SetAside(path, kept, error)

    # Locks -----------------------------------------------------------------------------
    def _file_lock(self, match_id: str) -> filelock.BaseFileLock:
        return filelock.FileLock(str(self.path_of(match_id)) + LOCK_SUFFIX, timeout=0)

    def lock(self, match_id: str, wait: float = 0.2) -> MatchLock:
        """Hold the saved match for this copy of the game; ``SaveLockedError`` if another has it.

        Where no lock can be made (a folder that cannot be written) the match is still played,
        unlocked: saving it will say why it cannot be saved anyway."""
        lock = self._file_lock(match_id)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            lock.acquire(timeout=wait)  # a moment, for another copy that only looks (is_locked)
        except filelock.Timeout:
            raise SaveLockedError(match_id) from None
        except OSError:
            return MatchLock(match_id, None)
        return MatchLock(match_id, lock)

    def is_locked(self, match_id: str) -> bool:
        """Whether another copy of the game (or another hold in this one) has the match open."""
        try:
            self.lock(match_id, wait=0).release()
        except SaveLockedError:
            return True
        return False

    # Writing ---------------------------------------------------------------------------
    def create(self, record: MatchRecord) -> MatchLock:
        """A new saved match beside the others, locked for this copy; nothing is replaced.

        The lock is returned even when the first save fails (``OSError`` is raised only by
        ``save``, so the caller can say why and play on)."""
        while True:
            match_id = new_match_id()
            if not os.path.lexists(self.path_of(match_id)):
                break
        return self.lock(match_id)

    def save(self, match_id: str, record: MatchRecord) -> Path:
        """Write the match atomically (through a symbolic link to the file it names). ``OSError``
        on a disk error; the last save is then intact."""
        text = match_to_json(record)
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path_of(match_id)
        atomic_write_text(path, text)
        return path

    def delete(self, match_id: str, lock: MatchLock | None = None, keep_transcript: bool = False) -> bool:
        """Remove a saved match and its transcript; ``SaveLockedError`` while another copy has it
        open. With ``lock`` (this copy's own hold on it) the match is removed and the hold let go.
        ``keep_transcript``: a finished match, whose transcript stays to be read."""
        own = lock if lock is not None else self.lock(match_id)
        try:
            self.path_of(match_id).unlink()
            removed = True
        except FileNotFoundError:
            removed = False
        finally:
            if not keep_transcript:
                with contextlib.suppress(OSError):
                    remove_transcript(self.folder, match_id)
            self._remove_lock_file(match_id, own)
            own.release()
        sync_folder(self.folder)
        return removed

    def _remove_lock_file(self, match_id: str, own: MatchLock) -> None:
        """Remove a lock file this copy holds, just before letting go of it (never one it does not hold)."""
        if own.held:
            with contextlib.suppress(OSError):
                Path(str(self.path_of(match_id)) + LOCK_SUFFIX).unlink()


def new_match_id() -> str:
    """A fresh name for a saved match: ``match-`` and ten random hexadecimal digits."""
    return f"match-{secrets.token_hex(5)}"


class LoadResult(NamedTuple):
    """What ``AutosaveStore.load`` found: the most recent match, or why the last one set aside failed."""

    record: MatchRecord | None
    problem: str | None  # in English
    exists: bool


class AutosaveStore:
    """The most recently played saved match, read only: what ``scopa --export FILE`` writes out."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        self.matches = SavedMatches(data_dir)
        self.error: SaveFileError | None = None

    def load(self) -> LoadResult:
        listing = self.matches.list()
        self.error = listing.set_aside[-1].error if listing.set_aside else None
        problem = None if self.error is None else str(self.error)
        if listing.saves:
            return LoadResult(listing.saves[0].record, problem, True)
        return LoadResult(None, problem, self.error is not None)
