"""``scopa serve``: the room server, one asyncio event loop on the ``websockets`` library.

Everything runs in the one loop, so a room is only ever changed by one piece of code at a
time and the engine is never called from two threads. Only the computers think elsewhere, in a
pool of worker processes (``thinking``): the loop sends the seat's view, reads every other room
meanwhile, and plays the move that comes back if the table is still where it was. Each connection has its own bounded
send queue and sender task; a client that stops reading fills its queue and is dropped, so
it never holds up its room or any other.

The order of every change: the room changes (``rooms.Room``), the store saves it in one
transaction (``store.RoomStore``), then each connected seat is sent its own updates. A server
killed at any moment restarts at the position after the last completed move.

Logs: one line per room event on stderr (seats counted from 1); never a key or a card.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import logging
import math
import secrets
import sqlite3
import ssl
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ...engine import Move
from ...engine.shuffle import SEED_BYTES, commitment
from ...numbers import decimal_number, whole_number
from ...storage import record_to_dict
from ...table import Notice, Resync, SeatUpdate
from ..protocol.chat import ChatLimit, chat_problem, clean_chat
from ..protocol.client_messages import (
    FIRST_MESSAGES,
    Assisted,
    Back,
    ChatRequest,
    ClaimRequest,
    Contribute,
    CreateRoom,
    DailyDeal,
    DailyRequest,
    Features,
    Hello,
    Join,
    LeaderboardRequest,
    ListTables,
    MarkChanges,
    MoreTime,
    MoveRequest,
    MoveSeat,
    NextDealRequest,
    Ping,
    Quick,
    Ready,
    RecordRequest,
    SeatKind,
    Start,
    Watch,
    WatchersChat,
    parse_client_message,
)
from ..protocol.codes import key_hash, new_code, new_seat_key
from ..protocol.daily_seeds import (
    deal_seed,
)
from ..protocol.server_messages import (
    Accepted,
    BoardPlace,
    BoardRow,
    ChangeEnd,
    ChatMessage,
    ClockMessage,
    Contributed,
    DailyAnswer,
    DailyPlace,
    DailyPlayed,
    DailyRow,
    ErrorMessage,
    FeaturesAnswer,
    InfoMessage,
    Leaderboard,
    MatchRecordMessage,
    Moved,
    OpenTable,
    Pong,
    Refused,
    ResyncMessage,
    TablesMessage,
    UpdateMessage,
    Watching,
    Welcome,
    spectator_update,
    update_frames,
)
from ..protocol.wire import (
    FATAL_ERRORS,
    FEATURES,
    INFO_FEATURES,
    MAX_CLIENT_MESSAGE,
    MAX_RECORD_MESSAGE,
    MAX_WATCHERS,
    ProtocolError,
    encode,
)
from .clock import TurnClock
from .collector import keep_collections_short
from .daily import (
    DAILY_LEVEL,
    DAILY_RULES,
    DEFAULT_DEALS,
    MAX_DEALS,
    PAR_ITERATIONS,
    DailyBook,
    address_tag,
    daily_of,
    day_of,
    day_par,
    is_day,
    listing,
    next_day,
    rank_day,
)
from .durable import Outbox
from .finding import open_tables, quick_room, quick_room_request
from .health import health_hook
from .identity import NameTaken, PlayerBook, player_hash
from .logs import BatchedLines
from .metrics import INSTALL, Metrics, PrometheusMetrics, parse_address
from .metrics import available as metrics_available
from .pages import PAGE_PATH, PageSession, loopback, page_address, page_hook, serve_page
from .rooms import Entry, MoveRefusal, Room, RoomRefusal, new_room
from .signals import on_stop_signals
from .store import DB_NAME, LoadProblem, RoomStore
from .thinking import ComputerTurn, Thinkers, default_workers

CHANGE_END = encode(ChangeEnd())  # the frame, as the cluster's processes pass it on
# The fields of a room's info that only a connection with their feature is sent, each with the mark
# it leaves in a frame (a name or a chat line holding a mark is escaped: a mark is only ever the field).
INFO_MARKS = {"program": '"program":true', "join_between_deals": '"join_between_deals":true'}


def without_additions(frame: str, missing: frozenset[str]) -> str:
    """The frame without the room info's fields of the features ``missing`` (``INFO_MARKS``): a
    seat's ``program`` flag, the room's ``join_between_deals``, for a client that did not ask for
    them (an older one refuses a field it does not know). Only frames that hold one pay for this."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            drop = {name for name, holder in (("program", "connected"), ("join_between_deals", "contributions"))
                    if name in missing and holder in value}  # a seat of a room's info; the room's info
            return {k: strip(v) for k, v in value.items() if not (k in drop and v is True)}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return json.dumps(strip(json.loads(frame)), ensure_ascii=False, separators=(",", ":"))

log = logging.getLogger("scopa.serve")
BOARD_LIMIT = (60, 60.0)  # leaderboards one address may ask for, and in how many seconds

_CLOSE = object()  # put on a send queue: close the connection after what is before it
SEND_QUEUE = 256  # messages waiting for one client; a client this far behind is dropped


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    db: Path | None = None
    certfile: Path | None = None
    keyfile: Path | None = None
    expiry_hours: float = 48.0
    grace: float = 60.0          # seconds before a computer covers a dropped player
    turn_grace: float = 15.0     # the same when the table is waiting for that player
    computer_delay: float = 1.0  # seconds between a computer's moves, so people can follow
    computer_budget: float = 0.3  # the expert's thinking time (in a worker process, off the loop)
    computer_workers: int | None = None  # processes the computers think in (None: the cores; 0: in the loop)
    computer_cap: float = 10.0   # a computer move not back from the pool by then is the easy level's
    message_rate: float = 10.0   # messages a second a connection may send, on average
    message_burst: int = 30      # ... and at once (three seconds' worth)
    flood_strikes: int = 20      # messages refused for flooding before the connection is closed
    join_failures: int = 10      # failed joins or reclaims per address ...
    join_window: float = 60.0    # ... in this many seconds, then refused until they age
    rooms_per_address: int = 20  # rooms one address may create ...
    rooms_window: float = 600.0  # ... in this many seconds
    watch_arrivals: int = 10     # arrivals to watch per address a minute (WATCH_ARRIVALS; the bench: no cap)
    first_timeout: float = 10.0  # seconds a new connection has to say hello
    tick: float = 0.2            # how often grace periods and expiry are checked
    max_replay: int = 200        # a client that missed more updates gets a resync
    store: str | None = None     # redis://HOST:PORT/DB: rooms in Redis, shared by several processes
    presence_ttl: float = 10.0   # with Redis: a process not heard from this long is taken as gone
    metrics: tuple[str, int] | None = None  # --metrics: where the Prometheus figures are served
    trust_proxy: bool = False    # take the client's address from X-Forwarded-For (a reverse proxy in front)
    clock_scale: float = 1.0     # the turn timer's seconds are multiplied by this (tests run it faster)
    quick_wait: float = 20.0     # seconds a quick match waits for people before computers take the free seats
    daily_deals: int = DEFAULT_DEALS  # deals of the daily deal (net.server.daily)
    daily_iterations: int = PAR_ITERATIONS  # the expert's samples a move when it works out the day's par
    daily_date: str | None = None  # the UTC day taken as today (tests: a clock of days); None: the real one
    daily_date_file: Path | None = None  # tests: a file naming the day taken as today, read at each request
    daily_trusted_players: bool = False  # --daily-trusted-players: a club server where every player is known:
    #   a key ranks on its first daily day too, and players sharing an address rank each. Off unless given:
    #   a fresh key, or another name at the same address, could replay deals learnt with another (issue 37)
    #   (a clock of days that moves while the server runs: a daily run across midnight)

    @property
    def expiry_seconds(self) -> float:
        return self.expiry_hours * 3600


class Unstored(RoomRefusal):
    """The room could not be stored: the change was undone and the room's seats told "storage"."""

    def __init__(self) -> None:
        super().__init__("storage")


class Bucket:
    """A token bucket for one connection's messages; a flood earns a warning, then a close."""

    def __init__(self, rate: float, burst: int, strikes: int) -> None:
        self.rate, self.burst, self.strikes = rate, burst, strikes
        self.tokens, self.last, self.over = float(burst), time.monotonic(), 0

    def take(self) -> str:
        """"ok", "warn" (first refused message), "drop" or "close"."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= self.burst:
            self.over = 0
        if self.tokens >= 1:
            self.tokens -= 1
            return "ok"
        self.over += 1
        return "warn" if self.over == 1 else "close" if self.over > self.strikes else "drop"


class Limit(Protocol):
    """Tries counted per address: ``AddressLimit`` (one process) or ``cluster.SharedLimit`` (Redis)."""

    async def take(self, address: str) -> tuple[int, object]: ...

    async def give_back(self, address: str, token: object) -> None: ...


# Spectators coming and going (issue 37): one address may arrive to watch WATCH_ARRIVALS times in
# WATCH_ARRIVAL_WINDOW seconds (each server process counts its own); a room's players hear of
# spectators at most once every WATCH_NEWS_EVERY seconds, those arrived in between together, in
# one change (the client says "3 are watching."), and a name heard within WATCH_NAME_AGAIN seconds
# is not said again.
WATCH_ARRIVALS, WATCH_ARRIVAL_WINDOW = 10, 60.0
WATCH_NEWS_EVERY, WATCH_NAME_AGAIN = 5.0, 60.0


@dataclass
class WatchNews:
    """One room's news of spectators: when it may next be told, who waits to be, who was lately."""

    quiet_until: float = 0.0
    waiting: list[str] = field(default_factory=list)
    told: dict[str, float] = field(default_factory=dict)  # a name -> when it was said
    flush: asyncio.TimerHandle | None = None


