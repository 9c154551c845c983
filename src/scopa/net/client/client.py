"""``RemoteTable``: the ``Table`` of an online room, a websockets client of the room server.

Why threads: the console is synchronous (it blocks in a prompt), so the connection (a ``Link``,
``net/client/link.py``) is read by one background thread. That thread reads
every server message, keeps the numbered updates, the seat's latest view and the room's info
under one lock, and raises ``wake`` (``console.terminal.Wake``) whenever something new arrived,
so the prompt open at that moment ends and the console can announce it at once. What concerns
the seat's own turn timer (a warning to it, its time up) also raises ``urgent``, which ends even
a line being typed (``console.chat.Urgent``). The console's
thread sends (a link allows one sender beside one reader) and waits on a condition for
the answer to a move.

Seat keys: the key travels only in the first message of a connection (never in the URL). A
dropped connection is taken up again by the reader thread itself: after a short, growing pause
(``reconnect_pause``), it sends ``hello`` with the room code, the seat key and the number of the
last update it has; the server answers with the missed updates or a resync. A fatal refusal
(wrong key, room closed) ends the retries and is kept in ``problem`` for the console to say.

A server that stops (SIGTERM, Ctrl-C: an upgrade, a restart) says ``server_stopping`` first:
that is a restart, not an end. The table notes it (``restarting``, for the console's one line)
and reconnects as after any drop, the pauses doubling up to ``RECONNECT_CAP`` and each cut by a
random part of up to half (so that the players of a restarted server do not all come back in
the same instant), for ``RECONNECT_FOR`` seconds; the room is in the server's store, so the
match goes on once it is back. After that long the table gives up (``server_gone``), and the
seat stays the player's, for ``scopa join`` later.

Changes: the server sends one change to the room (a move and what it caused, a deal, a notice,
what a seat taken back missed) as several messages, each update carrying the view after all of
them. The reader hands a change to the console whole, under the lock, or the console could act
on a view whose events it had not yet heard (at a match's start it said the table and the hand
as to a seat taken back, then the deal again). Each connection asks for ``change_end`` after
each change (``mark_changes``). What a seat taken back missed comes before the server has read
that request: it is taken as one change, which ends with the update the welcome numbered (or a
resync). Otherwise, until the first ``change_end`` (an older server never sends one, and answers
the request with unknown_type, which is not said), the messages the server sent at once
(``Link.recv_burst``) are taken as one change.

Numbers: a fresh connection in this process (``open``) starts at the number the welcome
gives; older updates the server may send after it are not news, only their view is kept. The
welcome also gives the last finished deal (its piles, scored again here), so B has a score
sheet to say in a client started after that deal ended.

The finished match: once this seat's view shows the match over, ``finished_record`` asks the
server for the whole record (seed and moves), which the server gives then and only then, and
checks it against what this seat saw (the rules, the names at the table, the final score): the
player's results log keeps it. The deals a computer played some of this seat in (covered while
the player was away, or a turn run out), which the server says with the record, are marked
assisted in it, so they earn this player no achievement (``record.achievements``); the other
seats' records are their own. Anything else (an older server, a record that does not check)
gives None, and nothing is logged.
"""
from __future__ import annotations

import contextlib
import itertools
import random
import secrets
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ...engine import DealScored, Move, Phase, PlayerView
from ...engine.shuffle import SEED_BYTES, share_of
from ...match import MatchRecord
from ...storage import SaveFileError, record_from_dict
from ...storage.fairness import Observation, Shown, Verdict, check_online, observe
from ...table import Notice, Resync, SeatUpdate, SubmitResult, TableInfo, own_arrival
from ..protocol.client_messages import (
    Assisted,
    Back,
    ChatRequest,
    ClaimRequest,
    ClientMessage,
    Contribute,
    CreateRoom,
    DailyDeal,
    Features,
    Hello,
    Join,
    ListTables,
    MarkChanges,
    MoreTime,
    MoveRequest,
    MoveSeat,
    NextDealRequest,
    Quick,
    Ready,
    RecordRequest,
    SeatKind,
    Start,
    Watch,
    WatchersChat,
)
from ..protocol.server_messages import (
    Accepted,
    ChangeEnd,
    ChatMessage,
    ClockMessage,
    Contributed,
    ErrorMessage,
    FeaturesAnswer,
    InfoMessage,
    MatchRecordMessage,
    Moved,
    OpenTable,
    Refused,
    ResyncMessage,
    ServerMessage,
    TablesMessage,
    UpdateMessage,
    Watching,
    Welcome,
    parse_server_message,
)
from ..protocol.wire import (
    MAX_RECORD_MESSAGE,
    ProtocolError,
    RoomInfo,
    encode,
)
from .link import UNREACHABLE as UNREACHABLE
from .link import Link, LinkClosed, LinkFailed, open_link
from .link import tls_context as tls_context
from .link import tls_problem as tls_problem

