"""The room server's SQLite store: rooms, seats, key hashes and each match's record.

One file (``rooms.sqlite3`` in the user data folder unless ``--db`` names another), in WAL
mode. A room's row holds its rules, phase, host, computer level, the number of its last update,
its last activity, and the match record as the save file's JSON (``storage.codec``: the seed,
the move log and the position, checked and replayed exactly when read back). Seat rows hold
names, kinds, levels, readiness and the SHA-256 of each human seat's key, never a key, and the
deals a computer covered the seat in (``Room.covered_deals``: a seat covered still has every
deal since its cover, so a restart, after which no seat is covered, forgets none of them).

``save`` writes a room whole in one transaction; the server calls it after every completed
move and before telling anyone, so a server killed at any point comes back at the position
after the last completed move.

Group commit (``group_commit``, what the server uses; ``net.server.durable``): each transaction commits
to the write-ahead log without waiting for the disk (``synchronous=NORMAL``: a killed process
loses nothing, the operating system has the log), and ``sync`` flushes the log to the disk, in
the server's flushing thread, once for every batch of writes, before anything that followed
them is sent. The log's checkpoints (copying it into the database file, and flushing that) are
made in that thread too, never in the event loop. A store opened without it (tests, tools)
commits as SQLite does by default in WAL mode with ``synchronous=FULL``: each commit waits for the disk.
"""
from __future__ import annotations

import functools
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...engine import Rules
from ...engine.shuffle import SEED_BYTES
from ...storage import SaveFileError, record_from_dict, record_to_dict
from ...storage.codec import move_data
from .clock import clock_from_data
from .daily import SqliteDaily, record_result_sqlite
from .identity import SqlitePlayers
from .ratings import RATED_SCHEMA, rate_room
from .rooms import Room, Seat, match_table, seed_parts_from_data, seed_parts_to_data

