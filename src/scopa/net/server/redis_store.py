"""Rooms in Redis, for several server processes serving the same rooms (``--store redis://``).

Keys (every name begins ``scopa:``):

    scopa:room:CODE   a hash: ``rev`` (how many times the room was stored) and ``room`` (its JSON:
                      rules, phase, host, level, numbers, times, the seats with their key hashes,
                      never a key, and the match record as the save file's JSON, whose move log
                      is every game event of the match)
    scopa:active      a sorted set: each room's code by its last activity, for expiry
    scopa:lock:CODE   the room's writer lock (``redis-py``'s lock: a random token, released only
                      by its holder, expiring by itself after ``LOCK_SECONDS``)
    scopa:log:CODE:SEAT  a list: the last ``LOG_FRAMES`` update frames of that human seat, so that
                      a player reconnecting to any process is sent the updates they missed
    scopa:frames      the pub/sub channel of each stored change's frames, per seat, and of the
                      seats taken back (their old connection, on another process, is closed)
    scopa:process:ID  one server process's presence: set again several times within
                      ``--presence-ttl``, it expires by itself when that process dies
    scopa:processes   a set: the ID of every process that may still hold seats
    scopa:held:ID     a set: the rooms where process ID holds (or held) a seat's connection or
                      plays the computers; the seats name their process (``holder``) in the JSON
    scopa:limit:NAME:ADDRESS  a sorted set: one address's counted tries (NAME "tries": answers that
                      tell whether a room code exists; "rooms": rooms created) by time, counted
                      together by every process, each added by one script only while under the limit

A change is stored by one Lua script, so it is atomic: the room is written only when its ``rev``
is still the one the writer read (a writer whose lock ran out cannot overwrite a newer room),
its activity is noted, the writer's held rooms updated, each seat's update frames appended to
its log (trimmed to the cap), and the frames published, in that order, in one step. Times of
one process's clock (a seat's drop, a turn's start) are kept as wall-clock times.
"""
from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ...engine import Rules
from ...engine.shuffle import SEED_BYTES
from ...players import make_player
from ...storage import record_from_dict, record_to_dict
from .clock import clock_from_data
from .daily import finished_to_json, room_result
from .ratings import pending
from .redis_daily import DAILY_TODO
from .rooms import Room, Seat, cover_seed, match_table, seed_parts_from_data, seed_parts_to_data

if TYPE_CHECKING:
    from redis.asyncio.lock import Lock

PREFIX = "scopa:"
CHANNEL = PREFIX + "frames"
LOCK_SECONDS = 10.0  # a lock held longer than this (a process stopped mid-change) frees itself
POOL_SIZE = 32  # connections of one process to Redis (one more is its pub/sub listener)
LOG_FRAMES = 64  # update frames kept per seat (about 1.5 KiB each); a longer gap gets a resync
MAX_SEATS = 4

# KEYS: the room, the active set, the writer's held rooms, the matches to rate, then each seat's log.
# ARGV: rev read, new rev, room JSON, activity, code, message to publish, channel, whether the
# writer holds a seat of the room, the log cap, the finished match's id and its rating's input
# (redis_players: '' when the room's match is not a finished rated one), then one count per
# seat's log, then the frames.
_SAVE = """
local rev = redis.call('HGET', KEYS[1], 'rev')
if (rev or '0') ~= ARGV[1] then return -1 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'room', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
if ARGV[8] == '1' then redis.call('SADD', KEYS[3], ARGV[5]) else redis.call('SREM', KEYS[3], ARGV[5]) end
if ARGV[10] ~= '' then redis.call('HSET', KEYS[4], ARGV[10], ARGV[11]) end
local cap = tonumber(ARGV[9])
local at = 12 + #KEYS - 4
for i = 5, #KEYS do
  local count = tonumber(ARGV[12 + i - 5])
  if count > 0 then
    redis.call('RPUSH', KEYS[i], unpack(ARGV, at, at + count - 1))
    redis.call('LTRIM', KEYS[i], -cap, -1)
    at = at + count
  end
end
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[7], ARGV[6]) end
return tonumber(ARGV[2])
"""


