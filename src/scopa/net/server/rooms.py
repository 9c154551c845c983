"""A room: its seats, lobby, presence and match, with no sockets and no clock of its own.

A room's match is a ``table.LocalTable``, the same core a local match plays through: it checks
whose turn it is and whether a move is legal (with the engine's reason), plays the computers
and covered seats, and keeps the record. The room adds what only an online table has: seats
taken by people with keys, the lobby, presence, and one numbering for game events and
notices together.

The server calls a room's methods from its one event loop, so a room is never changed by two
callers at once; every method that changes something returns the numbered ``Entry`` items it
added, and the server stores the room and then sends each connected seat its own updates.

Numbers: every entry (engine event or presence notice) has the next number of the room. Every
entry of one transition (a move's events, a deal's) carries the position after the whole
transition, so a client that saw any of them saw the current position. A move is stale when
the position changed since the number the client last saw: when ``expected`` is below
``position_number``, the first number that showed the current position, or above the room's
latest number (a number the room never gave says nothing of what the client saw). People
joining or leaving never make a move stale.
"""
from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, NamedTuple

from ...engine import Event, GameState, IllegalReason, Move, Rules
from ...engine.shuffle import COMPUTER_NAMES, COVER, Seed, commitment, derived_number, match_seed, seed_text
from ...match import NAME_LENGTH, Fairness, MatchRecord, SeatSetup
from ...players import computer_names, make_player
from ...table import (
    LocalTable,
    Notice,
    NoticeKind,
    Refusal,
    Resync,
    SeatUpdate,
    SubmitResult,
    computer_seed,
    computers_for,
    start_match,
)
from ..protocol.codes import key_matches
from ..protocol.wire import FinishedDeal, RoomInfo, RoomSeat
from .clock import AWAY_AFTER, MORE_TIME, ClockEvent, TurnClock
from .thinking import ComputerTurn, think

RoomPhase = Literal["lobby", "playing", "over"]
MAX_LOG = 1000  # entries kept for reconnects; older ones are answered with a resync
MAX_REPLAY = 200  # a client that missed more gets a resync


class Entry(NamedTuple):
    """One numbered thing that happened in the room; ``state`` is the position after it."""

    number: int
    event: Event | Notice
    state: GameState | None

    def for_seat(self, seat: int) -> SeatUpdate:
        return SeatUpdate(self.number, self.event, None if self.state is None else self.state.view(seat))


@dataclass
class Seat:
    """A taken seat. A human's seat has the hash of its key; ``covered``: a computer plays it now."""

    name: str
    kind: Literal["human", "computer"] = "human"
    level: str | None = None
    key_hash: str | None = None
    ready: bool = False
    connected: bool = False
    covered: bool = False
    left_at: float | None = None  # monotonic time the connection dropped
    holder: str | None = None  # with several server processes: the one whose connection plays the seat
    player: str | None = None  # the hash of the player key that took the seat (net.server.identity), if any
    covered_in: list[int] = field(default_factory=list)  # the deals a computer played some of it (net.server.ratings)
    program: bool = False  # a program plays the seat, by its own word (docs/protocol.md, Programs at the table)

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


class RoomRefusal(Exception):
    """A request the room does not do: an error code of the protocol and its values."""

    def __init__(self, code: str, **values: object) -> None:
        self.code, self.values = code, values
        super().__init__(code)


class MoveRefusal(Exception):
    """A move or next deal not done: a ``table.Refusal`` kind and, when illegal, the engine's reason."""

    def __init__(self, kind: Refusal, reason: IllegalReason | None = None) -> None:
        self.kind, self.reason = kind, reason
        super().__init__(kind)


