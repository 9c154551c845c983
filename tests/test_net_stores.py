"""One suite for both room stores: SQLite (the default) and Redis (``--store redis://``, several
processes serving the same rooms). Redis tests run a real ``redis-server`` on a free loopback
port, started here and stopped after; they skip only when redis-server is not installed."""
from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed

from helpers.net import ROOT, Client, Server, error, host, join, play_out, reclaim, start, until
from helpers.redis import free_port, redis_cli
from scopa.engine import Rules
from scopa.net.protocol.client_messages import (
    Join,
    MoveRequest,
    Ping,
    RecordRequest,
)
from scopa.net.protocol.server_messages import (
    Accepted,
    ErrorMessage,
    MatchRecordMessage,
    Pong,
    Refused,
    ResyncMessage,
    UpdateMessage,
    Welcome,
)
from scopa.storage import record_from_dict
from scopa.table import Notice


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
        assert caught_up(back, old) == old.view
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
    assert caught_up(back, mover) == mover.view


def test_a_seat_taken_back_after_a_restart_is_welcomed_with_the_last_deals_score(store):
    """The server restarts (the room read back from its store) and a client started afresh takes
    its seat back: the welcome carries the first deal's score, exactly as its deal_scored told it."""
    server = store.serve()
    ann = host(server.url, Rules(target=21))
    bob = join(server.url, ann.code)
    start(ann, bob)
    play_out([ann, bob], ann, stop=lambda: ann.view.deal_number == 2)
    told = next(data["event"] for data in map(json.loads, bob.frames)
                if data["type"] == "update" and data["event"]["kind"] == "deal_scored")
    server.kill()
    back = reclaim(store.serve().url, bob, last=0)
    assert json.loads(back.frames[0])["last_deal"] == {k: v for k, v in told.items() if k != "kind"}


def caught_up(back, old):
    """The view of a reclaiming client once it reached ``old``'s number: by a resync (SQLite keeps
    no updates over a restart) or by every update since the one it gave (Redis keeps the latest)."""
    back.until(lambda m: isinstance(m, (ResyncMessage, UpdateMessage)) and back.number >= old.number)
    return back.view


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
def cluster(processes):
    return processes(2)


def test_a_host_on_one_process_and_a_player_on_another_play_one_match(cluster):
    first, second = cluster
    ann = host(first.url)
    bob = join(second.url, ann.code)
    start(ann, bob)
    play_out([ann, bob], ann)
    assert ann.view.phase.value == bob.view.phase.value == "match_over"
    assert ann.view.history == bob.view.history and ann.view.match_scores == bob.view.match_scores
    # Each process gives the finished match's record (the client logs it), the same one.
    records = []
    for number, client in enumerate((ann, bob), 1):
        client.send(RecordRequest(number))
        answer = client.until(lambda m: isinstance(m, (Refused, MatchRecordMessage)))
        assert isinstance(answer, MatchRecordMessage), answer
        records.append(answer.record)
    assert records[0] == records[1] and record_from_dict(records[0]).state.match_scores == ann.view.match_scores
    # And a player who comes back on the other process gets the position.
    back = reclaim(first.url, bob, last=0)
    assert caught_up(back, bob) == bob.view


def test_two_processes_never_change_one_room_at_once(cluster):
    """Two players take a room's last seat at the same moment, each on its own process: one is
    seated, the other told the room is full (without the room's lock both would read the room
    with a free seat, and one write would fail on the rev check with "storage")."""
    first, second = cluster
    for _ in range(3):
        ann = host(first.url)
        answers: list = []
        gate = threading.Barrier(2)

        def try_join(url: str, name: str, code: str, gate: threading.Barrier, answers: list) -> None:
            client = Client(url)
            gate.wait()
            client.send(Join(code, name))
            answers.append(client.until(lambda m: isinstance(m, (Welcome, ErrorMessage))))

        threads = [threading.Thread(target=try_join, args=(first.url, "Bob", ann.code, gate, answers)),
                   threading.Thread(target=try_join, args=(second.url, "Carol", ann.code, gate, answers))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(15)
        assert sorted(type(a).__name__ for a in answers) == ["ErrorMessage", "Welcome"]
        assert next(a for a in answers if isinstance(a, ErrorMessage)).code == "room_full"


def test_a_killed_process_lets_its_players_go_and_the_others_play_on(processes):
    """Bob's process dies: the two survivors notice its presence expired, Bob is marked gone
    once (Ann hears it once), the computer covers him after the grace, and he takes his seat
    back on a survivor."""
    first, second, third = processes(3, "--presence-ttl", "2", "--grace", "1", "--turn-grace", "1")
    ann = host(first.url)
    bob = join(third.url, ann.code)
    start(ann, bob)
    third.kill()
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("left", 1, "Bob"), timeout=10)
    kinds = lambda: [n.kind for n in ann.notices if n.seat == 1]  # noqa: E731
    play_out([ann], ann, stop=lambda: "covered" in kinds() and len(ann.view.history) >= 4, timeout=20)
    assert kinds() == ["joined", "ready", "left", "covered"]  # "left" once, though two processes noticed
    assert [p.seat for p in ann.view.history].count(1) >= 2  # the computer played Bob's turns
    noticed = [line for server in (first, second) for line in server.lines if "its server process stopped" in line]
    assert len(noticed) == 1
    back = reclaim(second.url, bob, last=0)
    for client in (ann, back):
        client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("reclaimed", 1, "Bob"))
    play_out([ann, back], ann)
    assert back.view.phase.value == "match_over" and back.view.match_scores == ann.view.match_scores


