"""``python -m scopa.bench leaderboard [--players N] [--queries Q] [--redis URL]``: the board's query.

Fills a store with N rated players (SQLite in a temporary file; with ``--redis``, that Redis,
whose ``scopa:`` player keys it deletes before and after) and asks the leaderboard Q times,
each time the top ten and one random player's place, as the server does for ``leaderboard``.
Prints the fill time and the query's p50, p99 and worst, in milliseconds.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import sqlite3
import tempfile
import time
from pathlib import Path

from ..net.server.identity import SqlitePlayers
from ..net.server.ratings import public


def _players(count: int, rng: random.Random) -> list[tuple[str, str, float, float]]:
    return [(secrets.token_hex(32), f"Player {i}", rng.gauss(25.0, 6.0), rng.uniform(0.8, 8.3)) for i in range(count)]


def _report(store: str, count: int, fill: float, times: list[float]) -> None:
    times.sort()
    p50, p99 = times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{store}: {count} players filled in {fill:.1f} s; leaderboard (top 10 and one place) "
          f"p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, worst {times[-1] * 1000:.2f} ms over {len(times)}")


def bench_sqlite(count: int, queries: int, rng: random.Random) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(Path(folder) / "rooms.sqlite3", isolation_level=None)
        book = SqlitePlayers(db)
        players = _players(count, rng)
        began = time.perf_counter()
        db.execute("BEGIN")
        db.executemany("INSERT INTO players (hash, name, skeleton, mu, sigma, ordinal, matches) "
                       "VALUES (?, ?, ?, ?, ?, ?, 1)",
                       [(h, n, n.casefold(), mu, s, public(mu, s)) for h, n, mu, s in players])
        db.execute("COMMIT")
        fill = time.perf_counter() - began
        times = []
        for _ in range(queries):
            asker = rng.choice(players)[0]
            began = time.perf_counter()
            book.leaderboard(10, asker)
            times.append(time.perf_counter() - began)
        db.close()
    _report("sqlite", count, fill, times)


async def bench_redis(url: str, count: int, queries: int, rng: random.Random) -> None:
    import redis.asyncio as redis

    from ..net.server.redis_players import BOARD, RedisPlayers, player_key
    client = redis.Redis.from_url(url, decode_responses=True)
    players = _players(count, rng)
    try:
        await _clear(client)
        began = time.perf_counter()
        for start in range(0, count, 5000):
            async with client.pipeline(transaction=False) as pipe:
                for h, n, mu, s in players[start:start + 5000]:
                    pipe.hset(player_key(h), mapping={"name": n, "mu": mu, "sigma": s, "matches": 1, "rev": 1})
                    pipe.zadd(BOARD, {h: public(mu, s)})
                await pipe.execute()
        fill = time.perf_counter() - began
        book = RedisPlayers(client)
        times = []
        for _ in range(queries):
            asker = rng.choice(players)[0]
            began = time.perf_counter()
            await book.leaderboard(10, asker)
            times.append(time.perf_counter() - began)
        _report("redis", count, fill, times)
    finally:
        await _clear(client)
        await client.aclose()


async def _clear(client: object) -> None:
    from redis.asyncio import Redis

    from ..net.server.redis_players import BOARD
    assert isinstance(client, Redis)
    keys = [key async for key in client.scan_iter("scopa:player:*", count=5000)]
    for start in range(0, len(keys), 5000):
        await client.delete(*keys[start:start + 5000])
    await client.delete(BOARD)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench leaderboard")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--redis", default=None, help="a Redis to measure too (its scopa:player keys are deleted)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    bench_sqlite(args.players, args.queries, rng)
    if args.redis:
        asyncio.run(bench_redis(args.redis, args.players, args.queries, rng))
    return 0
