"""Player names and ratings in Redis, for the server processes of one Redis (``--store redis://``).

Keys (beside the rooms' of ``redis_store``):

    scopa:player:HASH  a hash: ``name``, ``skeleton``, ``mu``, ``sigma``, ``matches`` and ``rev``
                       (how many times the rating was written) of one player key's hash, and
                       ``program`` 1 for a key that played as a program (docs/protocol.md)
    scopa:names        a hash: each taken name's skeleton (``identity.name_skeleton``) to its owner
    scopa:board        a sorted set: each rated person's hash by public rating, the leaderboard
    scopa:board:programs  the same for the programs: a program is never on the people's board
    scopa:to_rate      a hash: each finished match still to rate (``ratings.Pending`` as JSON), by id;
                       written by the same script that stores the room's end (``redis_store._SAVE``)
    scopa:rated        a set: the id of every match rated
    scopa:rated_assisted  a set: the id of every rated match in which a hint or tip was used

A name is claimed by one script (its skeleton free or the claimer's, the old one let go). A match
is rated by whichever process gets there first: it reads the players' ratings and their ``rev``,
computes, and applies with one script that writes nothing when the match is rated already or a
player's ``rev`` moved meanwhile (then it reads and computes again). So a match end seen by two
processes, or a process killed between the end and the rating, is rated exactly once: the entry
waits in ``scopa:to_rate`` until a process applies it (every process looks at start and in its sweep).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

from .identity import name_skeleton
from .ratings import Pending, public

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("scopa.net")

PREFIX = "scopa:"
NAMES = PREFIX + "names"
BOARD = PREFIX + "board"
PROGRAMS = PREFIX + "board:programs"
TO_RATE = PREFIX + "to_rate"
RATED = PREFIX + "rated"
ASSISTED = PREFIX + "rated_assisted"


def player_key(hash_: str) -> str:
    return f"{PREFIX}player:{hash_}"


# KEYS: the names, the player, the people's board, the programs'. ARGV: skeleton, hash ('' for no
# key), name, '1' for a program. 1: may use it, 0: taken. A key that plays as a program becomes one,
# its rating moved to the programs' board.
_CLAIM = """
local owner = redis.call('HGET', KEYS[1], ARGV[1])
if owner and owner ~= ARGV[2] then return 0 end
if ARGV[2] == '' then return 1 end
local old = redis.call('HGET', KEYS[2], 'skeleton')
if old and old ~= ARGV[1] then redis.call('HDEL', KEYS[1], old) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], 'name', ARGV[3], 'skeleton', ARGV[1])
if ARGV[4] == '1' and redis.call('HGET', KEYS[2], 'program') ~= '1' then
  redis.call('HSET', KEYS[2], 'program', '1')
  local rating = redis.call('ZSCORE', KEYS[3], ARGV[2])
  if rating then
    redis.call('ZREM', KEYS[3], ARGV[2])
    redis.call('ZADD', KEYS[4], rating, ARGV[2])
  end
end
return 1
"""

# KEYS: to_rate, rated, board, assisted, the programs' board, then each player (a program's rating
# goes on the programs' board). ARGV: the match id, '1' when a hint or
# tip was used in it, then per player: its hash, the rev read, mu, sigma, public rating.
# 1: applied, 0: rated already, -1: a rev moved.
_APPLY = """
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 0
end
for i = 6, #KEYS do
  local at = 3 + (i - 6) * 5
  if (redis.call('HGET', KEYS[i], 'rev') or '0') ~= ARGV[at + 1] then return -1 end
end
for i = 6, #KEYS do
  local at = 3 + (i - 6) * 5
  redis.call('HSET', KEYS[i], 'mu', ARGV[at + 2], 'sigma', ARGV[at + 3], 'rev', tonumber(ARGV[at + 1]) + 1)
  redis.call('HINCRBY', KEYS[i], 'matches', 1)
  local board = KEYS[3]
  if redis.call('HGET', KEYS[i], 'program') == '1' then board = KEYS[5] end
  redis.call('ZADD', board, ARGV[at + 4], ARGV[at])
end
redis.call('SADD', KEYS[2], ARGV[1])
if ARGV[2] == '1' then redis.call('SADD', KEYS[4], ARGV[1]) end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""


class RedisPlayers:
    """The player book of a Redis store (``redis.asyncio`` client with decoded replies)."""

    def __init__(self, client: Redis) -> None:
        self.client = client
        self._claim = client.register_script(_CLAIM)
        self._apply = client.register_script(_APPLY)

    async def claim(self, hash_: str | None, name: str, program: bool = False) -> bool:
        """Whether ``hash_`` (None: no key) may play as ``name``; a key is renamed to it when so,
        and becomes a program's for good with ``program``."""
        skeleton = name_skeleton(name)
        keys = [NAMES, player_key(hash_ or "none"), BOARD, PROGRAMS]
        return bool(int(await self._claim(keys=keys, args=[skeleton, hash_ or "", name, "1" if program else "0"])))

    async def rate_pending(self) -> int:
        """Rate every finished match waiting in ``scopa:to_rate``; how many this process rated."""
        done = 0
        waiting: dict[Any, Any] = await self.client.hgetall(TO_RATE)
        for text in waiting.values():
            match = Pending.from_json(str(text))
            for _ in range(20):  # a player rated meanwhile by another match: read again
                result = await self._rate(match)
                if result >= 0:
                    done += result
                    break
        return done

    async def _rate(self, match: Pending) -> int:
        players = match.players()
        now: dict[str, tuple[float, float]] = {}
        revs: dict[str, str] = {}
        for player in players:
            had_mu, had_sigma, rev = await self.client.hmget(player_key(player), ["mu", "sigma", "rev"])
            revs[player] = str(rev or "0")
            if had_mu is not None and had_sigma is not None:
                now[player] = (float(had_mu), float(had_sigma))
        rated = match.rated(now)
        args: list[str] = [match.id, "1" if match.assisted else "0"]
        for player in players:
            _, _, mu, sigma = rated[player]
            args += [player, revs[player], repr(mu), repr(sigma), repr(public(mu, sigma))]
        keys = [TO_RATE, RATED, BOARD, ASSISTED, PROGRAMS, *(player_key(p) for p in players)]
        return int(await self._apply(keys=keys, args=args))

    async def leaderboard(self, top: int, hash_: str | None, programs: bool = False
                          ) -> tuple[list[tuple[int, str, float, int]], tuple[int, int, float] | None]:
        """The first ``top`` players (rank, name, rating, matches), and the asker's (rank, of,
        rating): on the people's board, or with ``programs`` the programs'."""
        board = PROGRAMS if programs else BOARD
        ranked: list[tuple[str, float]] = cast(Any, await self.client.zrevrange(board, 0, max(0, top - 1),
                                                                             withscores=True))
        rows = []
        for rank, (member, score) in enumerate(ranked, 1):
            name, matches = await self.client.hmget(player_key(str(member)), ["name", "matches"])
            rows.append((rank, str(name or ""), float(score), int(matches or 0)))
        you = None
        if hash_ is not None:
            place: int | None = cast(Any, await self.client.zrevrank(board, hash_))
            if place is not None:
                mine = await self.client.zscore(board, hash_)
                you = (int(place) + 1, int(await self.client.zcard(board)), float(mine or 0.0))
        return rows, you

