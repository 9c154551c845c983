"""The daily deal (issue 29): the same deals for everyone on one UTC day, scored against par.

Each UTC day has a day seed: 256 bits the server draws with ``secrets`` the first time the day
is asked for, kept in its store (create-if-absent, so several processes of one Redis agree on
one seed). Its SHA-256 is published before the day (a ``daily`` request answers today's and
tomorrow's); the seed itself only once the day has ended. Deal ``n`` of the day is a single-deal
room whose server seed is ``derived_number(day seed, "daily deal", n)`` as 32 bytes, with no
contribution from any client (none may change the deals everyone gets): its commitment is that
seed's SHA-256, checked at the match's end as any online match's, and again against the day
seed once it is revealed (``deal_seeds``).

Par is what the expert scores from the human's seat (seat 0) when it plays both seats of the
same deal, with a fixed number of samples (deterministic, quick), worked out once a day by the
server off its loop and kept in the store. A deal's duplicate score is the player's points in it
minus its par; a day's result is their sum. The first finished room of each deal by a player
key counts; later ones are practice. The board ranks the players who finished every deal of the
day, best result first. Pure functions here; the stores keep the days and the results
(``SqliteDaily``, ``redis_daily.RedisDaily``).
"""
from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ...engine import Rules
from ...engine.shuffle import commitment, match_seed
from ...match import MatchRecord, SeatSetup
from ...players import make_player
from ...table.local import computer_seed
from ..protocol.daily_seeds import deal_seed
from ..protocol.wire import MAX_DAILY_DEALS

if TYPE_CHECKING:
    from .rooms import Room

DAILY_RULES = Rules(players=2, target=None)  # each daily deal is a match of one deal, two players
DAILY_LEVEL = "expert"
HUMAN_SEAT = 0  # the player always sits here, the expert in seat 1
DEFAULT_DEALS = 3
PAR_ITERATIONS = 40  # the expert's samples a move when it works out par (fixed: the same par anywhere)
DAILY_LISTING = "daily"  # a daily room's listing is "daily:DAY:DEAL"
MAX_DEALS = MAX_DAILY_DEALS


def day_of(moment: float) -> str:
    """The UTC day of a wall-clock time, as "2026-12-05"."""
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).date().isoformat()


def next_day(day: str) -> str:
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()


def is_day(text: object) -> bool:
    """A day written as YYYY-MM-DD (and a real date)."""
    if not isinstance(text, str) or len(text) != 10:
        return False
    try:
        return datetime.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def deal_seeds(day_seed: bytes, deals: int) -> list[bytes]:
    return [deal_seed(day_seed, n) for n in range(1, deals + 1)]


def deal_commitments(day_seed: bytes, deals: int) -> list[bytes]:
    """What each deal's welcome says: the SHA-256 of its server seed (a client checks them once
    the day seed is revealed)."""
    return [commitment(seed) for seed in deal_seeds(day_seed, deals)]


def listing(day: str, deal: int) -> str:
    return f"{DAILY_LISTING}:{day}:{deal}"


def daily_of(room_listing: str) -> tuple[str, int] | None:
    """The day and deal of a daily room's listing; None for any other room."""
    parts = room_listing.split(":")
    if len(parts) != 3 or parts[0] != DAILY_LISTING or not is_day(parts[1]) or not parts[2].isdigit():
        return None
    return parts[1], int(parts[2])


def deal_par(server_seed: bytes, iterations: int = PAR_ITERATIONS) -> int:
    """What the expert scores from seat 0 when it plays both seats of the deal dealt from
    ``server_seed`` (as the daily room deals it: no contribution)."""
    seed = match_seed(server_seed, ())
    setups = (SeatSetup("A", "computer", DAILY_LEVEL), SeatSetup("B", "computer", DAILY_LEVEL))
    record, _ = MatchRecord.start(DAILY_RULES, setups, seed)
    players = {seat: make_player(DAILY_LEVEL, computer_seed(seed, seat), iterations=iterations) for seat in (0, 1)}
    while not record.state.is_match_over:
        seat = record.state.to_move
        record, _ = record.play(players[seat].choose_move(record.state.view(seat)))
    return int(record.state.match_scores[HUMAN_SEAT])


def day_par(day_seed: bytes, deals: int, iterations: int = PAR_ITERATIONS) -> list[int]:
    """Par of every deal of the day (blocking: the server runs it in the computers' pool)."""
    return [deal_par(seed, iterations) for seed in deal_seeds(day_seed, deals)]


