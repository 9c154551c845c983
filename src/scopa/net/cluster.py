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

A process that reads a room stored by another has no log of its updates, so a client that
reconnects there gets a fresh view rather than the missed updates (the protocol's resync).
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import defaultdict
from typing import Any, Callable, Mapping, TypeVar

from websockets.asyncio.server import ServerConnection

from .messages import (Accepted, CreateRoom, ErrorMessage, Hello, Join, MoveRequest, NextDealRequest, ProtocolError,
                       Refused, encode, parse_client_message)
from .redis_store import CHANNEL, LOCK_SECONDS, RedisRoomStore, StaleRoom
from .rooms import Entry, Room, RoomRefusal
from .server import Connection, RoomServer, ServerConfig, Unstored

log = logging.getLogger("scopa.serve")
T = TypeVar("T")


class StoreDown(RoomRefusal):
    """The room's lock or its stored copy cannot be had: nothing was done, nobody told yet."""

    def __init__(self) -> None:
        super().__init__("storage")


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

    def load_all(self, budget: float) -> tuple[list[Room], list[Any]]:
        return [], []  # rooms are read from Redis when first asked for

    def describe(self) -> str:
        return self.redis.describe()

    def close(self) -> None:
        pass


class HeldConnection(Connection):
    """A connection whose messages wait while a session is not yet stored."""

    def __init__(self, ws: ServerConnection, config: ServerConfig, server: "ClusterServer") -> None:
        super().__init__(ws, config)
        self.server = server

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

    def send_frame(self, frame: str) -> None:
        """A frame encoded by another process, for this seat."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.close_now(1008, "slow")


class ClusterServer(RoomServer):
    store: SessionStore

    def __init__(self, redis: RedisRoomStore, config: ServerConfig) -> None:
        super().__init__(SessionStore(redis), config)
        self.redis = redis
        self.origin = secrets.token_hex(8)  # this process, in the frames it publishes
        self.revs: dict[str, int] = {}
        self.held: list[tuple[HeldConnection, str, Any]] | None = None
        self.frames: dict[str, dict[int, list[str]]] = {}
        self.local_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.listening: asyncio.Task[None] | None = None

    def connect(self, ws: ServerConnection) -> Connection:
        return HeldConnection(ws, self.config, self)

    # Sessions ------------------------------------------------------------------------------
    async def session(self, code: str | None, action: Callable[[], T]) -> T:
        """``action`` (the room logic, no awaits) under the room's lock, on the stored room; what it
        stored is written before anything it sent goes out."""
        if code is None:
            return await self._run(None, action)
        async with self.local_locks[code]:
            lock = self.redis.lock(code)
            try:
                acquired = await lock.acquire()
            except Exception as error:  # noqa: BLE001 -- Redis unreachable or full: the request is not done
                log.error("room %s: the store cannot be reached (%s)", code, error)
                raise StoreDown() from None
            if not acquired:
                log.error("room %s: its lock was not free for %g s", code, LOCK_SECONDS)
                raise StoreDown()
            try:
                await self._refresh(code)
                return await self._run(code, action)
            finally:
                try:
                    await lock.release()
                except Exception:  # noqa: BLE001 -- expired or Redis gone: the rev check guards the data
                    pass

    async def _refresh(self, code: str) -> None:
        """The room as stored, when another process stored it since this one last had it."""
        try:
            rev = await self.redis.rev(code)
            if rev and rev == self.revs.get(code) and code in self.rooms:
                return
            room, rev = await self.redis.load(code, self.config.computer_budget)
        except Exception as error:  # noqa: BLE001
            log.error("room %s: cannot be read from the store (%s)", code, error)
            raise StoreDown() from None
        if room is None:
            self.rooms.pop(code, None)
            self.revs.pop(code, None)
            return
        self.rooms[code], self.revs[code] = room, rev

    async def _run(self, code: str | None, action: Callable[[], T]) -> T:
        store = self.store
        store.saved, store.deleted, self.frames = {}, set(), {}
        self.held = []
        failure: BaseException | None = None
        result: Any = None
        try:
            result = action()
        except BaseException as error:  # noqa: BLE001 -- stored and sent as far as it went, then raised
            failure = error
        held, self.held = self.held, None
        saved, deleted, frames = store.saved, store.deleted, self.frames
        store.saved, store.deleted, self.frames = {}, set(), {}
        stored = await self._write(saved, deleted, frames)
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
        return result

    async def _write(self, saved: dict[str, Room], deleted: set[str], frames: dict[str, dict[int, list[str]]]) -> bool:
        try:
            for code, room in saved.items():
                published = frames.get(code)
                message = "" if not published else json.dumps({"origin": self.origin, "code": code,
                                                                "frames": published}, separators=(",", ":"))
                self.revs[code] = await self.redis.save(room, self.revs.get(code, 0), message)
            for code in deleted:
                await self.redis.delete(code)
                self.revs.pop(code, None)
        except StaleRoom as stale:
            log.error("room %s: stored meanwhile by another process; this change is not stored", stale)
            return False
        except Exception as error:  # noqa: BLE001 -- Redis unreachable, out of memory, read-only replica
            log.error("rooms %s: cannot be stored (%s); the change is refused", ", ".join(saved), error)
            return False
        return True

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
    async def enter(self, conn: Connection, message: CreateRoom | Join | Hello) -> None:
        code = None if isinstance(message, CreateRoom) else message.code
        await self.session(code, lambda: self._enter(conn, message))

    async def on_message(self, conn: Connection, raw: str | bytes) -> None:
        if conn.code is None:
            self._message(conn, raw)  # no room: refused as a lone server refuses it
            return
        try:
            await self.session(conn.code, lambda: self._message(conn, raw))
        except StoreDown:
            Connection.send(conn, ErrorMessage("storage", {}))
            try:
                request = parse_client_message(raw)
            except ProtocolError:
                return
            if isinstance(request, (MoveRequest, NextDealRequest)):  # answered at once: not done
                Connection.send(conn, Refused(request.id, "unavailable"))
        except Unstored:  # the room's seats were told
            pass

    async def leave(self, conn: Connection) -> None:
        if conn.code is None:
            return
        try:
            await self.session(conn.code, lambda: self._detach(conn))
        except RoomRefusal:
            pass

    def _commit(self, room: Room, entries: list[Entry], what: str, *args: Any) -> None:
        super()._commit(room, entries, what, *args)
        if not entries or self.held is None:
            return
        away = {seat: [encode(m) for m in self._messages_for(room, entries, seat)]
                for seat in range(room.rules.players) if (room.code, seat) not in self.seated}
        if away:
            published = self.frames.setdefault(room.code, {})
            for seat, frames in away.items():
                published.setdefault(seat, []).extend(frames)

    def _save(self, room: Room) -> None:
        self.store.save(room)  # written by the session; its failure is handled there

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
            except Exception as error:  # noqa: BLE001 -- Redis restarted: listen again
                log.error("the store's channel was lost (%s); listening again", error)
                await asyncio.sleep(0.5)

    def _deliver(self, data: Any) -> None:
        try:
            published = json.loads(data)
            if published["origin"] == self.origin:
                return
            code = published["code"]
            for seat, frames in published["frames"].items():
                conn = self.seated.get((code, int(seat)))
                if isinstance(conn, HeldConnection):
                    for frame in frames:
                        conn.send_frame(frame)
        except (TypeError, ValueError, KeyError) as error:
            log.warning("a frame on the store's channel was not understood (%s)", error)

    # Timers ---------------------------------------------------------------------------------
    async def tick(self) -> None:
        """As a lone server's, each room's due work done in its session on the stored room."""
        while True:
            await asyncio.sleep(self.config.tick)
            now = time.monotonic()
            for code, room in list(self.rooms.items()):
                if not (self._expired(room) or room.cover_due(now, self.config.grace, self.config.turn_grace)):
                    continue
                try:
                    await self.session(code, lambda code=code: self._due(code, now))
                except Exception:  # noqa: BLE001 -- logged; the other rooms are not held up
                    log.exception("room %s: covering or expiring failed", code)

    def _due(self, code: str, now: float) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        if self._expired(room):
            self._close_room(room, "room_closed")
        else:
            self._cover_due(room, now)

    async def _play_computers(self, room: Room) -> None:
        code = room.code
        while True:
            room = self.rooms.get(code)
            wait = None if room is None else self._computer_wait(room)
            if wait is None:
                return
            await asyncio.sleep(wait)
            await self.session(code, lambda: code in self.rooms and self._computer_step(self.rooms[code]))

    async def close(self) -> None:
        if self.listening is not None:
            self.listening.cancel()
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
    server.listening = asyncio.create_task(server.listen())
    return server