DB_NAME = "rooms.sqlite3"
CHECKPOINT_EVERY = 1.0  # seconds between the flushing thread's checkpoints of the log (group commit)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    phase TEXT NOT NULL,
    host INTEGER NOT NULL,
    level TEXT NOT NULL,
    number INTEGER NOT NULL,
    position_number INTEGER NOT NULL,
    created REAL NOT NULL,
    active REAL NOT NULL,
    record TEXT,
    seed_parts TEXT,
    clock TEXT,
    listing TEXT NOT NULL DEFAULT '',
    watchers_chat INTEGER NOT NULL DEFAULT 0,
    join_between_deals INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    level TEXT,
    key_hash TEXT,
    ready INTEGER NOT NULL,
    player TEXT,
    covered_in TEXT,
    program INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS health (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL
);
"""


@functools.lru_cache(maxsize=256)
def rules_json(rules: Rules) -> str:
    """The rules as stored: the same few for every room, so each is written to JSON once."""
    return json.dumps(rules.to_dict())


@dataclass(frozen=True)
class LoadProblem:
    """A room row that could not be read back (it is left in the file, not deleted)."""

    code: str
    problem: str


class RoomStore:
    """Rooms in SQLite. Only the server's event loop uses it, one call at a time."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # It holds every hand and the seed: readable by the server's user only (SQLite gives its
        # -wal and -shm files the same permissions).
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        self.db = sqlite3.connect(path, isolation_level=None)  # transactions are explicit
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(rooms)")}
        if "seed_parts" not in columns:  # a file of a server before docs/fairness.md
            self.db.execute("ALTER TABLE rooms ADD COLUMN seed_parts TEXT")
        seat_columns = {row[1] for row in self.db.execute("PRAGMA table_info(seats)")}
        for column in ("player", "covered_in"):  # a file of a server before player keys
            if column not in seat_columns:
                self.db.execute(f"ALTER TABLE seats ADD COLUMN {column} TEXT")
        if "program" not in seat_columns:  # a file of a server before programs said they are
            self.db.execute("ALTER TABLE seats ADD COLUMN program INTEGER NOT NULL DEFAULT 0")
        self.players = SqlitePlayers(self.db)
        self.db.executescript(RATED_SCHEMA)
        if "clock" not in columns:  # a file of a server before the turn timer
            self.db.execute("ALTER TABLE rooms ADD COLUMN clock TEXT")
        if "listing" not in columns:  # a file of a server before quick matches and public rooms
            self.db.execute("ALTER TABLE rooms ADD COLUMN listing TEXT NOT NULL DEFAULT ''")
        if "watchers_chat" not in columns:  # a file of a server before the host let spectators chat
            self.db.execute("ALTER TABLE rooms ADD COLUMN watchers_chat INTEGER NOT NULL DEFAULT 0")
        if "join_between_deals" not in columns:  # a file of a server before people took computers' seats
            self.db.execute("ALTER TABLE rooms ADD COLUMN join_between_deals INTEGER NOT NULL DEFAULT 0")
        self.daily = SqliteDaily(self.db, lambda: secrets.token_bytes(SEED_BYTES))  # the daily deal (net.server.daily)
        self._seats: dict[str, tuple[tuple[Any, ...], ...]] = {}  # each room's seat rows as last committed
        self._moves: dict[str, tuple[int, object, str]] = {}  # each room's move log as JSON (``_record_json``)

    def group_commit(self) -> None:
        """Commit without waiting for the disk; ``sync`` (in one thread) flushes, and checkpoints."""
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA wal_autocheckpoint=0")  # no checkpoint in the loop: ``sync`` makes them
        self._wal: int | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpointed = time.monotonic()
        self._sync_lock = threading.Lock()
        self._total = self.db.total_changes
        self._changes = 0

    def changes(self) -> int:
        """Rows changed so far by this connection: what a ``sync`` after now covers (``net.server.durable``).
        Counted here from SQLite's count, a C int that wraps after 2**31 changes (weeks of a busy
        server): only its steps are added, modulo 2**32, so this count only grows."""
        total = self.db.total_changes
        self._changes += (total - self._total) % (1 << 32)
        self._total = total
        return self._changes

    def sync(self) -> None:
        """Flush the write-ahead log to the disk: every transaction committed before this call is
        then durable, as a commit with ``synchronous=FULL`` is. Every ``CHECKPOINT_EVERY`` seconds,
        a checkpoint too (on a connection of its own; SQLite's passive checkpoint never blocks the
        loop's writes). Called from one thread at a time (the server's flushing thread)."""
        with self._sync_lock:
            if self._wal is None:
                self._wal = os.open(f"{self.path}-wal", os.O_RDWR | getattr(os, "O_BINARY", 0))
            os.fsync(self._wal)
            if time.monotonic() - self._checkpointed >= CHECKPOINT_EVERY:
                self._checkpointed = time.monotonic()
                if self._checkpointer is None:
                    self._checkpointer = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                    self._checkpointer.execute("PRAGMA synchronous=NORMAL")  # the checkpoint flushes the database
                self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        checkpointer, wal = getattr(self, "_checkpointer", None), getattr(self, "_wal", None)
        if checkpointer is not None:
            checkpointer.close()
        if wal is not None:
            os.close(wal)
        self.db.close()

    def describe(self) -> str:
        return str(self.path)

    def save(self, room: Room) -> None:
        """The room whole: its row, its seats and its match record, in one transaction."""
        record, moves = self._record_json(room)
        with self._transaction():
            self.db.execute(
                "INSERT INTO rooms (code, rules, phase, host, level, number, position_number, created, active, "
                "record, seed_parts, clock, listing, watchers_chat, join_between_deals) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(code) DO UPDATE SET rules=excluded.rules, phase=excluded.phase, host=excluded.host, "
                "level=excluded.level, "
                "number=excluded.number, position_number=excluded.position_number, active=excluded.active, "
                "record=excluded.record, seed_parts=excluded.seed_parts, clock=excluded.clock, "
                "listing=excluded.listing, watchers_chat=excluded.watchers_chat, "
                "join_between_deals=excluded.join_between_deals",
                (room.code, rules_json(room.rules), room.phase, room.host, room.level, room.number,
                 room.position_number, room.created, room.active, record, json.dumps(seed_parts_to_data(room)),
                 None if room.clock is None else json.dumps(room.clock.to_data()), room.listing,
                 int(room.watchers_chat), int(room.join_between_deals)))
            seats = tuple((room.code, number, s.name, s.kind, s.level, s.key_hash, int(s.ready), s.player,
                           json.dumps(room.covered_deals(number)), int(s.program))
                          for number, s in enumerate(room.seats) if s is not None)
            if self._seats.get(room.code) != seats:  # a move changes no seat: its rows are not written again
                self.db.execute("DELETE FROM seats WHERE code = ?", (room.code,))
                self.db.executemany(
                    "INSERT INTO seats (code, seat, name, kind, level, key_hash, ready, player, covered_in, "
                    "program) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats)
            if room.phase == "over":
                rate_room(self.players, room)  # in this transaction: written with the match's end or not at all
                record_result_sqlite(self.db, room)  # a daily deal's result, likewise
        self._seats[room.code] = seats  # committed: these are the rows in the file
        if moves is not None:
            self._moves[room.code] = moves

    def _record_json(self, room: Room) -> tuple[str | None, tuple[int, object, str] | None]:
        """The room's match record as stored, and its move log's JSON for the next save: the log
        only grows, so the moves written before are not turned into JSON again (a long match's
        whole log, each move: about 2 microseconds a move, 0.4 ms a save near a match's end)."""
        record = room.record
        if record is None:
            return None, None
        moves = record.moves
        count, last, text = self._moves.get(room.code) or (0, None, "")
        if count > len(moves) or (count and moves[count - 1] is not last):
            count, text = 0, ""  # another match, or the record read back: written afresh
        new = ",".join(json.dumps(move_data(move), separators=(",", ":")) for move in moves[count:])
        text = f"{text},{new}" if text and new else text or new
        head = json.dumps(record_to_dict(record, moves=False), separators=(",", ":"))
        return f'{head[:-1]},"moves":[{text}]}}', (len(moves), moves[-1] if moves else None, text)

    def check_write(self) -> None:
        """Write one row and commit, as a move is written (``GET /healthz``); raises as ``save`` would."""
        with self._transaction():
            self.db.execute("INSERT INTO health (id, at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET at=excluded.at",
                            (time.time(),))

    def delete(self, code: str) -> None:
        self._seats.pop(code, None)
        self._moves.pop(code, None)
        with self._transaction():
            self.db.execute("DELETE FROM rooms WHERE code = ?", (code,))

    def delete_idle(self, before: float) -> int:
        """Delete every room idle since before ``before`` (wall-clock time); how many went."""
        self._seats.clear()
        self._moves.clear()
        with self._transaction():
            return self.db.execute("DELETE FROM rooms WHERE active < ?", (before,)).rowcount

    def load_all(self, budget: float = 0.3) -> tuple[list[Room], list[LoadProblem]]:
        """Every room, each match replayed from its record and checked."""
        rooms, problems = [], []
        for row in self.db.execute("SELECT code, rules, phase, host, level, number, position_number, created, "
                                   "active, record, seed_parts, clock, listing, watchers_chat, join_between_deals "
                                   "FROM rooms").fetchall():
            try:
                rooms.append(self._room(row, budget))
            except (SaveFileError, ValueError, TypeError, KeyError) as error:
                problems.append(LoadProblem(row[0], str(error)))
        return rooms, problems

    def load(self, code: str, budget: float = 0.3) -> Room | None:
        """One room as stored (None: there is none)."""
        row = self.db.execute("SELECT code, rules, phase, host, level, number, position_number, created, active, "
                              "record, seed_parts, clock, listing, watchers_chat, join_between_deals FROM rooms "
                              "WHERE code = ?",
                              (code,)).fetchone()
        return None if row is None else self._room(row, budget)

    def _room(self, row: tuple[Any, ...], budget: float) -> Room:
        (code, rules, phase, host, level, number, position, created, active, record_text, parts, clock, listing,
         watchers_chat, between) = row
        rules = Rules.from_dict(json.loads(rules))
        seats: list[Seat | None] = [None] * rules.players
        for seat, name, kind, seat_level, key_hash, ready, player, covered_in, program in self.db.execute(
                "SELECT seat, name, kind, level, key_hash, ready, player, covered_in, program FROM seats "
                "WHERE code = ?", (code,)):
            seats[seat] = Seat(name, kind, seat_level, key_hash, bool(ready), player=player,
                               covered_in=[int(d) for d in json.loads(covered_in or "[]")], program=bool(program))
        record = None if record_text is None else record_from_dict(json.loads(record_text))
        table = None if record is None else match_table(record, budget)
        room = Room(code, rules, seats, level, host, phase, table, number, created, active, budget,
                    position_number=position, listing=listing, watchers_chat=bool(watchers_chat),
                    join_between_deals=bool(between))
        stored = None if parts is None else json.loads(parts)
        seed_parts_from_data(room, stored, lambda: secrets.token_bytes(SEED_BYTES))
        room.clock = None if clock is None else clock_from_data(json.loads(clock))
        return room

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raised."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