# KEYS: the address's tries. ARGV: now (wall clock), the window, the limit, this try's token.
# Returns 0 (counted) or the whole seconds until the oldest try leaves the window.
_TAKE = """
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, math.ceil(tonumber(oldest[2]) + window - now))
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return 0
"""


def _waiting_work(room: Room) -> tuple[str, str, str]:
    """What a stored end leaves waiting, written by the same script as the end itself: a rated
    match's rating (``scopa:to_rate``, ``redis_players``) or a daily room's result
    (``scopa:daily:todo``, ``redis_daily``); the hash, the entry's id and its JSON ("" when none).
    A daily room is never rated, so one slot serves both."""
    match = pending(room)
    if match is not None:
        return PREFIX + "to_rate", match.id, match.to_json()
    done = room_result(room)
    if done is not None:
        return DAILY_TODO, done.match, finished_to_json(done)
    return PREFIX + "to_rate", "", ""


class StaleRoom(Exception):
    """The room was stored by another writer since it was read: this change is not stored."""


def room_key(code: str) -> str:
    return f"{PREFIX}room:{code}"


def limit_key(name: str, address: str) -> str:
    return f"{PREFIX}limit:{name}:{address}"


def log_key(code: str, seat: int) -> str:
    return f"{PREFIX}log:{code}:{seat}"


def waiting_key(listing: str) -> str:
    """The sorted set of the rooms listed as ``listing`` ("quick", "public") that wait for players,
    scored by when each was made: an index, each room checked again under its lock when used."""
    return f"{PREFIX}waiting:{listing}"


def presence_key(process: str) -> str:
    return f"{PREFIX}process:{process}"


def held_key(process: str) -> str:
    return f"{PREFIX}held:{process}"


def _wall(monotonic: float | None) -> float | None:
    return None if monotonic is None else time.time() - (time.monotonic() - monotonic)


def _monotonic(wall: float | None) -> float | None:
    return None if wall is None else time.monotonic() - (time.time() - wall)


def room_to_json(room: Room) -> str:
    seats = [None if s is None else {"name": s.name, "kind": s.kind, "level": s.level, "key_hash": s.key_hash,
                                     "ready": s.ready, "connected": s.connected, "covered": s.covered,
                                     "left_at": _wall(s.left_at), "holder": s.holder, "player": s.player,
                                     "covered_in": s.covered_in, **({"program": True} if s.program else {})}
             for s in room.seats]
    return json.dumps({
        "rules": room.rules.to_dict(), "phase": room.phase, "host": room.host, "level": room.level,
        "number": room.number, "position_number": room.position_number, "created": room.created,
        "active": room.active, "turn_since": _wall(room.turn_since), "seats": seats,
        "record": None if room.record is None else record_to_dict(room.record),
        "seed_parts": seed_parts_to_data(room), "listing": room.listing, "watchers_chat": room.watchers_chat,
        "join_between_deals": room.join_between_deals,
        "clock": None if room.clock is None else room.clock.to_data(),
        **({"made_from": room.made_from} if room.made_from else {}),
        **({"second_try": True} if room.second_try else {})}, separators=(",", ":"))