@dataclass
class Room:
    code: str
    rules: Rules
    seats: list[Seat | None]
    level: str = "easy"
    host: int = 0
    phase: RoomPhase = "lobby"
    table: LocalTable | None = None  # the match, once started
    number: int = 0
    created: float = 0.0
    active: float = 0.0  # wall-clock time of the last activity, for expiry
    budget: float = 0.3
    iterations: int | None = None  # the expert's fixed samples instead of its time (tests)
    log: deque[Entry] = field(default_factory=lambda: deque(maxlen=MAX_LOG))
    position_number: int = 0  # the first update that showed the current position
    turn_since: float = 0.0  # monotonic time the seat to move got its turn
    # docs/fairness.md: the server's seed (drawn by the server with secrets, committed to in every
    # welcome, revealed in the finished match's record) and each human seat's contribution.
    # Empty for a match begun before protocol 2 (its record, of shuffle 1, has no fairness).
    server_seed: bytes = b""
    contributions: dict[int, bytes] = field(default_factory=dict)
    nonces: dict[bytes, bytes] = field(default_factory=dict)  # a share -> its secret, told at the end
    # Finding a game: "" a room found by its code only, "public" listed by ``tables`` while it
    # waits, "quick" a quick match's room (docs/online.md), which the server starts itself.
    listing: str = ""
    watchers_chat: bool = False  # whether spectators may chat (the host's choice)
    join_between_deals: bool = False  # a person may take a computer's seat between deals (the host's choice)
    finished_on: str = ""  # a daily room: the server's day its match ended (net.server.daily: late ends never count)
    made_from: str = ""  # a daily room: ``daily.address_tag`` of the address that made it (SQLite: not stored)
    second_try: bool = False  # a daily room its key began while another of the same deal was open: practice
    clock: TurnClock | None = None  # the turn timer (``net.server.clock``), the host's choice; None: off

    # Facts -------------------------------------------------------------------------------
    @property
    def record(self) -> MatchRecord | None:
        return None if self.table is None else self.table.record

    @property
    def state(self) -> GameState | None:
        return None if self.table is None else self.table.record.state

    def info(self) -> RoomInfo:
        seats = tuple(None if s is None else RoomSeat(s.name, s.kind, s.level, s.connected or not s.is_human,
                                                      s.covered, s.ready or not s.is_human, s.program)
                      for s in self.seats)
        assisted = self.record.assisted_deals if self.record else frozenset()
        given = tuple(self.contributions.get(seat) for seat in range(len(self.seats)))
        return RoomInfo(self.code, self.phase, self.rules, seats, self.host, self.level, assisted, given,
                        None if self.clock is None else self.clock.turn_time, self.watchers_chat,
                        self.join_between_deals)

    @property
    def commitment(self) -> bytes | None:
        """What every welcome says of the server's seed: its SHA-256 (None: a match of shuffle 1)."""
        return commitment(self.server_seed) if self.server_seed else None

    def contribute(self, seat: int, value: bytes, nonce: bytes | None = None) -> bool:
        """A human seat's share of the seed, taken once, in the lobby; whether it was new. ``nonce``:
        the share's secret (``shuffle.share_of``), told to every seat at the end with the record."""
        if self.phase != "lobby" or not self.server_seed:
            raise RoomRefusal("not_lobby")
        taken = self.seats[seat]
        if taken is None or not taken.is_human or seat in self.contributions:
            return False
        self.contributions[seat] = value
        if nonce is not None:
            self.nonces[value] = nonce
        return True

    def nonces_for(self, seat: int) -> tuple[tuple[bytes, bytes], ...]:
        """The (share, nonce) of every share the match used, for ``seat``'s client at the end: only
        when that seat's own share came with its nonce (a client of before refuses the field)."""
        fairness = self.record.fairness if self.record is not None else None
        if fairness is None or not any(s == seat and v in self.nonces for s, v in fairness.contributions):
            return ()
        return tuple((v, self.nonces[v]) for _, v in fairness.contributions if v in self.nonces)

    def finished_deal(self) -> FinishedDeal | None:
        """The last deal that ended, as the whole table saw it counted (None before one did)."""
        record = self.record
        if record is None or record.scored is None or record.scored_in is None:
            return None
        scored, position = record.scored, record.scored_in
        return FinishedDeal(scored.deal_number, position.piles, position.scope, scored.match_scores,
                            position.bonus_points())

    def seat_of_key(self, key: str) -> int | None:
        """The seat whose key this is, comparing every seat's hash in constant time."""
        found = None
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.key_hash is not None and key_matches(key, seat.key_hash):
                found = number
        return found

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.is_human]

    # Lobby -------------------------------------------------------------------------------
    def check_joinable(self) -> None:
        """Raise what ``join`` would refuse for the room itself (started, full). A room whose host
        lets people take a computer's seat (``join_between_deals``) takes one between two deals."""
        if self.phase != "lobby":
            if not self.join_between_deals or self.phase != "playing":
                raise RoomRefusal("started")
            if not self._computers():
                raise RoomRefusal("room_full")
            state = self.state
            if state is None or not state.is_deal_over or state.is_match_over:
                raise RoomRefusal("between_deals")
            return
        if all(s is not None for s in self.seats):
            raise RoomRefusal("room_full")

    def _computers(self) -> list[int]:
        """The seats a computer plays by itself (not a person's seat it covers)."""
        return [i for i, s in enumerate(self.seats) if s is not None and s.kind == "computer"]

    def seat_player(self, seat: int, player: str | None, program: bool = False) -> None:
        """Note the hash of the player key that took the seat (net.server.identity), and whether a
        program plays it."""
        taken = self.seats[seat]
        if taken is not None:
            taken.player, taken.program = player, program

    def join(self, name: str, key_hash: str) -> tuple[int, list[Entry]]:
        self.check_joinable()
        if self.phase == "playing":  # between deals: the person takes the first computer's seat, ready
            seat = self._computers()[0]
            self.seats[seat] = None  # the computer's name is free for the person
            self.seats[seat] = Seat(self._unique(name), key_hash=key_hash, connected=True, ready=True)
            return seat, [self._notice("joined", seat)]
        free = [i for i, s in enumerate(self.seats) if s is None]
        seat = free[0]
        # A quick match has no ready question: whoever takes its seat is ready.
        self.seats[seat] = Seat(self._unique(name), key_hash=key_hash, connected=True, ready=self.listing == "quick")
        return seat, [self._notice("joined", seat)]

    # Finding a game ----------------------------------------------------------------------
    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s is None)

    def waiting(self, listing: str) -> bool:
        """Listed as ``listing`` and still waiting for players in its lobby."""
        return self.listing == listing and self.phase == "lobby" and self.free_seats() > 0

    def quick_due(self, wall: float, wait: float) -> bool:
        """A quick room to start now: every seat taken, or the wait since it was made is over;
        and every human seat has given its share of the seed."""
        if self.listing != "quick" or self.phase != "lobby" or not self.humans():
            return False
        if not self.server_seed or any(i not in self.contributions for i in self.humans()):
            return False
        return self.free_seats() == 0 or wall - self.created >= wait

    def vacate(self, seat: int) -> list[Entry]:
        """A player who left a quick room's lobby gives the seat up: a quick match waits for
        people who are there (no seat is kept for them to take back)."""
        if self.listing != "quick" or self.phase != "lobby" or self.seats[seat] is None:
            return []
        entry = self._notice("left", seat)
        self.seats[seat] = None
        self.contributions.pop(seat, None)
        if seat == self.host and self.humans():
            self.host = self.humans()[0]
        return [entry]

    def _unique(self, name: str) -> str:
        """The name, with a number after it when another seat has it already; shortened to leave
        room for the number, so that it stays within the rule of names (``NAME_LENGTH``) that the
        clients check."""
        taken = {s.name for s in self.seats if s is not None}
        if name not in taken:
            return name
        for n in range(2, 10):
            suffix = f" {n}"
            candidate = name[:NAME_LENGTH - len(suffix)].rstrip() + suffix
            if candidate not in taken:
                return candidate
        raise AssertionError("a room has at most four seats: one of nine numbers is free")

    def set_seat(self, by: int, seat: int, kind: str) -> list[Entry]:
        """The host turns a computer seat into an open seat for a person (``kind`` "open") or a
        free seat into a computer at a level (``kind`` a level), in the lobby; everyone hears it."""
        if by != self.host:
            raise RoomRefusal("not_host")
        if self.phase != "lobby":
            raise RoomRefusal("not_lobby")
        if not 0 <= seat < len(self.seats) or seat == self.host:
            raise RoomRefusal("bad_seat")
        taken = self.seats[seat]
        if kind == "open":
            if taken is None or taken.is_human:
                raise RoomRefusal("bad_seat")  # only a computer's seat is opened: a person keeps theirs
            self.seats[seat] = None
            self.contributions.pop(seat, None)
            return [self._add(Notice("seat_opened", seat, taken.name))]
        if taken is not None:
            raise RoomRefusal("bad_seat")
        used = {s.name for s in self.seats if s is not None}
        pick = random.Random(f"{self.code}{seat}").getrandbits(16)  # noqa: S311 -- a name, not a secret
        name = next(n for n in computer_names(len(self.seats) + 4, pick) if n not in used)
        self.seats[seat] = Seat(name, "computer", kind)
        return [self._notice("seat_computer", seat)]

    def move_seat(self, by: int, from_seat: int, to_seat: int) -> tuple[list[Entry], dict[int, int]]:
        """The host moves whoever sits in ``from_seat`` to ``to_seat``, in the lobby: the two seats
        are swapped whole (a person keeps their key's hash, so their key takes the new seat back;
        a free seat stays free, a computer goes to the other seat). The host's seat number, the
        shares of the seed and the readiness follow: a person moved, not the host, is asked ready
        again. The notices (one per seat taken after the move) and where each moved seat went."""
        if by != self.host:
            raise RoomRefusal("not_host")
        if self.phase != "lobby":
            raise RoomRefusal("not_lobby")
        seats = range(len(self.seats))
        if from_seat not in seats or to_seat not in seats or from_seat == to_seat or self.seats[from_seat] is None:
            raise RoomRefusal("bad_seat")
        moves = {from_seat: to_seat, to_seat: from_seat} if self.seats[to_seat] is not None else {from_seat: to_seat}
        self.seats[from_seat], self.seats[to_seat] = self.seats[to_seat], self.seats[from_seat]
        shares = {moves.get(seat, seat): value for seat, value in self.contributions.items()}
        self.contributions = shares
        self.host = moves.get(self.host, self.host)
        for seat in moves.values():
            taken = self.seats[seat]
            if taken is not None and taken.is_human:
                taken.ready = seat == self.host or self.listing == "quick"  # a quick match asks nobody ready
        return [self._notice("seat_moved", seat) for seat in (to_seat, from_seat) if seat in moves.values()], moves

    def set_watchers_chat(self, by: int, allowed: bool) -> list[Entry]:
        """The host's choice whether spectators may chat, said to everyone (again when unchanged: the
        host hears it is so)."""
        if by != self.host:
            raise RoomRefusal("not_host")
        if self.phase == "over":
            raise RoomRefusal("not_lobby")
        self.watchers_chat = allowed
        return [self._notice("watchers_chat_on" if allowed else "watchers_chat_off", self.host)]

    def ready(self, seat: int) -> list[Entry]:
        if self.phase != "lobby":
            raise RoomRefusal("not_lobby")
        taken = self.seats[seat]
        if taken is None or taken.ready:
            return []
        taken.ready = True
        return [self._notice("ready", seat)]

    def start(self, seat: int, now: float, least: int = 2) -> list[Entry]:
        """The match begun by the host (``least``: the humans it needs; a quick match needs one)."""
        if seat != self.host:
            raise RoomRefusal("not_host")
        if self.phase != "lobby":
            raise RoomRefusal("not_lobby")
        humans = self.humans()
        if len(humans) < least:
            raise RoomRefusal("cannot_start", reason="players")
        unready = [i for i, taken in enumerate(self.seats)
                   if taken is not None and taken.is_human and i != self.host and not taken.ready]
        if unready:
            raise RoomRefusal("cannot_start", reason="not_ready", seat=unready[0])
        if not self.server_seed:
            raise RoomRefusal("cannot_start", reason="not_ready")  # a room of protocol 1: it never starts
        unshared = [i for i in humans if i not in self.contributions]
        if unshared:  # a seat's client has not given its share of the seed: said as such, not as unready
            raise RoomRefusal("cannot_start", reason="no_share", seat=unshared[0])
        shares = tuple((i, self.contributions[i]) for i in humans)
        seed = match_seed(self.server_seed, shares)
        free = [i for i, s in enumerate(self.seats) if s is None]
        used = {s.name for s in self.seats if s is not None}
        names = [n for n in computer_names(8, derived_number(seed, COMPUTER_NAMES, 0)) if n not in used]
        for i, number in enumerate(free):
            self.seats[number] = Seat(names[i], "computer", self.level)
        setups = tuple(SeatSetup(s.name, s.kind, s.level) for s in self.seats if s is not None)
        record, events = start_match(self.rules, setups, seed)
        record = replace(record, fairness=Fairness(self.server_seed, shares))
        self.table = match_table(record, self.budget)
        self.phase = "playing"
        self.turn_since = now
        started = self._notice("started", seat)
        entries = [started, *self._game(events)]
        self.position_number = started.number
        return entries

    def start_daily(self, now: float) -> list[Entry]:
        """A daily deal's room begun at once (``net.server.daily``): dealt from the server seed alone, no
        seat's contribution (everyone must get the same deal), the computers as ``new_room`` named them."""
        if self.phase != "lobby" or not self.server_seed:
            raise RoomRefusal("not_lobby")
        seed = match_seed(self.server_seed, ())
        setups = tuple(SeatSetup(s.name, s.kind, s.level) for s in self.seats if s is not None)
        record, events = start_match(self.rules, setups, seed)
        record = replace(record, fairness=Fairness(self.server_seed, ()))
        self.table = match_table(record, self.budget)
        self.phase = "playing"
        self.turn_since = now
        started = self._notice("started", self.host)
        self.position_number = started.number
        return [started, *self._game(events)]

    # Play --------------------------------------------------------------------------------
    def play(self, seat: int, move: Move, expected: int, now: float) -> list[Entry]:
        self._check_turn(seat, expected)
        return self._done(self._table.submit(seat, move, self._table.latest()), now)

    def human_play(self, seat: int, move: Move, expected: int, now: float) -> list[Entry]:
        """A person's own move: played, and the turn timer's count of turns run out cleared."""
        entries = self.play(seat, move, expected, now)
        self.played_in_time(seat)
        return entries

    def claim(self, seat: int, expected: int, now: float) -> list[Entry]:
        """Cirulla: ``seat`` shows its hand to claim its bonus, before the hand's first card."""
        self._check_turn(seat, expected)
        return self._done(self._table.claim(seat, self._table.latest()), now)

    def _check_turn(self, seat: int, expected: int) -> None:
        """Refuse a play or a claim out of the match, stale, between deals or out of turn (in that order)."""
        state = self._playing()
        self._check_fresh(expected)
        if state.is_deal_over:
            raise MoveRefusal("not_now")
        if seat != state.to_move:
            raise MoveRefusal("not_your_turn")

    @property
    def _table(self) -> LocalTable:
        assert self.table is not None
        return self.table

    def _done(self, result: SubmitResult, now: float) -> list[Entry]:
        """The entries of what the table did, or its refusal (the room checked staleness already:
        the table is asked against its own latest number)."""
        if not result.accepted:
            reason = result.reason if isinstance(result.reason, IllegalReason) else None
            raise MoveRefusal(result.refusal or "unavailable", reason)
        self.turn_since = now
        if self._table.record.state.is_match_over:
            self.phase = "over"
        return self._game([update.event for update in result.updates])

    def next_deal(self, seat: int, expected: int, now: float) -> list[Entry]:
        self._playing()
        if seat != self.host:
            raise MoveRefusal("unavailable")
        self._check_fresh(expected)
        return self._deal(now)

    def _check_fresh(self, expected: int) -> None:
        """Refuse as stale a request made from a position that is no longer the room's, or from a
        number the room never gave."""
        if not self.position_number <= expected <= self.number:
            raise MoveRefusal("stale")

    def _deal(self, now: float) -> list[Entry]:
        return self._done(self._table.next_deal(self.host, self._table.latest()), now)

    def _playing(self) -> GameState:
        if self.record is None or self.phase == "lobby":
            raise MoveRefusal("not_now")
        if self.phase == "over":
            raise MoveRefusal("closed")
        return self.record.state

    def mark_assisted(self, seat: int) -> list[Entry]:
        if self.table is None or self.phase != "playing":
            return []
        if self.table.record.state.deal_number in self.table.record.assisted_deals:
            return []
        self.table.mark_assisted(seat)
        return [self._notice("assisted", seat)]

    def computer_to_move(self) -> int | None:
        """The seat a computer should play now (a covered seat counts), if any. Nobody plays
        while no player is connected: the match waits for someone to come back."""
        if self.table is None or self.phase != "playing" or not self._anyone_here():
            return None
        return self.table.computer_to_move()

    def _anyone_here(self) -> bool:
        return any(s is not None and s.is_human and s.connected for s in self.seats)

    def host_is_away(self) -> bool:
        """The deal is over and the host's seat is covered: the table deals for them."""
        state = self.state
        host = self.seats[self.host]
        return (self.phase == "playing" and state is not None and state.is_deal_over and not state.is_match_over
                and host is not None and host.covered and self._anyone_here())

    def computer_turn(self) -> ComputerTurn | None:
        """What the computer to move (a covered seat counts) needs to choose its move, or None.
        Its seed is its own for this move (``move_seed``), so the move is the same wherever it
        is worked out: in the server's pool of worker processes or here."""
        seat = self.computer_to_move()
        record = self.record
        if seat is None or record is None:
            return None
        key = (seat, record.state.deal_number, len(record.moves), len(record.state.claims))
        return ComputerTurn(key, self._level_of(seat), move_seed(record.seed, seat, len(record.moves)), self.budget,
                            record.state.view(seat), self.iterations)

    def _level_of(self, seat: int) -> str:
        taken = self.seats[seat]
        if taken is not None and not taken.is_human:
            return taken.level or "easy"
        return self.level  # a covered player's seat is played at the room's level

    def computer_move(self, now: float, turn: ComputerTurn | None = None, move: Move | None = None) -> list[Entry]:
        """The computer's move: ``move``, worked out for ``turn``, when ``turn`` is still the table's;
        without them it is worked out here. Nothing when the table changed since ``turn``. In Cirulla
        a turn that claims (``ComputerTurn.claim``) is the claim alone, made by the table: its move is
        the next turn's (the claim is a turn of its own, so the move is thought for the view after it)."""
        current = self.computer_turn()
        if current is None or (turn is not None and turn.key != current.key):
            return []
        table = self._table
        before = table.latest()
        if current.claim:
            table.step()
        else:
            table.step(move if turn is not None and move is not None else think(current))
        updates = table.updates(table.seats_here()[0], before)
        assert not isinstance(updates, Resync)  # the table's own numbers, a moment old
        return self._done(SubmitResult(True, tuple(updates)), now)

    def deal_for_host(self, now: float) -> list[Entry]:
        return self._deal(now) if self.host_is_away() else []

    # Presence ----------------------------------------------------------------------------
    def connected(self, seat: int) -> list[Entry]:
        """The seat's player is back (or here for the first time after a restart)."""
        taken = self.seats[seat]
        assert taken is not None
        was_away = not taken.connected or taken.covered
        taken.connected, taken.left_at = True, None
        if taken.covered:
            taken.covered = False
            if taken.covered_in and self.table is not None:
                taken.covered_in.extend(range(taken.covered_in[-1] + 1, self.table.record.state.deal_number + 1))
            self._table.uncover(seat)
        return [self._notice("reclaimed", seat)] if was_away else []

    def disconnected(self, seat: int, now: float) -> list[Entry]:
        taken = self.seats[seat]
        if taken is None or not taken.connected:
            return []
        taken.connected, taken.left_at = False, now
        return [self._notice("left", seat)]

    def cover_due(self, now: float, grace: float, turn_grace: float) -> list[int]:
        """Human seats away long enough that a computer should play them."""
        if self.phase != "playing" or self.state is None:
            return []
        due = []
        for number, taken in enumerate(self.seats):
            if taken is None or not taken.is_human or taken.connected or taken.covered or taken.left_at is None:
                continue
            deadline = taken.left_at + grace
            if self._waits_for(number):
                deadline = min(deadline, max(taken.left_at, self.turn_since) + turn_grace)
            if now >= deadline:
                due.append(number)
        return due

    def _waits_for(self, seat: int) -> bool:
        state = self.state
        if state is None:
            return False
        if state.is_deal_over:
            return seat == self.host and not state.is_match_over
        return state.to_move == seat

    def cover(self, seat: int) -> list[Entry]:
        taken = self.seats[seat]
        if taken is None or taken.covered or self.table is None:
            return []
        taken.covered = True
        taken.covered_in.append(self.table.record.state.deal_number)
        self.table.cover(seat, make_player(self.level, cover_seed(self.table.record.seed, seat), budget=self.budget))
        return [self._notice("covered", seat)]

    def covered_deals(self, seat: int) -> list[int]:
        """``Seat.covered_in``, and while the seat is covered still every deal since its last cover
        up to this one: the SQLite store, which does not keep ``covered``, keeps these."""
        taken = self.seats[seat]
        if taken is None:
            return []
        if taken.covered and taken.covered_in and self.table is not None:
            return [*taken.covered_in, *range(taken.covered_in[-1] + 1, self.table.record.state.deal_number + 1)]
        return list(taken.covered_in)

    def played_for(self, seat: int) -> frozenset[int]:
        """The deals a computer played some of ``seat`` in: covered (``covered_deals``) or its time
        run out (the turn timer's ``timed_out_in``). None of them earns that seat's player an
        achievement: the ``match_record`` answer to the seat says them, and its client logs them
        as assisted."""
        deals = set(self.covered_deals(seat))
        if self.clock is not None:
            deals |= self.clock.timed_out_in.get(seat, set())
        return frozenset(deals)

    # The turn timer (issue 28) -------------------------------------------------------------
    def clock_seat(self) -> int | None:
        """The seat whose turn the timer counts: a human to move, connected, not covered."""
        state = self.state
        if self.clock is None or self.phase != "playing" or state is None or state.is_deal_over:
            return None
        taken = self.seats[state.to_move]
        if taken is None or not taken.is_human or not taken.connected or taken.covered:
            return None
        return state.to_move

    def _turn_key(self) -> tuple[int, int]:
        record = self.record
        return (0, 0) if record is None else (record.state.deal_number, len(record.moves))

    def clock_due(self, now: float, scale: float = 1.0) -> tuple[ClockEvent, int] | None:
        """A warning (its seconds) or the timeout due now for the seat the timer counts, or None."""
        if self.clock is None or self.clock_seat() is None:
            return None
        self.clock.new_turn(self._turn_key())
        return self.clock.due(self.turn_since, now, scale)

    def timeout_turn(self) -> ComputerTurn | None:
        """What the easy level needs to choose the card of a seat whose time ran out."""
        seat, record = self.clock_seat(), self.record
        if seat is None or record is None:
            return None
        key = (seat, record.state.deal_number, len(record.moves), len(record.state.claims))  # as computer_turn's
        return ComputerTurn(key, "easy", move_seed(record.seed, seat, len(record.moves)), self.budget,
                            record.state.view(seat), self.iterations)

    def timed_out(self, turn: ComputerTurn, move: Move, now: float) -> list[Entry]:
        """The card chosen for ``turn`` played for the seat, after a notice saying so; a second
        turn run out in a row covers the seat. Nothing when the table moved on since ``turn``."""
        current = self.timeout_turn()
        if self.clock is None or current is None or current.key != turn.key:
            return []
        seat = current.key[0]
        entries = [self._notice("timed_out", seat), *self.play(seat, move, self.number, now)]
        self.clock.timed_out_in.setdefault(seat, set()).add(current.key[1])  # the deal the card was played in
        self.clock.misses[seat] = self.clock.misses.get(seat, 0) + 1
        if self.clock.misses[seat] >= AWAY_AFTER:
            entries += self.cover(seat)
        return entries

    def more_time(self, seat: int) -> list[Entry]:
        """Once per deal a seat to move adds ``MORE_TIME`` seconds to its turn, said to all."""
        state = self.state
        if self.clock is None or state is None or self.clock_seat() != seat:
            raise RoomRefusal("no_more_time")
        asked = (seat, state.deal_number)
        if asked in self.clock.extended:
            raise RoomRefusal("no_more_time")
        self.clock.new_turn(self._turn_key())
        self.clock.extended.add(asked)
        self.clock.bonus += MORE_TIME
        return [self._notice("more_time", seat)]

    def played_in_time(self, seat: int) -> None:
        """A person played: the turns run out in a row start again from none."""
        if self.clock is not None:
            self.clock.misses.pop(seat, None)

    def back_from_away(self, seat: int, now: float) -> list[Entry]:
        """A connected player covered after running out of time pressed a key: the seat is theirs again."""
        taken = self.seats[seat]
        if taken is None or not taken.connected or not taken.covered:
            return []
        if self.clock is not None:
            self.clock.misses.pop(seat, None)
        entries = self.connected(seat)
        if self.clock_seat() == seat:
            self.turn_since = now  # a whole turn from now
        return entries

    def close_notice(self) -> list[Entry]:
        return [self._notice("closed", self.host)]

    # Catching up -------------------------------------------------------------------------
    def updates(self, seat: int, after: int, most: int = MAX_REPLAY) -> Sequence[SeatUpdate] | Resync | None:
        """What ``seat`` missed since ``after``: the updates, or a resync (None: a resync without a
        view, before the match started)."""
        if after == self.number:
            return []
        oldest = self.log[0].number if self.log else self.number + 1
        if after > self.number or after + 1 < oldest or self.number - after > most:
            state = self.state
            if state is None:
                return None
            return Resync(self.number, state.view(seat), self.info().table_info())
        return [entry.for_seat(seat) for entry in self.log if entry.number > after]

    # Numbering ---------------------------------------------------------------------------
    def _notice_named(self, kind: NoticeKind, name: str) -> Entry:
        """A notice about someone without a seat (a spectator), told under the host's seat number."""
        return self._add(Notice(kind, self.host, name))

    def _notice(self, kind: NoticeKind, seat: int) -> Entry:
        taken = self.seats[seat]
        return self._add(Notice(kind, seat, taken.name if taken else ""))

    def _game(self, events: Sequence[Event | Notice]) -> list[Entry]:
        entries = [self._add(event) for event in events]
        if entries:
            self.position_number = entries[0].number
        return entries

    def _add(self, event: Event | Notice) -> Entry:
        self.number += 1
        entry = Entry(self.number, event, self.state)
        self.log.append(entry)
        return entry