class AddressLimit:
    """At most ``limit`` counted answers (failed joins, new rooms) per address in ``window`` seconds.

    ``take`` counts one before the answer is known, so that requests sent at once are counted at
    once (counted after, a hundred parallel joins all passed the check); ``give_back`` uncounts
    one whose answer told nothing (a player seated, a refusal before any room was looked at). One
    process's counts are kept here; several processes count together in Redis
    (``cluster.SharedLimit``)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.times: dict[str, deque[float]] = {}

    async def take(self, address: str) -> tuple[int, object]:
        """Seconds until this address may try again (0: it may now, and this try is counted),
        and the try's token for ``give_back``."""
        now = time.monotonic()
        times = self.times.setdefault(address, deque())
        while times and times[0] < now - self.window:
            times.popleft()
        if len(times) >= self.limit:
            return max(1, int(times[0] + self.window - now + 0.999)), None
        times.append(now)
        return 0, now

    async def give_back(self, address: str, token: object) -> None:
        times = self.times.get(address)
        if times is not None and token in times:
            times.remove(token)  # type: ignore[arg-type]
        if not times:
            self.times.pop(address, None)


# The refusals of a first message that tell whether a room code exists: each one counts as a
# guess. A seat taken, or a refusal given before the code is looked at, is given back.
REVEALING = frozenset({"unknown_room", "wrong_key", "started", "room_full"})


def client_address(ws: ServerConnection, trust_proxy: bool) -> str:
    """The address a connection counts as: its peer's, or with ``trust_proxy`` (a reverse proxy
    in front that sets ``X-Forwarded-For``) the last address of that header, the one the proxy
    itself saw. Off by default: without a proxy, a client would write its own header."""
    peer = str(ws.remote_address[0]) if ws.remote_address else "?"
    page = page_address(ws.request, peer)
    if page is not None:  # a page's console, on this process's own loopback: the page's address
        return page
    request = ws.request if trust_proxy else None
    if request is None:
        return peer
    hops = [hop.strip() for value in request.headers.get_all("X-Forwarded-For") for hop in value.split(",")]
    try:
        return str(ipaddress.ip_address(hops[-1])) if hops and hops[-1] else peer
    except ValueError:
        return peer


class Connection:
    """One client: its queue of frames to send, and the room seat it plays once seated."""

    metrics: Metrics = Metrics()  # the server's, set once connected (``RoomServer.handle``)
    received = 0.0  # when its latest request was read (monotonic), for the move latency
    outbox: Outbox | None = None  # the SQLite store's group commit: frames wait for the disk (``net.server.durable``)

    def __init__(self, ws: ServerConnection, config: ServerConfig) -> None:
        self.ws = ws
        self.address = client_address(ws, config.trust_proxy)
        self.queue: asyncio.Queue[Any] = asyncio.Queue(SEND_QUEUE)
        self.bucket = Bucket(config.message_rate, config.message_burst, config.flood_strikes)
        self.code: str | None = None
        self.seat: int | None = None
        self.watcher: str | None = None  # a spectator's name (then seat stays None)
        self.marks = False  # the client asked for change_end after each change (mark_changes)
        self.features: frozenset[str] = frozenset()  # the additions it reads (features; docs/protocol.md)
        self.closing = False
        self.sender = asyncio.create_task(self._send_all())
        self.closer: asyncio.Task[None] | None = None  # close_now's close, kept until finish() awaits it

    def send(self, message: Any) -> None:
        """Queue a message, or a frame already encoded (a ``str``), for this connection."""
        if self.closing or (not self.marks and (message == CHANGE_END or isinstance(message, ChangeEnd))):
            return  # change_end only to a client that asked for it: an older one refuses what it does not know
        if isinstance(message, Accepted):
            self.metrics.move("player", time.monotonic() - self.received)
        elif isinstance(message, (Refused, ErrorMessage)):
            self.metrics.refusal(message.kind if isinstance(message, Refused) else message.code)
        frame = message if isinstance(message, str) else encode(message)
        missing = frozenset(name for name, mark in INFO_MARKS.items() if mark in frame and name not in self.features)
        if missing:  # the info's additions only to a client that reads them
            frame = without_additions(frame, missing)
        self._put(frame)

    def _put(self, item: Any) -> None:
        """A frame, or a close after the frames before it: through the outbox when there is one."""
        if self.outbox is not None:
            self.outbox.put(self, item)
        else:
            self.deliver(item)

    def deliver(self, item: Any) -> None:
        """Queue a frame or a close for the socket; a client too far behind is dropped."""
        if self.sender.done():
            return  # closed at once meanwhile (close_now): nothing more goes out
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            if isinstance(item, tuple) and item[0] is _CLOSE:
                self.close_now(item[1], item[2])
            else:
                log.info("connection from %s dropped: not reading", self.address)
                self.close_now(1008, "slow")

    def fail(self, code: str, values: Mapping[str, Any] | None = None, close_code: int = 1008) -> None:
        """Send an error and close the connection after it."""
        self.send(ErrorMessage(code, dict(values or {})))
        if not self.closing:
            self.closing = True
            self._put((_CLOSE, close_code, code))

    def end(self) -> None:
        """Close normally once the queued frames are sent (an answer that needs no seat)."""
        if not self.closing:
            self.closing = True
            self._put((_CLOSE, 1000, "done"))

    def answer_and_close(self, message: Any) -> None:
        """Send one answer (``tables``) and close the connection after it, as a normal close."""
        self.send(message)
        self.end()

    def close_now(self, close_code: int, reason: str) -> None:
        """Close at once, without the frames still queued. The close runs as a task, kept here:
        the event loop holds only a weak reference to a task, and finish() awaits it."""
        self.closing = True
        self.sender.cancel()
        if self.closer is None:
            self.closer = asyncio.create_task(self.ws.close(close_code, reason))

    async def _send_all(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple) and item[0] is _CLOSE:
                    await self.ws.close(item[1], item[2])
                    return
                await self.ws.send(item)
        except ConnectionClosed:
            pass

    async def finish(self) -> None:
        if not self.sender.done():
            self.closing = True
            try:
                await asyncio.wait_for(asyncio.shield(self.sender), 1.0)
            except (TimeoutError, asyncio.CancelledError):
                self.sender.cancel()
        if self.closer is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.closer), 1.0)
            except (TimeoutError, asyncio.CancelledError):
                self.closer.cancel()


class Store(Protocol):
    """What the room server asks of its store: ``store.RoomStore`` (SQLite, one process) and the
    cluster's ``SessionStore`` (one session's changes, written to Redis) are two."""

    def save(self, room: Room) -> None: ...
    def load(self, code: str, budget: float) -> Room | None: ...
    def delete(self, code: str) -> None: ...
    def delete_idle(self, before: float) -> int: ...
    def load_all(self, budget: float) -> tuple[list[Room], list[LoadProblem]]: ...
    def describe(self) -> str: ...
    def check_write(self) -> None: ...
    def close(self) -> None: ...


