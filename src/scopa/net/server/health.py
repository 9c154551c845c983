"""``GET /healthz`` on the room server's own port, for a load balancer or a service manager.

Answered through the ``websockets`` server's ``process_request`` hook, before any websocket
handshake: 200 ``ok`` when the store took a write just now, 503 ``store not writable`` when it
did not (a full or read-only disk, a database error, Redis unreachable or at its memory limit),
and 503 ``stopping`` once the server is stopping (so a load balancer sends no one there). The
answer is short text, with no detail of the error (the server's log has it). Any other path is
left to the websocket handshake, as before.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from http import HTTPStatus
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

HEALTH_PATH = "/healthz"
HEALTHY = "ok\n"
UNHEALTHY = "store not writable\n"
STOPPING = "stopping\n"

ProcessRequest = Callable[[ServerConnection, Request], Awaitable[Response | None]]


def health_hook(writable: Callable[[], Awaitable[bool]], stopping: Callable[[], bool]) -> ProcessRequest:
    """The ``process_request`` hook: ``/healthz`` answered from ``stopping()`` and ``writable()``,
    anything else passed on."""

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        if urlsplit(request.path).path != HEALTH_PATH:
            return None
        if stopping():
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, STOPPING)
        if await writable():
            return connection.respond(HTTPStatus.OK, HEALTHY)
        return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, UNHEALTHY)

    return process_request