def test_a_killed_process_that_played_only_a_rooms_computer_goes_on_in_another(processes):
    """Ben's move on the first process gives the turn to the computer, which that process plays
    (slowly); Ben leaves, so it holds no player of the room, only the computer's turn; it is
    killed before the computer moves. The second process, where Ann sits, notices it is gone and
    plays the computer's turns, and the match goes on to its end."""
    doomed = processes(1, "--presence-ttl", "1", "--computer-delay", "4")[0]
    survivor = processes(1, "--presence-ttl", "1", "--computer-delay", "0.05")[0]
    ann = host(survivor.url, Rules(players=3, target=None), seats=("human", "easy", "human"))
    ben = join(doomed.url, ann.code, name="Ben")
    assert ben.seat == 2  # after him comes the computer, seat 2 in the seat order 0, 2, 1
    start(ann, ben)
    play_out([ann, ben], ann, stop=lambda: ben.view.is_my_turn and ben.number == ann.number)
    ben.send(MoveRequest(1, ben.view.legal_moves()[0], ben.number))
    assert isinstance(ben.until(lambda m: isinstance(m, (Accepted, Refused))), Accepted)
    assert ben.view.to_move == 1  # the computer's turn, played by the process Ben is on
    ben.close()
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("left", 2, "Ben"))
    assert ann.view.to_move == 1  # the computer has not moved yet
    doomed.kill()  # holding no seat of the room: only its computer's turn
    ann.until(lambda m: isinstance(m, UpdateMessage) and getattr(m.update.event, "seat", None) == 1
              and type(m.update.event).__name__ == "CardPlayed", timeout=20)
    end = time.monotonic() + 10  # the line is written just before the move is sent: read it too
    while not any(f"room {ann.code}: computer move for seat 2" in line for line in survivor.lines) \
            and time.monotonic() < end:
        time.sleep(0.05)
    assert any(f"room {ann.code}: computer move for seat 2" in line for line in survivor.lines), survivor.lines[-8:]
    back = reclaim(survivor.url, ben)
    for client in (ann, back):
        client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("reclaimed", 2, "Ben"))
    play_out([ann, back], ann)
    assert back.view.phase.value == "match_over" and back.view.match_scores == ann.view.match_scores


