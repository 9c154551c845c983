"""The page's side of the room server (issue 40): the console, played for a browser page.

``scopa serve`` starts here: the room server of ``net.launch`` with ``workers.PageWorkers`` attached,
so that its ``/web`` websocket plays the console for each page (in a worker process of its own). The
server itself (``net/``) never imports the console: this package, above both, joins them.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..net.server import RoomServer, ServerConfig


async def open_rooms(config: ServerConfig) -> RoomServer:
    """The server on the store its flags name (``net.launch``), with the page's console attached."""
    from ..net import launch
    from .workers import PageWorkers
    rooms = await launch.open_rooms(config)
    workers = PageWorkers()
    workers.start()
    rooms.page_session = workers.session
    return rooms


def serve(argv: Sequence[str]) -> int:
    """``scopa serve``: the room server, its page answered with the console's own words."""
    import sys

    from ..net import launch
    from ..net.server import config_from_args
    from ..net.server import main as serve_rooms
    if config_from_args(argv).store and launch.redis_missing():
        print(launch.NO_REDIS, file=sys.stderr)
        return launch.USAGE
    return serve_rooms(argv, open_rooms)