@dataclass(frozen=True)
class DailyResult:
    """One finished daily room: whose, which deal, the player's points and par, counted or practice."""

    match: str
    deal: int
    player: str
    name: str
    points: int
    par: int
    counted: bool
    at: float
    address: str = ""  # a hash of the address the room was made from ("": not known)

    @property
    def score(self) -> int:
        return self.points - self.par


@dataclass(frozen=True)
class DayBoard:
    """The day's board as the server answers it."""

    rows: tuple[tuple[int, str, int], ...]  # rank, name, result
    you: tuple[int, int, int, tuple[int, ...]] | None  # rank, of, result, each deal's score
    played: tuple[tuple[int, int, bool], ...]  # the asker's latest room of each deal: deal, score, practice


def rank_day(results: Iterable[DailyResult], deals: int, top: int, player: str | None,
             newcomers: Collection[str] = ()) -> DayBoard:
    """The board of one day from its results: players who finished every deal, by their summed
    duplicate score, best first (equal: whoever finished first). Both stores rank with this.
    ``newcomers``: keys whose first daily deal is this day, which do not rank on it (issue 37: a
    fresh key made to replay deals learnt with another would rank first)."""
    results = list(results)
    counted: dict[str, dict[int, DailyResult]] = {}
    latest: dict[int, DailyResult] = {}
    seconds = _second_names(results)
    for result in results:
        if result.counted and result.player not in newcomers and result.player not in seconds:
            counted.setdefault(result.player, {})[result.deal] = result
        if result.player == player and (result.deal not in latest or result.at >= latest[result.deal].at):
            latest[result.deal] = result
    complete = [(sum(r.score for r in done.values()), max(r.at for r in done.values()), who, done)
                for who, done in counted.items() if len(done) == deals]
    complete.sort(key=lambda entry: (-entry[0], entry[1], entry[2]))
    rows = tuple((rank, entry[3][deals].name, entry[0]) for rank, entry in enumerate(complete[:top], 1))
    you = None
    for rank, (total, _, who, done) in enumerate(complete, 1):
        if who == player:
            you = (rank, len(complete), total, tuple(done[n].score for n in range(1, deals + 1)))
    played = tuple((deal, r.score, not r.counted) for deal, r in sorted(latest.items()))
    return DayBoard(rows, you, played)


def _second_names(results: Sequence[DailyResult]) -> set[str]:
    """The keys that played a deal of the day after another key had played it from the same address
    (issue 37: one player learning the deals under one name and scoring them under another)."""
    first: dict[tuple[str, int], DailyResult] = {}
    for result in sorted(results, key=lambda r: r.at):
        if result.address:
            first.setdefault((result.address, result.deal), result)
    return {r.player for r in results if r.address and first[(r.address, r.deal)].player != r.player}


def address_tag(address: str) -> str:
    """What a daily result keeps of the address its room was made from: a short hash, never the address."""
    return hashlib.sha256(b"scopa daily address\x00" + address.encode("utf-8")).hexdigest()[:16]


class DailyBook(Protocol):
    """The days and results of a store, as the server asks for them."""

    async def seed(self, day: str, create: bool) -> bytes | None:
        """The day's seed, drawn and kept now when ``create`` and there is none (one per day, whoever
        asks first); None when there is none and ``create`` is false."""

    async def par(self, day: str) -> list[int] | None: ...

    async def keep_par(self, day: str, par: Sequence[int]) -> list[int]:
        """Keep the day's par unless one is kept already; the par kept."""

    async def results(self, day: str) -> list[DailyResult]: ...

    async def first_days(self, players: Collection[str]) -> dict[str, str]:
        """The first day each of ``players`` finished a daily deal (those that never did: left out)."""


DAILY_SCHEMA = """
CREATE TABLE IF NOT EXISTS daily_days (
    day TEXT PRIMARY KEY,
    seed TEXT NOT NULL,
    par TEXT
);
CREATE TABLE IF NOT EXISTS daily_results (
    match TEXT PRIMARY KEY,
    day TEXT NOT NULL,
    deal INTEGER NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    points INTEGER NOT NULL,
    par INTEGER NOT NULL,
    counted INTEGER NOT NULL,
    at REAL NOT NULL,
    address TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS daily_results_by_day ON daily_results (day);
"""


