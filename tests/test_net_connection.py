"""A server connection's closing: the close started by ``close_now`` is kept and awaited."""
from __future__ import annotations

import asyncio
from typing import Any, cast

from scopa.net.server.server import Connection, ServerConfig


class SlowClose:
    """A stand-in for the websocket: its close takes several turns of the event loop."""

    remote_address = ("127.0.0.1", 1)
    request = None  # a websocket served has one, None before its handshake (the page's checks read it)

    def __init__(self) -> None:
        self.closed_with: tuple[int, str] | None = None

    async def close(self, code: int, reason: str) -> None:
        for _ in range(20):
            await asyncio.sleep(0)
        self.closed_with = (code, reason)

    async def send(self, frame: Any) -> None:
        await asyncio.sleep(0)


def test_a_close_now_is_finished_before_the_connection_is() -> None:
    """Without a reference kept the close was a fire-and-forget task: finish() returned while
    it was still running (and the loop, which keeps only a weak reference, could drop it)."""
    ws = SlowClose()

    async def run() -> Connection:
        conn = Connection(cast(Any, ws), ServerConfig())
        conn.close_now(1008, "slow")
        await conn.finish()
        return conn

    conn = asyncio.run(run())
    assert ws.closed_with == (1008, "slow")
    assert conn.closer is not None and conn.closer.done()


def test_close_now_twice_closes_once() -> None:
    ws = SlowClose()

    async def run() -> Connection:
        conn = Connection(cast(Any, ws), ServerConfig())
        conn.close_now(1008, "slow")
        first = conn.closer
        conn.close_now(1011, "internal error")
        assert conn.closer is first
        await conn.finish()
        return conn

    asyncio.run(run())
    assert ws.closed_with == (1008, "slow")
