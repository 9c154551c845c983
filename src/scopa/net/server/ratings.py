"""Ratings of player keys: one update per finished match, written with the match's end.

The model is openskill's Plackett-Luce (a maintained Weng-Lin rating library, the one the
audio-game platforms use): each side of a match is a team (a partnership is one team of two),
ranked by its final match score (under *a perdere* the fewest points rank first, as the engine's
``match_result`` has it). A player's public rating is the model's ordinal, mu - 3 sigma:
0 for a newcomer, rising as the model grows sure of them.

- Seats of a computer, and of a human without a player key, play at a fixed rating
  (``LEVEL_RATINGS``; docs/opponents.md) and are never updated: a match against the computer
  moves the human's rating.
- A player who left (their seat covered by a computer at the end) or was covered for more than
  a deal takes the loss: rated with their side last. Nobody else is rated down by such a match:
  a rating it would lower stays as it was.
- A match with a hint or tip in it is rated like any other, and marked (``rated.assisted``).

``rate_room`` runs inside the store's transaction that writes the room's end, and the match's
id (room code and creation time) is the key of ``rated``: a second save of the same end (another
process, or a retry after a crash) finds it there and changes nothing. Written in the same
transaction as the match's end, the rating cannot be lost or applied twice by a crash.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce, PlackettLuceRating

if TYPE_CHECKING:
    from .identity import SqlitePlayers
    from .rooms import Room

MODEL = PlackettLuce()
SIGMA_COMPUTER = 1.0  # the computers' ratings are fixed: their sigma is small, they are known
# From the two-player tournaments of docs/opponents.md ("Ratings of the computer levels"): each
# level's measured point share against the one below, as a Bradley-Terry gap, medium at 25.
LEVEL_RATINGS = {"beginner": 19.2, "easy": 23.7, "medium": 25.0, "hard": 26.9, "expert": 28.4}
UNRATED_MU = 25.0  # a human playing without a player key: the model's newcomer, fixed

RATED_SCHEMA = """
CREATE TABLE IF NOT EXISTS rated (
    id TEXT PRIMARY KEY,
    at REAL NOT NULL,
    assisted INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_changes (
    id TEXT NOT NULL,
    hash TEXT NOT NULL,
    before REAL NOT NULL,
    after REAL NOT NULL,
    PRIMARY KEY (id, hash)
);
"""


@dataclass(frozen=True)
class Entrant:
    """One seat as the rating sees it: its side, its rating, and who owns it (None: fixed)."""

    side: int
    mu: float
    sigma: float
    player: str | None = None
    left: bool = False


def public(mu: float, sigma: float) -> float:
    """The rating a player is shown and ranked by."""
    return mu - 3 * sigma


def rate(entrants: list[Entrant], scores: tuple[int, ...]) -> dict[int, tuple[float, float]]:
    """The new (mu, sigma) of each entrant that has a player, by seat index in ``entrants``."""
    sides = len(scores)
    ranks = [1 + sum(1 for other in scores if other > score) for score in scores]
    if not any(e.player for e in entrants):
        return {}
    actual = _rated(entrants, sides, ranks)
    leavers = {e.side for e in entrants if e.left}
    result: dict[int, tuple[float, float]] = {}
    if leavers:
        last = sides + 1
        worst = _rated(entrants, sides, [last if side in leavers else 1 for side in range(sides)])
    for index, entrant in enumerate(entrants):
        if entrant.player is None:
            continue
        if entrant.left:
            result[index] = worst[index]
        elif leavers and public(*actual[index]) < public(entrant.mu, entrant.sigma):
            result[index] = (entrant.mu, entrant.sigma)  # a match someone left rates nobody else down
        else:
            result[index] = actual[index]
    return result


def _rated(entrants: list[Entrant], sides: int, ranks: list[int]) -> dict[int, tuple[float, float]]:
    teams: list[list[PlackettLuceRating]] = [[] for _ in range(sides)]
    where: dict[int, tuple[int, int]] = {}
    for index, entrant in enumerate(entrants):
        where[index] = (entrant.side, len(teams[entrant.side]))
        teams[entrant.side].append(MODEL.create_rating([entrant.mu, entrant.sigma]))
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return {index: (rated[side][slot].mu, rated[side][slot].sigma) for index, (side, slot) in where.items()}


def match_id(room: Room) -> str:
    return f"{room.code}:{room.created!r}"


def left(room: Room, seat: int) -> bool:
    """Covered by a computer at the end, or for more than a deal: the player's loss."""
    taken = room.seats[seat]
    return taken is not None and (taken.covered or len(set(taken.covered_in)) > 1)


@dataclass(frozen=True)
class Pending:
    """What rating a finished match needs, with no player's rating in it yet: each seat's side,
    owner (None: fixed), fixed rating and whether they left; the final scores; assisted or not."""

    id: str
    seats: tuple[tuple[int, str | None, float, bool], ...]  # side, player, fixed mu, left
    scores: tuple[int, ...]  # as ranked, the highest first: the final scores, negated under a perdere
    assisted: bool

    def to_json(self) -> str:
        return json.dumps({"id": self.id, "seats": [list(s) for s in self.seats], "scores": list(self.scores),
                           "assisted": self.assisted}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Pending:
        data = json.loads(text)
        return cls(str(data["id"]), tuple((int(a), b, float(c), bool(d)) for a, b, c, d in data["seats"]),
                   tuple(int(x) for x in data["scores"]), bool(data["assisted"]))

    def players(self) -> list[str]:
        return [player for _, player, _, _ in self.seats if player is not None]

    def rated(self, ratings: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float, float, float]]:
        """Each player's (mu, sigma) before and after, from their ratings now (a newcomer: absent)."""
        entrants = []
        for side, player, fixed, gone in self.seats:
            if player is None:
                sigma = SIGMA_COMPUTER if fixed != UNRATED_MU else MODEL.sigma
                entrants.append(Entrant(side, fixed, sigma))
            else:
                mu, sigma = ratings.get(player, (MODEL.mu, MODEL.sigma))
                entrants.append(Entrant(side, mu, sigma, player, gone))
        return {entrants[i].player or "": (entrants[i].mu, entrants[i].sigma, mu, sigma)
                for i, (mu, sigma) in rate(entrants, self.scores).items()}


def pending(room: Room) -> Pending | None:
    """The rating a finished match of keyed players needs; None for any other room."""
    record = room.record
    if room.phase != "over" or record is None or not record.state.is_match_over:
        return None
    if room.listing.startswith("daily:"):  # a daily deal is scored against par (net.server.daily), never rated
        return None
    seats: list[tuple[int, str | None, float, bool]] = []
    for number, seat in enumerate(room.seats):
        side = room.rules.side_of(number)
        if seat is not None and seat.is_human and seat.player is not None:
            seats.append((side, seat.player, UNRATED_MU, left(room, number)))
        elif seat is not None and not seat.is_human:
            seats.append((side, None, LEVEL_RATINGS.get(seat.level or "", UNRATED_MU), False))
        else:
            seats.append((side, None, UNRATED_MU, False))
    if not any(player for _, player, _, _ in seats):
        return None
    scores = record.state.match_scores
    if room.rules.a_perdere:  # the fewest points win (engine.state.match_result): ranked so
        scores = tuple(-score for score in scores)
    return Pending(match_id(room), tuple(seats), scores, record.assisted)


def rate_room(players: SqlitePlayers, room: Room) -> bool:
    """Rate the room's finished match once, in the caller's transaction; whether it was rated now."""
    match = pending(room)
    if match is None:
        return False
    db = players.db
    inserted = db.execute("INSERT INTO rated (id, at, assisted) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
                          (match.id, time.time(), int(match.assisted))).rowcount
    if not inserted:
        return False  # this end was rated already
    now: dict[str, tuple[float, float]] = {}
    for player in match.players():
        row = db.execute("SELECT mu, sigma FROM players WHERE hash = ?", (player,)).fetchone()
        if row is not None and row[0] is not None:
            now[player] = (row[0], row[1])
    for player, (mu0, sigma0, mu, sigma) in match.rated(now).items():
        db.execute("UPDATE players SET mu = ?, sigma = ?, ordinal = ?, matches = matches + 1 WHERE hash = ?",
                   (mu, sigma, public(mu, sigma), player))
        db.execute("INSERT INTO rating_changes (id, hash, before, after) VALUES (?, ?, ?, ?)",
                   (match.id, player, public(mu0, sigma0), public(mu, sigma)))
    return True