def seed_parts_to_data(room: Room) -> dict[str, object]:
    """The room's server seed and contributions as stored (SQLite and Redis alike)."""
    return {"server_seed": room.server_seed.hex(),
            "contributions": {str(seat): value.hex() for seat, value in sorted(room.contributions.items())},
            "nonces": {value.hex(): nonce.hex() for value, nonce in sorted(room.nonces.items())}}


def seed_parts_from_data(room: Room, data: object, fresh: Callable[[], bytes]) -> None:
    """Put the stored seed parts back into ``room``. A room stored before them has none: in the
    lobby it gets a new server seed (``fresh``, the server's secrets); a match begun then has
    none (it is of shuffle 1 and checks nothing), one begun since keeps them in its record too."""
    if isinstance(data, dict) and data.get("server_seed"):
        room.server_seed = bytes.fromhex(data["server_seed"])
        room.contributions = {int(seat): bytes.fromhex(value) for seat, value in data["contributions"].items()}
        room.nonces = {bytes.fromhex(value): bytes.fromhex(nonce) for value, nonce in data.get("nonces", {}).items()}
    elif room.record is not None and room.record.fairness is not None:
        room.server_seed = room.record.fairness.server_seed
        room.contributions = dict(room.record.fairness.contributions)
    elif room.phase == "lobby":
        room.server_seed = fresh()


