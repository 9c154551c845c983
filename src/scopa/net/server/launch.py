"""``scopa serve``: the room server on the store its flags name, SQLite (the default) or Redis.

Its own module so that ``server`` (one process's rooms) and ``cluster`` (several processes on
Redis, built on ``server``) do not import each other.

Redis is an extra (``scopa[redis]``): only ``--store`` uses it, so it is checked for here, after
the flags are read and before anything starts, and its absence is one line saying what to
install rather than a ``ModuleNotFoundError``.
"""
from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Sequence

from .cluster import open_cluster
from .pages import PageSession
from .server import RoomServer, ServerConfig, config_from_args, sqlite_rooms
from .server import main as serve

USAGE = 2
# scopa is not on PyPI, so the line names the install from the scopa folder, never "scopa[redis]" alone
# (which would fetch whatever PyPI holds under that name).
NO_REDIS = ("scopa: --store needs the redis package, which is not installed here. Install it beside scopa "
            "(pipx inject scopa redis, or pip install redis), or install scopa with it: "
            "pipx install '.[redis]' in the scopa folder.")


async def open_rooms(config: ServerConfig) -> RoomServer:
    return await (open_cluster if config.store else sqlite_rooms)(config)


def with_pages(pages: Callable[[], PageSession]) -> Callable[[ServerConfig], Awaitable[RoomServer]]:
    """``open_rooms``, with the browser page's consoles attached: ``pages`` gives what plays one page
    (the composition root's ``scopa.web``; the server never imports the console)."""
    async def opened(config: ServerConfig) -> RoomServer:
        rooms = await open_rooms(config)
        rooms.page_session = pages()
        return rooms
    return opened


def redis_missing() -> bool:
    try:
        import redis.asyncio  # noqa: F401
    except ImportError:
        return True
    return False


def main(argv: Sequence[str], pages: Callable[[], PageSession] | None = None) -> int:
    """``scopa serve``; ``pages`` gives what plays a browser page (None: the server answers no page's websocket)."""
    if config_from_args(argv).store and redis_missing():  # bad flags and --help end in config_from_args
        print(NO_REDIS, file=sys.stderr)
        return USAGE
    return serve(argv, open_rooms if pages is None else with_pages(pages))
