"""Invite links: the server and a room's code in one line that ``scopa join`` takes whole.

A link is the server's websocket address with the code after a slash (``ws://HOST:PORT/K7MQ3T``,
``wss://example.org/scopa/K7MQ3T``); ``scopa://HOST:PORT/K7MQ3T`` is taken as the ``ws://`` one and
``scopas://`` as ``wss://``, so a link can say it is scopa's. A code alone is not a link.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from ..protocol.codes import normalise_code

_SCHEMES = {"ws": "ws", "wss": "wss", "scopa": "ws", "scopas": "wss"}


def invite_link(server: str, code: str) -> str:
    """The line a host shares: the server's address, then ``/`` and the code."""
    return f"{server.rstrip('/')}/{code}"


def parse_invite(text: str) -> tuple[str, str] | None:
    """(server, code) of a link, or None when ``text`` is not one (a bare code, another scheme,
    no host, a last part that is not a room code)."""
    text = text.strip()
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # noqa: B018 -- raises ValueError on a port out of range
    except ValueError:
        return None
    scheme = _SCHEMES.get(parts.scheme.lower())
    if scheme is None or not host or parts.query or parts.fragment:
        return None
    path, _, last = parts.path.rstrip("/").rpartition("/")
    code = normalise_code(last)
    if code is None:
        return None
    return f"{scheme}://{parts.netloc}{path}", code


def page_link(server: str, code: str) -> str:
    """The same room's link for a browser: the page the server serves at ``/CODE`` (``http://`` for a
    ``ws://`` server, ``https://`` for ``wss://``), docs/web.md."""
    scheme, _, rest = invite_link(server, code).partition("://")
    return f"{'https' if _SCHEMES.get(scheme.lower()) == 'wss' else 'http'}://{rest}"
