"""What the internet sends a room server: garbage frames, hundreds of idle connections, clients
that stop reading or reconnect in a loop, a SIGKILL in the middle of many rooms' play. The real
``scopa serve`` over loopback; the server stays up, the other rooms keep playing, nothing is lost.
(Thousands of connections: ``python -m scopa.bench server``.)"""
from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from contextlib import ExitStack

import pytest
from websockets.sync.client import connect

from helpers.net import Client, host, join, play_out, reclaim, start
from scopa.net.client.link import QUIET_LOG
from scopa.net.protocol.client_messages import Ping
from scopa.net.protocol.server_messages import Pong, ResyncMessage
from scopa.net.protocol.wire import encode

GARBAGE = [b"\x00\xff\xfe", "\ud800".encode("utf-8", "surrogatepass"), "[" * 5000, '{"type": "move"}',
           '{"type": "move", "id": -1, "card": "7D", "capture": [], "expected": 0}', "null", '"hello"', "1e999",
           '{"type": "ping", "type": "dance"}', '{"type": "hello", "version": 1, "code": "AAAAAA", "seat_key": 5}']


def _ping_time(client: Client) -> float:
    began = time.monotonic()
    client.send(Ping())
    client.until(lambda m: isinstance(m, Pong))
    return time.monotonic() - began


def test_garbage_idle_connections_and_raw_sockets_leave_the_other_rooms_playing(serve):
    server = serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    start(ann, bob)
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(150)]  # not even a handshake
    quiet = ExitStack()
    for _ in range(150):  # a handshake, then nothing
        quiet.enter_context(connect(server.url, open_timeout=10, logger=QUIET_LOG))
    for frame in GARBAGE:  # each on a seated connection of its own room, and as a first message
        for first in (True, False):
            client = Client(server.url) if first else host(server.url)
            try:
                client.ws.send(frame)
                client.closed(2) if first else client.poll(0.2)
            except Exception:  # noqa: BLE001 -- a closed connection is a fine answer to garbage
                pass
            client.close()
    assert _ping_time(ann) < 2.0
    play_out([ann, bob], ann)  # the room plays its whole match meanwhile
    assert ann.view.phase.value == "match_over"
    assert server.proc.poll() is None and not any("Traceback" in line for line in server.lines)
    for s in idle:
        s.close()
    quiet.close()


def test_a_seat_reconnecting_in_a_loop_and_a_reader_that_stopped_lose_nothing(serve):
    server = serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    start(ann, bob)
    stalled = host(server.url)  # its own room, and it never reads again
    for _ in range(300):
        stalled.ws.send(encode(Ping()))
    for _ in range(30):  # Bob's terminal reconnects again and again
        again = reclaim(server.url, bob)
        again.poll(0.02)
        bob.close()
        bob = again
    play_out([ann, bob], ann)
    assert ann.view.phase.value == bob.view.phase.value == "match_over"
    assert ann.view.history == bob.view.history
    assert server.proc.poll() is None


@pytest.mark.linux
def test_sigkill_under_many_rooms_play_restarts_each_room_at_a_completed_move(serve, tmp_path):
    server = serve()
    rooms = []
    for _ in range(6):
        ann = host(server.url)
        bob = join(server.url, ann.code)
        start(ann, bob)
        rooms.append((ann, bob))
    stop = threading.Event()

    def play(pair) -> None:
        with contextlib.suppress(Exception):  # the server is killed under it
            play_out(list(pair), pair[0], stop=stop.is_set, timeout=30)

    threads = [threading.Thread(target=play, args=(pair,)) for pair in rooms]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    server.kill()  # SIGKILL while every room is playing
    stop.set()
    for thread in threads:
        thread.join(10)
    restarted = serve()
    for ann, bob in rooms:
        seen = max((c.view.deal_number, len(c.view.history)) for c in (ann, bob))
        back = reclaim(restarted.url, ann, last=0)
        view = back.until(lambda m: isinstance(m, ResyncMessage)).view
        # The stored position is a completed move: what a client saw, or one more whose answer
        # was on its way when the server died; never a part of a move, never one seen and lost.
        assert (view.deal_number, len(view.history)) >= seen
        if view.deal_number == ann.view.deal_number:
            assert view.history[:len(ann.view.history)] == ann.view.history
            assert len(view.history) <= len(ann.view.history) + 2
        assert len(view.hand) + len(view.table) + sum(map(len, view.piles)) + view.stock_count \
            + sum(view.hand_counts) - len(view.hand) == 40  # every card somewhere, once
        back.close()
    assert os.path.exists(tmp_path / "rooms.sqlite3")