def room_from_json(code: str, text: str, budget: float) -> Room:
    """The room as stored; its match replayed from the record and checked, covered seats covered."""
    data = json.loads(text)
    seats = [None if s is None else Seat(s["name"], s["kind"], s["level"], s["key_hash"], s["ready"],
                                         s["connected"], False, _monotonic(s["left_at"]), s.get("holder"),
                                         s.get("player"), [int(d) for d in s.get("covered_in", [])],
                                         bool(s.get("program", False)))
             for s in data["seats"]]
    record = None if data["record"] is None else record_from_dict(data["record"])
    room = Room(code, Rules.from_dict(data["rules"]), seats, data["level"], data["host"], data["phase"],
                None if record is None else match_table(record, budget), data["number"], data["created"],
                data["active"], budget, position_number=data["position_number"],
                turn_since=_monotonic(data["turn_since"]) or 0.0, listing=data.get("listing", ""),
                watchers_chat=data.get("watchers_chat", False) is True,
                join_between_deals=data.get("join_between_deals", False) is True)
    seed_parts_from_data(room, data.get("seed_parts"), lambda: secrets.token_bytes(SEED_BYTES))
    room.clock = clock_from_data(data.get("clock"))
    room.made_from = str(data.get("made_from", ""))
    room.second_try = data.get("second_try") is True
    for number, stored in enumerate(data["seats"]):
        if stored is not None and stored["covered"] and room.table is not None:
            seat = seats[number]
            assert seat is not None
            seat.covered = True  # as Room.cover does, without a new notice: that one was told already
            room.table.cover(number, make_player(room.level, cover_seed(room.table.record.seed, number), budget=budget))
    return room


def _texts(values: Iterable[Any]) -> list[str]:
    """Redis's answers as the strings they are: the client decodes every reply
    (``decode_responses=True``), which redis-py's types cannot say."""
    return [value if isinstance(value, str) else bytes(value).decode() for value in values]


