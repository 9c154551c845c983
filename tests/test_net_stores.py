"""One suite for both room stores: SQLite (the default) and Redis (``--store redis://``, several
processes serving the same rooms). Redis tests run a real ``redis-server`` on a free loopback
port, started here and stopped after; they skip only when redis-server is not installed."""
from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from websockets.sync.client import connect

from scopa.net.messages import Accepted, MoveRequest, Refused, ResyncMessage, UpdateMessage
from test_net_server import ROOT, Server, error, host, join, play_out, reclaim, start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def redis_server():
    """A real redis-server on a free loopback port, without persistence; its port."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server); the Redis store is not tested")
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                             "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > end or proc.poll() is not None:
                    raise AssertionError("redis-server did not start")
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def redis_cli(port: int, *args: str) -> str:
    import redis
    client = redis.Redis(port=port, decode_responses=True)
    try:
        return client.execute_command(*args)
    finally:
        client.close()


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path):
    """The store under test: ``store.serve(*flags)`` starts a server on it (stopped after the test),
    ``store.fail()`` makes its writes fail (a full store), ``store.heal()`` undoes that."""
    started: list[Server] = []

    class Store:
        kind = request.param

        def serve(self, *flags: str) -> Server:
            server = Server(*self.where, *flags)
            started.append(server)
            return server

    chosen = Store()
    if request.param == "sqlite":
        db = tmp_path / "rooms.sqlite3"
        chosen.where = (db,)

        def fail() -> None:  # every later write of a room is refused, as by a full disk
            with sqlite3.connect(db) as conn:
                conn.execute("CREATE TRIGGER full BEFORE UPDATE ON rooms BEGIN "
                             "SELECT RAISE(ABORT, 'database or disk is full'); END")

        def heal() -> None:
            with sqlite3.connect(db) as conn:
                conn.execute("DROP TRIGGER full")
    else:
        port = request.getfixturevalue("redis_server")
        redis_cli(port, "FLUSHALL")
        chosen.where = (None, "--store", f"redis://127.0.0.1:{port}/0")

        def fail() -> None:  # Redis at its memory limit refuses every write
            redis_cli(port, "CONFIG", "SET", "maxmemory-policy", "noeviction")
            redis_cli(port, "CONFIG", "SET", "maxmemory", "1")

        def heal() -> None:
            redis_cli(port, "CONFIG", "SET", "maxmemory", "0")
    chosen.fail, chosen.heal = fail, heal
    yield chosen
    for server in started:
        server.stop()


def test_a_whole_match_is_played_and_a_killed_server_restarts_at_the_last_completed_move(store):
    server = store.serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    start(ann, bob)
    play_out([ann, bob], ann, stop=lambda: len(ann.view.history) >= 5 and bob.view.history == ann.view.history)
    server.kill()
    restarted = store.serve()
    for old in (ann, bob):
        back = reclaim(restarted.url, old, last=0)
        assert back.until(lambda m: isinstance(m, ResyncMessage)).view == old.view
        back.close()
    ann2, bob2 = reclaim(restarted.url, ann), reclaim(restarted.url, bob)
    play_out([ann2, bob2], ann2)
    assert ann2.view.phase.value == "match_over" and bob2.view.match_scores == ann2.view.match_scores


def test_a_store_that_cannot_be_written_refuses_the_move_and_loses_nothing(store):
    server = store.serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    start(ann, bob)
    mover = ann if ann.view.is_my_turn else bob
    before = mover.view
    store.fail()
    mover.send(MoveRequest(1, before.legal_moves()[0], mover.number))
    assert error(mover).code == "storage"  # the room says so
    assert mover.until(lambda m: isinstance(m, (Accepted, Refused))).kind == "unavailable"  # at once, not done
    other = bob if mover is ann else ann
    assert not any(isinstance(m, UpdateMessage) and m.update.view.history for m in _read(other))
    store.heal()
    mover.send(MoveRequest(2, before.legal_moves()[0], mover.number))  # the same move, now stored
    assert isinstance(mover.until(lambda m: isinstance(m, (Accepted, Refused))), Accepted)
    assert len(mover.view.history) == 1
    server.kill()
    back = reclaim(store.serve().url, mover, last=0)
    assert back.until(lambda m: isinstance(m, ResyncMessage)).view == mover.view


def _read(client, seconds: float = 0.5) -> list:
    messages = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            messages.append(client.recv(max(0.01, end - time.monotonic())))
        except TimeoutError:
            break
    return messages


# Several processes on one Redis --------------------------------------------------------------

@pytest.fixture
def cluster(redis_server):
    redis_cli(redis_server, "FLUSHALL")
    started = [Server(None, "--store", f"redis://127.0.0.1:{redis_server}/0") for _ in range(2)]
    yield started
    for server in started:
        server.stop()


def test_a_host_on_one_process_and_a_player_on_another_play_one_match(cluster):
    first, second = cluster
    ann = host(first.url)
    bob = join(second.url, ann.code)
    start(ann, bob)
    play_out([ann, bob], ann)
    assert ann.view.phase.value == bob.view.phase.value == "match_over"
    assert ann.view.history == bob.view.history and ann.view.match_scores == bob.view.match_scores
    # And a player who comes back on the other process gets the position.
    back = reclaim(first.url, bob, last=0)
    assert back.until(lambda m: isinstance(m, ResyncMessage)).view == bob.view


def test_two_processes_never_apply_two_moves_at_once(cluster):
    first, second = cluster
    ann = host(first.url)
    bob = join(first.url, ann.code)
    start(ann, bob)
    mover = ann if ann.view.is_my_turn else bob
    twin = reclaim(second.url, mover)  # the same seat on the other process
    moves = mover.view.legal_moves()
    answers: list = []
    gate = threading.Barrier(2)

    def send(client, move, number):
        gate.wait()
        client.send(MoveRequest(number, move, mover.number))
        answers.append(client.until(lambda m: isinstance(m, (Accepted, Refused))))

    threads = [threading.Thread(target=send, args=(mover, moves[0], 7)),
               threading.Thread(target=send, args=(twin, moves[-1], 8))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    assert sorted(type(a).__name__ for a in answers) == ["Accepted", "Refused"]
    other = bob if mover is ann else ann
    other.catch_up(max(a.number for a in answers if isinstance(a, Accepted)))
    assert len(other.view.history) == 1  # one move was applied, not two


def test_serve_with_a_store_that_cannot_be_reached_says_so_in_one_line():
    port = free_port()  # nothing listens there
    result = subprocess.run([sys.executable, "-m", "scopa", "serve", "--port", "0", "--store",
                             f"redis://127.0.0.1:{port}/0"], capture_output=True, text=True, timeout=30,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert result.returncode == 1
    assert f"cannot serve: the store redis 127.0.0.1:{port}/0 cannot be reached" in result.stderr
    assert "Traceback" not in result.stderr
