"""The local table: one match in this process, its computer players, its saves and its numbered log.

``LocalTable`` implements ``Table`` for a match on this machine. It alone holds the
``MatchRecord`` (every hand); the console gets seat views and public events from it. The
computers play inside it, one move per ``wait`` call. It saves through ``SaveHooks``, plain
callables the program makes from its ``Persistence``, and has no clock, terminal or IO of its
own, so the room server can use the very same class as a room's core (with every human seat
"here", and the room's own store behind the hooks).

Not thread-safe: whoever owns a table (the console, or a room) calls it from one place at a time.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from ..engine import DealScored, Event, GameState, IllegalMoveError, Move, PlayerView, Rules
from ..engine.shuffle import COMPUTER, SEED_BYTES, Seed, derived_number
from ..match import MatchRecord, SeatSetup
from .protocol import Refusal, Resync, SeatInfo, SeatUpdate, SubmitResult, TableEvent, TableInfo


class ComputerPlayer(Protocol):
    def choose_move(self, view: PlayerView) -> Move: ...


def _no_problem(record: MatchRecord) -> str | None:
    return None


def _nothing(record: MatchRecord) -> None:
    return None


@dataclass(frozen=True)
class SaveHooks:
    """How a local table keeps its match. Each hook gets the whole record; all do nothing by default.

    ``save`` saves now and returns a problem line or None; ``autosave`` saves after a move or a
    new deal and returns a line to say (a new problem, or saving working again) or None;
    ``finish`` is called once when the match is over (log the result, drop the autosave);
    ``release`` when the table is closed (let go of the save)."""

    save: Callable[[MatchRecord], str | None] = _no_problem
    autosave: Callable[[MatchRecord], str | None] = _no_problem
    finish: Callable[[MatchRecord], None] = _nothing
    release: Callable[[], None] = lambda: None


class _Logged(NamedTuple):
    """One numbered update: the public event and the position after the transition it belongs to."""

    event: TableEvent
    state: GameState


def fresh_seed() -> bytes:
    """A new match's seed when none is given: 256 bits from ``secrets``, dealt by shuffle 2."""
    return secrets.token_bytes(SEED_BYTES)


def computer_seed(seed: Seed, seat: int, label: bytes = COMPUTER) -> int:
    """The seed of the computer player at ``seat``: a number of its own, derived from the match
    seed with its label (shuffle 2); the match seed plus the seat in a match of shuffle 1, as
    before, so an older save resumes with the same computers."""
    if isinstance(seed, bytes):
        return derived_number(seed, label, seat)
    return seed + seat


def start_match(rules: Rules, seats: Sequence[SeatSetup], seed: Seed,
                first_dealer: int | None = None) -> tuple[MatchRecord, list[Event]]:
    """A new match record and the events of its first deal (for ``LocalTable(record, opening=...)``)."""
    return MatchRecord.start(rules, tuple(seats), seed, first_dealer)


def held_record(record: object) -> MatchRecord:
    """A record the program held unopened (the console names no ``MatchRecord``), checked as it
    is handed back to a table or the saves."""
    if not isinstance(record, MatchRecord):
        raise TypeError(f"a match record was expected, not {type(record).__name__}")
    return record


def computers_for(record: MatchRecord, budget: float | None = None) -> dict[int, ComputerPlayer]:
    """The computer players of a match's computer seats, each seeded from the match and its seat;
    the expert thinks ``budget`` seconds a move (None: ``players.expert.DEFAULT_BUDGET``)."""
    from ..players import DEFAULT_BUDGET, make_player
    budget = DEFAULT_BUDGET if budget is None else budget
    return {seat: make_player(s.level or "easy", seed=computer_seed(record.seed, seat), budget=budget)
            for seat, s in enumerate(record.seats) if not s.is_human}


