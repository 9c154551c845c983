"""Player keys on the room server: a name that belongs to whoever holds its key, no account.

A client makes its player key once (``storage.player_key``: 256 random bits, in the data folder,
mode 0600) and sends it only in the first message of a connection (``create_room`` or ``join``).
The server keeps only its SHA-256 (``player_hash``), and, for each hash, the one name it plays
under on this server. A name is taken when its *skeleton* (``name_skeleton``: case folded,
compatibility forms joined, every letter that looks like a Latin one written as that Latin one)
is another hash's: a Cyrillic "\\u0430" in "Ann" is "Ann" taken. A player who joins under a new name
that is free is renamed; their old name is free again. A player without a key may use any
name no key holds.

``SqlitePlayers`` keeps the names (and the ratings, ``net.server.ratings``) in the room server's own
SQLite file, on the store's connection, so that a rating is written in the transaction that
writes the match's end (docs/online.md).
"""
from __future__ import annotations

import hashlib
import hmac
import sqlite3
import unicodedata
from functools import lru_cache
from typing import Protocol

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from ...match import is_hidden


class NameTaken(Exception):
    """The name (or a look-alike of it) belongs to another player key."""


def player_hash(key: str) -> str:
    """What the server keeps of a player key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)


@lru_cache(maxsize=4096)
def _latin(ch: str) -> str:
    """The Latin letter ``ch`` passes for, or ``ch`` itself."""
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin", "common"])
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["c"].isascii() and glyph["c"].isprintable():
                return str(glyph["c"])
    return ch


def name_skeleton(name: str) -> str:
    """The form two names share when a reader could take one for the other: code points that
    show and say nothing left out (``match.is_hidden``: zero width, joiners, soft hyphen,
    variation selectors, tags, fillers; the server refuses them in a name given now, and a name
    stored before that still compares as its visible part), compatibility forms (full-width
    letters, ligatures) joined, accents kept, look-alike letters of other scripts written as the
    Latin letter they look like, case folded, runs of spaces one."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKC", "".join(ch for ch in name if not is_hidden(ch)))
                     if not is_hidden(ch))
    mapped = "".join(_latin(ch) for ch in folded)
    return " ".join(mapped.casefold().split())


class PlayerBook(Protocol):
    """The names of player keys, as the room server asks for them."""

    def claim(self, hash_: str | None, name: str, program: bool = False) -> None:
        """Let ``hash_`` (None: a player without a key) play as ``name``, or raise ``NameTaken``.
        A key that had another name is renamed to this one. ``program``: the key plays as a
        program (docs/protocol.md, Programs at the table), which it stays from then on."""

    def name_of(self, hash_: str) -> str | None: ...

    def leaderboard(self, top: int, hash_: str | None, programs: bool = False
                    ) -> tuple[list[tuple[int, str, float, int]], tuple[int, int, float] | None]:
        """The first ``top`` players (rank, name, rating, matches), best first (equal ratings: by
        hash, as Redis's sorted set orders them), and the asker's (rank, of, rating) when rated:
        the people's board, or with ``programs`` the programs' (a program is never on the people's)."""


PLAYERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    hash TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    skeleton TEXT NOT NULL UNIQUE,
    mu REAL,
    sigma REAL,
    ordinal REAL,
    matches INTEGER NOT NULL DEFAULT 0,
    program INTEGER NOT NULL DEFAULT 0
);
"""
# The two boards, each read off its own index: the people's and the programs' (a file of a server
# before programs has the column added first, and its old index, players_by_rating, dropped).
BOARD_INDEXES = """
DROP INDEX IF EXISTS players_by_rating;
CREATE INDEX IF NOT EXISTS people_by_rating ON players (ordinal, hash) WHERE ordinal IS NOT NULL AND program = 0;
CREATE INDEX IF NOT EXISTS programs_by_rating ON players (ordinal, hash) WHERE ordinal IS NOT NULL AND program = 1;
"""
_BOARDS = {False: ("people_by_rating", 0), True: ("programs_by_rating", 1)}


class SqlitePlayers:
    """Player names (and ratings) in the room server's SQLite file, on its connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.db.executescript(PLAYERS_SCHEMA)
        if "program" not in {row[1] for row in self.db.execute("PRAGMA table_info(players)")}:
            self.db.execute("ALTER TABLE players ADD COLUMN program INTEGER NOT NULL DEFAULT 0")
        self.db.executescript(BOARD_INDEXES)

    def claim(self, hash_: str | None, name: str, program: bool = False) -> None:
        skeleton = name_skeleton(name)
        row = self.db.execute("SELECT hash FROM players WHERE skeleton = ?", (skeleton,)).fetchone()
        if row is not None and (hash_ is None or not same_hash(row[0], hash_)):
            raise NameTaken(name)
        if hash_ is None:
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("INSERT INTO players (hash, name, skeleton, program) VALUES (?, ?, ?, ?) ON CONFLICT(hash) "
                            "DO UPDATE SET name = excluded.name, skeleton = excluded.skeleton, "
                            "program = MAX(program, excluded.program)", (hash_, name, skeleton, int(program)))
        except sqlite3.IntegrityError as error:
            self.db.execute("ROLLBACK")
            if "UNIQUE" in str(error):  # taken between the look and the write
                raise NameTaken(name) from None
            raise
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def name_of(self, hash_: str) -> str | None:
        row = self.db.execute("SELECT name FROM players WHERE hash = ?", (hash_,)).fetchone()
        return None if row is None else str(row[0])

    def leaderboard(self, top: int, hash_: str | None, programs: bool = False
                    ) -> tuple[list[tuple[int, str, float, int]], tuple[int, int, float] | None]:
        """Read off the board's rating index backwards, ``top`` rows; the asker's rank counts the
        index entries above theirs (docs/online.md has the figures at 100,000 players)."""
        index, program = _BOARDS[programs]
        on_board = f"FROM players INDEXED BY {index} WHERE ordinal IS NOT NULL AND program = {program}"
        rows = [(rank, str(name), float(rating), int(matches)) for rank, (name, rating, matches) in enumerate(
            self.db.execute(f"SELECT name, ordinal, matches {on_board} ORDER BY ordinal DESC, hash DESC LIMIT ?",
                            (top,)), 1)]
        you = None
        if hash_ is not None:
            mine = self.db.execute("SELECT ordinal, program FROM players WHERE hash = ?", (hash_,)).fetchone()
            if mine is not None and mine[0] is not None and mine[1] == program:
                above = self.db.execute(f"SELECT COUNT(*) {on_board} AND (ordinal > ? OR (ordinal = ? AND hash > ?))",
                                        (mine[0], mine[0], hash_)).fetchone()[0]
                total = self.db.execute(f"SELECT COUNT(*) {on_board}").fetchone()[0]
                you = (int(above) + 1, int(total), float(mine[0]))
        return rows, you