class RoomServer:
    """Every room in memory, backed by the store; the websocket handler and the timers."""

    def __init__(self, store: Store, config: ServerConfig, players: PlayerBook | None = None) -> None:
        self.store, self.config = store, config
        self.players = players  # names of player keys (net.server.identity); None: names are not kept
        self.rooms: dict[str, Room] = {}
        self.seated: dict[tuple[str, int], Connection] = {}
        self.connections: set[Connection] = set()
        self.failures: Limit = AddressLimit(config.join_failures, config.join_window)
        self.creations: Limit = AddressLimit(config.rooms_per_address, config.rooms_window)
        self.boards: Limit = AddressLimit(*BOARD_LIMIT)  # each board is a query on the store: not unbounded
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.timeouts: dict[str, asyncio.Task[None]] = {}  # a room's card being chosen for a seat out of time
        self.chat_limits: dict[tuple[str, int | str], ChatLimit] = {}  # each seat's (or spectator's) chat rate
        self.watchers: dict[str, set[Connection]] = {}  # each room's spectators on this process
        self.watch_arrivals: Limit = AddressLimit(config.watch_arrivals, WATCH_ARRIVAL_WINDOW)
        self.watch_news: dict[str, WatchNews] = {}  # each room's news of spectators, grouped
        self.is_stopping = False  # set once by ``stopping``: new connections are told so and closed
        self.page_session: PageSession | None = None  # the page's console (scopa.web), attached by scopa serve
        self.self_url = ""  # this process's own address on loopback, once listening (a page's console joins here)
        self.metrics = Metrics()  # the figures for Prometheus (``--metrics``), or nothing counted
        self.daily: DailyBook | None = store.daily if isinstance(store, RoomStore) else None  # net.server.daily
        self.outbox: Outbox | None = None  # the SQLite store's group commit (net.server.durable)
        if isinstance(store, RoomStore):
            store.group_commit()
            self.outbox = Outbox(store.changes, store.sync, lambda error: self.metrics.store_error())
        self.par_locks: dict[str, asyncio.Lock] = {}  # one working out of a day's par at a time
        workers = default_workers() if config.computer_workers is None else config.computer_workers
        self.thinkers = Thinkers(workers, max(config.computer_cap, config.computer_budget + 1.0))
        expired = store.delete_idle(time.time() - config.expiry_seconds)
        if expired:
            log.info("%d rooms expired while the server was stopped: deleted", expired)
        rooms, problems = store.load_all(config.computer_budget)
        for problem in problems:
            log.warning("room %s could not be read back and is not served: %s", problem.code, problem.problem)
        now = time.monotonic()
        for room in rooms:
            for seat in room.seats:
                if seat is not None and seat.is_human:
                    seat.connected, seat.left_at = False, now  # everyone is away until they reconnect
            self.rooms[room.code] = room
            log.info("room %s restored: %s, update %d", room.code, room.phase, room.number)

    # Connections -----------------------------------------------------------------------------
    async def handle(self, ws: ServerConnection) -> None:
        if ws.request is not None and urlsplit(ws.request.path).path == PAGE_PATH:
            await serve_page(ws, self.page_session, client_address(ws, self.config.trust_proxy), self.self_url)
            return
        conn = self.connect(ws)
        conn.metrics = self.metrics
        self.connections.add(conn)
        if self.is_stopping:  # a client reconnecting in the last moments: it tries again later
            conn.fail("server_stopping", close_code=1001)
        try:
            if not self.is_stopping and await self._first(conn):
                async for raw in ws:
                    if conn.closing:
                        continue  # read on, so the client's answer to our close frame is read too
                    conn.received = time.monotonic()
                    try:
                        await self.on_message(conn, raw)
                    except Exception:  # a bug must not take the room down: this connection is
                        # closed as a drop (the client reconnects and catches up)
                        log.exception("room %s seat %s: request failed", conn.code, _seat(conn.seat))
                        conn.close_now(1011, "internal error")
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(conn)
            await self.leave(conn)
            await conn.finish()

    async def _first(self, conn: Connection) -> bool:
        try:
            raw = await asyncio.wait_for(conn.ws.recv(), self.config.first_timeout)
        except TimeoutError:
            conn.fail("first_message")
            return False
        try:
            message = parse_client_message(raw)
        except ProtocolError as error:
            conn.fail(error.code, error.values)
            return False
        if isinstance(message, LeaderboardRequest):
            await self._answer_board(conn, message)
            return False
        if isinstance(message, DailyRequest):
            await self._answer_daily(conn, message)
            return False
        if isinstance(message, Watch):
            return await self._watch_first(conn, message)
        if not isinstance(message, FIRST_MESSAGES):
            conn.fail("first_message")
            return False
        if isinstance(message, Hello):
            return await self._hello(conn, message)
        if isinstance(message, ListTables):
            conn.answer_and_close(TablesMessage(await self.listed()))
            return False
        making = isinstance(message, (CreateRoom, Quick, DailyDeal))
        limit = self.creations if making else self.failures
        wait, token = await limit.take(conn.address)
        if wait:  # which limit: rooms made, or tries at codes (docs/protocol.md, Errors)
            conn.fail("too_many_tries", {"seconds": wait, "limit": "rooms" if making else "codes"})
            return False
        try:
            await self.enter(conn, message)
        except RoomRefusal as refusal:
            if isinstance(message, (CreateRoom, Quick, DailyDeal)) or refusal.code not in REVEALING:
                await limit.give_back(conn.address, token)  # no room made, nothing told of a code
            conn.fail(refusal.code, refusal.values)
            return False
        if isinstance(message, Join) or (isinstance(message, Quick) and self._joined_other(conn)):
            await limit.give_back(conn.address, token)  # seated: a player, not a guess; a quick player made no room
        return True

    def _joined_other(self, conn: Connection) -> bool:
        """The connection sits in a room someone else made (its host is another seat)."""
        room = self.rooms.get(conn.code or "")
        return room is not None and room.host != conn.seat

    async def _hello(self, conn: Connection, message: Hello) -> bool:
        """A seat taken back: never throttled when its key is right (behind a NAT or a proxy one
        person guessing would lock everyone out of their seats). A wrong key or code counts as a
        failed try; once the address has too many, that is all it is told."""
        try:
            await self.enter(conn, message)
        except RoomRefusal as refusal:
            if refusal.code in REVEALING:
                wait, _ = await self.failures.take(conn.address)
                if wait:
                    conn.fail("too_many_tries", {"seconds": wait, "limit": "codes"})
                    return False
            conn.fail(refusal.code, refusal.values)
            return False
        return True

    # Spectators (issue 28) ----------------------------------------------------------------------
    async def _watch_first(self, conn: Connection, message: Watch) -> bool:
        """A spectator's way in: a code guessed wrong counts as a failed try, as a join's does;
        more than ``WATCH_ARRIVALS`` arrivals of one address in a minute are refused (flooded)."""
        wait, token = await self.failures.take(conn.address)
        if wait:
            conn.fail("too_many_tries", {"seconds": wait, "limit": "codes"})
            return False
        arriving, _ = await self.watch_arrivals.take(conn.address)
        if arriving:
            await self.failures.give_back(conn.address, token)
            log.info("watch from %s refused: too many arrivals", conn.address)
            conn.fail("flooded")
            return False
        try:
            await self.in_room(message.code, lambda: self._watch(conn, message))
        except RoomRefusal as refusal:
            if refusal.code not in REVEALING:
                await self.failures.give_back(conn.address, token)
            conn.fail(refusal.code, refusal.values)
            return False
        await self.failures.give_back(conn.address, token)
        return True

    def _watch(self, conn: Connection, message: Watch) -> None:
        room = self._room(message.code)
        watchers = self.watchers.setdefault(room.code, set())
        if len(watchers) >= MAX_WATCHERS:
            raise RoomRefusal("watchers_full")
        conn.code, conn.watcher = room.code, message.name
        watchers.add(conn)
        state = room.state
        conn.send(Watching(room.code, room.number, room.info(),
                           () if state is None else state.table, None if state is None else state.to_move,
                           0 if state is None else state.deal_number,
                           () if state is None else tuple(state.match_scores)))
        self._watcher_news(room, message.name)

    def _watcher_news(self, room: Room, name: str) -> None:
        """Tell the room a spectator came: at once when nothing was told of spectators in the last
        ``WATCH_NEWS_EVERY`` seconds, else with the others arrived meanwhile, in one change, when
        that time is up; a name told in the last ``WATCH_NAME_AGAIN`` seconds, not again."""
        news = self.watch_news.setdefault(room.code, WatchNews())
        now = time.monotonic()
        news.told = {n: at for n, at in news.told.items() if now - at < WATCH_NAME_AGAIN}
        if name in news.told or name in news.waiting:
            return
        news.waiting.append(name)
        if now >= news.quiet_until and news.flush is None:
            self._tell_watching(room, news)
        elif news.flush is None:
            code = room.code
            news.flush = asyncio.get_running_loop().call_later(
                news.quiet_until - now, lambda: asyncio.ensure_future(self._flush_watching(code)))

    async def _flush_watching(self, code: str) -> None:
        news = self.watch_news.get(code)
        if news is None:
            return
        news.flush = None
        with contextlib.suppress(RoomRefusal, Unstored):
            await self.in_room(code, lambda: self._tell_watching(self._room(code), news))

    def _tell_watching(self, room: Room, news: WatchNews) -> None:
        names, news.waiting = news.waiting, []
        now = time.monotonic()
        news.quiet_until = now + WATCH_NEWS_EVERY
        news.told.update((name, now) for name in names)
        if names:
            self._commit(room, [room._notice_named("watching", name) for name in names],
                         "%s spectators came", str(len(names)))

    def _connection_request(self, conn: Connection, room: Room, message: Any) -> bool:
        """Ping, mark_changes and features, which a seat and a spectator send alike, answered; whether
        ``message`` was one of them."""
        if isinstance(message, Ping):
            conn.send(Pong())
        elif isinstance(message, MarkChanges):
            conn.marks = True
        elif isinstance(message, Features):
            self._features(conn, room, message)
        else:
            return False
        return True

    def _watcher_message(self, conn: Connection, message: Any) -> None:
        """A spectator may ping, and chat when the host allowed it; anything else is refused."""
        room = self.rooms.get(conn.code or "")
        if room is None:
            conn.fail("room_closed")
        elif self._connection_request(conn, room, message):
            return
        elif isinstance(message, ChatRequest) and not room.watchers_chat:
            conn.send(ErrorMessage("chat_refused", {"reason": "not_allowed"}))
        elif isinstance(message, ChatRequest):
            try:
                self._chat(room, None, message, conn.watcher or "", conn.address)
            except RoomRefusal as refusal:
                conn.send(ErrorMessage(refusal.code, refusal.values))
        else:
            conn.send(ErrorMessage("spectator", {}))

    def _tell_watchers(self, room: Room, entries: list[Entry]) -> None:
        """The public updates of a change, the same frames for every spectator: no view, no hand."""
        watchers = self.watchers.get(room.code)
        if watchers:
            for frame in self._watcher_frames(room, entries):
                for conn in list(watchers):
                    conn.send(frame)

    @staticmethod
    def _watcher_frames(room: Room, entries: list[Entry]) -> list[str]:
        # Any seat's view, read only for a deal_scored's piles: one a change (``seat_updates``), not one an entry.
        frames = [spectator_update(update.number, update.event, update.view) for update in seat_updates(entries, 0)]
        if any(isinstance(entry.event, Notice) for entry in entries):
            frames.insert(0, encode(InfoMessage(room.info())))
        return [*frames, CHANGE_END]  # passed on only to a spectator that asked for it (Connection.send)

    # The three ways into a room; a store shared by several processes (``cluster``) wraps them
    # in that room's lock.
    def connect(self, ws: ServerConnection) -> Connection:
        conn = Connection(ws, self.config)
        conn.outbox = self.outbox
        return conn

    async def enter(self, conn: Connection, message: CreateRoom | Join | Hello | Quick | DailyDeal) -> None:
        if isinstance(message, DailyDeal):
            day, server_seed = await self._daily_ready(message)
            self._create_daily(conn, message, day, server_seed)
            return
        self._enter(conn, message)

    def _enter(self, conn: Connection, message: CreateRoom | Join | Hello | Quick) -> None:
        if isinstance(message, Quick):
            self._quick(conn, message)
        elif isinstance(message, CreateRoom):
            self._create(conn, message)
        elif isinstance(message, Join):
            self._join(conn, message)
        else:
            self._reclaim(conn, message)

    async def on_message(self, conn: Connection, raw: str | bytes) -> None:
        self._message(conn, raw)

    async def leave(self, conn: Connection) -> None:
        if conn.watcher is not None:
            self.watchers.get(conn.code or "", set()).discard(conn)
            return
        with contextlib.suppress(RoomRefusal):  # the store failed: said to the room's other seats already
            self._detach(conn)

    def _message(self, conn: Connection, raw: str | bytes) -> None:
        verdict = conn.bucket.take()
        if verdict != "ok":
            if verdict == "warn":
                conn.send(ErrorMessage("slow_down", {}))
            elif verdict == "close":
                log.info("room %s seat %s: connection closed for flooding", conn.code, _seat(conn.seat))
                conn.fail("flooded")
            return
        try:
            message = parse_client_message(raw)
        except ProtocolError as error:
            if error.code in FATAL_ERRORS:
                conn.fail(error.code, error.values)
            else:
                conn.send(ErrorMessage(error.code, error.values))
            return
        if conn.watcher is not None:
            self._watcher_message(conn, message)
            return
        room = self.rooms.get(conn.code or "")
        if room is None or conn.seat is None:
            conn.fail("room_closed")
            return
        try:
            self._request(conn, room, conn.seat, message)
        except Unstored:
            pass  # said to the room's seats already
        except RoomRefusal as refusal:
            conn.send(ErrorMessage(refusal.code, refusal.values))

    def _request(self, conn: Connection, room: Room, seat: int, message: Any) -> None:
        now = time.monotonic()
        if self._connection_request(conn, room, message):
            pass  # answered; the room's computers are driven on below, as after any request of a seat
        elif isinstance(message, RecordRequest):
            conn.send(finished_record(room, message.id, seat, self.today()))
        elif isinstance(message, FIRST_MESSAGES):
            raise RoomRefusal("already_seated")
        elif isinstance(message, ChatRequest):
            self._chat(room, seat, message)
            return
        elif isinstance(message, SeatKind):
            self._commit(room, room.set_seat(seat, message.seat, message.kind), "seat %s changed by the host",
                         _seat(message.seat))
        elif isinstance(message, MoveSeat):
            self._move_seat(room, seat, message)
        elif isinstance(message, WatchersChat):
            self._commit(room, room.set_watchers_chat(seat, message.allowed), "spectators' chat %s by the host",
                         "allowed" if message.allowed else "stopped")
        elif isinstance(message, MoreTime):
            self._commit(room, room.more_time(seat), "seat %s asked for more time", _seat(seat))
        elif isinstance(message, Back):
            self._commit(room, room.back_from_away(seat, now), "seat %s back from away", _seat(seat))
        elif isinstance(message, Ready):
            self._commit(room, room.ready(seat), "seat %s ready", _seat(seat))
        elif isinstance(message, Start):
            self._commit(room, room.start(seat, now), "started by seat %s", _seat(seat))
        elif isinstance(message, Contribute):
            if room.contribute(seat, message.value, message.nonce):
                self._save(room)  # said to the others with the room's info, before the start at the latest
            if "contributed" in conn.features:  # the share kept: the first this seat gave
                conn.send(Contributed(room.contributions[seat]))
        elif isinstance(message, Assisted):
            self._commit(room, room.mark_assisted(seat), "seat %s used help", _seat(seat))
        elif isinstance(message, (MoveRequest, NextDealRequest, ClaimRequest)):
            try:
                if isinstance(message, MoveRequest):
                    entries = room.human_play(seat, message.move, message.expected, now)
                    what = "move by seat %s"
                elif isinstance(message, ClaimRequest):
                    entries = room.claim(seat, message.expected, now)
                    what = "claim by seat %s"
                else:
                    entries = room.next_deal(seat, message.expected, now)
                    what = "next deal by seat %s"
            except MoveRefusal as refusal:
                conn.send(Refused(message.id, refusal.kind, refusal.reason))
                log.info("room %s: seat %s refused (%s)", room.code, _seat(seat), refusal.kind)
                return
            try:
                self._commit(room, entries, what, _seat(seat))
            except Unstored:  # the room's seats were told; the move is answered at once
                conn.send(Refused(message.id, "unavailable"))
                return
            conn.send(Accepted(message.id, room.number))
        self._drive(room)

    def _features(self, conn: Connection, room: Room, message: Features) -> None:
        """Turn on the additions the client reads that this server has, and say which; with
        ``quick_wait``, the answer carries a quick room's wait, and with a feature of the room's
        info (``program``, ``join_between_deals``) the info follows at once, with the fields the
        welcome, sent before the features, could not carry."""
        turned_on = tuple(dict.fromkeys(name for name in message.names if name in FEATURES))  # in the order asked
        conn.features = frozenset(turned_on)
        conn.send(FeaturesAnswer(turned_on, self._quick_wait(room) if "quick_wait" in conn.features else None))
        if conn.features & INFO_FEATURES:
            conn.send(InfoMessage(room.info()))
            conn.send(ChangeEnd())

    # Table chat (issue 28) ------------------------------------------------------------------------
    def _chat(self, room: Room, seat: int | None, message: ChatRequest, watcher: str = "", address: str = "") -> None:
        """A chat line to every seat of the room, the sender's too; refused (``chat_refused``) when
        empty, too long or too fast. Text only, never stored, never a move: the room is unchanged.
        A spectator's allowance is its address's (``address``), whatever name it comes back under."""
        text = None if message.text is None else clean_chat(message.text)
        problem = None if text is None else chat_problem(text)
        limit = self.chat_limits.setdefault((room.code, f"address {address}" if seat is None else seat), ChatLimit())
        if problem is None and not limit.take():
            problem = "too_fast"
        if problem is not None:
            raise RoomRefusal("chat_refused", reason=problem)
        taken = None if seat is None else room.seats[seat]
        name = watcher if taken is None else taken.name
        self._broadcast(room, encode(ChatMessage(room.host if seat is None else seat, name, text, message.preset,
                                                 watcher=seat is None)))
        log.info("room %s: seat %s said a chat line", room.code, _seat(seat))

    def _broadcast(self, room: Room, frame: str) -> None:
        """One frame to every seat of the room connected, and its spectators (on this process:
        the cluster overrides)."""
        for seat in range(room.rules.players):
            conn = self.seated.get((room.code, seat))
            if conn is not None:
                conn.send(frame)
        for conn in list(self.watchers.get(room.code, ())):
            conn.send(frame)

    def _create(self, conn: Connection, message: CreateRoom, listing: str | None = None) -> None:
        code = new_code()
        while code in self.rooms:
            code = new_code()
        player = self._claim(message.player_key, message.name, message.program)
        key = new_seat_key()
        if listing is None:
            listing = "public" if message.public else ""
        room, entries = new_room(code, message.rules, message.seats, message.name, key_hash(key), message.level,
                                 time.time(), self.config.computer_budget, secrets.token_bytes(SEED_BYTES), listing)
        room.seat_player(0, player, message.program)
        room.clock = None if message.turn_time is None else TurnClock(message.turn_time)
        room.watchers_chat = message.watchers_chat
        room.join_between_deals = message.join_between_deals
        self.rooms[code] = room
        self._seat_connection(conn, room, 0)
        self._save(room)
        conn.send(Welcome(code, 0, 0, room.info(), key, commitment=room.commitment))
        self._commit(room, entries, "created with %d seats by %s", room.rules.players, conn.address)

    def _join(self, conn: Connection, message: Join) -> None:
        room = self._room(message.code)
        room.check_joinable()
        player = self._claim(message.player_key, message.name, message.program)
        key = new_seat_key()
        number = room.number
        taking_over = room.phase == "playing"  # a computer's seat taken between deals (join_between_deals)
        seat, entries = room.join(message.name, key_hash(key))
        # unrated when taken over: the deals before were a computer's
        room.seat_player(seat, None if taking_over else player, message.program)
        self._seat_connection(conn, room, seat)
        conn.send(Welcome(room.code, seat, number, room.info(), key, commitment=room.commitment))
        if taking_over and room.state is not None:  # its view, as a seat taken back is sent one
            conn.send(ResyncMessage(room.number, room.state.view(seat), room.info()))
            conn.send(ChangeEnd())
        self._commit(room, entries, "seat %s joined", _seat(seat))

    def _quick_wait(self, room: Room) -> int | None:
        """A quick room's wait for people, in whole seconds, for its players to hear (issue 38): in
        the features answer, to a connection with the feature ``quick_wait``."""
        # Up to the whole second: a wait of half a second is not said as "0 seconds".
        return math.ceil(self.config.quick_wait) if room.listing == "quick" else None

    # Finding a game: quick matches and public rooms (docs/online.md) ------------------------------
    def _quick(self, conn: Connection, message: Quick) -> None:
        """A seat in a quick room of the same rules still waiting, else a new quick room."""
        room = quick_room(self.rooms.values(), message.rules, lambda r: not self._expired(r), message.turn_time)
        if room is None:
            self._create(conn, quick_room_request(message), "quick")
        else:
            self._join(conn, Join(room.code, message.name, message.player_key, program=message.program))

    def _quick_here(self, conn: Connection, message: Quick, code: str) -> bool:
        """Seat the quick player in the room ``code`` if it still waits for these rules; whether it did."""
        room = self.rooms.get(code)
        if room is None or quick_room([room], message.rules, lambda r: not self._expired(r), message.turn_time) is None:
            return False
        self._join(conn, Join(room.code, message.name, message.player_key, program=message.program))
        return True

    async def listed(self) -> tuple[OpenTable, ...]:
        """The public rooms still waiting for players (``tables``)."""
        return open_tables(r for r in self.rooms.values() if not self._expired(r))

    def _start_quick(self, room: Room, wall: float) -> None:
        """Start a quick room that is full, or has waited long enough: computers take the free seats."""
        if room.quick_due(wall, self.config.quick_wait):
            self._commit(room, room.start(room.host, time.monotonic(), least=1), "quick match started")
            self._drive(room)

    def _claim(self, player_key: str | None, name: str, program: bool = False) -> str | None:
        """The hash of the player key that may play as ``name`` (None: no key), or "name_taken";
        ``program``: the key plays as a program, rated on the programs' board from now on."""
        player = None if player_key is None else player_hash(player_key)
        if self.players is None:  # claimed already, where the store is another's (cluster.ClusterServer.enter)
            return player
        try:
            self.players.claim(player, name, program)
        except NameTaken:
            raise RoomRefusal("name_taken") from None
        except sqlite3.Error as error:  # a full or read-only disk: refused as any write would be
            self.metrics.store_error()
            log.error("a name cannot be stored (%s); the request is refused", error)
            raise RoomRefusal("storage") from None
        return player

    async def _answer_board(self, conn: Connection, message: LeaderboardRequest) -> None:
        """The leaderboard, then the connection closed (no seat is taken)."""
        wait, _ = await self.boards.take(conn.address)
        if wait:
            conn.fail("too_many_tries", {"seconds": wait, "limit": "asks"})
            return
        player = None if message.player_key is None else player_hash(message.player_key)
        try:
            rows, you = await self.board(message.top, player, message.programs)
        except Exception as error:  # noqa: BLE001 -- the store failed: said in one line, nothing else
            log.error("the leaderboard cannot be read (%s)", error)
            conn.fail("storage")
            return
        conn.send(Leaderboard(tuple(BoardRow(*row) for row in rows), None if you is None else BoardPlace(*you)))
        conn.end()

    async def board(self, top: int, player: str | None, programs: bool = False
                    ) -> tuple[list[tuple[int, str, float, int]], tuple[int, int, float] | None]:
        """The top players and the asker's place, from the store's book (none kept: an empty board):
        the people's, or with ``programs`` the programs'."""
        return ([], None) if self.players is None else self.players.leaderboard(top, player, programs)

    # The daily deal (issue 29, net.server.daily) --------------------------------------------------------
    def today(self) -> str:
        """The UTC day now (``--daily-date`` fixes it, for tests of a day's end without waiting a day;
        ``--daily-date-file`` names it in a file the tests change while the server runs)."""
        if self.config.daily_date_file is not None:
            with contextlib.suppress(OSError, UnicodeError):
                named = self.config.daily_date_file.read_text("utf-8").strip()
                if is_day(named):
                    return named
        return self.config.daily_date or day_of(time.time())

    def _daily_book(self) -> DailyBook:
        if self.daily is None:
            raise RoomRefusal("storage")
        return self.daily

    async def _daily_ready(self, message: DailyDeal) -> tuple[str, bytes]:
        """Today and the server seed of its deal ``deal``: the day seed kept (drawn now when the day
        has none) and the day's par worked out, before the room is made. A deal of a day the client
        names that is not today is refused: once a day has ended its seed is revealed, so a deal of
        it begun now would be played with every card known (a room begun before midnight plays on)."""
        deal = message.deal
        if not 1 <= deal <= self.config.daily_deals:
            raise RoomRefusal("bad_field", field="deal")
        day, book = self.today(), self._daily_book()
        if message.day is not None and message.day != day:
            raise RoomRefusal("not_today", day=day)
        try:
            seed = await book.seed(day, True)
            if seed is None:
                raise RoomRefusal("storage")
            await self.day_par(day, seed)
        except RoomRefusal:
            raise
        except Exception as error:  # noqa: BLE001 -- the store failed: the request is not done
            self.metrics.store_error()
            log.error("the daily deal cannot be read or kept (%s)", error)
            raise RoomRefusal("storage") from None
        if self.today() != day:  # midnight passed while par was worked out: that day's seed is revealed now
            raise RoomRefusal("not_today", day=self.today())
        return day, deal_seed(seed, deal)

    async def day_par(self, day: str, seed: bytes) -> list[int]:
        """The day's par, worked out once (in the computers' pool, off this loop) and kept in the store."""
        book = self._daily_book()
        async with self.par_locks.setdefault(day, asyncio.Lock()):
            kept = await book.par(day)
            if kept is not None:
                return kept
            par = await self.thinkers.work(day_par, seed, self.config.daily_deals, self.config.daily_iterations)
            log.info("daily %s: par worked out for %d deals", day, len(par))
            return await book.keep_par(day, par)

    def _create_daily(self, conn: Connection, message: DailyDeal, day: str, server_seed: bytes) -> None:
        """A room of the day's deal: the player in seat 0, the expert in seat 1, begun at once (the
        welcome says "playing", so the client gives no share of the seed)."""
        code = new_code()
        while code in self.rooms:
            code = new_code()
        player = self._claim(message.player_key, message.name)
        key = new_seat_key()
        room, entries = new_room(code, DAILY_RULES, ("human", DAILY_LEVEL), message.name, key_hash(key), DAILY_LEVEL,
                                 time.time(), self.config.computer_budget, server_seed, listing(day, message.deal),
                                 names_from=day)  # the same expert, by name, in each of the day's deals
        room.seat_player(0, player)
        room.made_from = address_tag(conn.address)
        room.second_try = player is not None and any(  # one counted try: the first room begun counts
            other.listing == room.listing and other.phase == "playing" and other.seats[0] is not None
            and other.seats[0].player == player for other in self.rooms.values())
        entries += room.start_daily(time.monotonic())
        self.rooms[code] = room
        self._seat_connection(conn, room, 0)
        self._save(room)
        conn.send(Welcome(code, 0, 0, room.info(), key, commitment=room.commitment))
        self._commit(room, entries, "daily deal %d of %s begun by %s", message.deal, day, conn.address)
        self._drive(room)

    async def _answer_daily(self, conn: Connection, message: DailyRequest) -> None:
        """The day's commitments, its seed once the day has ended, and its board; then the connection closed."""
        wait, _ = await self.boards.take(conn.address)
        if wait:
            conn.fail("too_many_tries", {"seconds": wait, "limit": "asks"})
            return
        today = self.today()
        day = message.day or today
        if not is_day(day) or day > next_day(today):
            conn.fail("bad_field", {"field": "day"})
            return
        player = None if message.player_key is None else player_hash(message.player_key)
        try:
            answer = await self._daily_answer(day, today, message.top, player)
        except RoomRefusal as refusal:
            conn.fail(refusal.code, refusal.values)
            return
        except Exception as error:  # noqa: BLE001 -- the store failed: said in one line, nothing else
            self.metrics.store_error()
            log.error("the daily deal cannot be read (%s)", error)
            conn.fail("storage")
            return
        conn.send(answer)
        conn.end()

    async def _daily_answer(self, day: str, today: str, top: int, player: str | None) -> DailyAnswer:
        book = self._daily_book()
        seed = await book.seed(day, day >= today)  # today's and tomorrow's are drawn when first asked
        following = await book.seed(next_day(day), True) if day == today else None
        par = await book.par(day)
        deals = len(par) if par else self.config.daily_deals
        results = await book.results(day)
        trusted = self.config.daily_trusted_players
        firsts = {} if trusted else await book.first_days({r.player for r in results})
        board = rank_day(results if not trusted else [replace(r, address="") for r in results], deals, top, player,
                         {who for who, first in firsts.items() if first >= day})
        return DailyAnswer(
            day, deals, None if seed is None else commitment(seed),
            None if following is None else commitment(following),
            seed if seed is not None and day < today else None,  # revealed only once the day has ended
            tuple(DailyRow(*row) for row in board.rows),
            None if board.you is None else DailyPlace(*board.you),
            tuple(DailyPlayed(*entry) for entry in board.played))

    def _reclaim(self, conn: Connection, message: Hello) -> None:
        room = self._room(message.code)
        seat = room.seat_of_key(message.seat_key)
        if seat is None:
            raise RoomRefusal("wrong_key")
        old = self.seated.get((room.code, seat))
        if old is not None:
            old.fail("seat_taken")
            old.code = old.seat = None
        self._seat_connection(conn, room, seat)
        conn.send(Welcome(room.code, seat, room.number, room.info(), last_deal=room.finished_deal(),
                          commitment=room.commitment))
        self._catch_up(conn, room, seat, message.last_number)
        entries = room.connected(seat)
        if room.clock is not None and room.clock_seat() == seat:  # the timer waited: a whole turn from now
            room.turn_since = time.monotonic()
            room.clock.warned.clear()
        self._commit(room, entries, "seat %s back", _seat(seat))
        self._drive(room)

    def _catch_up(self, conn: Connection, room: Room, seat: int, last_number: int) -> None:
        """Send a reclaimed seat the updates it missed since ``last_number``, or a resync."""
        missed = room.updates(seat, last_number, self.config.max_replay)
        if isinstance(missed, Resync) or missed is None:
            conn.send(ResyncMessage(room.number, None if missed is None else missed.view, room.info()))
        else:
            for update in missed:
                conn.send(UpdateMessage(update))
        conn.send(ChangeEnd())

    def _room(self, code: str) -> Room:
        room = self.rooms.get(code)
        if room is None or self._expired(room):
            raise RoomRefusal("unknown_room")
        return room

    def _move_seat(self, room: Room, seat: int, message: MoveSeat) -> None:
        """The host's move of a seat: the room's seats, then the connections, then the change stored
        and told; the connections go back when it cannot be stored (the room goes back too)."""
        entries, moves = room.move_seat(seat, message.from_seat, message.to_seat)
        self._move_connections(room.code, moves)
        try:
            self._commit(room, entries, "seat %s moved to seat %s by the host", _seat(message.from_seat),
                         _seat(message.to_seat))
        except Unstored:
            self._move_connections(room.code, {new: old for old, new in moves.items()})
            raise

    def _move_connections(self, code: str, moves: Mapping[int, int]) -> None:
        """The connections (and chat limits) of seats the host moved follow their players: each
        is the new seat's from now on (its client hears ``moved`` with the change)."""
        conns = {old: self.seated.pop((code, old), None) for old in moves}
        limits = {old: self.chat_limits.pop((code, old), None) for old in moves}
        for old, new in moves.items():
            conn, limit = conns[old], limits[old]
            if conn is not None:
                conn.seat = new
                self.seated[(code, new)] = conn
            if limit is not None:
                self.chat_limits[(code, new)] = limit

    def _seat_connection(self, conn: Connection, room: Room, seat: int) -> None:
        conn.code, conn.seat = room.code, seat
        self.seated[(room.code, seat)] = conn

    def _detach(self, conn: Connection) -> None:
        if conn.code is None or conn.seat is None or self.seated.get((conn.code, conn.seat)) is not conn:
            return
        del self.seated[(conn.code, conn.seat)]
        room = self.rooms.get(conn.code)
        if room is not None and room.listing == "quick" and room.phase == "lobby":
            self._commit(room, room.vacate(conn.seat), "seat %s left the quick match", _seat(conn.seat))
            if not room.humans():
                self._close_room(room, "room_closed")
        elif room is not None:
            self._commit(room, room.disconnected(conn.seat, time.monotonic()), "seat %s left", _seat(conn.seat))

    # Changes -------------------------------------------------------------------------------
    def _commit(self, room: Room, entries: list[Entry], what: str, *args: Any) -> None:
        """Store the room, then send each seat its updates: never the other way round."""
        if not entries:
            return
        room.active = time.time()
        if room.phase == "over" and not room.finished_on and daily_of(room.listing) is not None:
            room.finished_on = self.today()  # a daily room ended after its day counts for nothing (issue 37)
        self._save(room)
        log.info("room %s: " + what + ", update %d", room.code, *args, room.number)
        self._tell(room, entries)

    def _tell(self, room: Room, entries: list[Entry]) -> None:
        """Send each connected seat its messages of a stored change, and the spectators theirs."""
        for seat in range(room.rules.players):
            conn = self.seated.get((room.code, seat))
            if conn is not None:
                for message in self._messages_for(room, entries, seat):
                    conn.send(message)
                conn.send(ChangeEnd())
        self._tell_watchers(room, entries)

    @staticmethod
    def _messages_for(room: Room, entries: list[Entry], seat: int) -> list[str | InfoMessage | Moved]:
        """What one seat is sent of a change: its own updates, after a notice preceded by the room's
        info. Info first: the client keeps it without ending the prompt open, and the notice that
        follows ends it once, with the seats already as they are now (``Start?`` for the host once
        every seat is ready). Sent after, it ended a prompt a second time with nothing to say, and
        the prompt was written again: a screen reader read it twice. A player the host moved to
        this seat hears ``moved`` before all, so the info and notices are read from the new seat."""
        messages: list[str | InfoMessage | Moved] = list(update_frames(seat_updates(entries, seat)))
        if any(isinstance(entry.event, Notice) for entry in entries):
            messages.insert(0, InfoMessage(room.info()))
        if any(isinstance(e.event, Notice) and e.event.kind == "seat_moved" and e.event.seat == seat for e in entries):
            messages.insert(0, Moved(seat))
        return messages

    def _save(self, room: Room) -> None:
        """Store the room; when the store fails (a full or read-only disk), the change is undone:
        the room goes back to its last stored position, its seats are told, and the request is
        refused with "storage". Nothing is said to anyone that is not stored."""
        try:
            self.store.save(room)
        except (sqlite3.Error, OSError) as error:
            self.metrics.store_error()
            log.error("room %s: cannot be stored (%s); the change is refused", room.code, error)
            self._restore(room)
            raise Unstored() from None

    def _restore(self, room: Room) -> None:
        try:
            stored = self.store.load(room.code, self.config.computer_budget)
        except (sqlite3.Error, OSError, ValueError):
            stored = None
        if stored is None:
            self.rooms.pop(room.code, None)
        else:
            for seat, kept in zip(room.seats, stored.seats, strict=True):
                if seat is not None and kept is not None:
                    kept.connected, kept.left_at = seat.connected, seat.left_at
            self.rooms[room.code] = stored
        for number in range(room.rules.players):
            conn = self.seated.get((room.code, number))
            if conn is not None:
                conn.send(ErrorMessage("storage", {}))
                if stored is None:
                    del self.seated[(room.code, number)]
                    conn.fail("room_closed")

    def _drive(self, room: Room) -> None:
        """Let the computers (and covered seats) play, one move at a time, in a task of the room."""
        if room.computer_to_move() is None and not room.host_is_away():
            return
        running = self.drivers.get(room.code)
        if running is not None and not running.done():
            return
        self.drivers[room.code] = asyncio.create_task(self._computers(room))

    async def _computers(self, room: Room) -> None:
        try:
            await self._play_computers(room)
        except Exception:  # logged; the room goes on when a person next acts in it
            log.exception("room %s: a computer move failed", room.code)

    async def _play_computers(self, room: Room) -> None:
        while self.rooms.get(room.code) is room:
            wait = self._computer_wait(room)
            if wait is None:
                return
            turn, move = await self._think(room, wait)
            if self.rooms.get(room.code) is room:
                self._computer_step(room, turn, move)

    async def _think(self, room: Room, wait: float) -> tuple[ComputerTurn | None, Move | None]:
        """The computer's move worked out in the pool (off this loop: every other room goes on
        meanwhile), within the pause between computer moves: at least ``wait`` seconds from now."""
        start = time.monotonic()
        turn = room.computer_turn()
        move = None if turn is None or turn.claim else await self.thinkers.move(turn)  # a claim needs no thought
        await asyncio.sleep(max(0.0, wait - (time.monotonic() - start)))
        return turn, move

    def _computer_wait(self, room: Room) -> float | None:
        """Seconds before the table's next own step (a computer's move, a covered host's deal); None: none."""
        if room.computer_to_move() is not None:
            return self.config.computer_delay
        if room.host_is_away():
            return self.config.computer_delay * 3
        return None

    def _computer_step(self, room: Room, turn: ComputerTurn | None = None, move: Move | None = None) -> None:
        """The table's own step: the computer's move thought for ``turn`` (none when the table
        changed meanwhile: it is thought again), or the covered host's deal."""
        seat = room.computer_to_move()
        if seat is not None:
            if turn is not None and (move is not None or turn.claim):
                self._commit(room, room.computer_move(time.monotonic(), turn, move), "computer move for seat %s",
                             _seat(seat))
                self.metrics.move("computer")
        elif room.host_is_away():
            self._commit(room, room.deal_for_host(time.monotonic()), "next deal for the covered host")

    async def tick(self) -> None:
        """Cover dropped players when their grace is over; delete expired rooms."""
        last_expiry = 0.0
        while True:
            await asyncio.sleep(self.config.tick)
            now, wall = time.monotonic(), time.time()
            for room in list(self.rooms.values()):
                try:
                    self._cover_due(room, now)
                    self._clock_due(room, now)
                    self._start_quick(room, wall)
                except RoomRefusal:  # not stored (said to its seats): tried again at the next tick
                    pass
                except Exception:  # logged; the other rooms are not held up
                    log.exception("room %s: covering a seat failed", room.code)
            if now - last_expiry >= 1.0 or self.config.expiry_seconds < 10:
                last_expiry = now
                for room in [r for r in self.rooms.values() if self._expired(r)]:
                    self._close_room(room, "room_closed")

    def _cover_due(self, room: Room, now: float) -> None:
        for seat in room.cover_due(now, self.config.grace, self.config.turn_grace):
            self._commit(room, room.cover(seat), "seat %s covered by a computer", _seat(seat))
            self._drive(room)

    # The turn timer (issue 28) ------------------------------------------------------------------
    def _clock_due(self, room: Room, now: float) -> None:
        """A warning to the table, or the seat's card chosen off the loop once its time is up."""
        due = room.clock_due(now, self.config.clock_scale)
        seat = room.clock_seat()
        if due is None or seat is None or room.clock is None:
            return
        kind, seconds = due
        if kind == "warning":
            room.clock.warned.append(seconds)
            self._save(room)  # with several processes: warned once, whichever process looks
            self._broadcast(room, encode(ClockMessage(seat, seconds)))
            return
        running = self.timeouts.get(room.code)
        if running is None or running.done():
            self.timeouts[room.code] = asyncio.create_task(self._time_out(room.code))

    async def _time_out(self, code: str) -> None:
        """The easy level's card for the seat out of time, worked out in the pool, then played in the room."""
        try:
            room = self.rooms.get(code)
            turn = None if room is None else room.timeout_turn()
            if turn is None:
                return
            move = await self.thinkers.move(turn)
            await self.in_room(code, lambda: self._time_out_step(code, turn, move))
        except Exception:  # logged; the room goes on (the next tick tries again)
            log.exception("room %s: playing for a seat out of time failed", code)

    def _time_out_step(self, code: str, turn: ComputerTurn, move: Move) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        self._commit(room, room.timed_out(turn, move, time.monotonic()), "seat %s ran out of time",
                     _seat(turn.key[0]))
        self._drive(room)

    async def in_room(self, code: str, action: Callable[[], None]) -> None:
        """Run ``action`` on the room: at once here; in the cluster, in the room's session."""
        action()

    def _expired(self, room: Room) -> bool:
        return time.time() - room.active > self.config.expiry_seconds

    def _close_room(self, room: Room, code: str) -> None:
        del self.rooms[room.code]
        self.store.delete(room.code)
        news = self.watch_news.pop(room.code, None)
        if news is not None and news.flush is not None:
            news.flush.cancel()
        for watcher in self.watchers.pop(room.code, set()):
            watcher.fail(code)
        for tasks in (self.drivers, self.timeouts):
            task = tasks.pop(room.code, None)
            if task is not None:
                task.cancel()
        for seat in range(room.rules.players):
            self.chat_limits.pop((room.code, seat), None)
            conn = self.seated.pop((room.code, seat), None)
            if conn is not None:
                conn.fail(code)
        log.info("room %s: expired and deleted", room.code)

    async def writable(self) -> bool:
        """Whether the store takes a write now (``GET /healthz``)."""
        try:
            self.store.check_write()
        except (sqlite3.Error, OSError) as error:
            self.metrics.store_error()
            log.error("health: the store cannot be written (%s)", error)
            return False
        if self.outbox is not None and self.outbox.failing:
            log.error("health: the store cannot be flushed to the disk")
            return False  # its answers wait for a flush that fails
        return True

    async def close(self) -> None:
        self.thinkers.close()
        if self.outbox is not None:
            await self.outbox.close()
        self.store.close()

    def stopping(self) -> None:
        """Tell every client the server is stopping (a restart, for them: they reconnect), and stop the computers."""
        self.is_stopping = True
        for conn in list(self.connections):
            conn.fail("server_stopping", close_code=1001)
        for task in self.drivers.values():
            task.cancel()


