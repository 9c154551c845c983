"""``Link``: one websocket connection to a room server, for the console's blocking threads.

Why not ``websockets.sync``: its connection reads in a thread of its own and sends from the
caller's, both on one ``ssl.SSLSocket``, and OpenSSL does not allow one TLS connection to be used
from two threads at once. A TLS 1.3 server sends its session tickets just after the handshake,
while the client writes its opening request; now and then that request never reached the server,
and the opening waited out its whole timeout ("timed out while waiting for handshake response"):
the player heard "Cannot reach the server". Measured over loopback, websockets 17.4, Python 3.11,
OpenSSL 3.0, four processes of 1,000 openings each to a ``wss://`` echo server: 6 of 4,000 hung,
in each of two runs; 0 of 4,000 when the server sent no tickets; 0 of 16,000 through this module
(``python3 dev.py bench openings`` measures it again).

So a Link runs websockets' asyncio client on one event loop, in a daemon thread of its own
(``_links_loop``), and asyncio does all of the TLS in that one thread: the calling threads only
hand it work and wait for the result. As before, one thread may wait in ``recv`` while another
sends.

Failures come out as this module's own exceptions, so that no caller needs websockets' names:
``LinkFailed`` (with the ``problem`` code the console says) when a connection cannot be opened,
``LinkClosed`` once an open one is closed or broken, ``TimeoutError`` when ``recv`` waited its
``timeout``.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import ssl
import threading
from collections import deque
from collections.abc import Coroutine, Iterator
from typing import TYPE_CHECKING, Any, Self, TypeVar

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

T = TypeVar("T")

UNREACHABLE = "unreachable"  # ``problem`` code when the server cannot be reached at all
WANTS_WSS = "wants_wss"  # ``problem`` code of ws:// to a server that speaks TLS there: it wants wss://
TLS_PROBE_TIMEOUT = 3.0  # seconds for the TLS handshake that tells a wss-only server
CLOSE_TIMEOUT = 1.0          # seconds to wait for the server's part of the closing handshake
BURST_GAP = 0.005            # seconds: a message this soon after the one before is of the same burst

# websockets logs a failed keepalive ping, with its traceback, to its logger; with no logging set up
# Python writes that to stderr: the player's screen, read aloud. A drop is said in words and the
# connection taken up again, so the library's own log of it stays quiet.
# A logger of its own, outside logging's tree (no parent, no handler) and above every level.
QUIET_LOG = logging.Logger("scopa.net.connection", logging.CRITICAL + 1)

# OpenSSL's verification codes (``X509_V_ERR_*``) that say what is wrong with a certificate.
# The verification codes of OpenSSL (Linux), of macOS's Security framework and of Windows'
# CryptoAPI (truststore passes the system's own: system_trust)
NAME_MISMATCH = frozenset({62, 64,          # OpenSSL: HOSTNAME_MISMATCH, IP_ADDRESS_MISMATCH
                           -67602,          # macOS: errSecHostNameMismatch
                           0x800B010F})     # Windows: CERT_E_CN_NO_MATCH
EXPIRED = frozenset({10,                    # OpenSSL: CERT_HAS_EXPIRED
                     -67818,                # macOS: errSecCertificateExpired
                     0x800B0101})           # Windows: CERT_E_EXPIRED


class LinkFailed(Exception):
    """The connection could not be opened; ``code`` says why, as a ``problem`` code: ``bad_server``,
    ``unreachable``, or a TLS problem (``tls_problem``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class LinkClosed(Exception):
    """The connection is closed or broken: nothing more can be sent or received on it."""


def tls_problem(error: ssl.SSLError) -> str:
    """The ``problem`` code of a failed TLS handshake: ``certificate_name`` (the certificate is for
    another name), ``certificate_expired``, ``certificate_untrusted`` (self-signed, or signed by an
    authority this computer does not know: ``--cafile``), or ``tls_failed`` (no TLS there at all,
    such as a ``ws://`` server asked for ``wss://``)."""
    if isinstance(error, ssl.SSLCertVerificationError):
        code = error.verify_code
        if code in NAME_MISMATCH:
            return "certificate_name"
        return "certificate_expired" if code in EXPIRED else "certificate_untrusted"
    return "tls_failed"


def system_trust() -> ssl.SSLContext:
    """A client context that trusts what the system trusts, on every system: macOS's keychain
    and Windows' certificate store through ``truststore`` (python.org's Python on macOS has no
    certificates of its own until "Install Certificates" is run, so a publicly signed server was
    said untrusted), OpenSSL's default paths on Linux."""
    import truststore

    return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def tls_context(cafile: str | os.PathLike[str]) -> ssl.SSLContext:
    """A client context that trusts the certificates in ``cafile`` (PEM) as well as the system's:
    ``OSError`` or ``ssl.SSLError`` when the file cannot be read as certificates."""
    context = system_trust()
    context.load_verify_locations(cafile=cafile)
    return context


class _LinksLoop:
    """The event loop every Link of this process runs on, started the first time one is opened."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(target=self._loop.run_forever, daemon=True, name="scopa-links").start()
            return self._loop


_links_loop = _LinksLoop()


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on the links' loop and wait for its result (or its exception)."""
    return asyncio.run_coroutine_threadsafe(coroutine, _links_loop.get()).result()


def open_link(server: str, tls: ssl.SSLContext | None, timeout: float, max_size: int) -> Link:
    """Connect to ``server`` (``ws://`` or ``wss://``) and open the websocket within ``timeout``
    seconds; ``LinkFailed`` when it cannot be. ``tls`` is used for ``wss://`` only (None: the
    system's trust). ``max_size``: the largest message, in bytes, taken from the server."""
    from websockets.exceptions import InvalidURI, WebSocketException

    secure = server.lower().startswith("wss:")
    try:
        return Link(_run(_open(server, tls if secure else None, timeout, max_size)))
    except InvalidURI:
        raise LinkFailed("bad_server") from None
    except ssl.SSLError as error:  # before OSError, which it is: the certificate, not the network
        raise LinkFailed(tls_problem(error)) from error
    except ConnectionResetError as error:  # asyncio's word for a connection closed in the TLS handshake
        raise LinkFailed("tls_failed" if secure else UNREACHABLE) from error
    except (OSError, TimeoutError, WebSocketException) as error:
        if not secure and isinstance(error, WebSocketException) and speaks_tls(server, min(timeout, TLS_PROBE_TIMEOUT)):
            raise LinkFailed(WANTS_WSS) from error
        raise LinkFailed(UNREACHABLE) from error


def speaks_tls(server: str, timeout: float) -> bool:
    """Whether ``server`` answers a TLS handshake: what a server serving ``wss://`` does, where
    ``ws://`` got only bytes that were no HTTP answer (its TLS alert). The handshake checks no
    certificate and nothing is sent over it: it only tells which scheme the server wants."""
    import socket
    from urllib.parse import urlsplit

    try:
        where = urlsplit(server)
        host, port = where.hostname, where.port or 80
    except ValueError:
        return False
    if not host:
        return False
    probe = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    probe.check_hostname, probe.verify_mode = False, ssl.CERT_NONE
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw, \
                probe.wrap_socket(raw, server_hostname=host):
            return True
    except (OSError, ValueError):  # ssl.SSLError is an OSError: no TLS there
        return False


async def _open(server: str, tls: ssl.SSLContext | None, timeout: float, max_size: int) -> ClientConnection:
    from websockets.asyncio.client import connect

    secure = server.lower().startswith("wss:")
    options: dict[str, Any] = {"ssl": tls or system_trust()} if secure else {}  # None for wss: the system's trust
    return await connect(server, open_timeout=timeout, max_size=max_size, close_timeout=CLOSE_TIMEOUT,
                         logger=QUIET_LOG, **options)


async def _recv_burst(connection: ClientConnection, timeout: float | None) -> list[str | bytes]:
    """The next message within ``timeout`` seconds, and the messages that follow it each within
    ``BURST_GAP``: what the server sent at once. Not ``asyncio.wait_for``: in Python 3.11 it
    cancels at once, with a timeout of 0, a wait that could have taken a message already there;
    ``asyncio.timeout`` cancels only a wait that had to wait (websockets keeps the message of a
    cancelled wait)."""
    from websockets.exceptions import ConnectionClosed

    async with asyncio.timeout(timeout):
        burst = [await connection.recv()]
    with contextlib.suppress(TimeoutError, ConnectionClosed):  # a close is said by the next recv
        while True:
            async with asyncio.timeout(BURST_GAP):
                burst.append(await connection.recv())
    return burst


class Link:
    """An open websocket connection (``open_link``). Every method blocks only the thread calling it."""

    def __init__(self, connection: ClientConnection) -> None:
        self._connection = connection
        self._ready: deque[str | bytes] = deque()  # messages of a burst taken from the loop, not yet given

    def send(self, message: str) -> None:
        """Send one text message; ``LinkClosed`` when the connection is gone."""
        self._call(self._connection.send(message))

    def recv(self, timeout: float | None = None) -> str | bytes:
        """The next message; ``TimeoutError`` after ``timeout`` seconds (None: no limit), with no
        message lost; ``LinkClosed`` once the connection is closed, by either side, or broken."""
        if not self._ready:
            self._ready.extend(self.recv_burst(timeout))
        return self._ready.popleft()

    def recv_burst(self, timeout: float | None = None) -> list[str | bytes]:
        """The messages the server sent at once (``BURST_GAP``), at least one; else as ``recv``.

        The server's updates of one change each carry the view after all of them (a match's
        start: "started", with the dealt view, then the deal's events), so a console that read
        the view between two of them would act on a position whose events it had not yet heard.
        ``RemoteTable`` waits for the server's ``change_end``; a burst is what it takes for one
        change where none comes (a server from before it)."""
        if self._ready:
            burst, self._ready = list(self._ready), deque()
            return burst
        return self._call(_recv_burst(self._connection, timeout))

    def close(self) -> None:
        """Close the connection (a thread waiting in ``recv`` gets ``LinkClosed``); at most about
        ``CLOSE_TIMEOUT`` seconds. Closing a closed link does nothing."""
        self._call(self._connection.close())

    def __iter__(self) -> Iterator[str | bytes]:
        """Every message until the connection is closed or broken."""
        while True:
            try:
                yield self.recv()
            except LinkClosed:
                return

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @staticmethod
    def _call(coroutine: Coroutine[Any, Any, T]) -> T:
        from websockets.exceptions import WebSocketException

        try:
            return _run(coroutine)
        except TimeoutError:
            raise
        except (OSError, WebSocketException) as error:
            raise LinkClosed(str(error)) from error