BACKOFF = (0.2, 0.5, 1.0, 2.0)  # seconds before the first reconnection tries; then doubling ...
RECONNECT_CAP = 10.0             # ... up to this, each pause cut at random by up to half
RECONNECT_FOR = 300.0            # seconds a dropped or restarting table keeps trying (docs/online.md)
OPEN_TIMEOUT = 10.0              # seconds to connect and be welcomed (websockets' own default)

ANSWER_TIMEOUT = 15.0            # seconds to wait for the answer to a move
RECORD_TIMEOUT = 5.0             # seconds the end of a match waits for its record (reconnecting if need be)
CHANGE_WAIT = 2.0                # seconds a change begun may wait for its change_end, then is handled as it is
CHAT_KEPT = 50                   # chat lines kept for the console between two looks (a flood drops the oldest)
GONE = "server_gone"             # ``problem`` code when it could not be reached again for RECONNECT_FOR
# A reconnection refused so is tried again: the server is not there yet, is still stopping, or
# closed in the middle of the TLS handshake (a certificate problem ends the tries: said at once).
RETRIED = frozenset({UNREACHABLE, "server_stopping", "tls_failed"})
_jitter = random.SystemRandom()  # not the game's seeded randomness: only spreads the reconnections


def reconnect_pause(attempt: int, backoff: Sequence[float] = BACKOFF, cap: float = RECONNECT_CAP,
                    share: float | None = None) -> float:
    """Seconds before reconnection try ``attempt`` (from 0): ``backoff`` first, then doubling up to
    ``cap``, less a random part of up to half (``share``, from 0 to 1, fixes that part)."""
    steps = len(backoff)
    full = backoff[attempt] if attempt < steps else backoff[-1] * 2.0 ** min(attempt - steps + 1, 32)
    return min(full, cap) * (1.0 - 0.5 * (_jitter.random() if share is None else share))


class Waker(Protocol):
    """What the table raises when news arrives (``console.terminal.Wake`` is one)."""

    def raise_(self) -> None: ...


class NoWake:
    """Stands in for ``console.terminal.Wake`` when nobody waits at a prompt (tests, tools)."""

    def raise_(self) -> None:
        pass


