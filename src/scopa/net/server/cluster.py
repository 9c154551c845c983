"""Several server processes serving the same rooms, through Redis (``scopa serve --store redis://``).

Any process can serve any room: a host connected to one process and a player connected to
another play one match. Each request, drop-out, timer and computer move in a room is one
*session*: the room's Redis lock is taken (one writer per room, over every process), the room
is read back when another process stored it since (its ``rev`` moved), the same room logic as a
lone server runs (``RoomServer``), every message it sends is held, the changed rooms are stored
by the store's atomic script, which also publishes each seat's frames, and only then are the held
messages sent. A seat connected to another process gets its frames through pub/sub. When the
store fails, nothing held is sent: the room's seats are told "storage", the room is read back as
stored, and the request is not done.

What one process does by itself, the cluster does across processes:
- Catching up: each human seat's recent update frames are kept in Redis with the room (the same
  script), so a client reconnecting to any process is sent the updates it missed; a gap older
  than the log's cap gets a resync, as on one process.
- A seat taken back: each seat names the process holding its connection (``Seat.holder``); a
  seat taken back on another process is published with the change, and the process with the
  old connection closes it ("seat_taken"), as one process does.
- A process that dies: each process keeps a presence key with a short expiry (``--presence-ttl``)
  and notes the rooms where it holds seats. The others look for expired presences; under each
  of those rooms' lock, on the room as stored, the seats still held by the dead process are
  marked gone at that moment, so the room's other players hear who left and the grace and the
  computer cover go on as on one process. Two processes noticing at once do it once: the second
  reads the room back and finds those seats no longer held.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar, cast

from websockets.asyncio.server import ServerConnection

from ...engine import Move
from ...engine.shuffle import SEED_BYTES
from ..protocol.client_messages import (
    ClaimRequest,
    CreateRoom,
    DailyDeal,
    Hello,
    Join,
    MoveRequest,
    NextDealRequest,
    Quick,
    parse_client_message,
)
from ..protocol.server_messages import (
    Accepted,
    ErrorMessage,
    OpenTable,
    Refused,
)
from ..protocol.wire import (
    MAX_TABLES,
    ProtocolError,
    encode,
)
from .finding import open_tables, quick_room_request
from .identity import player_hash
from .redis_daily import RedisDaily
from .redis_players import RedisPlayers
from .redis_store import CHANNEL, LOCK_SECONDS, LOG_FRAMES, RedisRoomStore, StaleRoom
from .rooms import Entry, Room, RoomRefusal
from .server import CHANGE_END, Connection, RoomServer, ServerConfig, Unstored, _seat
from .store import LoadProblem
from .thinking import ComputerTurn

log = logging.getLogger("scopa.serve")
WATCHERS = "w"  # the key of the spectators' frames among a published change's seats
T = TypeVar("T")


QUICK_LOCK = "quick"  # the lock of every quick room's making (no room code is five lower-case letters)


class StoreDown(RoomRefusal):
    """The room's lock or its stored copy cannot be had: nothing was done, nobody told yet."""

    def __init__(self) -> None:
        super().__init__("storage")


class SharedLimit:
    """``server.AddressLimit`` counted in Redis, by every process together: one address's
    guesses spread over several processes (behind a load balancer) are counted as one."""

    def __init__(self, redis: RedisRoomStore, name: str, limit: int, window: float) -> None:
        self.redis, self.name, self.limit, self.window = redis, name, limit, window

    async def take(self, address: str) -> tuple[int, object]:
        token = secrets.token_hex(8)
        try:
            return await self.redis.take_try(self.name, address, self.limit, self.window, token), token
        except Exception as error:  # noqa: BLE001
            log.error("the store cannot count the tries of an address (%s)", error)
            return 0, None

    async def give_back(self, address: str, token: object) -> None:
        if isinstance(token, str):
            try:
                await self.redis.give_back_try(self.name, address, token)
            except Exception as error:  # noqa: BLE001 -- Redis unreachable or full: the request is not done
                log.error("the store cannot give a try back (%s)", error)


