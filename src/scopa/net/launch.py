"""``scopa serve``: the room server on the store its flags name, SQLite (the default) or Redis.

Its own module so that ``server`` (one process's rooms) and ``cluster`` (several processes on
Redis, built on ``server``) do not import each other.
"""
from __future__ import annotations

from collections.abc import Sequence

from .cluster import open_cluster
from .server import RoomServer, ServerConfig, sqlite_rooms
from .server import main as serve


async def open_rooms(config: ServerConfig) -> RoomServer:
    return await (open_cluster if config.store else sqlite_rooms)(config)


def main(argv: Sequence[str]) -> int:
    return serve(argv, open_rooms)