def _seat(seat: int | None) -> str:
    return "?" if seat is None else str(seat + 1)


def seat_updates(entries: Sequence[Entry], seat: int) -> list[SeatUpdate]:
    """The seat's updates of a change: entries that share a position share one view of it (made
    and encoded once: ``protocol.server_messages.update_frames``), where ``Entry.for_seat`` makes one each."""
    updates = []
    state: object = None
    view = None
    for entry in entries:
        if entry.state is not state:
            state, view = entry.state, None if entry.state is None else entry.state.view(seat)
        updates.append(SeatUpdate(entry.number, entry.event, view))
    return updates


def finished_record(room: Room, request_id: int, seat: int, today: str | None = None) -> str | Refused:
    """The answer to ``record`` from ``seat``: the room's whole match once it is over, never
    before (as its encoded frame, measured once against ``MAX_RECORD_MESSAGE``), with the deals a
    computer played some of that seat in (``Room.played_for``), which earn its player nothing.

    The record holds the seed, which reveals every hand of every deal: it leaves the server
    only when every card has been played face up, and a room plays one match, so nothing is
    dealt from that seed after it."""
    record = room.record
    if room.phase != "over" or record is None or not record.state.is_match_over:
        return Refused(request_id, "not_now")
    daily = daily_of(room.listing)
    if daily is not None and today is not None and daily[0] >= today:
        return Refused(request_id, "not_now")  # a daily deal's seed: told once its day's board has closed
    frame = encode(MatchRecordMessage(request_id, record_to_dict(record), room.played_for(seat), room.nonces_for(seat)))
    if len(frame.encode("utf-8")) > MAX_RECORD_MESSAGE:
        return Refused(request_id, "unavailable")
    return frame