class SessionStore:
    """What the room logic sees as its store in one session: saves and deletions noted, written
    to Redis by the session when the logic is done."""

    def __init__(self, redis: RedisRoomStore) -> None:
        self.redis = redis
        self.saved: dict[str, Room] = {}
        self.deleted: set[str] = set()
        self.rooms: dict[str, Room] = {}

    def save(self, room: Room) -> None:
        self.saved[room.code] = room
        self.deleted.discard(room.code)

    def delete(self, code: str) -> None:
        self.saved.pop(code, None)
        self.deleted.add(code)

    def load(self, code: str, budget: float) -> Room | None:
        return None  # a room that could not be stored is read back from Redis by the next session

    def delete_idle(self, before: float) -> int:
        return 0  # each process expires rooms in its tick

    def load_all(self, budget: float) -> tuple[list[Room], list[LoadProblem]]:
        return [], []  # rooms are read from Redis when first asked for

    def describe(self) -> str:
        return self.redis.describe()

    def check_write(self) -> None:
        """Never asked: Redis is written asynchronously, so ``ClusterServer.writable`` checks it."""
        raise NotImplementedError("ClusterServer.writable checks Redis itself")

    def close(self) -> None:
        pass


class HeldConnection(Connection):
    """A connection whose messages wait while a session is not yet stored."""

    def __init__(self, ws: ServerConnection, config: ServerConfig, server: ClusterServer) -> None:
        super().__init__(ws, config)
        self.server = server
        self.rev = 0  # the room's rev when this connection was seated: older published changes it has

    def send(self, message: Any) -> None:
        if self.server.held is not None:
            self.server.held.append((self, "send", message))
        else:
            super().send(message)

    def fail(self, code: str, values: Mapping[str, Any] | None = None, close_code: int = 1008) -> None:
        if self.server.held is not None:
            self.server.held.append((self, "fail", (code, values, close_code)))
        else:
            super().fail(code, values, close_code)