@dataclass(frozen=True)
class Problem:
    """Why the table cannot go on: a server error code (``protocol.wire.ERROR_CODES``) or ``UNREACHABLE``."""

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

    def __init__(self, server: str, first: CreateRoom | Join | Hello | Quick | DailyDeal, wake: Waker | None = None,
                 backoff: Sequence[float] = BACKOFF, reconnect_for: float = RECONNECT_FOR,
                 tls: ssl.SSLContext | None = None, share: bytes | None = None,
                 share_source: Callable[[bytes], bytes | None] | None = None) -> None:
        self.server = server
        self.tls = tls  # for wss://: the context trusting a private server's certificate (``tls_context``)
        self.wake: Waker = wake if wake is not None else NoWake()
        self.urgent: Waker = NoWake()  # raised as well for this seat's turn timer (``_is_urgent``)
        self.backoff = tuple(backoff)
        self.reconnect_for = reconnect_for
        self._first = first
        self._lock = threading.Condition()
        self._ids = itertools.count(1)
        self._ws: Link | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self.code: str = getattr(first, "code", "")
        self.key: str = getattr(first, "seat_key", "")
        self.seat = 0
        self.connected = False
        self.drops = 0  # connections lost and taken up again, for the console's "back" line
        self.moves = 0  # times the host moved this player to another seat (``seat`` is the new one)
        self.restarting = False  # the server said it is stopping: the drop that follows is a restart
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
        self._chat: list[ChatMessage] = []  # chat lines heard and not yet taken by the console
        self._warnings: list[ClockMessage] = []  # the turn timer's warnings not yet said
        self._answered_chat = 0  # this seat's chat lines echoed or refused by the server
        # whether a chat line is to be said now (the console's mutes): one that is not is kept for
        # L without ending the prompt open (ended for nothing, the prompt would be read twice)
        self.chat_wakes: Callable[[ChatMessage], bool] = lambda message: True
        # docs/fairness.md: this seat's share of the seed, the commitment heard at the first
        # welcome (a later welcome naming another spoils it), what the seat saw, the record at the end
        # ``share``: the secret of this seat's share (``shuffle.share_of``: the share is bound to the
        # commitment heard), kept with the seat key, so a client started again gives the same one; a
        # seat taken back with a key kept before shares were knows none (its check says so)
        self._share = share if share is not None else secrets.token_bytes(SEED_BYTES)
        self._nonce_refused = False  # an older server knows no nonce: the share goes without it
        self._share_known = share is not None or not isinstance(first, Hello)
        self._daily = isinstance(first, DailyDeal)  # dealt from the server's seed alone: no share
        # a browser page draws its own nonce, by crypto.getRandomValues, once it has heard the commitment
        # (scopa.web): asked then, for a seat that has none kept
        self._share_source = share_source if share is None else None
        self._gave_share = False
        self._shown: Shown | None = None  # the shares the room's info showed at the start
        self._share_refused = False  # a storage error came in the lobby: the share may not have been kept
        self.share_kept: bool | None = None  # the server's ``contributed``: whether it keeps this share (None: untold)
        self.features: tuple[str, ...] = ()  # what the server turned on for this connection (``features``)
        self._features_heard = False  # the answer to ``features`` came (an older server's refusal counts as one)
        self._programs_due = False  # the info answering the feature program is on its way
        self._welcome_number = 0  # the room's newest update as of this connection's welcome
        self.quick_wait: int | None = None  # a quick room: the seconds its server waits for people (features)
        self._heard: bytes | None = None
        self._heard_other = False
        self._seen: set[Observation] = set()
        self._record_data: Mapping[str, Any] | None = None
        self._nonces: dict[bytes, bytes] = {}  # each share's secret, told with the record

    # Connecting ----------------------------------------------------------------------------
    def open(self, timeout: float = OPEN_TIMEOUT) -> Welcome:
        """Connect, introduce this seat and wait for the welcome; ``TableClosed`` if refused. Mid-match,
        also wait for the view as of the welcome (the missed updates replayed first carry older ones)."""
        welcome = self._connect(self._first, timeout, first_time=True)
        self._thread = threading.Thread(target=self._read_forever, daemon=True, name="scopa-table")
        self._thread.start()
        if isinstance(self._first, Quick):  # the wait a quick room says comes with the features answer
            with self._lock:
                self._lock.wait_for(lambda: self._features_heard or not self.connected, timeout)
        if welcome.info.phase != "lobby":  # a seat taken back mid-match: its view follows the welcome,
            # after the older updates it missed, whose views are older positions
            with self._lock:
                self._lock.wait_for(lambda: (self._view is not None and self._view_at >= welcome.number)
                                    or not self.connected, timeout)
        return welcome

    def _connect(self, first: ClientMessage, timeout: float, first_time: bool = False,
                 reconnection: bool = False) -> Welcome:
        try:
            ws = open_link(self.server, self.tls, timeout, MAX_RECORD_MESSAGE)
        except LinkFailed as failed:
            raise TableClosed(Problem(failed.code, {})) from None
        try:
            ws.send(encode(first))
            message = self._parse(ws.recv(timeout=timeout))
            while not isinstance(message, (Welcome, ErrorMessage)):
                message = self._parse(ws.recv(timeout=timeout))
        except (LinkClosed, TimeoutError, ProtocolError):
            ws.close()
            raise TableClosed(Problem(UNREACHABLE, {})) from None
        if isinstance(message, ErrorMessage):
            ws.close()
            raise TableClosed(Problem(message.code, dict(message.values)))
        with self._lock:
            self._ws = ws
            self._welcomed(message, first_time)
            if reconnection:  # with ``connected``: a reader never sees the seat back and the restart not over
                self.drops += 1
                self.restarting = False
            share = self._share_due(message)
        with contextlib.suppress(LinkClosed):  # else asked again, and the share given again, once reconnected
            ws.send(encode(Features(CLIENT_FEATURES)))  # an older server answers unknown_type to each of
            ws.send(encode(MarkChanges()))  # these two, left out by read_changes
            if share:
                ws.send(encode(self._contribution()))
        return message

    def _share_due(self, welcome: Welcome) -> bool:
        """Under the lock: this seat's share is to be sent: in every welcome of a room in its lobby,
        whatever the info says of the seat's share (a server that shows one already, of its own
        making, does not keep this client from giving its own; the check at the end fails unless
        this very share was used). Never in a daily deal, dealt from the server's seed alone."""
        due = welcome.info.phase == "lobby" and welcome.commitment is not None and not self._daily
        if due:
            self._gave_share = self._share_known = True
        return due

    def _note_shares(self, info: RoomInfo) -> None:
        """Under the lock: the shares the room's info shows once the match has started (the start's
        info, or a seat taken back's first), kept for the check at the end; a later info that shows
        others spoils them (the server keeps the shares fixed from the start)."""
        if info.phase == "lobby":
            return
        humans = frozenset(n for n, seat in enumerate(info.seats) if seat is not None and seat.kind == "human")
        if self._shown is None:
            self._shown = Shown(tuple(info.contributions), humans)
        elif (tuple(info.contributions), humans) != (self._shown.shares, self._shown.humans):
            self._shown = replace(self._shown, changed=True)

    def _contribution(self) -> Contribute:
        """This seat's share, made under the first commitment heard, with its secret (without it
        for an older server, which refused the field). A browser page's own nonce, asked once, the
        first time (``share_source``), takes the place of the one drawn here."""
        source, self._share_source = self._share_source, None
        given = source(self._heard) if source is not None and self._heard is not None else None
        if given is not None and len(given) == SEED_BYTES:
            self._share = given
        value = share_of(self._share, self._heard or bytes(SEED_BYTES))
        return Contribute(value) if self._nonce_refused else Contribute(value, self._share)

    @property
    def share(self) -> bytes:
        """This seat's share of the seed, to keep with the seat key (``storage.seat_keys``)."""
        return self._share

    def _welcomed(self, welcome: Welcome, first_time: bool = False) -> None:
        """Under the lock: the seat, the code, the key (given only once), the room."""
        self.code, self.seat, self._room = welcome.code, welcome.seat, welcome.info
        if welcome.quick_wait is not None:  # a server of issue 38 said it there, to every client
            self.quick_wait = welcome.quick_wait
        self._note_shares(welcome.info)
        self._welcome_number = welcome.number  # the updates missed that follow it end there
        if welcome.seat_key:
            self.key = welcome.seat_key
        if first_time:  # a seat taken back after a restart keeps as news what followed its last own move
            start = self._first.last_number if isinstance(self._first, Hello) else 0
            self._floor = self._latest = start if 0 < start <= welcome.number else welcome.number
        if self._heard is None and not self._heard_other:
            self._heard = welcome.commitment
        elif welcome.commitment != self._heard:
            self._heard_other = True
        if welcome.last_deal is not None:  # the newest as of the welcome: what follows is newer or the same
            self._scored = welcome.last_deal.scored(welcome.info.rules)
        self.connected = True

    def _parse(self, raw: str | bytes) -> ServerMessage:
        rules = self._room.rules if self._room is not None else None
        return parse_server_message(raw, rules)

    def _read_forever(self) -> None:
        """The reader thread: every message, then reconnection after a drop, until closed."""
        while True:
            ws = self._ws
            if ws is None:  # set before this thread starts, and again by each reconnection
                return
            # a change begun and not ended is not handled: the reconnection's hello asks for it again
            with contextlib.suppress(LinkClosed, ProtocolError):
                self._read_changes(ws)
            with self._lock:
                self.connected = False
                self._lock.notify_all()
                if self._closing or self.problem is not None:
                    break
            self.wake.raise_()
            if not self._reconnect():
                break
        self.wake.raise_()

    def _read_changes(self, ws: Link) -> None:
        """Every message of one connection, each change handled whole (see "Changes" above)."""
        with self._lock:  # a seat taken back: the updates it missed, sent before mark_changes is read,
            # are one change that ends with the welcome's number (or a resync)
            missed_to = self._welcome_number if self._welcome_number > self._latest else 0
        for messages in read_changes(ws, self._parse, missed_to, asked=2, features=True):
            self._handle_all(messages)

    def _handle_all(self, messages: list[ServerMessage]) -> None:
        """Handle ``messages`` under the lock: the console sees all of them or none. Then give the
        share again if the room's info shows it was not kept."""
        with self._lock:
            for message in messages:
                self._handle(message)
            again = self._share_lost(messages) or self._older_share(messages)
            contribution = self._contribution()
        if again:
            self._send(contribution)

    def _share_lost(self, messages: list[ServerMessage]) -> bool:
        """Under the lock: the server refused a change for its store in the lobby, and the room's
        info among ``messages`` (a change it stored since) still shows no share from this seat.
        Without it the match cannot start ("not ready"), and the share was given once, at the
        welcome: it is given again with each such info (the server keeps only the first share it
        stores, so one more does no harm). Never on the error itself: a store still failing
        would answer each share with another error."""
        room = self._room
        if self.share_kept is not None:  # the server said which share it keeps: nothing to give again
            return False
        if not (self._share_refused and self._gave_share and room is not None and room.phase == "lobby"
                and any(isinstance(message, InfoMessage) for message in messages)):
            return False
        return self.seat is not None and room.contributions[self.seat] is None

    def _older_share(self, messages: list[ServerMessage]) -> bool:
        """Under the lock: an older server refused the share's nonce (unknown_field): the share
        is given again without it, once."""
        if self._nonce_refused or not any(isinstance(m, ErrorMessage) and m.code == "unknown_field"
                                          and m.values.get("field") == "nonce" for m in messages):
            return False
        self._nonce_refused = True
        self._errors = [e for e in self._errors if not (e.code == "unknown_field" and e.values.get("field") == "nonce")]
        return True

    def _reconnect(self) -> bool:
        """Try again and again, with growing pauses, until welcomed, refused, closed, or
        ``reconnect_for`` seconds have gone (then the problem is ``server_gone``)."""
        deadline = time.monotonic() + self.reconnect_for
        for attempt in itertools.count():
            pause = reconnect_pause(attempt, self.backoff)
            if time.monotonic() + pause > deadline:
                self._give_up(Problem(GONE, {}))
                return False
            time.sleep(pause)
            with self._lock:
                if self._closing:
                    return False
                hello = Hello(self.code, self.key, self._latest)
            try:
                self._connect(hello, OPEN_TIMEOUT, reconnection=True)
            except TableClosed as refused:
                if refused.problem.code in RETRIED:
                    continue
                self._give_up(refused.problem)
                return False
            self.wake.raise_()
            return True
        return False  # pragma: no cover - itertools.count never ends

    def _give_up(self, problem: Problem) -> None:
        with self._lock:
            self.problem = problem
            self._lock.notify_all()

    def _handle(self, message: ServerMessage) -> None:
        news = True
        with self._lock:
            if isinstance(message, UpdateMessage):
                news = self._add(message.update) and not own_arrival(message.update.event, self.seat)
            elif isinstance(message, InfoMessage):
                self._room = message.info
                self._note_shares(message.info)
                # the info that answers the feature program says who is a program: news when one sits here
                others = (seat for i, seat in enumerate(message.info.seats) if i != self.seat)
                news = self._programs_due and any(seat is not None and seat.program for seat in others)
                self._programs_due = False
            elif isinstance(message, ResyncMessage):
                self._room, self._latest, self._floor = message.info, message.number, message.number
                self._note_shares(message.info)
                if message.view is not None:
                    self._view, self._view_at = message.view, message.number
                self._log = []
                self._resynced = True
            elif isinstance(message, (Accepted, Refused, MatchRecordMessage)):
                self._answers[message.id] = message
            elif isinstance(message, ErrorMessage):
                if message.code == "server_stopping":  # a restart: the drop that follows is taken up again
                    self.restarting = True
                elif message.fatal:
                    self.problem = Problem(message.code, dict(message.values))
                else:
                    self._errors.append(message)
                    self._answered_chat += message.code == "chat_refused"
                    self._share_refused |= message.code == "storage"
            elif isinstance(message, Welcome):
                self._welcomed(message)
            elif isinstance(message, FeaturesAnswer):  # nothing to say: what it turned on comes after it
                self.features, news, self._features_heard = message.names, False, True
                if message.quick_wait is not None:
                    self.quick_wait = message.quick_wait
                self._programs_due = "program" in message.names
            elif isinstance(message, Contributed):  # the share the server keeps for this seat: nothing to say
                self.share_kept, news = message.value == self._contribution().value, False
            elif isinstance(message, Moved):  # the host moved this player: the same key, a new seat
                self.seat = message.seat
                self.moves += 1
            elif isinstance(message, ClockMessage) and message.seat == self.seat:
                self._warnings = [*self._warnings, message][-4:]
            elif isinstance(message, ChatMessage):
                self._chat = [*self._chat, message][-CHAT_KEPT:]
                self._answered_chat += message.seat == self.seat and not message.watcher
            self._lock.notify_all()
        if isinstance(message, ChatMessage) and not self.chat_wakes(message):
            return  # muted: kept for L, nothing to say now
        if isinstance(message, ClockMessage) and message.seat != self.seat:
            return  # another seat's warning: said to that seat only
        if news and not isinstance(message, Moved):  # info: kept for the update that follows (but a program's
            self.wake.raise_()  # seat, above); an update had already, or the seat's own arrival: nothing to say
        if self._is_urgent(message):
            self.urgent.raise_()

    def _is_urgent(self, message: ServerMessage) -> bool:
        """Whether ``message`` is this seat's turn timer, to be heard even while a line is typed: a
        warning to this seat, or the notice that its time is up (the card played for it follows)."""
        if isinstance(message, ClockMessage):
            return message.seat == self.seat
        event = message.update.event if isinstance(message, UpdateMessage) else None
        return isinstance(event, Notice) and event.kind == "timed_out" and event.seat == self.seat

    def _add(self, update: SeatUpdate) -> bool:
        """Keep ``update``'s view and what it shows; whether it is news (newer than the latest)."""
        self._seen.update(observe(update.event, update.view))
        if update.view is not None:
            self._view, self._view_at = update.view, update.number
        if update.number <= self._latest:
            return False  # already had it, or older than this session
        self._log.append(update)
        self._latest = update.number
        if isinstance(update.event, DealScored):
            self._scored = update.event
        return True

    def _send(self, message: ClientMessage) -> bool:
        ws = self._ws
        if ws is None or not self.connected:
            return False
        try:
            ws.send(encode(message))
        except LinkClosed:
            return False
        return True

    # The lobby and the console's extras ------------------------------------------------------
    def room(self) -> RoomInfo:
        """The room as last told: the welcome gives it, so it is known once ``open`` has returned."""
        with self._lock:
            if self._room is None:
                raise RuntimeError("The table is not open yet.")
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

    def say(self, text: str) -> bool:
        """Send a typed chat line (the server cleans and checks it; a refusal comes as an error)."""
        return self._send(ChatRequest(text=text))

    def say_preset(self, preset: str) -> bool:
        """Send one of the preset chat lines (``net.protocol.chat.PRESETS``) by its name."""
        return self._send(ChatRequest(preset=preset))

    def set_seat(self, seat: int, kind: str) -> bool:
        """The host, in the lobby: open a computer's seat ("open") or give a free one to a computer (a level)."""
        return self._send(SeatKind(seat, kind))

    def move_seat(self, from_seat: int, to_seat: int) -> bool:
        """The host, in the lobby: whoever sits in ``from_seat`` goes to ``to_seat`` (a swap)."""
        return self._send(MoveSeat(from_seat, to_seat))

    def set_watchers_chat(self, allowed: bool) -> bool:
        """The host: whether spectators may chat."""
        return self._send(WatchersChat(allowed))

    def more_time(self) -> bool:
        """Ask for the turn timer's more time (once a deal, on this seat's turn)."""
        return self._send(MoreTime())

    def back(self) -> bool:
        """This seat's player pressed a key after being taken as away: the seat is theirs again."""
        return self._send(Back())

    def take_warnings(self) -> list[ClockMessage]:
        with self._lock:
            warnings, self._warnings = self._warnings, []
            return warnings

    def chat_mark(self) -> int:
        """A mark to wait from for the answer to a chat line about to be sent (``wait_chat``)."""
        with self._lock:
            return self._answered_chat

    def wait_chat(self, mark: int, timeout: float) -> bool:
        """Wait up to ``timeout`` for the server's answer to a chat line sent after ``mark``: its
        echo (this seat's own line) or a refusal. Whether it came."""
        with self._lock:
            return self._lock.wait_for(lambda: self._answered_chat > mark or not self.connected, timeout)

    def take_chat(self) -> list[ChatMessage]:
        """The chat lines heard since the last call, oldest first."""
        with self._lock:
            chat, self._chat = self._chat, []
            return chat

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

    def claim(self, seat: int, expected: int) -> SubmitResult:
        request_id = next(self._ids)
        return self._request(ClaimRequest(request_id, expected), request_id, expected)

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
            if not answered or answer is None or isinstance(answer, MatchRecordMessage):
                return SubmitResult(False, refusal="unavailable")  # a record is never a move's answer
            if isinstance(answer, Refused):
                return SubmitResult(False, refusal=answer.kind, reason=answer.reason)
            updates = tuple(u for u in self._log if expected < u.number <= answer.number)
            return SubmitResult(True, updates=updates)

    def mark_assisted(self, seat: int) -> None:
        self._send(Assisted())

    def finished_record(self, timeout: float = RECORD_TIMEOUT) -> MatchRecord | None:
        """The whole record of this seat's match, asked of the server once the match is over here,
        the deals a computer played some of this seat in marked assisted (``checked_record``);
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
        with self._lock:
            self._record_data, self._nonces = answer.record, dict(answer.nonces)
        return checked_record(answer.record, room, view, answer.covered)

    def commitment_heard(self) -> bytes | None:
        """The commitment of the first welcome (None: none, or a later welcome named another):
        ``scopa daily`` keeps it, to check it against the day seed once that is revealed."""
        with self._lock:
            return None if self._heard_other else self._heard

    def shuffle_check(self) -> Verdict:
        """This client's own check of the match's shuffle, once ``finished_record`` was asked
        (docs/fairness.md): "missing" when the server gave no record or no seed to check."""
        with self._lock:
            data, heard, seen = self._record_data, None if self._heard_other else self._heard, set(self._seen)
            own = share_of(self._share, heard) if self._share_known and heard is not None else None
            shown, daily, nonces = self._shown, self._daily, dict(self._nonces)
        if data is None:  # a daily deal's record is told once the day's board has closed
            return "daily_later" if daily else "missing"
        return check_online(data, heard, own, self.seat, seen, shown, daily, nonces)

    def fairness_facts(self) -> dict[str, Any] | None:
        """What a browser page needs to check the shuffle itself, as ``shuffle_check`` does (scopa.web):
        the record's parts, the commitment heard, this seat's nonce, every share's nonce the server
        told, what the seat saw, what the room's info showed of the shares at the start (``shown``:
        each seat's share or null, the seats people play, and whether a later info showed others;
        null when no info of the started match came) and whether it was a daily deal; None before
        the record was asked, or when the server gave none."""
        with self._lock:
            data, seen = self._record_data, sorted(self._seen, key=repr)
            heard = None if self._heard_other else self._heard
            own = self._share if self._share_known else None
            nonces, shown, daily = dict(self._nonces), self._shown, self._daily
        if data is None:
            return None
        return {"record": dict(data), "commitment": None if heard is None else heard.hex(),
                "nonce": None if own is None else own.hex(), "seat": self.seat, "seen": [list(o) for o in seen],
                "nonces": [{"value": value.hex(), "nonce": nonce.hex()} for value, nonce in nonces.items()],
                "shown": None if shown is None else {
                    "shares": [None if share is None else share.hex() for share in shown.shares],
                    "humans": sorted(shown.humans), "changed": shown.changed},
                "daily": daily}

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
        if isinstance(answer, Accepted):  # a move's answer, never a record's
            answer = None
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


def checked_record(data: Mapping[str, Any], room: RoomInfo, view: PlayerView,
                   covered: frozenset[int] = frozenset()) -> MatchRecord | None:
    """The record a server sent, if it checks as a match file does and is the match this seat
    saw end: the same rules, the names at the table, the final score and winner. None otherwise.

    ``covered``: the deals a computer played some of this seat in (``match_record``'s covered),
    marked assisted in the record returned: play this player did not make earns them nothing.
    A deal the match did not have is a record that does not check."""
    try:
        record = record_from_dict(dict(data))
    except (SaveFileError, ValueError, TypeError, KeyError, RecursionError):
        return None
    state = record.state
    names = tuple(None if seat is None else seat.name for seat in room.seats)
    if (not state.is_match_over or record.rules != room.rules or tuple(s.name for s in record.seats) != names
            or not record.seats[view.seat].is_human or state.match_scores != view.match_scores
            or state.winner != view.winner or not all(1 <= deal <= state.deal_number for deal in covered)):
        return None
    return replace(record, assisted_deals=record.assisted_deals | covered) if covered else record


def ask_once(server: str, request: ClientMessage, tls: ssl.SSLContext | None,
             timeout: float) -> ServerMessage | Problem:
    """The answer to one request over a connection of its own (``tables``, ``leaderboard``,
    ``daily``), or the problem: the server's error, or why it could not be asked."""
    opened = _first_answer(server, request, tls, timeout)
    if isinstance(opened, Problem):
        return opened
    ws, answer = opened
    ws.close()
    return answer


CHANGE_MESSAGES = (UpdateMessage, InfoMessage, Moved, ResyncMessage)  # the messages a change_end ends
# the additions to protocol 2 this client reads (docs/protocol.md, Versions and features)
CLIENT_FEATURES = ("contributed", "program", "join_between_deals", "quick_wait")


def read_changes(ws: Link, parse: Callable[[str | bytes], ServerMessage],
                 missed_to: int = 0, asked: int = 1, features: bool = False) -> Iterator[list[ServerMessage]]:
    """Every message of a connection that sent ``mark_changes``, in order, in lists: a change's
    messages together, once its ``change_end`` came (or ``CHANGE_WAIT`` passed without one), any
    other message with them or alone (see "Changes" above). Until the first ``change_end`` (an
    older server never sends one, and its unknown_type answer to the request is left out), what
    the server sent at once is one change. ``missed_to``: the welcome's number for a seat taken
    back, whose missed updates come first and end there. ``asked``: the requests sent once
    welcomed that an older server answers with unknown_type (mark_changes, and features for a
    seat), each such answer left out. ``features``: the first of them was ``features``, whose
    unknown_type (the first, as the server answers in order) is passed on as an answer that turned
    nothing on, so that a client waiting for the answer waits no more. Ends with ``LinkClosed``, or
    ``ProtocolError`` for a message ``parse`` refuses."""
    change: list[ServerMessage] = []  # the messages of a change begun, waiting for its change_end
    marked = False  # a change_end came: the server ends every change with one from here on
    while True:
        try:
            burst = ws.recv_burst(CHANGE_WAIT if change else None)
        except TimeoutError:  # a change_end that never came: the change goes as it is
            burst = []
        if not burst:
            yield change
            change = []
            continue
        for raw in burst:
            message = parse(raw)
            if isinstance(message, ChangeEnd):
                marked, asked, features = True, 0, False
                if change:
                    yield change
                change = []
            elif isinstance(message, CHANGE_MESSAGES):
                change.append(message)
                if missed_to and (isinstance(message, ResyncMessage) or (
                        isinstance(message, UpdateMessage) and message.update.number >= missed_to)):
                    missed_to = 0  # all that was missed is here
                    yield change
                    change = []
            elif asked and isinstance(message, ErrorMessage) and message.code == "unknown_type":
                asked -= 1  # an older server's answer to mark_changes or features: nothing to say
                if features:  # features': none turned on
                    features = False
                    yield [*change, FeaturesAnswer(())]
                    change = []
            elif isinstance(message, FeaturesAnswer):
                asked = max(0, asked - 1)  # features known: only mark_changes may still be answered unknown_type
                features = False
                yield [*change, message]
                change = []
            else:
                yield [*change, message]
                change = []
        if change and not marked and not missed_to:  # none ended yet, or an older server: what came at once
            yield change
            change = []


def open_watch(server: str, code: str, name: str, tls: ssl.SSLContext | None,
               timeout: float = OPEN_TIMEOUT) -> tuple[Link, Watching]:
    """A spectator's connection to room ``code`` and the server's ``watching`` answer (the room,
    the table as it is); ``TableClosed`` with the problem when the room cannot be watched."""
    opened = _first_answer(server, Watch(code, name), tls, timeout)
    if isinstance(opened, Problem):
        raise TableClosed(opened)
    ws, answer = opened
    if isinstance(answer, Watching):
        return ws, answer
    ws.close()
    raise TableClosed(Problem("other", {}))


def _first_answer(server: str, request: ClientMessage, tls: ssl.SSLContext | None,
                  timeout: float) -> tuple[Link, ServerMessage] | Problem:
    """A new connection with ``request`` sent on it and the server's first answer, or the problem
    (the connection closed): the server's error, or why it could not be asked."""
    try:
        ws = open_link(server, tls, timeout, MAX_RECORD_MESSAGE)
    except LinkFailed as failed:
        return Problem(failed.code, {})
    try:
        ws.send(encode(request))
        answer = parse_server_message(ws.recv(timeout=timeout))
    except (LinkClosed, TimeoutError, ProtocolError):
        ws.close()
        return Problem(UNREACHABLE, {})
    if isinstance(answer, ErrorMessage):
        ws.close()
        return Problem(answer.code, dict(answer.values))
    return ws, answer


def list_tables(server: str, tls: ssl.SSLContext | None = None, timeout: float = OPEN_TIMEOUT) -> tuple[OpenTable, ...]:
    """The server's public rooms still waiting for players (``tables``); ``TableClosed`` when the
    server cannot be reached or refuses (an older server: the version problem)."""
    answer = ask_once(server, ListTables(), tls, timeout)
    if isinstance(answer, Problem):
        raise TableClosed(answer)
    if not isinstance(answer, TablesMessage):
        raise TableClosed(Problem(UNREACHABLE, {}))
    return answer.rooms


def open_table(server: str, first: CreateRoom | Join | Hello, wake: Waker | None = None,
               on_key: Callable[[RemoteTable], None] | None = None) -> RemoteTable:
    """A connected ``RemoteTable`` (``TableClosed`` when refused); ``on_key`` keeps a new seat key."""
    table = RemoteTable(server, first, wake)
    table.open()
    if on_key is not None:
        on_key(table)
    return table
