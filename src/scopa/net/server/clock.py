"""The turn timer of a room (issue 28): the host's choice, off by default.

A human seat to move, connected and not covered by a computer, has ``turn_time`` seconds from
the moment its turn began (``Room.turn_since``), plus ``MORE_TIME`` once per deal when it asks.
Warnings go out with ``WARNINGS`` seconds left; when the time is up the server plays the easy
level's choice for the seat. Two turns in a row run out and the seat is taken as away: a
computer covers it (the grace rules' cover) until the player presses a key (``back``).

A dropped player's turn does not run down: the grace rules cover the seat instead, and the turn
starts again in full when the player is back. Only the thresholds already warned, the deals
with more time asked, the turns run out in a row and the deals in which a card was played for a
seat whose time ran out are kept, with the room, in both stores. The last are play the player
did not make: like a covered seat's deals, they earn that player no achievement
(``Room.played_for``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..protocol.wire import TURN_TIMES

MORE_TIME = 30                 # seconds, once per deal per seat
WARNINGS = (10, 5)             # seconds left when a warning is said
AWAY_AFTER = 2                 # turns run out in a row before the seat is taken as away

ClockEvent = Literal["warning", "more_time", "timeout"]
CLOCK_EVENTS = ("warning", "more_time", "timeout")


@dataclass
class TurnClock:
    """A room's timer: the limit, and what this turn and this match have used of it."""

    turn_time: int
    warned: list[int] = field(default_factory=list)  # the WARNINGS said this turn
    bonus: int = 0                                    # seconds of more time this turn
    extended: set[tuple[int, int]] = field(default_factory=set)  # (seat, deal) that asked
    misses: dict[int, int] = field(default_factory=dict)        # turns run out in a row, per seat
    timed_out_in: dict[int, set[int]] = field(default_factory=dict)  # per seat, the deals a card was played for it
    turn_key: tuple[int, int] = (0, 0)  # (deal, moves played) of the turn the above is for

    def new_turn(self, key: tuple[int, int]) -> None:
        """The turn of ``key`` (deal, moves played): the warnings and the bonus start afresh."""
        if key != self.turn_key:
            self.turn_key, self.warned, self.bonus = key, [], 0

    def left(self, since: float, now: float, scale: float = 1.0) -> float:
        """Seconds left of the turn begun at ``since`` (``scale``: the server's test speed-up)."""
        return (self.turn_time + self.bonus) * scale - (now - since)

    def due(self, since: float, now: float, scale: float = 1.0) -> tuple[ClockEvent, int] | None:
        """What is due now: a warning (its seconds), the timeout, or nothing."""
        left = self.left(since, now, scale)
        if left <= 0:
            return "timeout", 0
        for seconds in WARNINGS:
            if left <= seconds * scale and seconds not in self.warned and seconds < self.turn_time + self.bonus:
                return "warning", seconds
        return None

    def to_data(self) -> dict[str, Any]:
        return {"turn_time": self.turn_time, "warned": list(self.warned), "bonus": self.bonus,
                "extended": sorted([seat, deal] for seat, deal in self.extended),
                "misses": {str(seat): count for seat, count in self.misses.items()},
                "timed_out_in": {str(seat): sorted(deals) for seat, deals in self.timed_out_in.items()},
                "turn_key": list(self.turn_key)}


def clock_from_data(data: object) -> TurnClock | None:
    """The stored clock (None: a room without a timer, or one stored before timers; one stored
    before ``timed_out_in`` has none)."""
    if not isinstance(data, dict) or data.get("turn_time") not in TURN_TIMES:
        return None
    key = data.get("turn_key", [0, 0])
    return TurnClock(int(data["turn_time"]), [int(s) for s in data.get("warned", [])], int(data.get("bonus", 0)),
                     {(int(seat), int(deal)) for seat, deal in data.get("extended", [])},
                     {int(seat): int(count) for seat, count in data.get("misses", {}).items()},
                     {int(seat): {int(deal) for deal in deals} for seat, deals in data.get("timed_out_in", {}).items()},
                     (int(key[0]), int(key[1])))
