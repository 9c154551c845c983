"""The player key: this player's name and rating on room servers, with no account.

Made once, on the first online action (``load_or_make``): 32 random bytes as 64 hex digits,
kept in ``player_key.json`` in the data folder, readable by this user only (mode 0600, as the
seat keys). Whoever holds the key is this player on every server: ``scopa account export FILE``
writes a copy to carry to another machine, ``scopa account import FILE`` takes one in (the
program says first that anyone with the file can play as them). A broken key file is never
fatal: ``load`` gives None and says nothing was kept.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

from .atomic import atomic_write_text

FILE = "player_key.json"
KEY_HEX = 64


def is_key(value: object) -> bool:
    return isinstance(value, str) and len(value) == KEY_HEX and all(c in "0123456789abcdef" for c in value)


def _write(path: Path, key: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"player_key": key}))  # mkstemp makes the file 0600
    os.chmod(path, 0o600)


def read_key(path: Path) -> str | None:
    """The key in a key file (this folder's or an exported one), None when there is none or it is broken."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    key = data.get("player_key") if isinstance(data, dict) else None
    return key if is_key(key) else None


class PlayerKeyStore:
    """The player key in the data folder; every method reports problems by return value."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / FILE

    def load(self) -> str | None:
        return read_key(self.path)

    def load_or_make(self) -> str | None:
        """The key, made and kept now when there is none; None when it cannot be kept (a
        read-only data folder): the player plays without a name of their own then."""
        key = self.load()
        if key is not None:
            return key
        key = secrets.token_hex(KEY_HEX // 2)
        try:
            _write(self.path, key)
        except OSError:
            return None
        return key

    def export(self, target: Path) -> OSError | str | None:
        """Write the key to ``target`` (mode 0600): None, "none" when there is no key yet, or the error."""
        key = self.load()
        if key is None:
            return "none"
        try:
            _write(target, key)
        except OSError as error:
            return error
        return None

    def replaces(self, source: Path) -> bool:
        """Whether importing ``source`` would replace another key this folder holds (a name and
        rating that would be lost unless kept)."""
        mine, theirs = self.load(), read_key(source)
        return mine is not None and theirs is not None and mine != theirs

    def import_(self, source: Path) -> OSError | str | Path | None:
        """Take the key in ``source`` as this player's: None, "broken" when it holds none, or the
        error; or, when it replaced another key, the backup file that key was kept in first
        (``player_key.replaced-DATE.json``, mode 0600), so a name and rating are never lost."""
        key = read_key(source)
        if key is None:
            return "broken"
        old = self.load()
        backup = None
        try:
            if old is not None and old != key:
                backup = self.backup_path()
                _write(backup, old)
            _write(self.path, key)
        except OSError as error:
            return error
        return backup

    def backup_path(self) -> Path:
        """A file name for the key replaced now, beside the key, never one already there."""
        import time
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.path.with_name(f"player_key.replaced-{stamp}.json")
        n = 2
        while path.exists():
            path = self.path.with_name(f"player_key.replaced-{stamp}-{n}.json")
            n += 1
        return path


RATING_FILE = "rating.json"


def remember_rating(data_dir: Path, server: str, rank: int, of: int, rating: float) -> None:
    """Keep the place last heard from a server, for ``scopa --stats``; a failure to keep it is silent."""
    with contextlib.suppress(OSError):
        atomic_write_text(Path(data_dir) / RATING_FILE,
                          json.dumps({"server": server, "rank": rank, "of": of, "rating": rating}))


def last_rating(data_dir: Path) -> tuple[str, int, int, float] | None:
    """The server, rank, number of players and rating last heard; None when none was kept."""
    try:
        data = json.loads((Path(data_dir) / RATING_FILE).read_text("utf-8"))
        return str(data["server"]), int(data["rank"]), int(data["of"]), float(data["rating"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