def test_a_process_that_took_a_rooms_computer_over_is_itself_taken_over_when_it_dies(processes, redis_server):
    """Three processes: Ann on the last, none of the room's players on the middle one. Ben's
    process dies while only its computer's turn is left to it; the middle one, looking for gone
    processes most often, takes the computer over, and notes the room among its own at once, so
    that when it too dies before the computer's move, Ann's process takes the computer over in
    turn and the match goes on."""
    doomed = processes(1, "--presence-ttl", "1", "--computer-delay", "4")[0]
    taker = processes(1, "--presence-ttl", "1", "--computer-delay", "4")[0]
    survivor = processes(1, "--presence-ttl", "8", "--computer-delay", "0.05")[0]
    ann = host(survivor.url, Rules(players=3, target=None), seats=("human", "easy", "human"))
    ben = join(doomed.url, ann.code, name="Ben")
    start(ann, ben)
    play_out([ann, ben], ann, stop=lambda: ben.view.is_my_turn and ben.number == ann.number)
    ben_process = json.loads(redis_cli(redis_server, "HGET", f"scopa:room:{ann.code}", "room"))["seats"][2]["holder"]
    ben.send(MoveRequest(1, ben.view.legal_moves()[0], ben.number))
    assert isinstance(ben.until(lambda m: isinstance(m, (Accepted, Refused))), Accepted)
    ben.close()
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("left", 2, "Ben"))
    doomed.kill()
    end = time.monotonic() + 10
    while redis_cli(redis_server, "SISMEMBER", "scopa:processes", ben_process):  # until one took it over
        assert time.monotonic() < end, "nobody noticed the process was gone"
        time.sleep(0.05)
    assert ann.view.to_move == 1  # the computer has not moved yet
    took = [origin for origin in redis_cli(redis_server, "SMEMBERS", "scopa:processes")
            if redis_cli(redis_server, "SISMEMBER", f"scopa:held:{origin}", ann.code)]
    assert len(took) == 2  # Ann's process (her seat) and the one that took the computer over
    taker.kill()
    ann.until(lambda m: isinstance(m, UpdateMessage) and getattr(m.update.event, "seat", None) == 1
              and type(m.update.event).__name__ == "CardPlayed", timeout=20)
    end = time.monotonic() + 10  # the line is written just before the move is sent: read it too
    while not any(f"room {ann.code}: computer move for seat 2" in line for line in survivor.lines) \
            and time.monotonic() < end:
        time.sleep(0.05)
    assert any(f"room {ann.code}: computer move for seat 2" in line for line in survivor.lines), survivor.lines[-8:]
    back = reclaim(survivor.url, ben)
    play_out([ann, back], ann)
    assert back.view.phase.value == "match_over"


def test_a_process_taken_as_stopped_closes_its_connections_and_its_players_come_back(processes, redis_server):
    """The second process's presence vanishes (as when it is cut off from Redis too long): the
    first lets Bob go, the second, hearing it was taken as stopped, closes Bob's connection, and
    Bob reconnects and takes his seat back."""
    first, second = processes(2, "--presence-ttl", "2")
    ann = host(first.url)
    bob = join(second.url, ann.code)
    start(ann, bob)
    stored = json.loads(redis_cli(redis_server, "HGET", f"scopa:room:{ann.code}", "room"))
    assert redis_cli(redis_server, "DEL", f"scopa:process:{stored['seats'][1]['holder']}") == 1
    with pytest.raises(ConnectionClosed) as closed:
        bob.until(lambda m: False, timeout=10)
    assert closed.value.rcvd.code == 1012  # "service restart": a client reconnects
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("left", 1, "Bob"), timeout=10)
    back = reclaim(second.url, bob)
    for client in (ann, back):
        client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("reclaimed", 1, "Bob"))
    play_out([ann, back], ann, stop=lambda: len(ann.view.history) >= 4)
    assert [n.kind for n in ann.notices if n.seat == 1] == ["joined", "ready", "left", "reclaimed"]


def test_a_player_reconnecting_to_another_process_gets_the_updates_it_missed(processes, redis_server):
    first, second = processes(2, "--max-replay", "12")
    ann = host(first.url)
    bob = join(first.url, ann.code)
    start(ann, bob)
    play_out([ann, bob], ann, stop=lambda: ann.number > 20 and ann.view.is_my_turn and bob.number == ann.number)
    bob.close()
    before = bob.number
    play_out([ann], ann, stop=lambda: not ann.view.is_my_turn)  # Bob misses his leaving and Ann's move
    ann.poll(0.2)
    back = reclaim(second.url, bob)  # the other process: it never had this room's updates
    missed = []
    while back.number < ann.number:
        message = back.recv()
        assert not isinstance(message, ResyncMessage)
        if isinstance(message, UpdateMessage):
            missed.append(message.update.number)
    assert missed == list(range(before + 1, ann.number + 1)) and len(missed) >= 3
    assert back.view.table == ann.view.table and back.view.history == ann.view.history
    back.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("reclaimed", 1, "Bob"))
    back.close()
    assert [redis_cli(redis_server, "LLEN", f"scopa:log:{ann.code}:{seat}") for seat in (0, 1)] == [12, 12]
    far_behind = reclaim(second.url, back, last=1)  # missed more than --max-replay: a fresh view
    resync = far_behind.until(lambda m: isinstance(m, (ResyncMessage, UpdateMessage)))
    assert isinstance(resync, ResyncMessage) and resync.view.table == ann.view.table