class LocalTable:
    """A ``Table`` over a ``MatchRecord`` in this process.

    ``opening`` are the events of the deal just dealt (a new match): they become updates 1, 2,
    and so on. A resumed match starts with no updates; ``number`` says where its count stands
    (0 here; a room restored from its store goes on counting). ``here`` are the seats the
    console (or room) may see: by default every human seat. ``players`` are the computers (by
    default made for the match's computer seats); every seat is either here or a computer's."""

    def __init__(self, record: MatchRecord, players: Mapping[int, ComputerPlayer] | None = None,
                 saves: SaveHooks = SaveHooks(), opening: Sequence[Event] = (), number: int = 0,
                 here: Sequence[int] | None = None) -> None:
        self.record = record
        self.players: dict[int, ComputerPlayer] = dict(computers_for(record) if players is None else players)
        self.saves = saves
        self._here = tuple(record.human_seats if here is None else here)
        self._base = number  # updates up to this number are not in the log
        self._log: list[_Logged] = []
        self._notes: list[str] = []
        self._covered: set[int] = set()
        self._closed = False
        self._finished = False
        self._append(opening)
        if record.state.is_match_over:  # a finished match (an import) is logged and its save dropped at once
            self._finish()

    # What every seat may know ----------------------------------------------------------------
    def info(self) -> TableInfo:
        seats = tuple(SeatInfo(s.name, s.kind, s.level, covered=i in self._covered)
                      for i, s in enumerate(self.record.seats))
        return TableInfo(self.record.rules, seats, self.record.assisted_deals)

    def seats_here(self) -> tuple[int, ...]:
        return self._here

    def view(self, seat: int) -> PlayerView:
        self._check_here(seat)
        return self.record.state.view(seat)

    def latest(self) -> int:
        return self._base + len(self._log)

    def last_score(self) -> DealScored | None:
        return self.record.last_scored()

    def updates(self, seat: int, after: int) -> Sequence[SeatUpdate] | Resync:
        self._check_here(seat)
        if not self._base <= after <= self.latest():
            return Resync(self.latest(), self.record.state.view(seat), self.info())
        start = after - self._base
        return [SeatUpdate(self._base + i + 1, logged.event, logged.state.view(seat))
                for i, logged in enumerate(self._log[start:], start)]

    def wait(self, seat: int, after: int, timeout: float | None = None) -> Sequence[SeatUpdate] | Resync:
        """What happened after ``after``; if nothing yet, one computer move (nothing when no computer is to move).

        Nothing else can happen at a local table while a human seat is to move, so it never blocks."""
        if after == self.latest():
            self.step()
        return self.updates(seat, after)

    def computer_to_move(self) -> int | None:
        """The computer seat to move now (a human seat being covered counts), or None."""
        state = self.record.state
        if self._closed or state.is_deal_over or state.to_move not in self.players:
            return None
        return state.to_move

    def step(self, move: Move | None = None) -> bool:
        """Play one computer move if a computer is to move; whether one was played.

        The player thinks before anything changes, so an interruption (Ctrl-C) while it thinks
        leaves the match as it was. ``move``: the computer's move, chosen elsewhere (a room's
        computers think in worker processes), played as its own would be."""
        seat = self.computer_to_move()
        if seat is None:
            state = self.record.state
            if not (self._closed or state.is_deal_over or state.to_move in self._here):
                raise RuntimeError(f"Nobody plays seat {state.to_move + 1}: it is no seat here and has no computer.")
            return False
        if self.record.state.claimable():  # Cirulla: every computer level claims its bonus
            self.record, events = self.record.claim()
            self._append(events)
            self._autosave()
            if move is None:
                return True  # a step of its own: the move is chosen at the next, from the view after it
        if move is None:
            move = self.players[seat].choose_move(self.record.state.view(seat))
        self._play(move)
        return True

    # Acting -------------------------------------------------------------------------------------
    def submit(self, seat: int, move: Move, expected: int) -> SubmitResult:
        state = self.record.state
        refusal = self._refusal(seat, expected, state.is_deal_over)
        if refusal is None and state.to_move != seat:
            refusal = "not_your_turn"
        if refusal is not None:
            return SubmitResult(False, refusal=refusal)
        try:
            self._play(move)
        except IllegalMoveError as error:
            return SubmitResult(False, refusal="illegal", reason=error.reason)
        return self._accepted(seat, expected)

    def claim(self, seat: int, expected: int) -> SubmitResult:
        """Cirulla: ``seat`` shows its hand to claim its bonus (refused when it has none to claim now)."""
        state = self.record.state
        refusal = self._refusal(seat, expected, state.is_deal_over)
        if refusal is None and state.to_move != seat:
            refusal = "not_your_turn"
        if refusal is not None:
            return SubmitResult(False, refusal=refusal)
        try:
            self.record, events = self.record.claim()
        except IllegalMoveError as error:
            return SubmitResult(False, refusal="illegal", reason=error.reason)
        self._append(events)
        self._autosave()
        return self._accepted(seat, expected)

    def next_deal(self, seat: int, expected: int) -> SubmitResult:
        state = self.record.state
        refusal = self._refusal(seat, expected, not state.is_deal_over or state.is_match_over)
        if refusal is not None:
            return SubmitResult(False, refusal=refusal)
        self.record, events = self.record.next_deal()
        self._append(events)
        self._autosave()
        return self._accepted(seat, expected)

    def mark_assisted(self, seat: int) -> None:
        """The current deal was played with help (a hint or a tip); its score sheet will say so."""
        self.record = self.record.mark_assisted()

    # A room's seats -------------------------------------------------------------------------------
    def cover(self, seat: int, player: ComputerPlayer) -> None:
        """A computer plays this human seat for now (online: its player dropped out)."""
        self.players[seat] = player
        self._covered.add(seat)

    def uncover(self, seat: int) -> None:
        """The seat's player is back: the covering computer stops."""
        if seat in self._covered:
            self._covered.discard(seat)
            del self.players[seat]

    # Saving and leaving ---------------------------------------------------------------------------
    def notes(self) -> Sequence[str]:
        notes, self._notes = self._notes, []
        return notes

    def save(self) -> str | None:
        return self.saves.save(self.record)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.saves.release()

    # Inside ------------------------------------------------------------------------------------
    def _check_here(self, seat: int) -> None:
        if seat not in self._here:
            raise ValueError(f"Seat {seat + 1} is not played here: its hand is not this console's to see.")

    def _refusal(self, seat: int, expected: int, not_now: bool) -> Refusal | None:
        if self._closed:
            return "closed"
        if seat not in self._here:
            return "unavailable"
        if expected != self.latest():
            return "stale"
        if not_now:
            return "not_now"
        return None

    def _accepted(self, seat: int, expected: int) -> SubmitResult:
        updates = self.updates(seat, expected)
        assert not isinstance(updates, Resync)  # expected was the latest number a moment ago
        return SubmitResult(True, tuple(updates))

    def _play(self, move: Move) -> None:
        """Apply a move for the seat to move (the engine checks it), log its events, save, and finish."""
        self.record, events = self.record.play(move)
        self._append(events)
        self._autosave()
        if self.record.state.is_match_over:
            self._finish()

    def _finish(self) -> None:
        if not self._finished:
            self._finished = True
            self.saves.finish(self.record)

    def _append(self, events: Sequence[Event]) -> None:
        state = self.record.state
        self._log.extend(_Logged(event, state) for event in events)

    def _autosave(self) -> None:
        line = self.saves.autosave(self.record)
        if line:
            self._notes.append(line)
