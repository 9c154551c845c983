"""The page a browser opens (issue 40): plain HTTP on the room server's own port.

Answered through the ``websockets`` server's ``process_request`` hook, beside ``/healthz``:

- ``GET /`` is the page, ``GET /CODE`` (a room code, in any case, with or without dashes) the same
  page, which reads the code from its address and joins that room; ``/page.js`` and ``/page.css``
  are its script and style sheet, package data of the client's side (``net/client/page/``: the page is
  another face of the client), read once; the server reads them as files, without importing the client.
- Every answer carries a strict Content-Security-Policy: the page's own origin only, no inline
  script or style, no frame, no other server (``connect-src 'self'`` lets the page open its
  websocket back to this server and nowhere else).
- A websocket handshake that carries an ``Origin`` (every browser sends one; the console's client
  sends none) is refused with 403 unless the origin is this server's own (its ``Host``). Another
  site's page cannot use a player's seat (its seat key lives in this origin's storage anyway), nor
  play or chat in a player's name through the player's browser.

Why the same port and not one of its own: the shipped nginx configuration (deploy/nginx) proxies
``location /`` of one name to the servers' one port, upgrading to a websocket when asked; the page,
its files and its websocket then come from one origin, which the policy and the origin check need.
A second port would need a second proxied name or path and a looser policy.

The page's websocket is ``/web``: ``RoomServer.handle`` gives it to ``PageLink`` and the page session
the composition root attached (``scopa.web``), which plays the console for that page. Nothing here
knows the game's words.
"""
from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from functools import cache
from http import HTTPStatus
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..protocol.codes import normalise_code

PAGE_PATH = "/web"  # the page's websocket
FILES = {"/page.js": ("page.js", "text/javascript; charset=utf-8"),
         "/page.css": ("page.css", "text/css; charset=utf-8"),
         "/": ("index.html", "text/html; charset=utf-8")}
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = (("Content-Security-Policy", POLICY), ("X-Content-Type-Options", "nosniff"),
           ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-cache"),
           ("Cross-Origin-Opener-Policy", "same-origin"), ("X-Frame-Options", "DENY"))
MAX_PAGE_MESSAGE = 4096  # bytes: a page sends a key, a line of at most a chat's length, or its first message
PAGE_RATE, PAGE_BURST = 20.0, 60  # messages a second a page may send on average, and at once: then it is closed
CODE_PATH = re.compile(r"^/[A-Za-z0-9-]{4,12}$")

ProcessRequest = Callable[[ServerConnection, Request], Awaitable[Response | None]]


@cache
def page_file(name: str) -> bytes:
    """A file of the page, as shipped in the package (read once: they never change while serving)."""
    return resources.files("scopa.net").joinpath("client", "page", name).read_bytes()


def page_weight() -> int:
    """Bytes of the page, its script and its style sheet together, before compression."""
    return sum(len(page_file(name)) for name, _ in FILES.values())


def _respond(connection: ServerConnection, status: HTTPStatus, body: bytes, kind: str) -> Response:
    headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))), *HEADERS])
    return Response(status.value, status.phrase, headers, body)


