"""Seat keys of online rooms, kept in the data folder so a player can take their seat back.

A seat key is the secret the room server gave this player's client for one seat of one room.
Whoever holds it plays that seat, so each key is its own file, readable by this user only
(mode 0600, in a folder of mode 0700): ``online/<server>-<CODE>.json`` under the data folder,
where ``<server>`` is a short hash of the server's address (an address can hold characters no
file name may). ``scopa join CODE`` finds the key of that server and room; the menu's "Resume
online match" takes the newest one.

A broken or unreadable key file is skipped, never fatal: the player can still join afresh.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from .atomic import atomic_write_text

FOLDER = "online"


@dataclass(frozen=True)
class SeatKey:
    """One seat of one room: where, which seat, the secret, and the name the player gave."""

    server: str
    code: str
    key: str
    seat: int
    name: str = ""
    saved_at: float = 0.0
    last_number: int = 0  # the room's update number after this player's last own move: a rejoin replays from it
    share: str = ""  # this seat's share of the seed, 64 hex digits (docs/fairness.md): a client started
    # again gives the same one and checks at the end that it was used ("": a key kept before shares were)


def _server_part(server: str) -> str:
    return hashlib.sha256(server.encode("utf-8")).hexdigest()[:16]


class SeatKeyStore:
    """The seat keys in ``data_dir/online``; every method reports problems by return value."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = Path(data_dir) / FOLDER

    def path_for(self, server: str, code: str) -> Path:
        return self.folder / f"{_server_part(server)}-{code}.json"

    def save(self, seat_key: SeatKey) -> OSError | None:
        """Write the key (mode 0600, atomically); the error when it could not be kept."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):
                os.chmod(self.folder, 0o700)
            stamped = seat_key if seat_key.saved_at else SeatKey(**{**asdict(seat_key), "saved_at": time.time()})
            path = self.path_for(seat_key.server, seat_key.code)
            atomic_write_text(path, json.dumps(asdict(stamped)))  # mkstemp makes the file 0600
            os.chmod(path, 0o600)
            return None
        except OSError as error:
            return error

    def load(self, server: str, code: str) -> SeatKey | None:
        return _read(self.path_for(server, code))

    def newest(self) -> SeatKey | None:
        """The key saved last, of any server and room (for "Resume online match")."""
        keys = self.all()
        return max(keys, key=lambda k: k.saved_at) if keys else None

    def all(self) -> list[SeatKey]:
        try:
            paths = sorted(self.folder.glob("*.json"))
        except OSError:
            return []
        return [key for key in map(_read, paths) if key is not None]

    def forget(self, server: str, code: str) -> None:
        """The room is over or gone: its key is no use any more."""
        with contextlib.suppress(OSError):
            self.path_for(server, code).unlink()


def _share(value: object) -> str:
    """A kept share as 64 lowercase hex digits, or "" (none kept, or not one)."""
    if not isinstance(value, str) or len(value) != 64:
        return ""
    try:
        return bytes.fromhex(value).hex()
    except ValueError:
        return ""


def share_bytes(seat_key: SeatKey | None) -> bytes | None:
    """The share kept with ``seat_key``, as bytes (None: none kept)."""
    return bytes.fromhex(seat_key.share) if seat_key is not None and seat_key.share else None


def _read(path: Path) -> SeatKey | None:
    try:
        data = json.loads(path.read_text("utf-8"))
        key = SeatKey(server=str(data["server"]), code=str(data["code"]), key=str(data["key"]),
                      seat=int(data["seat"]), name=str(data.get("name", "")),
                      saved_at=float(data.get("saved_at", 0.0)), last_number=max(0, int(data.get("last_number", 0))),
                      share=_share(data.get("share", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return key