class SqliteDaily:
    """The daily deal's days and results in the room server's SQLite file, on its connection."""

    def __init__(self, db: sqlite3.Connection, fresh: Callable[[], bytes]) -> None:
        self.db, self.fresh = db, fresh
        self.db.executescript(DAILY_SCHEMA)
        if "address" not in {row[1] for row in self.db.execute("PRAGMA table_info(daily_results)")}:
            self.db.execute("ALTER TABLE daily_results ADD COLUMN address TEXT NOT NULL DEFAULT ''")

    async def seed(self, day: str, create: bool) -> bytes | None:
        if create:
            self.db.execute("INSERT INTO daily_days (day, seed) VALUES (?, ?) ON CONFLICT(day) DO NOTHING",
                            (day, self.fresh().hex()))
        row = self.db.execute("SELECT seed FROM daily_days WHERE day = ?", (day,)).fetchone()
        return None if row is None else bytes.fromhex(row[0])

    async def par(self, day: str) -> list[int] | None:
        row = self.db.execute("SELECT par FROM daily_days WHERE day = ?", (day,)).fetchone()
        return None if row is None or row[0] is None else [int(x) for x in row[0].split(",")]

    async def keep_par(self, day: str, par: Sequence[int]) -> list[int]:
        self.db.execute("UPDATE daily_days SET par = ? WHERE day = ? AND par IS NULL",
                        (",".join(str(p) for p in par), day))
        return await self.par(day) or list(par)

    async def results(self, day: str) -> list[DailyResult]:
        return [DailyResult(m, d, p, n, pts, par, bool(c), at, a) for m, d, p, n, pts, par, c, at, a in self.db.execute(
            "SELECT match, deal, player, name, points, par, counted, at, address FROM daily_results WHERE day = ?",
            (day,))]

    async def first_days(self, players: Collection[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for player in players:
            row = self.db.execute("SELECT MIN(day) FROM daily_results WHERE player = ?", (player,)).fetchone()
            if row is not None and row[0] is not None:
                found[player] = str(row[0])
        return found


@dataclass(frozen=True)
class Finished:
    """What a finished daily room records, read from the server's own room (never from a client)."""

    day: str
    deal: int
    player: str
    name: str
    points: int
    match: str
    late: bool = False  # ended after its day: its seeds are revealed by then, so it never counts
    address: str = ""  # ``address_tag`` of the address the room was made from


def finished_to_json(done: Finished) -> str:
    return json.dumps(dataclasses.asdict(done), separators=(",", ":"))


def finished_from_json(text: str) -> Finished:
    data = json.loads(text)
    return Finished(str(data["day"]), int(data["deal"]), str(data["player"]), str(data["name"]),
                    int(data["points"]), str(data["match"]), bool(data.get("late", False)),
                    str(data.get("address", "")))


def room_result(room: Room) -> Finished | None:
    """The result a finished daily room of a keyed player records; None for any other room."""
    from .ratings import match_id
    where = daily_of(room.listing)
    seat = room.seats[HUMAN_SEAT]
    state = room.state
    if where is None or room.phase != "over" or seat is None or seat.player is None or state is None:
        return None
    # A deal the player left, played on for them by the expert that covered their seat, counts
    # as no points at all: leaving must never be the way to score par.
    left = seat.covered or bool(seat.covered_in)
    points = 0 if left else int(state.match_scores[HUMAN_SEAT])
    # ended once its day was over, or begun while the key had the same deal open: practice (issue 37)
    late = room.finished_on not in ("", where[0]) or room.second_try
    return Finished(where[0], where[1], seat.player, seat.name, points, match_id(room), late, room.made_from)


def record_result_sqlite(db: sqlite3.Connection, room: Room) -> None:
    """Write a finished daily room's result in the caller's transaction, once (the match id is
    its key): counted when the player has no counted room of that deal today, else practice."""
    done = room_result(room)
    if done is None:
        return
    row = db.execute("SELECT par FROM daily_days WHERE day = ?", (done.day,)).fetchone()
    if row is None or row[0] is None:
        return  # no par: the room was not made by this server's daily request
    par = [int(x) for x in row[0].split(",")]
    if not 1 <= done.deal <= len(par):
        return
    taken = db.execute("SELECT 1 FROM daily_results WHERE day = ? AND deal = ? AND player = ? AND counted = 1",
                       (done.day, done.deal, done.player)).fetchone()
    db.execute("INSERT INTO daily_results (match, day, deal, player, name, points, par, counted, at, address) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(match) DO NOTHING",
               (done.match, done.day, done.deal, done.player, done.name, done.points, par[done.deal - 1],
                int(taken is None and not done.late), time.time(), done.address))