class RedisRoomStore:
    """The rooms of every server process sharing one Redis (``redis.asyncio``)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis
        self.url = url
        # A bounded pool whose callers wait for a free connection: hundreds of rooms' sessions at
        # once would otherwise open a connection each (the bench found "Too many connections").
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=LOCK_SECONDS,
                                                     decode_responses=True, health_check_interval=30)
        self.client = redis.Redis.from_pool(pool)
        self._save = self.client.register_script(_SAVE)
        self._take = self.client.register_script(_TAKE)

    def describe(self) -> str:
        """The store's address without any password, for the log."""
        parts = urlsplit(self.url)
        return f"redis {parts.hostname or parts.path}:{parts.port or 6379}{parts.path if parts.hostname else ''}"

    async def ping(self) -> None:
        await self.client.ping()

    async def close(self) -> None:
        await self.client.aclose()

    def lock(self, code: str) -> Lock:
        return self.client.lock(f"{PREFIX}lock:{code}", timeout=LOCK_SECONDS, sleep=0.002,
                                blocking_timeout=LOCK_SECONDS)

    async def rev(self, code: str) -> int:
        """How many times the room was stored (0: there is no such room)."""
        return int(await self.client.hget(room_key(code), "rev") or 0)

    async def load(self, code: str, budget: float) -> tuple[Room | None, int]:
        rev, text = await self.client.hmget(room_key(code), ["rev", "room"])
        if text is None or rev is None:
            return None, 0
        return room_from_json(code, _texts([text])[0], budget), int(rev)

    async def save(self, room: Room, rev: int, message: str = "", logs: dict[int, list[str]] | None = None,
                   process: str = "", held: bool = False, cap: int = LOG_FRAMES) -> int:
        """Store the room if it is still at ``rev``; its new rev. ``message`` is published with it,
        ``logs`` (each seat's new update frames) appended to the seats' logs, kept to ``cap``, and
        the room noted among the rooms of ``process`` when ``held`` (taken off them when not)."""
        logs = {seat: frames for seat, frames in (logs or {}).items() if frames}
        seats = sorted(logs)
        waiting, entry, data = _waiting_work(room)
        new = await self._save(keys=[room_key(room.code), PREFIX + "active", held_key(process), waiting,
                                     *(log_key(room.code, seat) for seat in seats)],
                               args=[str(rev), str(rev + 1), room_to_json(room), room.active, room.code, message,
                                     CHANNEL, "1" if held else "0", str(max(1, cap)), entry, data,
                                     *(str(len(logs[seat])) for seat in seats),
                                     *(frame for seat in seats for frame in logs[seat])])
        if int(new) < 0:
            raise StaleRoom(room.code)
        await self._index(room)
        return int(new)

    async def _index(self, room: Room) -> None:
        """Keep the room in the waiting index of its listing while it waits for players, out of it after."""
        if not room.listing:
            return
        if room.waiting(room.listing):
            await self.client.zadd(waiting_key(room.listing), {room.code: room.created})
        else:
            await self.client.zrem(waiting_key(room.listing), room.code)

    async def waiting_codes(self, listing: str) -> list[str]:
        """The codes of the rooms of ``listing`` waiting for players, oldest first."""
        return _texts(await self.client.zrange(waiting_key(listing), 0, -1))
    async def publish(self, message: str) -> None:
        """A message on the frames channel that stores nothing (a chat line: ``cluster``)."""
        await self.client.publish(CHANNEL, message)

    async def log_tail(self, code: str, seat: int, count: int) -> list[str]:
        """The last ``count`` update frames of the seat's log (fewer when it has fewer)."""
        return _texts(await self.client.lrange(log_key(code, seat), -count, -1))

    async def delete(self, code: str) -> None:
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.delete(room_key(code), *(log_key(code, seat) for seat in range(MAX_SEATS)))
            pipe.zrem(PREFIX + "active", code)
            pipe.zrem(waiting_key("quick"), code)
            pipe.zrem(waiting_key("public"), code)
            await pipe.execute()

    # Presence of the server processes -------------------------------------------------------
    async def beat(self, process: str, ttl: float) -> bool:
        """Say ``process`` is alive for ``ttl`` seconds more; whether it was still taken as alive."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(presence_key(process), "1", px=max(1, int(ttl * 1000)), get=True)
            pipe.sadd(PREFIX + "processes", process)
            was, _ = await pipe.execute()
        return was is not None

    async def gone_processes(self, process: str) -> list[str]:
        """The processes, other than ``process``, whose presence expired."""
        others = sorted(set(_texts(await self.client.smembers(PREFIX + "processes"))) - {process})
        if not others:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for other in others:
                pipe.exists(presence_key(other))
            alive = await pipe.execute()
        return [other for other, present in zip(others, alive, strict=True) if not present]

    async def held_rooms(self, process: str) -> list[str]:
        return sorted(_texts(await self.client.smembers(held_key(process))))

    async def forget_process(self, process: str) -> None:
        """A gone process whose seats were all let go: its records removed."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.srem(PREFIX + "processes", process)
            pipe.delete(held_key(process))
            await pipe.execute()

    async def check_write(self, process: str) -> None:
        """Write one short-lived key (``GET /healthz``): raises when Redis cannot be reached or refuses writes."""
        await self.client.set(f"{PREFIX}health:{process}", "1", px=60_000)

    async def end_presence(self, process: str) -> None:
        """A process stopping: taken as gone at once (the others let go what it still held)."""
        await self.client.delete(presence_key(process))

    async def take_try(self, name: str, address: str, limit: int, window: float, token: str) -> int:
        """Count one try of ``address`` under ``name`` while it has fewer than ``limit`` in the last
        ``window`` seconds: 0, or the seconds to wait (then nothing is counted)."""
        return int(await self._take(keys=[limit_key(name, address)], args=[time.time(), window, limit, token]))

    async def give_back_try(self, name: str, address: str, token: str) -> None:
        await self.client.zrem(limit_key(name, address), token)

    async def idle_codes(self, before: float) -> list[str]:
        """Rooms with no activity since ``before`` (wall-clock time)."""
        return _texts(await self.client.zrangebyscore(PREFIX + "active", "-inf", f"({before}"))

    def subscriber(self) -> Any:
        return self.client.pubsub(ignore_subscribe_messages=True)
