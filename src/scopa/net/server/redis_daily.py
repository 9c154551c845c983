"""The daily deal's days and results in Redis, for the server processes of one Redis (``net.server.daily``).

Keys (beside the rooms' of ``redis_store``):

    scopa:daily:seed:DAY     the day seed in hex, set only if absent (SET NX): every process agrees
    scopa:daily:par:DAY      the day's par, comma-separated, set only if absent
    scopa:daily:results:DAY  a hash: each finished daily room's match id to its result (JSON)
    scopa:daily:counted:DAY  a hash: "PLAYER:DEAL" to the match id that counts (set only if absent)

    scopa:daily:todo         a hash: each finished daily room's result still to write (JSON), by match id

The end of a daily room is stored by the rooms' script (``redis_store``), which in the same step
puts its result in ``scopa:daily:todo``; a process then writes it with one script: nothing when
the match id is there already (a second save of the same end), else its counted room is set if
the player had none for that deal, and the entry leaves the todo, in one step. Every process
writes what waits there after each end it stores and in its sweep, so a process killed between
the two steps leaves the result to the next: it is never lost, and never written twice.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from .daily import DailyResult, Finished, finished_from_json

if TYPE_CHECKING:
    from redis.asyncio import Redis


PREFIX = "scopa:daily:"
DAY_SECONDS = 40 * 24 * 3600  # a day's results and seed are kept this long (the seed is revealed after)

DAILY_TODO = PREFIX + "todo"

# KEYS: results, counted, todo. ARGV: match id, "PLAYER:DEAL" ("" for a room ended after its day,
# which never counts), the result's JSON without "counted".
# 1: written and counted, 2: written as practice, 0: written before. The todo entry goes in any case.
_RECORD = """
redis.call('HDEL', KEYS[3], ARGV[1])
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
local counted = 0
if ARGV[2] ~= '' then counted = redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if counted == 1 then return 1 end
return 2
"""


def _key(kind: str, day: str) -> str:
    return f"{PREFIX}{kind}:{day}"


class RedisDaily:
    """The daily book of a Redis store (``redis.asyncio`` client with decoded replies)."""

    def __init__(self, client: Redis, fresh: Callable[[], bytes]) -> None:
        self.client, self.fresh = client, fresh
        self._record = client.register_script(_RECORD)

    async def seed(self, day: str, create: bool) -> bytes | None:
        key = _key("seed", day)
        if create:
            await self.client.set(key, self.fresh().hex(), nx=True, ex=DAY_SECONDS)
        text = await self.client.get(key)
        return None if text is None else bytes.fromhex(str(text))

    async def par(self, day: str) -> list[int] | None:
        text = await self.client.get(_key("par", day))
        return None if text is None else [int(x) for x in str(text).split(",")]

    async def keep_par(self, day: str, par: Sequence[int]) -> list[int]:
        await self.client.set(_key("par", day), ",".join(str(p) for p in par), nx=True, ex=DAY_SECONDS)
        return await self.par(day) or list(par)

    async def results(self, day: str) -> list[DailyResult]:
        stored: dict[Any, Any] = await self.client.hgetall(_key("results", day))
        counted: dict[Any, Any] = await self.client.hgetall(_key("counted", day))
        winners = {str(match) for match in counted.values()}
        found = []
        for match, text in stored.items():
            data = json.loads(str(text))
            found.append(DailyResult(str(match), int(data["deal"]), str(data["player"]), str(data["name"]),
                                     int(data["points"]), int(data["par"]), str(match) in winners,
                                     float(data["at"]), str(data.get("address", ""))))
        return found

    async def first_days(self, players: Collection[str]) -> dict[str, str]:
        ordered = sorted(players)
        if not ordered:
            return {}
        days = await self.client.mget([f"{PREFIX}first:{player}" for player in ordered])
        return {player: str(day) for player, day in zip(ordered, days, strict=True) if day is not None}

    async def record_pending(self) -> int:
        """Write every daily result waiting in ``scopa:daily:todo`` (see the module's docstring);
        how many were written now."""
        waiting: dict[Any, Any] = await self.client.hgetall(DAILY_TODO)
        written = 0
        for match, text in waiting.items():
            written += await self._write(str(match), finished_from_json(str(text)))
        return written

    async def _write(self, match: str, done: Finished) -> int:
        par = await self.par(done.day)
        if par is None or not 1 <= done.deal <= len(par):  # not a room of this book's days: nothing to rank
            await self.client.hdel(DAILY_TODO, match)
            return 0
        data = json.dumps({"deal": done.deal, "player": done.player, "name": done.name, "points": done.points,
                           "par": par[done.deal - 1], "at": time.time(), "address": done.address},
                          separators=(",", ":"))
        keys = [_key("results", done.day), _key("counted", done.day), DAILY_TODO]
        written = await self._record(keys=keys, args=[match, "" if done.late else f"{done.player}:{done.deal}", data])
        for key in keys[:2]:
            await self.client.expire(key, DAY_SECONDS)
        await self.client.set(f"{PREFIX}first:{done.player}", done.day, nx=True)  # the key's first daily day
        return int(written != 0)
