"""``RemoteTable``: the ``Table`` of an online room, a websockets client of the room server.

Why threads: the console is synchronous (it blocks in a prompt), so the connection lives in
one background thread using the synchronous ``websockets.sync.client``. That thread reads
every server message, keeps the numbered updates, the seat's latest view and the room's info
under one lock, and raises ``wake`` (``console.terminal.Wake``) whenever something new arrived,
so the prompt open at that moment ends and the console can announce it at once. The console's
thread sends (``websockets`` allows one sender beside one reader) and waits on a condition for
the answer to a move.

Seat keys: the key travels only in the first message of a connection (never in the URL). A
dropped connection is taken up again by the reader thread itself: after a short, growing pause
(``BACKOFF``), it sends ``hello`` with the room code, the seat key and the number of the last
update it has; the server answers with the missed updates or a resync. A fatal refusal (wrong
key, room closed) ends the retries and is kept in ``problem`` for the console to say.

Numbers: a fresh connection in this process (``open``) starts at the number the welcome
gives; older updates the server may send after it are not news, only their view is kept. The
welcome also gives the last finished deal (its piles, scored again here), so B has a score
sheet to say in a client started after that deal ended.

The finished match: once this seat's view shows the match over, ``finished_record`` asks the
server for the whole record (seed and moves), which the server gives then and only then, and
checks it against what this seat saw (the rules, the names at the table, the final score): the
player's results log keeps it. Anything else (an older server, a record that does not check)
gives None, and nothing is logged.
"""
from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..engine import DealScored, Move, Phase, PlayerView
from ..match import MatchRecord
from ..storage import SaveFileError, record_from_dict
from ..table import Resync, SeatUpdate, SubmitResult, TableInfo
from .messages import (MAX_RECORD_MESSAGE, Accepted, Assisted, ClientMessage, CreateRoom, ErrorMessage, Hello,
                       InfoMessage, Join, MatchRecordMessage, MoveRequest, NextDealRequest, ProtocolError, Ready,
                       RecordRequest, Refused, ResyncMessage, RoomInfo, ServerMessage, Start, UpdateMessage, Welcome,
                       encode, parse_server_message)

BACKOFF = (0.2, 0.5, 1.0, 2.0)  # seconds before each reconnection try; the last one repeats
OPEN_TIMEOUT = 5.0               # seconds to connect and be welcomed
ANSWER_TIMEOUT = 15.0            # seconds to wait for the answer to a move
RECORD_TIMEOUT = 5.0             # seconds the end of a match waits for its record (reconnecting if need be)
UNREACHABLE = "unreachable"      # ``problem`` code when the server cannot be reached at all


class NoWake:
    """Stands in for ``console.terminal.Wake`` when nobody waits at a prompt (tests, tools)."""

    def raise_(self) -> None:
        pass


@dataclass(frozen=True)
class Problem:
    """Why the table cannot go on: a server error code (``messages.ERROR_CODES``) or ``UNREACHABLE``."""

    code: str
    values: dict[str, object]