# Running ---------------------------------------------------------------------------------------

def default_db() -> Path:
    from ...storage import default_data_dir
    return default_data_dir() / DB_NAME


class TlsFileError(OSError):
    """A certificate or key that cannot serve ``wss://``: the message names the file and what is wrong."""


def tls_context(certfile: Path | None, keyfile: Path | None) -> ssl.SSLContext | None:
    """The server's TLS context from ``--certfile`` (and ``--keyfile``, or the key in the same file);
    ``TlsFileError`` naming the file and the problem when they cannot be used (OpenSSL's own words
    were "[Errno 2] No such file or directory" with no name, and "PEM lib (_ssl.c:3926)")."""
    if certfile is None:
        return None
    cert_text = _pem_text("--certfile", certfile)
    key_flag, key_path = ("--keyfile", keyfile) if keyfile is not None else ("--certfile", certfile)
    key_text = _pem_text("--keyfile", keyfile) if keyfile is not None else cert_text
    if "-----BEGIN CERTIFICATE-----" not in cert_text:
        raise TlsFileError(f"--certfile {certfile}: no certificate in it (a PEM file, -----BEGIN CERTIFICATE-----)")
    if "PRIVATE KEY-----" not in key_text:
        hint = "; give the certificate's key with --keyfile FILE" if keyfile is None else ""
        raise TlsFileError(f"{key_flag} {key_path}: no private key in it{hint}")
    if "ENCRYPTED" in key_text:
        raise TlsFileError(f"{key_flag} {key_path}: the key is protected by a passphrase, which a server cannot type; "
                           "write it unprotected: openssl pkey -in KEY -out KEY.unprotected")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile)
    except ssl.SSLError as error:
        if "KEY_VALUES_MISMATCH" in str(error):
            raise TlsFileError(f"{key_flag} {key_path}: not the key of the certificate in {certfile}") from error
        raise TlsFileError(f"--certfile {certfile}: cannot be used ({error.reason or error})") from error
    _warn_of_expiry(certfile)
    return context