def test_a_seat_taken_back_on_another_process_closes_the_old_connection(cluster):
    first, second = cluster
    ann = host(first.url)
    bob = join(first.url, ann.code)
    start(ann, bob)
    twin = reclaim(second.url, bob)  # Bob's old connection on the first process is still open
    assert error(bob).code == "seat_taken" and bob.closed()
    play_out([ann, twin], ann, stop=lambda: len(ann.view.history) >= 4)  # the new connection plays the seat
    assert not [n for n in ann.notices if n.seat == 1 and n.kind == "left"]  # Bob never left


def test_serve_with_a_store_that_cannot_be_reached_says_so_in_one_line():
    port = free_port()  # nothing listens there
    result = subprocess.run([sys.executable, "-m", "scopa", "serve", "--port", "0", "--store",
                             f"redis://127.0.0.1:{port}/0"], capture_output=True, text=True, timeout=30,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), check=False)
    assert result.returncode == 1
    assert f"cannot serve: the store redis 127.0.0.1:{port}/0 cannot be reached" in result.stderr
    assert "Traceback" not in result.stderr


def health(server: Server, path: str = "/healthz") -> tuple[int, str]:
    """``GET path`` on the server's own port, over loopback: the status and the body."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read().decode()
    finally:
        conn.close()


def test_the_health_check_says_whether_the_store_takes_writes(store):
    server = store.serve()
    assert health(server) == (200, "ok\n")
    ann = host(server.url)  # the websocket port is the same one, and still serves
    store.fail()
    until(lambda: health(server) == (503, "store not writable\n"), 5)  # the answer is at most a second old
    # the log line is read from the server's stderr by another thread: it may come just after the answer
    until(lambda: any("health: the store cannot be written" in line for line in server.lines))
    store.heal()
    until(lambda: health(server) == (200, "ok\n"), 5)
    assert health(server, "/healthz?probe=1")[0] == 200
    ann.send(Ping())
    assert isinstance(ann.until(lambda m: isinstance(m, Pong)), Pong)  # the room's connection was not disturbed
    assert health(server, "/other")[0] != 200  # any other path is the websocket handshake's, refused as before


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``GET /metrics`` over loopback, read with prometheus_client's own parser: each sample by name and labels."""
    from prometheus_client.parser import text_string_to_metric_families
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
    finally:
        conn.close()
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def test_metrics_count_rooms_connections_moves_latency_refusals_and_store_errors(store):
    pytest.importorskip("prometheus_client")
    port = free_port()
    server = store.serve("--metrics", str(port))
    assert any(f"metrics on http://127.0.0.1:{port}/metrics" in line for line in server.lines)
    ann = host(server.url)
    bob = join(server.url, ann.code)
    start(ann, bob)
    mover = ann if ann.view.is_my_turn else bob
    other = bob if mover is ann else ann
    other.send(MoveRequest(1, mover.view.legal_moves()[0], other.number))  # refused: not its turn
    assert other.until(lambda m: isinstance(m, (Accepted, Refused))).kind == "not_your_turn"
    mover.send(MoveRequest(2, mover.view.legal_moves()[0], mover.number))
    assert isinstance(mover.until(lambda m: isinstance(m, (Accepted, Refused))), Accepted)
    figures = scrape(port)
    assert figures[("scopa_rooms", ())] == 1 and figures[("scopa_connections", ())] == 2
    assert figures[("scopa_moves_total", (("by", "player"),))] == 1
    assert 0 <= figures[("scopa_moves_per_second", ())] <= 0.1  # that move, if within the last ten seconds
    assert figures[("scopa_move_seconds_count", ())] == 1 and figures[("scopa_move_seconds_sum", ())] > 0
    assert figures[("scopa_refusals_total", (("kind", "not_your_turn"),))] == 1
    assert figures[("scopa_store_errors_total", ())] == 0
    other.poll(0.5)
    store.fail()
    other.send(MoveRequest(3, other.view.legal_moves()[0], other.number))
    assert other.until(lambda m: isinstance(m, (Accepted, Refused))).kind == "unavailable"
    figures = scrape(port)
    assert figures[("scopa_store_errors_total", ())] >= 1
    assert figures[("scopa_refusals_total", (("kind", "storage"),))] >= 1
    assert figures[("scopa_refusals_total", (("kind", "unavailable"),))] == 1
    store.heal()


def test_serve_metrics_without_prometheus_client_says_what_to_install():
    blocked = "import sys; sys.modules['prometheus_client'] = None; from scopa.__main__ import main; sys.exit(main())"
    result = subprocess.run([sys.executable, "-c", blocked, "serve", "--port", "0", "--metrics", "9100"],
                            capture_output=True, text=True, timeout=30, check=False,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--metrics needs the prometheus_client package: pipx inject scopa prometheus_client" in result.stderr
