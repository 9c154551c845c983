"""``GET /healthz`` on the room server's own port, for a load balancer or a service manager.

Answered through the ``websockets`` server's ``process_request`` hook, before any websocket
handshake: 200 ``ok`` when the store took a write just now, 503 ``store not writable`` when it
did not (a full or read-only disk, a database error, Redis unreachable or at its memory limit),
and 503 ``stopping`` once the server is stopping (so a load balancer sends no one there). The
answer is short text, with no detail of the error (the server's log has it). Any other path is
left to the websocket handshake, as before.

The store's answer is kept for ``HEALTH_CACHE`` seconds (``CachedCheck``), and callers that ask
while a check is under way wait for that one: however often ``/healthz`` is called, the store
takes at most one health write a second, so a flood of checks (335 a second raised the rooms'
p50 from 7.5 to 75 ms, issue 37) costs the rooms nothing. A failing store is reported at most a
second late, and logged at most once a second.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

HEALTH_PATH = "/healthz"
HEALTHY = "ok\n"
UNHEALTHY = "store not writable\n"
STOPPING = "stopping\n"
HEALTH_CACHE = 1.0  # seconds an answer of the store is given again without asking it


class CachedCheck:
    """``check()`` asked at most once every ``seconds``: the answer in between is the last one,
    and a call while a check is under way waits for it rather than starting another."""

    def __init__(self, check: Callable[[], Awaitable[bool]], seconds: float = HEALTH_CACHE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.check, self.seconds, self.clock = check, seconds, clock
        self._value = False
        self._at: float | None = None
        self._pending: asyncio.Future[bool] | None = None

    async def __call__(self) -> bool:
        if self._at is not None and self.clock() - self._at < self.seconds:
            return self._value
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._run())
        return await asyncio.shield(self._pending)

    async def _run(self) -> bool:
        try:
            self._value = await self.check()
            self._at = self.clock()
            return self._value
        finally:
            self._pending = None

ProcessRequest = Callable[[ServerConnection, Request], Awaitable[Response | None]]


def health_hook(writable: Callable[[], Awaitable[bool]], stopping: Callable[[], bool]) -> ProcessRequest:
    """The ``process_request`` hook: ``/healthz`` answered from ``stopping()`` and ``writable()``
    (asked at most once a second, ``CachedCheck``), anything else passed on."""
    writable = CachedCheck(writable)

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        if urlsplit(request.path).path != HEALTH_PATH:
            return None
        if stopping():
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, STOPPING)
        if await writable():
            return connection.respond(HTTPStatus.OK, HEALTHY)
        return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, UNHEALTHY)

    return process_request
