"""Issue 37, point 10: ``GET /healthz`` wrote to the store on every call, without a limit (335
calls a second raised the rooms' p50 from 7.5 to 75 ms). A flood of health checks against a real
server now costs the store at most one write a second; the answer still follows the store. The
figures beside 200 rooms are ``python -m scopa.bench server --health-rate N`` (docs/online.md)."""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from helpers.net import until
from test_net_stores import health


def test_a_flood_of_health_checks_writes_the_store_at_most_once_a_second(serve, tmp_path: Path):
    db = tmp_path / "rooms.sqlite3"
    server = serve(db=db)
    assert health(server) == (200, "ok\n")
    with sqlite3.connect(db) as conn:  # every health write of the server, counted by the store itself
        conn.execute("CREATE TABLE health_writes (n INTEGER)")
        for change in ("INSERT", "UPDATE"):
            conn.execute(f"CREATE TRIGGER count_{change.lower()} AFTER {change} ON health "
                         "BEGIN INSERT INTO health_writes VALUES (1); END")
    began = time.monotonic()
    answers = [health(server) for _ in range(150)]
    elapsed = time.monotonic() - began
    assert answers == [(200, "ok\n")] * 150
    with sqlite3.connect(db) as conn:
        writes = conn.execute("SELECT COUNT(*) FROM health_writes").fetchone()[0]
    assert writes <= elapsed + 2, f"{writes} writes for 150 checks in {elapsed:.2f} s"


def test_the_answer_follows_the_store_within_a_second(store):
    server = store.serve()
    assert health(server) == (200, "ok\n")
    store.fail()
    until(lambda: health(server) == (503, "store not writable\n"), 5)
    store.heal()
    until(lambda: health(server) == (200, "ok\n"), 5)