def same_origin(request: Request) -> bool:
    """A handshake with no ``Origin`` (not a browser), or one from this server's own address."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    host = request.headers.get("Host", "")
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


def page_hook(inner: ProcessRequest) -> ProcessRequest:
    """The ``process_request`` hook: the page's files, then the origin check of a websocket, then ``inner``
    (the health check)."""

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        path = urlsplit(request.path).path
        upgrade = "websocket" in request.headers.get("Upgrade", "").lower()
        if not upgrade:
            served = FILES.get(path)
            if served is None and CODE_PATH.match(path) and normalise_code(path[1:]) is not None:
                served = FILES["/"]
            if served is not None:
                return _respond(connection, HTTPStatus.OK, page_file(served[0]), served[1])
        elif not same_origin(request):
            return _respond(connection, HTTPStatus.FORBIDDEN, b"Another site cannot open this server.\n",
                            "text/plain; charset=utf-8")
        answer = await inner(connection, request)
        if answer is None and not upgrade and path != "/healthz":
            return _respond(connection, HTTPStatus.NOT_FOUND, b"Not found.\n", "text/plain; charset=utf-8")
        return answer

    return process_request


class PageLink:
    """The page's websocket, as the page session sees it: JSON objects in and out, no websockets names.

    ``send`` may be called from any thread (the session's console runs in one of its own); the frames
    go out in order from the server's loop."""

    def __init__(self, ws: ServerConnection, loop: asyncio.AbstractEventLoop, address: str) -> None:
        self._ws = ws
        self._loop = loop
        self.address = address  # the page's address, as the server counts it (behind a proxy: --trust-proxy)
        self.host = ws.request.headers.get("Host", "") if ws.request is not None else ""
        self._out: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        frame = json.dumps(message, ensure_ascii=False)
        try:
            self._loop.call_soon_threadsafe(self._out.put_nowait, frame)
        except RuntimeError:  # the loop is closed: the server stopped
            self.closed = True

    def close(self) -> None:
        with_loop = self._loop.is_running() and not self._loop.is_closed()
        if with_loop:
            self._loop.call_soon_threadsafe(self._out.put_nowait, None)

    async def pump(self) -> None:
        """Send what the session queued until it closes the link, then close the websocket."""
        try:
            while (frame := await self._out.get()) is not None:
                await self._ws.send(frame)
            await self._ws.close()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True

    async def messages(self) -> Any:
        """Each JSON object the page sends; a frame too big or not an object ends the connection."""
        allowance, at = float(PAGE_BURST), time.monotonic()
        try:
            async for raw in self._ws:
                now = time.monotonic()
                allowance = min(float(PAGE_BURST), allowance + (now - at) * PAGE_RATE) - 1
                at = now
                if len(raw) > MAX_PAGE_MESSAGE or allowance < 0:  # too big, or keys faster than any hand
                    return
                try:
                    message = json.loads(raw)
                except ValueError:
                    return
                if not isinstance(message, dict):
                    return
                yield message
        except ConnectionClosed:  # the page went without closing: a closed tab, a lost network
            return


# What the composition root attaches: plays one page's session until the page goes; the address is the one
# its console connects to (``page_seat_url``), naming the page's address with this process's token.
PageSession = Callable[[PageLink, str], Awaitable[None]]


async def serve_page(ws: ServerConnection, session: PageSession | None, address: str, self_url: str) -> None:
    """The page's websocket: handed to the session with the address its console connects to, its frames
    sent as they come."""
    if session is None:
        await ws.close(1008, "no page here")
        return
    link = PageLink(ws, asyncio.get_running_loop(), address)
    pump = asyncio.create_task(link.pump())
    try:
        await session(link, page_seat_url(self_url, address))
    finally:
        link.close()
        await pump


# A page's console joins its room through this process's own loopback port, as any client does, under
# a path naming the page's address: the server counts its joins, codes tried and rooms made by the
# page's address, not by loopback's, which every page would share. The token is this process's own
# secret, so a client elsewhere cannot name an address of its choosing this way.
PAGE_TOKEN = secrets.token_urlsafe(18)
PAGE_SEAT = re.compile(r"^/page-seat/([A-Za-z0-9_-]+)/([0-9A-Fa-f:.]+)$")


def page_seat_url(self_url: str, address: str) -> str:
    """The address a page's console connects to: this server on loopback, for the page at ``address``."""
    return f"{self_url}/page-seat/{PAGE_TOKEN}/{address}"


def page_address(request: Request | None, peer: str) -> str | None:
    """The page's address, for a connection a page's console made through ``page_seat_url`` from loopback;
    None for any other connection."""
    if request is None:
        return None
    found = PAGE_SEAT.match(urlsplit(request.path).path)
    if found is None or not hmac.compare_digest(found.group(1), PAGE_TOKEN):
        return None
    try:
        return str(ipaddress.ip_address(found.group(2)))
    except ValueError:
        return None


def loopback(host: str) -> str:
    """Where this process is reached from itself: its own address, or loopback for every interface."""
    if host in ("", "0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