class ClusterServer(RoomServer):
    store: SessionStore

    def __init__(self, redis: RedisRoomStore, config: ServerConfig) -> None:
        super().__init__(SessionStore(redis), config)
        self.redis = redis
        self.book = RedisPlayers(redis.client)  # names and ratings (net.server.redis_players)
        self.redis_daily = RedisDaily(redis.client, lambda: secrets.token_bytes(SEED_BYTES))  # net.server.daily
        self.daily = self.redis_daily
        self.failures = SharedLimit(redis, "tries", config.join_failures, config.join_window)
        self.creations = SharedLimit(redis, "rooms", config.rooms_per_address, config.rooms_window)
        self.origin = secrets.token_hex(8)  # this process, in the frames it publishes
        self.revs: dict[str, int] = {}
        self.held: list[tuple[HeldConnection, str, Any]] | None = None
        self.frames: dict[str, dict[int | str, list[str]]] = {}  # a session's frames for seats on other processes
        self.logs: dict[str, dict[int, list[str]]] = {}  # ... and every human seat's update frames
        self.taken: dict[str, set[int]] = {}  # ... and the seats it connected here
        self.moves: dict[str, dict[int, int]] = {}  # ... and the seats the host moved (old seat: new seat)
        self.said: dict[str, dict[int | str, list[str]]] = {}  # ... and its chat frames for seats elsewhere
        self.replays: dict[tuple[str, int, int], list[str]] = {}  # (code, seat, last number): missed frames
        self.local_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.listening: asyncio.Task[None] | None = None
        self.presence: asyncio.Task[None] | None = None
        self.sweeping: asyncio.Task[None] | None = None

    def connect(self, ws: ServerConnection) -> Connection:
        return HeldConnection(ws, self.config, self)

    # Sessions ------------------------------------------------------------------------------
    async def session(self, code: str | None, action: Callable[[], T],
                      prepare: Callable[[], Awaitable[None]] | None = None) -> T:
        """``action`` (the room logic, no awaits) under the room's lock, on the stored room; what it
        stored is written before anything it sent goes out. ``prepare`` reads what the action needs
        from Redis, under the lock, once the room is read."""
        if code is None:
            return await self._run(None, action)
        async with self.local_locks[code]:
            lock = self.redis.lock(code)
            try:
                acquired = await lock.acquire()
            except Exception as error:  # noqa: BLE001 -- Redis unreachable or full: the request is not done
                self.metrics.store_error()
                log.error("room %s: the store cannot be reached (%s)", code, error)
                raise StoreDown() from None
            if not acquired:
                log.error("room %s: its lock was not free for %g s", code, LOCK_SECONDS)
                raise StoreDown()
            try:
                await self._refresh(code)
                if prepare is not None:
                    await prepare()
                return await self._run(code, action)
            finally:
                with contextlib.suppress(Exception):  # expired or Redis gone: the rev check guards the data
                    await lock.release()

    async def _refresh(self, code: str) -> None:
        """The room as stored, when another process stored it since this one last had it.

        A room this process has just made and not yet stored (a daily deal's room is made and
        begun in one session, and its computer's driver may look before the write is done) is
        kept: read as missing, it was dropped, the driver stopped, and the expert never led."""
        try:
            rev = await self.redis.rev(code)
            if rev and rev == self.revs.get(code) and code in self.rooms:
                return
            room, rev = await self.redis.load(code, self.config.computer_budget)
        except Exception as error:  # noqa: BLE001
            self.metrics.store_error()
            log.error("room %s: cannot be read from the store (%s)", code, error)
            raise StoreDown() from None
        if room is None:
            if code in self.rooms and code not in self.revs:
                return  # made here, its first write not done yet: not a room another process deleted
            self.rooms.pop(code, None)
            self.revs.pop(code, None)
            return
        self.rooms[code], self.revs[code] = room, rev

    async def _run(self, code: str | None, action: Callable[[], T]) -> T:
        store = self.store
        store.saved, store.deleted, self.frames, self.logs, self.taken = {}, set(), {}, {}, {}
        self.said, self.moves = {}, {}
        self.held = []
        failure: BaseException | None = None
        result: Any = None
        try:
            result = action()
        except BaseException as error:  # noqa: BLE001 -- stored and sent as far as it went, then raised
            failure = error
        held, self.held = self.held, None
        saved, deleted = store.saved, store.deleted
        pending = Pending(self.frames, self.logs, self.taken, self.moves)
        store.saved, store.deleted, self.frames, self.logs, self.taken, self.moves = {}, set(), {}, {}, {}, {}
        said, self.said = self.said, {}
        self.replays.clear()
        stored = await self._write(saved, deleted, pending) and await self._publish_chat(said)
        if stored and any(room.phase == "over" for room in saved.values()):
            await self.rate_pending()
            await self.record_daily()  # before the seat here is told the deal is over
        if stored:
            for conn, kind, value in held:
                if kind == "send":
                    Connection.send(conn, value)
                else:
                    Connection.fail(conn, *value)
        else:
            self._refused(saved)
            for conn, kind, value in held:  # a move or deal answered "not done" at once, not left waiting
                if kind == "send" and isinstance(value, Accepted):
                    Connection.send(conn, Refused(value.id, "unavailable"))
            failure = Unstored()
        if failure is not None:
            raise failure
        return cast(T, result)  # action() gave it: it raised nothing

    async def _write(self, saved: dict[str, Room], deleted: set[str], pending: Pending) -> bool:
        try:
            for code, room in saved.items():
                rev = self.revs.get(code, 0)
                published, taken = pending.frames.get(code), pending.taken.get(code)
                moved = pending.moves.get(code)
                message = "" if not (published or taken or moved) else json.dumps(
                    {"origin": self.origin, "code": code, "rev": rev + 1, "frames": published or {},
                     "taken": sorted(taken or ()), "moved": sorted((moved or {}).items())}, separators=(",", ":"))
                self.revs[code] = await self.redis.save(room, rev, message, pending.logs.get(code), self.origin,
                                                        self._holds(room), self._log_cap())
            for code in deleted:
                await self.redis.delete(code)
                self.revs.pop(code, None)
        except StaleRoom as stale:
            log.error("room %s: stored meanwhile by another process; this change is not stored", stale)
            return False
        except Exception as error:  # noqa: BLE001
            self.metrics.store_error()
            log.error("rooms %s: cannot be stored (%s); the change is refused", ", ".join(saved), error)
            return False
        return True

    async def _publish_chat(self, said: dict[str, dict[int | str, list[str]]]) -> bool:
        """A session's chat lines for seats on other processes: published, nothing stored (a chat
        line changes no room). Redis unreachable: the line is not said anywhere, and refused."""
        try:
            for code, frames in said.items():
                await self.redis.publish(json.dumps({"origin": self.origin, "code": code, "chat": frames},
                                                    separators=(",", ":")))
        except Exception as error:  # noqa: BLE001
            self.metrics.store_error()
            log.error("room %s: a chat line cannot be published (%s)", ", ".join(said), error)
            return False
        return True

    def _broadcast(self, room: Room, frame: str) -> None:
        """A chat frame: held for the seats connected here, published for the human seats elsewhere."""
        if self.held is None:
            super()._broadcast(room, frame)
            return
        for seat in range(room.rules.players):
            taken, conn = room.seats[seat], self.seated.get((room.code, seat))
            if isinstance(conn, HeldConnection):
                conn.send(frame)
            elif conn is None and taken is not None and taken.is_human and taken.connected:
                self.said.setdefault(room.code, {}).setdefault(seat, []).append(frame)
        for watcher in list(self.watchers.get(room.code, ())):
            watcher.send(frame)
        self.said.setdefault(room.code, {}).setdefault(WATCHERS, []).append(frame)

    def _refused(self, saved: dict[str, Room]) -> None:
        """Nothing of the session was sent: the rooms are read back as stored by the next session,
        and their seats here are told the store failed."""
        for code, room in saved.items():
            self.rooms.pop(code, None)
            self.revs.pop(code, None)
            for seat in range(room.rules.players):
                conn = self.seated.get((code, seat))
                if conn is not None:
                    Connection.send(conn, ErrorMessage("storage", {}))

    # The ways in, under the session ---------------------------------------------------------
    async def enter(self, conn: Connection, message: CreateRoom | Join | Hello | Quick | DailyDeal) -> None:
        if isinstance(message, (CreateRoom, Join, DailyDeal, Quick)):  # the name claimed in Redis, before the room
            player = None if message.player_key is None else player_hash(message.player_key)
            try:
                program = not isinstance(message, DailyDeal) and message.program
                free = await self.book.claim(player, message.name, program)
            except Exception as error:  # noqa: BLE001 -- Redis unreachable: the request is not done
                log.error("the store cannot check a name (%s)", error)
                raise StoreDown() from None
            if not free:
                raise RoomRefusal("name_taken")
        if isinstance(message, Quick):
            await self._enter_quick(conn, message)
            return
        if isinstance(message, CreateRoom):
            await self.session(None, lambda: self._enter(conn, message))
            return
        if isinstance(message, DailyDeal):
            day, server_seed = await self._daily_ready(message)
            await self.session(None, lambda: self._create_daily(conn, message, day, server_seed))
            return
        code = message.code
        prepare = (lambda: self._fetch_missed(code, message)) if isinstance(message, Hello) else None
        await self.session(code, lambda: self._enter(conn, message), prepare)

    async def record_daily(self) -> None:
        """Write the daily results waiting in Redis (this process's end just stored, or a killed
        process's): written once each (net.server.redis_daily)."""
        try:
            await self.redis_daily.record_pending()
        except Exception as error:  # noqa: BLE001 -- they wait in Redis: tried again at the next sweep
            log.error("daily results could not be written now (%s)", error)

    async def _enter_quick(self, conn: Connection, message: Quick) -> None:
        """A quick match across processes: each waiting quick room in the store's index, oldest
        first, tried under its lock; none still waiting for these rules: a new one. The last
        look and the new room are under one lock of every process's quick matches, so two
        players arriving at once on two processes meet in one room rather than each opening one
        (that lock is always taken before a room's, never after)."""
        lock = self.redis.lock(QUICK_LOCK)
        try:
            acquired = await lock.acquire()
        except Exception as error:  # noqa: BLE001 -- Redis unreachable: the request is not done
            self.metrics.store_error()
            log.error("the quick matches cannot be locked (%s)", error)
            raise StoreDown() from None
        if not acquired:
            raise StoreDown()
        try:
            if not await self._seat_quick(conn, message):  # a new room: never RoomServer._quick, which
                # would look among this process's copies of rooms, outside their locks
                await self.session(None, lambda: self._create(conn, quick_room_request(message), "quick"))
        finally:
            with contextlib.suppress(Exception):
                await lock.release()

    async def _seat_quick(self, conn: Connection, message: Quick) -> bool:
        try:
            codes = await self.redis.waiting_codes("quick")
        except Exception as error:  # noqa: BLE001 -- Redis unreachable: the request is not done
            self.metrics.store_error()
            log.error("the quick matches cannot be read from the store (%s)", error)
            raise StoreDown() from None
        for code in codes:
            try:
                if await self.session(code, functools.partial(self._quick_here, conn, message, code),
                                      functools.partial(self._reread, code)):
                    return True
            except Unstored:  # the room was stored by another process meanwhile: nothing was sent,
                self._forget(conn)  # the seat is not this connection's; the next room is tried
        return False

    async def _reread(self, code: str) -> None:
        """The room read again from the store, under its lock, whatever this process last had of it."""
        self.revs.pop(code, None)
        await self._refresh(code)

    async def listed(self) -> tuple[OpenTable, ...]:
        """The public rooms waiting, read from the store (rooms of every process)."""
        rooms = []
        try:
            for code in (await self.redis.waiting_codes("public"))[:MAX_TABLES * 2]:
                room, _ = await self.redis.load(code, self.config.computer_budget)
                if room is not None and not self._expired(room):
                    rooms.append(room)
        except Exception as error:  # noqa: BLE001 -- Redis unreachable: an empty list, logged
            self.metrics.store_error()
            log.error("the public rooms cannot be read from the store (%s)", error)
        return open_tables(rooms)

    async def on_message(self, conn: Connection, raw: str | bytes) -> None:
        if conn.code is None:
            self._message(conn, raw)  # no room: refused as a lone server refuses it
            return
        try:
            await self.session(conn.code, functools.partial(self._message_if_held, conn, raw))
        except StoreDown:
            Connection.send(conn, ErrorMessage("storage", {}))
            try:
                request = parse_client_message(raw)
            except ProtocolError:
                return
            if isinstance(request, (MoveRequest, NextDealRequest, ClaimRequest)):  # answered at once: not done
                Connection.send(conn, Refused(request.id, "unavailable"))
        except Unstored:  # the room's seats were told
            pass

    async def in_room(self, code: str, action: Callable[[], None]) -> None:
        await self.session(code, action)

    async def leave(self, conn: Connection) -> None:
        if conn.watcher is not None:
            await super().leave(conn)
            return
        if conn.code is None:
            return
        with contextlib.suppress(RoomRefusal):
            await self.session(conn.code, lambda: self._detach(conn))

    def _tell(self, room: Room, entries: list[Entry]) -> None:
        """Each seat's frames: held for a seat connected here, published for one elsewhere, and a
        human seat's updates kept in its log."""
        if self.held is None:  # not in a session (nothing in the cluster changes a room outside one)
            super()._tell(room, entries)
            return
        published, logs = self.frames.setdefault(room.code, {}), self.logs.setdefault(room.code, {})
        for seat in range(room.rules.players):
            taken, conn = room.seats[seat], self.seated.get((room.code, seat))
            if taken is None or not (taken.is_human or conn is not None):
                continue
            frames = [message if isinstance(message, str) else encode(message)
                      for message in self._messages_for(room, entries, seat)]
            if taken.is_human:
                logs.setdefault(seat, []).extend(frames[len(frames) - len(entries):])  # the updates, not the info
            frames.append(CHANGE_END)  # passed on only to a connection that asked for it (Connection.send)
            if isinstance(conn, HeldConnection):
                for frame in frames:
                    conn.send(frame)
            elif conn is None:
                published.setdefault(seat, []).extend(frames)
        watched = self._watcher_frames(room, entries)  # for the spectators here (held) and elsewhere
        for watcher in list(self.watchers.get(room.code, ())):
            for frame in watched:
                watcher.send(frame)
        published.setdefault(WATCHERS, []).extend(watched)

    def _save(self, room: Room) -> None:
        self.store.save(room)  # written by the session; its failure is handled there

    def _holds(self, room: Room) -> bool:
        """Whether this process holds one of the room's seats or plays its computers: what the
        others take over, should it die."""
        driver = self.drivers.get(room.code)
        return (driver is not None and not driver.done()) or any(
            seat is not None and seat.holder == self.origin for seat in room.seats)

    def _drive(self, room: Room) -> None:
        """As one process lets the computers play, and a driver started in a session stores the
        room, so the room is noted among this process's (``_holds``) at once: should this process
        die before the computer's first move, another takes the computers over. Without it, a
        process taking the computers over from a gone one, holding no seat of the room, would
        store nothing until that move."""
        running = self.drivers.get(room.code)
        super()._drive(room)
        if self.held is not None and self.drivers.get(room.code) is not running:
            self.store.save(room)

    def _log_cap(self) -> int:
        return min(self.config.max_replay, LOG_FRAMES)

    # Seats held by this process -------------------------------------------------------------
    def _seat_connection(self, conn: Connection, room: Room, seat: int) -> None:
        """As one process seats a connection, and the seat names this process: stored, and
        published, so that another process with an old connection for the seat closes it."""
        super()._seat_connection(conn, room, seat)
        taken = room.seats[seat]
        if taken is not None:
            taken.holder = self.origin
        if isinstance(conn, HeldConnection):
            conn.rev = self.revs.get(room.code, 0)
        self.taken.setdefault(room.code, set()).add(seat)
        self.store.save(room)

    def _detach(self, conn: Connection) -> None:
        room = self.rooms.get(conn.code or "")
        taken = room.seats[conn.seat] if room is not None and conn.seat is not None else None
        if taken is not None and taken.holder not in (None, self.origin):  # taken back on another process
            self._forget(conn)
            return
        super()._detach(conn)
        if taken is not None and not taken.connected:
            taken.holder = None

    def _still_held(self, conn: Connection) -> bool:
        """Whether the connection's seat is still this process's: one taken back on another
        process, whose notice has not arrived yet, is closed now rather than played."""
        room = self.rooms.get(conn.code or "")
        taken = room.seats[conn.seat] if room is not None and conn.seat is not None else None
        if taken is not None and taken.holder not in (None, self.origin):
            self._replaced(conn)
            return False
        return True

    def _message_if_held(self, conn: Connection, raw: str | bytes) -> None:
        if self._still_held(conn):
            self._message(conn, raw)

    def _replaced(self, conn: Connection) -> None:
        """The seat was taken back on another connection: closed as one process closes it."""
        log.info("room %s seat %s: taken back on another server process", conn.code, _seat(conn.seat))
        self._forget(conn)
        conn.fail("seat_taken")

    def _forget(self, conn: Connection) -> None:
        if conn.code is not None and conn.seat is not None and self.seated.get((conn.code, conn.seat)) is conn:
            del self.seated[(conn.code, conn.seat)]
        conn.code = conn.seat = None

    # Catching up from the room's log in Redis ---------------------------------------------------
    async def _fetch_missed(self, code: str, hello: Hello) -> None:
        """The frames a reclaiming seat missed, read from its log before the session runs."""
        room = self.rooms.get(code)
        seat = None if room is None else room.seat_of_key(hello.seat_key)
        if room is None or seat is None:
            return
        count = room.number - hello.last_number
        if not 0 < count <= self._log_cap():
            return
        try:
            frames = await self.redis.log_tail(code, seat, count)
        except Exception as error:  # noqa: BLE001
            log.error("room %s: its log cannot be read (%s)", code, error)
            return
        if len(frames) == count and _number(frames[0]) == hello.last_number + 1 and _number(frames[-1]) == room.number:
            self.replays[(code, seat, hello.last_number)] = frames

    def _catch_up(self, conn: Connection, room: Room, seat: int, last_number: int) -> None:
        frames = self.replays.pop((room.code, seat, last_number), None)
        if frames is None or not isinstance(conn, HeldConnection):
            super()._catch_up(conn, room, seat, last_number)
            return
        for frame in frames:
            conn.send(frame)
        conn.send(CHANGE_END)

    # Frames from the other processes --------------------------------------------------------
    async def listen(self) -> None:
        while True:
            try:
                async with self.redis.subscriber() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    async for message in pubsub.listen():
                        self._deliver(message.get("data"))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 -- Redis unreachable or full: the request is not done
                log.error("the store's channel was lost (%s); listening again", error)
                await asyncio.sleep(0.5)

    def _deliver(self, data: Any) -> None:
        """Another process's stored change: its seats taken back here are closed, and the seats
        connected here sent their frames, unless they were seated after it (and have it)."""
        try:
            published = json.loads(data)
            if published["origin"] == self.origin:
                return
            code = published["code"]
            if "chat" in published:  # stores nothing: every seat connected here hears it
                for seat, frames in published["chat"].items():
                    if seat == WATCHERS:
                        self._to_watchers(code, frames)
                        continue
                    conn = self.seated.get((code, int(seat)))
                    if isinstance(conn, HeldConnection):
                        for frame in frames:
                            Connection.send(conn, frame)
                return
            rev = int(published["rev"])
            self._moved_elsewhere(code, rev, published.get("moved", []))
            for seat in published["taken"]:
                conn = self.seated.get((code, int(seat)))
                if isinstance(conn, HeldConnection) and rev > conn.rev:
                    self._replaced(conn)
            for seat, frames in published["frames"].items():
                if seat == WATCHERS:
                    self._to_watchers(code, frames)
                    continue
                conn = self.seated.get((code, int(seat)))
                if isinstance(conn, HeldConnection) and rev > conn.rev:
                    for frame in frames:
                        Connection.send(conn, frame)  # stored by the other process: not held
        except (TypeError, ValueError, KeyError) as error:
            log.warning("a frame on the store's channel was not understood (%s)", error)

    def _moved_elsewhere(self, code: str, rev: int, moved: list[list[int]]) -> None:
        """Seats the host moved on another process: the connections here follow their players
        (those seated before that change), before its frames, which are addressed by the new seats."""
        moves = {int(old): int(new) for old, new in moved}
        following = {old: new for old, new in moves.items()
                     if isinstance(conn := self.seated.get((code, old)), HeldConnection) and rev > conn.rev}
        if following:
            RoomServer._move_connections(self, code, following)

    def _move_connections(self, code: str, moves: Mapping[int, int]) -> None:
        """As one process moves them, and the move is published for the connections elsewhere."""
        super()._move_connections(code, moves)
        if self.held is not None:
            self.moves.setdefault(code, {}).update(moves)

    def _to_watchers(self, code: str, frames: list[str]) -> None:
        """Another process's public frames, to the spectators of the room connected here."""
        for watcher in list(self.watchers.get(code, ())):
            for frame in frames:
                Connection.send(watcher, frame)

    # Timers ---------------------------------------------------------------------------------
    async def tick(self) -> None:
        """As a lone server's, each room's due work done in its session on the stored room."""
        while True:
            await asyncio.sleep(self.config.tick)
            now, wall = time.monotonic(), time.time()
            for code, room in list(self.rooms.items()):
                if not (self._expired(room) or room.cover_due(now, self.config.grace, self.config.turn_grace)
                        or room.quick_due(wall, self.config.quick_wait)
                        or room.clock_due(now, self.config.clock_scale)):
                    continue
                try:
                    await self.session(code, functools.partial(self._due, code, now))
                except Exception:  # logged; the other rooms are not held up
                    log.exception("room %s: covering or expiring failed", code)

    def _due(self, code: str, now: float) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        if self._expired(room):
            self._close_room(room, "room_closed")
        else:
            self._cover_due(room, now)
            self._clock_due(room, now)
            self._start_quick(room, time.time())

    async def _play_computers(self, room: Room) -> None:
        """As one process lets them play, but the computer thinks outside the session (the room's
        lock is not held meanwhile), on the room as last stored. Two processes may both drive a
        room (each started by a person's move there): the one whose move for a turn was played
        first goes on; the other, finding the turn played by someone else, stops."""
        code = room.code
        while True:
            try:
                async with self.local_locks[code]:
                    await self._refresh(code)  # the room as stored, not this process's older copy
            except StoreDown:
                return  # the next person's move there drives the computers again
            current = self.rooms.get(code)
            wait = None if current is None else self._computer_wait(current)
            if current is None or wait is None:
                return
            room = current
            turn, move = await self._think(room, wait)
            played_elsewhere = False

            def step(turn: ComputerTurn | None = turn, move: Move | None = move) -> None:
                nonlocal played_elsewhere
                current = self.rooms.get(code)
                if current is None:
                    return
                now = current.computer_turn()
                played_elsewhere = turn is not None and now is not None and now.key != turn.key
                if not played_elsewhere:
                    self._computer_step(current, turn, move)
            await self.session(code, step)
            if played_elsewhere:
                return

    # Presence: processes that died ------------------------------------------------------------
    async def keep_present(self) -> None:
        """Say this process is alive, several times within its presence's expiry, and look for
        processes whose presence expired."""
        every = self.config.presence_ttl / 4
        while True:
            await asyncio.sleep(every)
            try:
                if not await self.redis.beat(self.origin, self.config.presence_ttl):
                    self._lapsed()
                if self.sweeping is None or self.sweeping.done():
                    self.sweeping = asyncio.create_task(self._sweep())
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 -- Redis unreachable or full: the request is not done
                log.error("the store cannot be reached to say this process is alive (%s)", error)

    def _lapsed(self) -> None:
        """This process was not heard from in time (stopped, or cut off from Redis): the others
        may have let its seats go. Its connections are closed so that their clients reconnect
        and take their seats back."""
        if not self.seated:
            return
        log.warning("this process was taken as stopped; its %d connections are closed to reconnect", len(self.seated))
        for conn in list(self.seated.values()):
            conn.close_now(1012, "reconnect")

    async def board(self, top: int, player: str | None, programs: bool = False
                    ) -> tuple[list[tuple[int, str, float, int]], tuple[int, int, float] | None]:
        return await self.book.leaderboard(top, player, programs)

    async def rate_pending(self) -> None:
        """Rate the finished matches waiting in Redis (this one's, or a killed process's)."""
        try:
            await self.book.rate_pending()
        except Exception as error:  # noqa: BLE001 -- they wait in Redis: tried again at the next sweep
            log.error("finished matches could not be rated now (%s)", error)

    async def _sweep(self) -> None:
        await self.rate_pending()
        await self.record_daily()
        try:
            for process in await self.redis.gone_processes(self.origin):
                await self._let_go(process)
        except Exception as error:  # noqa: BLE001
            log.error("gone server processes could not be looked for (%s)", error)

    async def _let_go(self, process: str) -> None:
        """Every seat still held by a gone process, marked gone now, room by room."""
        done = True
        for code in await self.redis.held_rooms(process):
            now = time.monotonic()
            try:
                await self.session(code, functools.partial(self._gone, code, process, now))
            except Exception:  # logged; this room is tried again at the next beat
                log.exception("room %s: the seats of a stopped process could not be let go", code)
                done = False
        if done:
            await self.redis.forget_process(process)

    def _gone(self, code: str, process: str, now: float) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        for number, taken in enumerate(room.seats):
            if taken is not None and taken.holder == process:
                taken.holder = None
                self.store.save(room)
                self._commit(room, room.disconnected(number, now), "seat %s left (its server process stopped)",
                             _seat(number))
        self._drive(room)  # the computers it was playing go on here

    async def writable(self) -> bool:
        try:
            await self.redis.check_write(self.origin)
        except Exception as error:  # noqa: BLE001
            self.metrics.store_error()
            log.error("health: the store cannot be written (%s)", error)
            return False
        return True

    async def close(self) -> None:
        for task in (self.listening, self.presence, self.sweeping):
            if task is not None:
                task.cancel()
        with contextlib.suppress(Exception):  # Redis gone: the presence expires by itself
            await self.redis.end_presence(self.origin)
        await self.redis.close()