def _pem_text(flag: str, path: Path) -> str:
    try:
        return path.read_text("ascii", errors="replace")
    except FileNotFoundError:
        raise TlsFileError(f"{flag} {path}: no such file") from None
    except OSError as error:
        raise TlsFileError(f"{flag} {path}: cannot be read ({error.strerror or error})") from None


EXPIRY_WARNING = 14 * 24 * 3600  # seconds before its end that a certificate is said to expire soon


def _warn_of_expiry(certfile: Path, now: float | None = None) -> None:
    """Warn at start of a certificate past its date (every client refuses it: "Certificate expired")
    or within two weeks of it. Read with the standard library's own certificate decoder."""
    decode = getattr(getattr(ssl, "_ssl", None), "_test_decode_cert", None)
    if decode is None:
        return
    try:
        ends = ssl.cert_time_to_seconds(decode(str(certfile))["notAfter"])
    except (ssl.SSLError, OSError, KeyError, ValueError):
        return
    left = ends - (time.time() if now is None else now)
    day = time.strftime("%Y-%m-%d", time.gmtime(ends))
    if left <= 0:
        log.warning("warning: the certificate in %s expired on %s: every client will refuse it (Certificate expired). "
                    "Renew it", certfile, day)
    elif left < EXPIRY_WARNING:
        log.warning("warning: the certificate in %s expires on %s: renew it before then", certfile, day)


