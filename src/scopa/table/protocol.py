"""The table boundary: what a console seat may know, and how it acts.

The console plays seats *through a table*. It never holds a ``GameState`` or a
``MatchRecord``: it holds the ``PlayerView`` of the seat it is playing and the public,
numbered updates. Whoever owns the full state (a ``LocalTable`` in this process, or the room
server behind a ``RemoteTable``) is the table.

Numbers: every update of a match has a number, counting from 1 in the order things happened.
A seat that has seen up to number ``n`` asks for ``updates(seat, after=n)``; a move or a
"next deal" carries ``expected``, the number of the last update the seat saw, so a move made
against an old picture of the table is refused as stale instead of being applied.

Privacy: an update's ``event`` is public (engine events never hold a hand; notices name seats
only). The seat's own hand travels only in ``view``, and only in updates given to that seat.
A table never gives one seat's view to another seat's console.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol, runtime_checkable

from ..engine import DealScored, Event, IllegalReason, Move, PlayerView, Rules

SeatKind = Literal["human", "computer"]

NoticeKind = Literal[
    "joined",      # a player took a seat
    "ready",       # a joining player said ready
    "left",        # a player's connection dropped
    "covered",     # a computer now plays a dropped player's seat
    "reclaimed",   # the player is back in their seat
    "started",     # the host started the match
    "assisted",    # a hint or tip was used in this deal by the seat named
    "closed",      # the room or table is closed (expired, deleted, server stopping)
    "timed_out",   # the seat's turn time ran out: the server played a card for it (online turn timer)
    "more_time",   # the seat asked for more time this deal (online turn timer)
    "watching",    # a spectator (named) came to watch the room online
    "seat_opened", # the host opened a computer's seat (named) for a person, in an online lobby
    "seat_computer",  # the host gave a free seat to a computer (named), in an online lobby
    "seat_moved",  # the host moved the one named to this seat, in an online lobby (a swap: one notice each)
    "watchers_chat_on",   # the host let spectators chat (online)
    "watchers_chat_off",  # the host stopped spectators' chat (online)
]


class Notice(NamedTuple):
    """A public fact about the people at the table, not about the cards."""

    kind: NoticeKind
    seat: int
    name: str = ""


TableEvent = Event | Notice


def own_arrival(event: object, seat: int) -> bool:
    """Whether ``event`` is ``seat``'s own "joined" notice: the seat's welcome already said it
    ("You are in room ..."), so it is never said, and never news to end a prompt for."""
    return isinstance(event, Notice) and event.kind == "joined" and event.seat == seat


class SeatUpdate(NamedTuple):
    """One numbered thing that happened, as one seat receives it.

    ``view`` is the receiving seat's view after the event (None when the table gives no view
    with it, e.g. a notice before the match starts)."""

    number: int
    event: TableEvent
    view: PlayerView | None


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat; public to the whole table."""

    name: str
    kind: SeatKind = "human"
    level: str | None = None  # a computer's level
    connected: bool = True    # online: the player's client is connected
    covered: bool = False     # online: a computer plays this human seat for now

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True)
class TableInfo:
    """Seat-independent facts: the rules, the seats, the deals in which help was used."""

    rules: Rules
    seats: tuple[SeatInfo, ...]
    assisted_deals: frozenset[int] = frozenset()
    code: str | None = None  # an online room's code


Refusal = Literal["stale", "not_your_turn", "illegal", "not_now", "closed", "unavailable"]


@dataclass(frozen=True)
class SubmitResult:
    """What became of a move or a request.

    ``accepted`` with ``updates`` (what followed, numbered, for the submitting seat), or
    refused with a ``refusal`` kind and, for an illegal move, the engine's ``reason`` so the
    client can say it in the player's language."""

    accepted: bool
    updates: tuple[SeatUpdate, ...] = ()
    refusal: Refusal | None = None
    reason: IllegalReason | None = None


@dataclass(frozen=True)
class Resync:
    """Too many updates were missed: a fresh view and the number it stands at."""

    number: int
    view: PlayerView
    info: TableInfo = field(compare=False)


@runtime_checkable
class Table(Protocol):
    """One match, seen seat by seat. Local and online tables implement it alike."""

    def info(self) -> TableInfo:
        """Names, kinds, rules, assisted deals: the same for every seat."""
        ...

    def seats_here(self) -> tuple[int, ...]:
        """The seats this console plays (several in pass-and-play, one online)."""
        ...

    def view(self, seat: int) -> PlayerView:
        """The seat's current view. Only for a seat in ``seats_here()``."""
        ...

    def latest(self) -> int:
        """The number of the newest update (0 before anything happened)."""
        ...

    def last_score(self) -> DealScored | None:
        """The last deal's score (public), even from before this console started; None before any deal was scored.

        Local: kept by the match record, so a resumed match still has it. Online: the one the
        server's welcome gave (so a client started afresh has it), or a newer one received since."""
        ...

    def updates(self, seat: int, after: int) -> Sequence[SeatUpdate] | Resync:
        """Every update after number ``after``, for this seat; a ``Resync`` when too many."""
        ...

    def wait(self, seat: int, after: int, timeout: float | None = None) -> Sequence[SeatUpdate] | Resync:
        """Block until something after ``after`` happened, then return it.

        A local table plays its computer seats here (one move per call, so a Ctrl-C between
        moves reaches the console); an online table waits for the server."""
        ...

    def submit(self, seat: int, move: Move, expected: int) -> SubmitResult:
        """Play ``move`` for ``seat`` if it is that seat's turn and nothing happened since ``expected``."""
        ...

    def claim(self, seat: int, expected: int) -> SubmitResult:
        """Cirulla: show ``seat``'s hand to claim its bonus, before the hand's first card."""
        ...

    def next_deal(self, seat: int, expected: int) -> SubmitResult:
        """Deal the next deal when the last one is scored (online: the host only)."""
        ...

    def mark_assisted(self, seat: int) -> None:
        """A hint or a tip was used by ``seat`` in the current deal."""
        ...

    def notes(self) -> Sequence[str]:
        """Lines the table itself has for the player since last asked, then forgotten.

        Local: the autosave's line ("Not saved" when saving starts failing, "Saving works
        again"), which may follow a computer's move as well as the player's. Online: none (the
        server keeps the save). The console says them before it narrates the next updates."""
        ...

    def save(self) -> str | None:
        """Save now (local: the autosave; online: a no-op, the server keeps it). A problem line, or None."""
        ...

    def close(self) -> None:
        """Leave the table (local: release the save's lock; online: close the connection)."""
        ...