async def open_cluster(config: ServerConfig) -> ClusterServer:
    """The server of one process sharing the rooms of ``config.store``; OSError when Redis is not there."""
    redis = RedisRoomStore(config.store or "")
    try:
        await redis.ping()
        for code in await redis.idle_codes(time.time() - config.expiry_seconds):
            await redis.delete(code)
    except Exception as error:  # noqa: BLE001 -- one clear line, as for a database that cannot be opened
        await redis.close()
        raise OSError(f"the store {redis.describe()} cannot be reached: {error}") from None
    server = ClusterServer(redis, config)
    try:
        await redis.beat(server.origin, config.presence_ttl)  # present before the first connection
    except Exception as error:  # noqa: BLE001 -- one clear line, as for a database that cannot be opened
        await redis.close()
        raise OSError(f"the store {redis.describe()} cannot be reached: {error}") from None
    await server.rate_pending()  # a match whose end a killed process stored, rated now
    await server.record_daily()  # and a daily result it left waiting, written now
    server.listening = asyncio.create_task(server.listen())
    server.presence = asyncio.create_task(server.keep_present())
    return server


class Pending:
    """What a session sends through Redis with its stored rooms: the frames to publish, each
    seat's new update frames for its log, and the seats it connected."""

    def __init__(self, frames: dict[str, dict[int | str, list[str]]], logs: dict[str, dict[int, list[str]]],
                 taken: dict[str, set[int]], moves: dict[str, dict[int, int]]) -> None:
        self.frames, self.logs, self.taken, self.moves = frames, logs, taken, moves


def _number(frame: str) -> int:
    try:
        return int(json.loads(frame)["number"])
    except (ValueError, KeyError, TypeError):
        return -1