OpenRooms = Callable[[ServerConfig], Awaitable[RoomServer]]


async def sqlite_rooms(config: ServerConfig) -> RoomServer:
    store = RoomStore(config.db or default_db())
    return RoomServer(store, config, store.players)


async def run(config: ServerConfig, ready: asyncio.Future[int] | None = None,
              open_rooms: OpenRooms = sqlite_rooms) -> int:
    """Serve until SIGTERM or SIGINT; 0 after a clean shutdown. ``open_rooms`` gives the server
    on its store (``launch`` picks SQLite or Redis)."""
    rooms = await open_rooms(config)
    where = rooms.store.describe()
    loop = asyncio.get_running_loop()
    stop = loop.create_future()

    def stop_serving() -> None:
        if not stop.done():
            stop.set_result(None)

    restore_signals = on_stop_signals(loop, stop_serving)
    try:
        if config.metrics is not None:
            rooms.metrics = PrometheusMetrics(config.metrics, lambda: len(rooms.rooms), lambda: len(rooms.connections))
            log.info("metrics on http://%s:%d/metrics", config.metrics[0], rooms.metrics.port)
        return await _serve(rooms, config, where, stop, ready)
    finally:
        rooms.metrics.close()
        restore_signals()


async def _serve(rooms: RoomServer, config: ServerConfig, where: str, stop: asyncio.Future[None],
                 ready: asyncio.Future[int] | None) -> int:
    context = tls_context(config.certfile, config.keyfile)
    ticking = asyncio.create_task(rooms.tick())
    collecting = asyncio.create_task(keep_collections_short())  # no full garbage collection holds the loop long
    # A little above the protocol's cap, so an oversized message is answered with "too_big"
    # before the library closes on anything much larger.
    # No per-message deflate: a frame is about a kilobyte, and deflate cost each connection about 50 KiB
    # of memory and the loop a compression of every frame (docs/architecture.md, "Costs").
    hook = page_hook(health_hook(rooms.writable, lambda: rooms.is_stopping))
    async with contextlib.AsyncExitStack() as serving:
        server = await serving.enter_async_context(serve(
            rooms.handle, config.host, config.port, ssl=context, max_size=MAX_CLIENT_MESSAGE * 4, max_queue=8,
            write_limit=2 ** 16, close_timeout=3, server_header=None, compression=None, process_request=hook))
        port = server.sockets[0].getsockname()[1]
        scheme = "wss" if context else "ws"
        rooms.self_url = f"{scheme}://{loopback(config.host)}:{port}"
        if context is not None and rooms.page_session is not None:
            # The pages' consoles join this server as clients; over TLS they would check its certificate
            # against 127.0.0.1. They get a plain port of their own instead, on loopback only.
            inner = await serving.enter_async_context(serve(
                rooms.handle, "127.0.0.1", 0, max_size=MAX_CLIENT_MESSAGE * 4, max_queue=8, write_limit=2 ** 16,
                close_timeout=3, server_header=None, compression=None, process_request=hook))
            rooms.self_url = f"ws://127.0.0.1:{inner.sockets[0].getsockname()[1]}"
        log.info("listening on %s://%s:%d, rooms in %s (%d restored)", scheme, config.host, port, where,
                 len(rooms.rooms))
        if ready is not None:
            ready.set_result(port)
        await stop
        log.info("stopping")
        rooms.stopping()
        await asyncio.sleep(0.1)  # let the senders say why
    ticking.cancel()
    collecting.cancel()
    await rooms.close()
    log.info("stopped")
    return 0


