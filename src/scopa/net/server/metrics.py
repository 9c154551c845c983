"""``scopa serve --metrics PORT``: the room server's figures for Prometheus, on a port of their own.

The figures (one process's; Prometheus adds the processes of a Redis store up):

    scopa_rooms                  gauge: rooms this process holds in memory
    scopa_connections            gauge: websocket connections open now
    scopa_moves_total{by}        counter: moves and deals played, by "player" or "computer"
    scopa_moves_per_second       gauge: the same over the last ten seconds, both kinds together
    scopa_move_seconds           histogram: a player's move or deal, from its request being read to
                                 its answer being queued, the store's write included (not the
                                 flush to the disk the answer then waits for: ``durable``)
    scopa_refusals_total{kind}   counter: requests refused, by the refusal's kind or error code
                                 (``stale``, ``illegal``, ``not_your_turn``, ``unknown_room``,
                                 ``too_many_tries``, ``slow_down``, ``storage`` ...)
    scopa_store_errors_total     counter: writes and reads of the store that failed

``prometheus_client`` is an extra (``scopa[metrics]``), imported only when the flag
is given: without it ``scopa serve --metrics`` says what to install. The figures are served by
``prometheus_client``'s own HTTP server, in a thread, from this process's own registry; the
gauges are read when scraped. ``Metrics``, which counts nothing, stands in when the flag is not
given, so the server calls the same hooks either way.
"""
from __future__ import annotations

import importlib.util
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

PACKAGE = "prometheus_client"
# scopa is not on PyPI: "pip install 'scopa[metrics]'" would fetch whatever PyPI holds under that name.
INSTALL = ("pipx inject scopa prometheus_client, pip install prometheus_client, or pipx install '.[metrics]' "
           "in the scopa folder")
RATE_WINDOW = 10.0  # seconds of moves scopa_moves_per_second counts
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


def available() -> bool:
    return importlib.util.find_spec(PACKAGE) is not None


def parse_address(text: str) -> tuple[str, int] | None:
    """``PORT`` (on 127.0.0.1) or ``ADDRESS:PORT``; None when it is neither."""
    host, _, port = text.strip().rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) <= 65535:
        return None
    return host, int(port)


class Metrics:
    """The hooks the server calls; this one counts nothing (no ``--metrics``)."""

    def move(self, by: str, seconds: float | None = None) -> None:
        """A move or deal played, by a "player" (``seconds`` from its request to its answer) or a "computer"."""

    def refusal(self, kind: str) -> None:
        """A request refused, or an error sent, of this kind."""

    def store_error(self) -> None:
        """The store failed a write or a read."""

    def close(self) -> None:
        """Stop serving the figures."""


class PrometheusMetrics(Metrics):
    """The figures in a registry of their own, served on ``address`` until ``close``."""

    def __init__(self, address: tuple[str, int], rooms: Callable[[], int], connections: Callable[[], int]) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

        self.registry = CollectorRegistry()
        self._recent: deque[float] = deque()  # the times of the moves of the last RATE_WINDOW seconds
        self._lock = threading.Lock()
        Gauge("scopa_rooms", "Rooms this process holds", registry=self.registry).set_function(rooms)
        Gauge("scopa_connections", "Websocket connections open", registry=self.registry).set_function(connections)
        Gauge("scopa_moves_per_second", f"Moves and deals a second over the last {RATE_WINDOW:g} s",
              registry=self.registry).set_function(self._rate)
        self._moves = Counter("scopa_moves", "Moves and deals played", ["by"], registry=self.registry)
        self._latency = Histogram("scopa_move_seconds", "A player's move, from its request read to its answer queued",
                                  buckets=LATENCY_BUCKETS, registry=self.registry)
        self._refusals = Counter("scopa_refusals", "Requests refused, by kind", ["kind"], registry=self.registry)
        self._store_errors = Counter("scopa_store_errors", "Store writes and reads that failed",
                                     registry=self.registry)
        for by in ("player", "computer"):
            self._moves.labels(by)  # shown at 0 from the start
        self._http: Any
        self._http, _ = start_http_server(address[1], addr=address[0], registry=self.registry)

    @property
    def port(self) -> int:
        return int(self._http.server_address[1])

    def move(self, by: str, seconds: float | None = None) -> None:
        self._moves.labels(by).inc()
        now = time.monotonic()
        with self._lock:
            self._recent.append(now)
            self._forget(now)
        if seconds is not None:
            self._latency.observe(seconds)

    def _rate(self) -> float:
        """Called by the scraping thread: under the lock, as the loop's ``move`` changes the times."""
        with self._lock:
            self._forget(time.monotonic())
            return len(self._recent) / RATE_WINDOW

    def _forget(self, now: float) -> None:
        recent = self._recent
        while recent and recent[0] < now - RATE_WINDOW:
            recent.popleft()

    def refusal(self, kind: str) -> None:
        self._refusals.labels(kind).inc()

    def store_error(self) -> None:
        self._store_errors.inc()

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()