def cover_seed(seed: Seed, seat: int) -> int:
    """The seed of the computer that plays for a human who left: its own labelled stream (shuffle
    2); for a match of shuffle 1, drawn as it always was, so a stored room plays on the same."""
    if isinstance(seed, bytes):
        return computer_seed(seed, seat, COVER)
    return random.Random(seed * 31 + seat).getrandbits(32)  # noqa: S311 - shuffle 1's computers, as before


def move_seed(seed: Seed, seat: int, played: int) -> int:
    """The seed of one computer move: the match's seed, the seat and the number of moves played
    before it (the seed as ``shuffle.seed_text`` writes it), through SHA-256. Each move has its own,
    so a move is the same wherever it is worked out and whatever was worked out before it (a
    generator carried from move to move would make it depend on which process played the earlier
    ones)."""
    digest = hashlib.sha256(f"scopa computer move|{seed_text(seed)}|{seat}|{played}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def match_table(record: MatchRecord, budget: float) -> LocalTable:
    """The table of a room's match: every human seat is served by the room, computers play in it.
    Its saves are the room's store, which the server writes after each change."""
    return LocalTable(record, computers_for(record, budget))


def new_room(code: str, rules: Rules, kinds: Sequence[str], host_name: str, host_key_hash: str, level: str,
             now: float, budget: float = 0.3, server_seed: bytes = b"", listing: str = "",
             names_from: str = "") -> tuple[Room, list[Entry]]:
    """A room with its host in seat 0 and computers where ``kinds`` names a level. ``server_seed``:
    32 bytes the server drew with ``secrets`` (docs/fairness.md). ``names_from``: what the
    computers' names follow from instead of the code (the daily deal's day: one expert all day)."""
    computers = [i for i, kind in enumerate(kinds) if kind != "human"]
    # The computers' names follow from the room code, which everyone in the room is told: not a secret.
    pick = random.Random(names_from or code).getrandbits(16)  # noqa: S311
    names = [n for n in computer_names(len(computers) + 1, pick) if n != host_name]
    seats: list[Seat | None] = [None] * len(kinds)
    seats[0] = Seat(host_name, key_hash=host_key_hash, ready=True, connected=True)
    for i, number in enumerate(computers):
        seats[number] = Seat(names[i], "computer", kinds[number])
    room = Room(code, rules, seats, level, created=now, active=now, budget=budget, server_seed=server_seed,
                listing=listing)
    return room, [room._notice("joined", 0)]