class _Parser(argparse.ArgumentParser):
    """Help a screen reader can read: a sentence for the usage line, no colon after a title; a bad
    flag is one line, "scopa serve: ..." (as the game's own flags), not argparse's usage synopsis first."""

    def error(self, message: str):  # type: ignore[no-untyped-def]
        self.exit(2, f"{self.prog}: {message}\n")

    def format_help(self) -> str:
        titles = {group.title for group in self._action_groups if group.title}
        lines = super().format_help().split("\n")
        return "\n".join(line[:-1] if line.endswith(":") and line[:-1] in titles else line for line in lines)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="scopa serve", usage="scopa serve, then any of the flags below",
                description="Run a room server for online Scopa matches.")
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help="address to listen on, 127.0.0.1 unless given, 0.0.0.0 for every interface")
    p.add_argument("--port", type=whole_number, default=8765,
                   help="port to listen on, 8765 unless given, 0 picks a free one")
    p.add_argument("--db", type=Path, metavar="FILE", help=f"the SQLite file of rooms, {DB_NAME} in the data folder "
                   "unless given")
    p.add_argument("--store", metavar="URL", help="a Redis address such as redis://127.0.0.1:6379/0, to keep the "
                   "rooms there so that several server processes serve them, the SQLite file unless given")
    p.add_argument("--certfile", type=Path, metavar="FILE", help="a TLS certificate in PEM, to serve wss")
    p.add_argument("--keyfile", type=Path, metavar="FILE", help="its private key, if not in the certificate file")
    p.add_argument("--expiry-hours", type=decimal_number, default=48.0, metavar="HOURS",
                   help="rooms idle this long are deleted, 48 unless given")
    p.add_argument("--grace", type=decimal_number, default=60.0, metavar="SECONDS",
                   help="time before a computer covers a dropped player, 60 unless given")
    p.add_argument("--turn-grace", type=decimal_number, default=15.0, metavar="SECONDS",
                   help="the same when the others are waiting for that player, 15 unless given")
    p.add_argument("--computer-delay", type=decimal_number, default=1.0, metavar="SECONDS",
                   help="time between computer moves, 1 unless given")
    p.add_argument("--computer-budget", type=decimal_number, default=0.3, metavar="SECONDS",
                   help="time the expert level thinks per move, 0.3 unless given")
    p.add_argument("--computer-workers", type=whole_number, metavar="N",
                   help="processes the computers think in, off the server's loop, one for each core unless "
                   "given, 0 to think in the loop")
    p.add_argument("--computer-cap", type=decimal_number, default=10.0, metavar="SECONDS",
                   help="a computer move not worked out in this time is chosen by the easy level, 10 unless given")
    p.add_argument("--message-rate", type=decimal_number, default=10.0, metavar="N",
                   help="messages a second one connection may send on average, 10 unless given")
    p.add_argument("--max-replay", type=whole_number, default=200, metavar="N",
                   help="a client that missed more updates than this gets a fresh view, 200 unless given")
    p.add_argument("--metrics", metavar="PORT", help="serve figures for Prometheus at /metrics on this port of "
                   "127.0.0.1, or on ADDRESS:PORT; needs the prometheus_client package, " + INSTALL)
    p.add_argument("--trust-proxy", action="store_true",
                   help="count each client by the last address of the X-Forwarded-For header its reverse proxy "
                   "sets, not by the proxy's own address; only behind such a proxy, off unless given")
    p.add_argument("--quick-wait", type=decimal_number, default=20.0, metavar="SECONDS",
                   help="time a quick match waits for people before computers take its free seats, 20 unless given")
    p.add_argument("--clock-scale", type=decimal_number, default=1.0, metavar="FACTOR",
                   help="multiply every turn timer's seconds by this, for tests, 1 unless given")
    p.add_argument("--daily-deals", type=whole_number, default=DEFAULT_DEALS, metavar="N",
                   help=f"deals of the daily deal, from 1 to {MAX_DEALS}, {DEFAULT_DEALS} unless given")
    p.add_argument("--daily-par-samples", type=whole_number, default=PAR_ITERATIONS, metavar="N",
                   help=f"samples a move of the expert that works out the day's par, {PAR_ITERATIONS} unless given")
    p.add_argument("--daily-date", metavar="YYYY-MM-DD", help=argparse.SUPPRESS)  # tests: the day taken as today
    p.add_argument("--daily-date-file", type=Path, metavar="PATH", help=argparse.SUPPRESS)  # tests: a moving day
    p.add_argument("--daily-trusted-players", action="store_true",
                   help="a server whose players all know each other: a key ranks on the day board of its first "
                   "daily deal too, and players sharing an address rank each; off unless given (a fresh key, or "
                   "another name at the same address, could replay deals learnt under another name)")
    p.add_argument("--presence-ttl", type=decimal_number, default=10.0, metavar="SECONDS",
                   help="with --store, a server process not heard from this long is taken as stopped and its "
                   "players as gone, 10 unless given")
    return p


def config_from_args(argv: Sequence[str]) -> ServerConfig:
    parser = build_parser()
    args = parser.parse_args(list(argv))
    for name in ("expiry_hours", "grace", "turn_grace", "computer_delay", "computer_budget", "computer_cap",
                 "message_rate", "quick_wait"):
        value = getattr(args, name)
        if not 0 <= value < 1e7:  # false for nan too
            parser.error(f"--{name.replace('_', '-')} must be a number of 0 or more")
    if not 0.5 <= args.presence_ttl < 1e7:
        parser.error("--presence-ttl must be half a second or more")
    if not 0 <= args.port <= 65535:
        parser.error("--port must be from 0 to 65535")
    if args.store and not args.store.startswith(("redis://", "rediss://", "unix://")):
        parser.error("--store must be a redis:// address, such as redis://127.0.0.1:6379/0")
    if args.store and args.db:
        parser.error("--store and --db name two different stores: give one")
    if args.keyfile and not args.certfile:
        parser.error("--keyfile needs --certfile")
    if not 1 <= args.daily_deals <= MAX_DEALS:
        parser.error(f"--daily-deals must be from 1 to {MAX_DEALS}")
    if args.daily_par_samples < 1:
        parser.error("--daily-par-samples must be 1 or more")
    if args.daily_date is not None and not is_day(args.daily_date):
        parser.error("--daily-date must be a day written YYYY-MM-DD")
    metrics = None if args.metrics is None else parse_address(args.metrics)
    if args.metrics is not None and metrics is None:
        parser.error("--metrics takes a port from 1 to 65535, or ADDRESS:PORT")
    if metrics is not None and not metrics_available():
        parser.error(f"--metrics needs the prometheus_client package: {INSTALL}")
    return ServerConfig(args.host, args.port, args.db, args.certfile, args.keyfile, args.expiry_hours, args.grace,
                        min(args.turn_grace, args.grace), args.computer_delay, args.computer_budget,
                        message_rate=args.message_rate, message_burst=max(10, int(args.message_rate * 3)),
                        max_replay=max(1, args.max_replay), store=args.store,
                        computer_workers=args.computer_workers, computer_cap=args.computer_cap,
                        trust_proxy=args.trust_proxy,
                        presence_ttl=args.presence_ttl, metrics=metrics, quick_wait=args.quick_wait,
                        clock_scale=args.clock_scale if 0 < args.clock_scale <= 1 else 1.0,
                        daily_deals=args.daily_deals, daily_iterations=args.daily_par_samples,
                        daily_date=args.daily_date, daily_date_file=args.daily_date_file,
                        daily_trusted_players=args.daily_trusted_players)


def log_to_stderr() -> Callable[[], None]:
    """The server's log on standard error, a line per room event, written by a thread of its own in
    batches (``net.server.logs``): the loop only keeps each record. Returns the stop, which writes what is left."""
    handler = BatchedLines(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)

    def stop() -> None:
        log.removeHandler(handler)
        handler.close()
    return stop


def main(argv: Sequence[str], open_rooms: OpenRooms = sqlite_rooms) -> int:
    config = config_from_args(argv)
    stop_log = log_to_stderr()
    try:
        return asyncio.run(run(config, open_rooms=open_rooms))
    except (OSError, sqlite3.Error) as error:  # the port is taken, the database cannot be written, a bad certificate
        log.error("cannot serve: %s", error)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        stop_log()