class TableClosed(Exception):
    """``open`` failed: the server refused the first message or could not be reached."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)
        self.problem = problem


class RemoteTable:
    """One seat of an online room; implements ``table.Table`` for that seat alone.

    Beside the ``Table`` methods, the lobby uses ``room``, ``ready``, ``start``, and the console
    reads ``connected``, ``problem`` and ``take_errors`` (non-fatal refusals to say)."""

    def __init__(self, server: str, first: CreateRoom | Join | Hello, wake: object | None = None,
                 backoff: Sequence[float] = BACKOFF) -> None:
        self.server = server
        self.wake = wake if wake is not None else NoWake()
        self.backoff = tuple(backoff)
        self._first = first
        self._lock = threading.Condition()
        self._ids = itertools.count(1)
        self._ws = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self.code: str = getattr(first, "code", "")
        self.key: str = getattr(first, "seat_key", "")
        self.seat = 0
        self.connected = False
        self.drops = 0  # connections lost and taken up again, for the console's "back" line
        self.problem: Problem | None = None
        self._room: RoomInfo | None = None
        self._view: PlayerView | None = None
        self._view_at = 0     # the number of the update (or resync) that gave the view
        self._log: list[SeatUpdate] = []
        self._floor = 0       # updates at or below this number are not kept (before this session, or resynced)
        self._latest = 0
        self._resynced = False
        self._scored: DealScored | None = None  # the last deal's score: from the welcome, then the updates
        self._answers: dict[int, Accepted | Refused | MatchRecordMessage] = {}
        self._errors: list[ErrorMessage] = []

    # Connecting ----------------------------------------------------------------------------
    def open(self, timeout: float = OPEN_TIMEOUT) -> Welcome:
        """Connect, introduce this seat and wait for the welcome; ``TableClosed`` if refused. Mid-match,
        also wait for the view as of the welcome (the missed updates replayed first carry older ones)."""
        welcome = self._connect(self._first, timeout, first_time=True)
        self._thread = threading.Thread(target=self._read_forever, daemon=True, name="scopa-table")
        self._thread.start()
        if welcome.info.phase != "lobby":  # a seat taken back mid-match: its view follows the welcome,
            # after the older updates it missed, whose views are older positions
            with self._lock:
                self._lock.wait_for(lambda: self._view is not None and self._view_at >= welcome.number
                                    or not self.connected, timeout)
        return welcome

    def _connect(self, first: ClientMessage, timeout: float, first_time: bool = False) -> Welcome:
        from websockets.exceptions import InvalidURI, WebSocketException
        from websockets.sync.client import connect
        try:
            ws = connect(self.server, open_timeout=timeout, max_size=MAX_RECORD_MESSAGE, close_timeout=1)
            ws.__enter__()  # websockets 17 wants a context manager; this connection outlives the call, close() ends it
        except InvalidURI:
            raise TableClosed(Problem("bad_server", {})) from None
        except (OSError, TimeoutError, WebSocketException):
            raise TableClosed(Problem(UNREACHABLE, {})) from None
        try:
            ws.send(encode(first))
            message = self._parse(ws.recv(timeout=timeout))
            while not isinstance(message, (Welcome, ErrorMessage)):
                message = self._parse(ws.recv(timeout=timeout))
        except (OSError, TimeoutError, WebSocketException, ProtocolError):
            ws.close()
            raise TableClosed(Problem(UNREACHABLE, {})) from None
        if isinstance(message, ErrorMessage):
            ws.close()
            raise TableClosed(Problem(message.code, dict(message.values)))
        with self._lock:
            self._ws = ws
            self._welcomed(message, first_time)
        return message

    def _welcomed(self, welcome: Welcome, first_time: bool = False) -> None:
        """Under the lock: the seat, the code, the key (given only once), the room."""
        self.code, self.seat, self._room = welcome.code, welcome.seat, welcome.info
        if welcome.seat_key:
            self.key = welcome.seat_key
        if first_time:  # a seat taken back after a restart keeps as news what followed its last own move
            start = self._first.last_number if isinstance(self._first, Hello) else 0
            self._floor = self._latest = start if 0 < start <= welcome.number else welcome.number
        if welcome.last_deal is not None:  # the newest as of the welcome: what follows is newer or the same
            self._scored = welcome.last_deal.scored(welcome.info.rules)
        self.connected = True

    def _parse(self, raw: str | bytes) -> ServerMessage:
        rules = self._room.rules if self._room is not None else None
        return parse_server_message(raw, rules)

    def _read_forever(self) -> None:
        """The reader thread: every message, then reconnection after a drop, until closed."""
        from websockets.exceptions import WebSocketException
        while True:
            ws = self._ws
            try:
                while True:
                    self._handle(self._parse(ws.recv()))
            except (OSError, WebSocketException, ProtocolError, TimeoutError):
                pass
            with self._lock:
                self.connected = False
                self._lock.notify_all()
                if self._closing or self.problem is not None:
                    break
            self.wake.raise_()
            if not self._reconnect():
                break
        self.wake.raise_()

    def _reconnect(self) -> bool:
        """Try again and again, with growing pauses, until welcomed, refused or closed."""
        for attempt in itertools.count():
            time.sleep(self.backoff[min(attempt, len(self.backoff) - 1)])
            with self._lock:
                if self._closing:
                    return False
                hello = Hello(self.code, self.key, self._latest)
            try:
                self._connect(hello, OPEN_TIMEOUT)
            except TableClosed as refused:
                if refused.problem.code == UNREACHABLE:
                    continue
                with self._lock:
                    self.problem = refused.problem
                    self._lock.notify_all()
                return False
            with self._lock:
                self.drops += 1
            self.wake.raise_()
            return True
        return False  # pragma: no cover - itertools.count never ends

    def _handle(self, message: ServerMessage) -> None:
        with self._lock:
            if isinstance(message, UpdateMessage):
                self._add(message.update)
            elif isinstance(message, InfoMessage):
                self._room = message.info
            elif isinstance(message, ResyncMessage):
                self._room, self._latest, self._floor = message.info, message.number, message.number
                if message.view is not None:
                    self._view, self._view_at = message.view, message.number
                self._log = []
                self._resynced = True
            elif isinstance(message, (Accepted, Refused, MatchRecordMessage)):
                self._answers[message.id] = message
            elif isinstance(message, ErrorMessage):
                if message.fatal:
                    self.problem = Problem(message.code, dict(message.values))
                else:
                    self._errors.append(message)
            elif isinstance(message, Welcome):
                self._welcomed(message)
            self._lock.notify_all()
        if not isinstance(message, InfoMessage):  # kept for the update that follows it: nothing to say
            self.wake.raise_()

    def _add(self, update: SeatUpdate) -> None:
        if update.view is not None:
            self._view, self._view_at = update.view, update.number
        if update.number <= self._latest:
            return  # already had it, or older than this session
        self._log.append(update)
        self._latest = update.number
        if isinstance(update.event, DealScored):
            self._scored = update.event

    def _send(self, message: ClientMessage) -> bool:
        ws = self._ws
        if ws is None or not self.connected:
            return False
        from websockets.exceptions import WebSocketException
        try:
            ws.send(encode(message))
        except (OSError, WebSocketException):
            return False
        return True

    # The lobby and the console's extras ------------------------------------------------------
    def room(self) -> RoomInfo | None:
        with self._lock:
            return self._room

    def ready(self) -> bool:
        return self._send(Ready())

    def start(self) -> bool:
        return self._send(Start())

    def take_errors(self) -> list[ErrorMessage]:
        """Non-fatal refusals since the last call (cannot start yet, slow down), to be said."""
        with self._lock:
            errors, self._errors = self._errors, []
            return errors

    def take_resync(self) -> bool:
        """True once after the server sent a fresh view instead of the missed updates."""
        with self._lock:
            resynced, self._resynced = self._resynced, False
            return resynced

    # The Table protocol ------------------------------------------------------------------------
    def info(self) -> TableInfo:
        with self._lock:
            if self._room is None:
                raise RuntimeError("The table is not open yet.")
            return self._room.table_info()

    def seats_here(self) -> tuple[int, ...]:
        return (self.seat,)

    def view(self, seat: int) -> PlayerView:
        with self._lock:
            if seat != self.seat or self._view is None:
                raise LookupError("No view of that seat here.")
            return self._view

    def has_view(self) -> bool:
        with self._lock:
            return self._view is not None

    def latest(self) -> int:
        with self._lock:
            return self._latest

    def oldest(self) -> int:
        """The number this table's updates start after: older ones come as a ``Resync``."""
        with self._lock:
            return self._floor

    def last_score(self) -> DealScored | None:
        """The last deal's score: the welcome's (a deal that ended before this client started, or
        before a resync emptied the log), or a newer one among the updates since."""
        with self._lock:
            return self._scored

    def updates(self, seat: int, after: int) -> Sequence[SeatUpdate] | Resync:
        with self._lock:
            return self._updates_after(after)

    def _updates_after(self, after: int) -> Sequence[SeatUpdate] | Resync:
        if after < self._floor and self._view is not None and self._room is not None:
            return Resync(self._latest, self._view, self._room.table_info())
        return [update for update in self._log if update.number > after]

    def wait(self, seat: int, after: int, timeout: float | None = None) -> Sequence[SeatUpdate] | Resync:
        """Block until an update after ``after`` arrived (or the connection changed, or ``timeout``)."""
        with self._lock:
            connected = self.connected
            self._lock.wait_for(lambda: self._latest > after or self.connected != connected
                                or self.problem is not None or self._closing, timeout)
            return self._updates_after(after)

    def submit(self, seat: int, move: Move, expected: int) -> SubmitResult:
        request_id = next(self._ids)
        return self._request(MoveRequest(request_id, move, expected), request_id, expected)

    def next_deal(self, seat: int, expected: int) -> SubmitResult:
        request_id = next(self._ids)
        return self._request(NextDealRequest(request_id, expected), request_id, expected)

    def _request(self, message: ClientMessage, request_id: int, expected: int) -> SubmitResult:
        """Send and wait for the answer. A drop before it comes says "unavailable": whether the
        move happened shows in the updates that follow the reconnection."""
        if self.problem is not None:
            return SubmitResult(False, refusal="closed")
        if not self._send(message):
            return SubmitResult(False, refusal="unavailable")
        with self._lock:
            answered = self._lock.wait_for(lambda: request_id in self._answers or not self.connected,
                                           ANSWER_TIMEOUT)
            answer = self._answers.pop(request_id, None)
            if not answered or answer is None:
                return SubmitResult(False, refusal="unavailable")
            if isinstance(answer, Refused):
                return SubmitResult(False, refusal=answer.kind, reason=answer.reason)  # type: ignore[arg-type]
            updates = tuple(u for u in self._log if expected < u.number <= answer.number)
            return SubmitResult(True, updates=updates)

    def mark_assisted(self, seat: int) -> None:
        self._send(Assisted())

    def finished_record(self, timeout: float = RECORD_TIMEOUT) -> MatchRecord | None:
        """The whole record of this seat's match, asked of the server once the match is over here;
        None before, when the server gives none (an older one answers "unknown_type"), the
        connection is down, or the record does not check against what this seat saw."""
        with self._lock:
            view, room = self._view, self._room
        if view is None or room is None or view.phase is not Phase.MATCH_OVER:
            return None
        deadline = time.monotonic() + timeout
        answer = None
        while answer is None and time.monotonic() < deadline:  # asked again after a drop, once reconnected
            answer = self._ask_record(deadline)
        if not isinstance(answer, MatchRecordMessage):
            return None
        return checked_record(answer.record, room, view)

    def _ask_record(self, deadline: float) -> MatchRecordMessage | Refused | ErrorMessage | None:
        """One ``record`` request and its answer (an older server's unknown_type error too); None
        when the connection dropped first (or was down, for a moment at most), to ask again."""
        with self._lock:
            self._lock.wait_for(lambda: self.connected or self._closing or self.problem is not None,
                                max(0.0, deadline - time.monotonic()))
            if self._closing or self.problem is not None:
                return ErrorMessage("room_closed", {})
        request_id = next(self._ids)
        if not self._send(RecordRequest(request_id)):
            time.sleep(0.05)
            return None
        with self._lock:
            self._lock.wait_for(lambda: request_id in self._answers or not self.connected or self._older_server(),
                                max(0.0, deadline - time.monotonic()))
            answer = self._answers.pop(request_id, None)
            older = self._older_server()
            self._errors = [e for e in self._errors if e.code != "unknown_type"]  # not a refusal to say
        return answer or (ErrorMessage("unknown_type", {}) if older else None)

    def _older_server(self) -> bool:
        """Under the lock: the server said it does not know the ``record`` request."""
        return any(error.code == "unknown_type" for error in self._errors)

    def save(self) -> str | None:
        return None  # the server keeps the match

    def notes(self) -> Sequence[str]:
        return ()  # no save here to report on; the server's refusals come through ``take_errors``

    def close(self) -> None:
        with self._lock:
            self._closing = True
            ws = self._ws
            self._lock.notify_all()
        if ws is not None:
            ws.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)


def checked_record(data: Mapping[str, Any], room: RoomInfo, view: PlayerView) -> MatchRecord | None:
    """The record a server sent, if it checks as a match file does and is the match this seat
    saw end: the same rules, the names at the table, the final score and winner. None otherwise."""
    try:
        record = record_from_dict(dict(data))
    except (SaveFileError, ValueError, TypeError, KeyError, RecursionError):
        return None
    state = record.state
    names = tuple(None if seat is None else seat.name for seat in room.seats)
    if (not state.is_match_over or record.rules != room.rules or tuple(s.name for s in record.seats) != names
            or not record.seats[view.seat].is_human or state.match_scores != view.match_scores
            or state.winner != view.winner):
        return None
    return record


def open_table(server: str, first: CreateRoom | Join | Hello, wake: object | None = None,
               on_key: Callable[[RemoteTable], None] | None = None) -> RemoteTable:
    """A connected ``RemoteTable`` (``TableClosed`` when refused); ``on_key`` keeps a new seat key."""
    table = RemoteTable(server, first, wake)
    table.open()
    if on_key is not None:
        on_key(table)
    return table
