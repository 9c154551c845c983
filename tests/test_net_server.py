"""The room server, driven for real: ``scopa serve`` in a subprocess, scripted websocket clients
over loopback, and the SQLite file it keeps."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import ssl
import subprocess
import sys
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidMessage

from helpers.net import (
    CARD_TEXT,
    ROOT,
    Client,
    error,
    host,
    join,
    play_out,
    reclaim,
    start,
    stored_record,
    until,
)
from scopa.bench.serving import certificate
from scopa.engine import ALL_CARDS, Move, Rules
from scopa.net.protocol.client_messages import (
    CreateRoom,
    Hello,
    Join,
    MoveRequest,
    NextDealRequest,
    Ping,
    RecordRequest,
)
from scopa.net.protocol.client_messages import Ready as ReadyMessage
from scopa.net.protocol.client_messages import Start as StartMessage
from scopa.net.protocol.codes import new_seat_key
from scopa.net.protocol.server_messages import (
    Accepted,
    ErrorMessage,
    InfoMessage,
    MatchRecordMessage,
    Pong,
    Refused,
    ResyncMessage,
    UpdateMessage,
    Welcome,
)
from scopa.net.protocol.wire import (
    MAX_CLIENT_MESSAGE,
)
from scopa.storage import record_from_dict
from scopa.table import Notice

# Whole matches -------------------------------------------------------------------------------

def test_two_players_play_a_whole_match_and_every_refusal_has_its_reason(serve, tmp_path):
    server = serve()
    ann = host(server.url, Rules(target=11))
    bob = join(server.url, ann.code)
    info = ann.until(lambda m: isinstance(m, InfoMessage) and m.info.seats[1] is not None).info
    assert [(s.name, s.ready) for s in info.seats] == [("Ann", True), ("Bob", False)]
    start(ann, bob)
    waiting, moving = (ann, bob) if bob.view.is_my_turn else (bob, ann)
    # Not your turn, stale, illegal: refused with a kind (and the engine's reason), nothing changes.
    waiting.send(MoveRequest(1, Move(waiting.view.hand[0]), waiting.number))
    assert waiting.until(lambda m: isinstance(m, Refused)) == Refused(1, "not_your_turn")
    moving.send(MoveRequest(2, Move(moving.view.hand[0]), moving.number - 100 if moving.number > 100 else 0))
    assert moving.until(lambda m: isinstance(m, Refused)).kind == "stale"
    foreign = next(c for c in ALL_CARDS if c not in moving.view.hand)
    moving.send(MoveRequest(3, Move(foreign), moving.number))
    refused = moving.until(lambda m: isinstance(m, Refused))
    assert refused.kind == "illegal" and refused.reason.code == "not_in_hand" and refused.reason.card == foreign
    bob.send(NextDealRequest(4, bob.number))
    assert bob.until(lambda m: isinstance(m, Refused)).kind == "unavailable"  # only the host deals
    play_out([ann, bob], ann)
    assert ann.view.winner == bob.view.winner is not None or ann.view.match_scores[0] == ann.view.match_scores[1]
    assert ann.view.match_scores == bob.view.match_scores and max(ann.view.match_scores) >= 11
    record = stored_record(tmp_path / "rooms.sqlite3", ann.code)
    assert record["state"]["phase"] == "match_over" and len(record["moves"]) >= 36
    assert any("started by seat 1" in line for line in server.lines)


def test_a_move_naming_a_number_the_room_never_gave_or_one_before_the_deal_is_refused_as_stale(serve):
    """A request's number must be one the seat was sent since the position it plays on: an update
    from the lobby, 0 (none), or a number above the room's latest are all refused as stale, with
    the request's id, and nothing is played."""
    server = serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    ann.poll(0.2)
    lobby = ann.number
    start(ann, bob)
    for client in (ann, bob):
        client.poll(0.2)
    moving = ann if ann.view.is_my_turn else bob
    view, move = moving.view, moving.view.legal_moves()[0]
    for request, expected in enumerate((0, lobby, moving.number + 1, moving.number + 10 ** 6), 1):
        moving.send(MoveRequest(request, move, expected))
        assert moving.until(lambda m: isinstance(m, (Accepted, Refused))) == Refused(request, "stale"), expected
    ann.send(NextDealRequest(9, ann.number + 1))
    assert ann.until(lambda m: isinstance(m, (Accepted, Refused))) == Refused(9, "stale")
    assert not moving.poll(0.2) and moving.view == view  # nothing was played
    moving.send(MoveRequest(10, move, moving.number))
    assert isinstance(moving.until(lambda m: isinstance(m, (Accepted, Refused))), Accepted)


def test_a_notice_comes_just_after_the_rooms_info_that_it_changed(serve):
    """The info first, so a client can keep it quietly and end its prompt once, for the notice,
    with the seats already as they are (a second wake with nothing to say wrote the prompt twice)."""
    server = serve()
    ann = host(server.url, Rules(target=None))
    join(server.url, ann.code)
    ann.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, Notice)
              and m.update.event.kind == "ready")
    kinds = [json.loads(f)["type"] for f in ann.frames]
    notices = [i for i, f in enumerate(ann.frames) if '"notice"' in f and json.loads(f)["type"] == "update"]
    assert notices and all(kinds[i - 1] == "info" for i in notices)
    assert ann.info.seats[1] is not None and ann.info.seats[1].ready


def test_a_four_seat_room_fills_two_seats_with_computers_at_the_hosts_level(serve):
    server = serve()
    ann = host(server.url, Rules(players=4, target=None), level="medium")
    bob = join(server.url, ann.code)
    start(ann, bob)
    info = ann.info  # sent with the "started" notice, just before it
    assert [(s.kind, s.level) for s in info.seats] == [("human", None), ("human", None), ("computer", "medium"),
                                                       ("computer", "medium")]
    play_out([ann, bob], ann)
    assert ann.view.phase.value == "match_over"
    seats_played = {json.loads(f)["event"]["seat"] for f in ann.frames
                    if '"card_played"' in f}
    assert seats_played == {0, 1, 2, 3}


def test_the_lobby_starts_only_with_two_ready_humans_and_only_by_the_host(serve):
    server = serve()
    ann = host(server.url, Rules(players=3, target=None), seats=("human", "human", "easy"))
    ann.send(StartMessage())
    assert error(ann) == ErrorMessage("cannot_start", {"reason": "players"})
    bob = join(server.url, ann.code, ready=False)
    ann.send(StartMessage())
    assert error(ann) == ErrorMessage("cannot_start", {"reason": "not_ready", "seat": 1})
    bob.send(StartMessage())
    assert error(bob).code == "not_host"
    bob.send(ReadyMessage())
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", 1, "Bob"))
    start(ann, bob)
    assert [n.kind for n in bob.notices] == ["joined", "ready", "started"]
    carol = Client(server.url)
    carol.send(Join(ann.code, "Carol"))
    assert error(carol).code == "started" and carol.closed()


# Privacy -----------------------------------------------------------------------------------

def test_no_frame_on_the_wire_holds_a_card_of_another_hand_before_it_is_played(serve, tmp_path):
    """Every frame of a whole match, for each seat, against the real deal; Bob's client is started
    afresh in the second deal, and its welcome's last deal is exactly the first deal's public
    deal_scored, nothing more."""
    server = serve()
    ann = host(server.url, Rules(target=11))
    bob = join(server.url, ann.code)
    start(ann, bob)
    play_out([ann, bob], ann, stop=lambda: ann.view.deal_number == 2 and len(ann.view.history) >= 2)
    assert ann.view.deal_number == 2, "the first deal did not end the match"
    restarted = reclaim(server.url, bob, last=0)  # as a client that lost everything
    restarted.catch_up(ann.number)
    play_out([ann, restarted], ann)
    record = stored_record(tmp_path / "rooms.sqlite3", ann.code)
    dealt: dict[tuple[int, int], set[str]] = {}  # (deal, seat) -> every card dealt to it: the real deal
    for move in record["moves"]:
        dealt.setdefault((move["deal"], move["seat"]), set()).add(move["card"])
    welcome = json.loads(restarted.frames[0])
    first_scored = next(data["event"] for data in map(json.loads, ann.frames)
                        if data["type"] == "update" and data["event"]["kind"] == "deal_scored")
    assert welcome["type"] == "welcome" and first_scored["deal_number"] == 1
    assert welcome.pop("last_deal") == {k: v for k, v in first_scored.items() if k != "kind"}
    for client, frames in ((ann, ann.frames), (bob, bob.frames),
                           (restarted, [json.dumps(welcome), *restarted.frames[1:]])):
        _no_hand_seen_early(frames, client.seat, dealt)


def test_the_seed_and_the_moves_reach_a_seat_only_once_the_match_is_over_and_then_on_asking(serve, tmp_path):
    """The record (its seed reveals every hand) is in no frame of the match; asked for before the
    end it is refused; at the end each seat, and a seat taken back afresh, gets the stored match."""
    server = serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    ann.send(RecordRequest(1))  # in the lobby
    assert ann.until(lambda m: isinstance(m, (Refused, MatchRecordMessage))) == Refused(1, "not_now")
    start(ann, bob)
    play_out([ann, bob], ann, stop=lambda: len(ann.view.history) >= 3)
    bob.send(RecordRequest(2))  # mid-deal
    assert bob.until(lambda m: isinstance(m, (Refused, MatchRecordMessage))) == Refused(2, "not_now")
    play_out([ann, bob], ann)
    stored = stored_record(tmp_path / "rooms.sqlite3", ann.code)

    def asked_at_the_end(client: Client) -> None:
        client.poll(0.1)
        before = set(_keys([json.loads(frame) for frame in client.frames]))
        assert not before & {"seed", "moves", "record", "stock", "hands"}
        client.send(RecordRequest(3))
        answer = client.until(lambda m: isinstance(m, (Refused, MatchRecordMessage)))
        assert isinstance(answer, MatchRecordMessage) and answer.id == 3 and answer.record == stored
        assert record_from_dict(answer.record).state.is_match_over

    asked_at_the_end(ann)
    asked_at_the_end(bob)
    afresh = reclaim(server.url, bob, last=0)  # after bob's answer: taking the seat back closes bob's connection
    afresh.catch_up(ann.number)
    asked_at_the_end(afresh)


def _keys(data):
    """Every key of every object in ``data``, however deep."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _keys(value)
    elif isinstance(data, list):
        for value in data:
            yield from _keys(value)


def _no_hand_seen_early(frames: list[str], seat: int, dealt: dict[tuple[int, int], set[str]]) -> None:
    """No frame holds a card of another seat's hand before the update that shows it played (and
    the seat's own hand is seen: the check does see hands)."""
    played_at = {}  # (deal, card) -> the number of the update that showed it played
    for raw in frames:
        data = json.loads(raw)
        if data["type"] == "update" and data["event"]["kind"] == "card_played":
            played_at[(data["view"]["deal_number"], data["event"]["card"])] = data["number"]
    own_seen_early = 0
    deal = 1
    for raw in frames:
        data = json.loads(raw)
        view = data.get("view")
        deal = view["deal_number"] if view else deal
        number = data.get("number", 0)
        cards = set(_strings(data)) & {str(c) for c in ALL_CARDS}
        for (d, owner), hand in dealt.items():
            if d != deal:
                continue
            early = {c for c in cards & hand if played_at.get((d, c), float("inf")) > number}  # inf: not seen played
            if owner == seat:
                own_seen_early += len(early)
            else:
                assert not early, f"seat {seat} saw {early} of seat {owner} before they were played"
    assert own_seen_early > 0


def _strings(data):
    if isinstance(data, str):
        if CARD_TEXT.match(data):
            yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


# Reconnects, drop-outs -----------------------------------------------------------------------

def test_a_reconnecting_seat_gets_what_it_missed_or_a_fresh_view(serve):
    server = serve("--max-replay", "12")
    ann = host(server.url, Rules(players=4, target=None))
    bob = join(server.url, ann.code)
    start(ann, bob)
    play_out([ann, bob], ann, stop=lambda: ann.view.is_my_turn and bob.number == ann.number)
    bob.close()
    before = bob.number
    # Ann plays, then the two computers: Bob misses his leaving and three moves.
    play_out([ann], ann, stop=lambda: ann.view.to_move == 1 and len(ann.view.history) >= 3)
    ann.poll()
    back = reclaim(server.url, bob)
    missed = []
    while back.number < ann.number:
        message = back.recv()
        if isinstance(message, UpdateMessage):
            missed.append(message.update.number)
    assert missed[0] == before + 1 and missed == list(range(before + 1, ann.number + 1))
    assert back.view.hand == back.view.hand and back.view.table == ann.view.table
    back.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("reclaimed", 1, "Bob"))
    back.close()
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("left", 1, "Bob"))
    far_behind = Client(server.url)
    far_behind.rules, far_behind.key = back.rules, back.key
    far_behind.send(Hello(ann.code, back.key, 1))  # missed more than --max-replay
    far_behind.until(lambda m: isinstance(m, Welcome))
    resync = far_behind.until(lambda m: isinstance(m, ResyncMessage))
    assert resync.view.seat == 1 and resync.view.hand == back.view.hand and resync.view.table == ann.view.table


def test_a_dropped_player_is_covered_after_the_grace_and_takes_the_seat_back(serve):
    server = serve("--grace", "0.6", "--turn-grace", "0.3")
    ann = host(server.url, Rules(target=None))
    bob = join(server.url, ann.code)
    start(ann, bob)
    bob.close()
    names = lambda: [n.kind for n in ann.notices if n.seat == 1]  # noqa: E731
    # The computer covers Bob and plays his turns; Ann plays hers.
    play_out([ann], ann, stop=lambda: "covered" in names() and len(ann.view.history) >= 4, timeout=20)
    assert names()[-2:] == ["left", "covered"]
    assert [p.seat for p in ann.view.history].count(1) >= 2
    back = reclaim(server.url, bob)
    for client in (ann, back):  # both read up to the notice that Bob is back
        client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("reclaimed", 1, "Bob"))
    assert back.number == ann.number and back.view.table == ann.view.table
    play_out([ann, back], ann)  # Bob plays his own seat again to the end
    assert back.view.phase.value == "match_over"


# Expiry, refusals ----------------------------------------------------------------------------

def test_idle_rooms_expire_and_are_deleted_with_their_hands(serve, tmp_path):
    server = serve("--expiry-hours", f"{1.5 / 3600:.9f}")  # a flag takes at most 9 decimals, as scopa's do
    ann = host(server.url)
    bob = join(server.url, ann.code)
    start(ann, bob)
    assert error(ann, timeout=10).code == "room_closed" and ann.closed()
    with sqlite3.connect(tmp_path / "rooms.sqlite3") as conn:
        assert conn.execute("SELECT COUNT(*) FROM rooms").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM seats").fetchone() == (0,)
    again = Client(server.url)
    again.send(Join(ann.code, "Bob"))
    assert error(again).code == "unknown_room"
    until(lambda: any(f"room {ann.code}: expired and deleted" in line for line in server.lines), 5)  # the log thread


def test_wrong_key_full_room_and_unknown_code_are_refused_and_guessing_is_slowed(serve):
    server = serve()
    ann = host(server.url)
    join(server.url, ann.code)
    third = Client(server.url)
    third.send(Join(ann.code.lower()[:3] + "-" + ann.code[3:], "Carol"))  # case and dashes do not matter
    assert error(third).code == "room_full" and third.closed()
    thief = Client(server.url)
    thief.send(Hello(ann.code, new_seat_key(), 0))
    assert error(thief).code == "wrong_key" and thief.closed()
    codes = []
    for _ in range(12):
        guess = Client(server.url)
        guess.send(Join("ACDEFG" if ann.code != "ACDEFG" else "GFEDCA", "Eve"))
        codes.append(error(guess).code)
    # The full room and the wrong key told that a code exists: they counted as two of the ten tries.
    assert codes == ["unknown_room"] * 8 + ["too_many_tries"] * 4
    answers = []
    for _ in range(21):  # creating rooms is still allowed from that address, up to a limit
        hosting = Client(server.url)
        hosting.send(CreateRoom("Zed", Rules(), ("human", "human"), "easy"))
        answers.append(hosting.until(lambda m: isinstance(m, (Welcome, ErrorMessage))))
        hosting.close()
    assert all(isinstance(a, Welcome) for a in answers[:19])  # the room above was the first of 20
    assert answers[-1].code == "too_many_tries"


def test_oversized_malformed_and_flooding_messages_are_refused(serve):
    server = serve("--message-rate", "10")
    ann = host(server.url)
    ann.send('{"type": "move", "id": 1, "card": "7X", "capture": [], "expected": 0}')
    assert error(ann) == ErrorMessage("bad_field", {"field": "card"})
    ann.send('{"type": "dance"}')
    assert error(ann).code == "unknown_type"
    ann.send(Ping())
    assert isinstance(ann.until(lambda m: isinstance(m, Pong)), Pong)  # still connected after those
    ann.send(json.dumps({"type": "ping", "pad": "x" * MAX_CLIENT_MESSAGE}))
    assert error(ann).code == "too_big" and ann.closed()
    broken = host(server.url)
    broken.send("{not json")
    assert error(broken).code == "not_json" and broken.closed()
    first = Client(server.url)
    first.send(Ping())
    assert error(first).code == "first_message" and first.closed()
    flooder, other = host(server.url), host(server.url)
    for _ in range(60):  # 30 at once, then 20 refused after the warning, then the close
        try:
            flooder.send(Ping())
        except ConnectionClosed:
            break
    assert flooder.closed()
    codes = [e.code for e in flooder.errors]
    assert "slow_down" in codes and codes[-1] == "flooded"
    began = time.monotonic()
    other.send(Ping())
    other.until(lambda m: isinstance(m, Pong))
    assert time.monotonic() - began < 2.0  # another room is not slowed


# Faults -----------------------------------------------------------------------------------

def test_a_killed_server_restarts_every_room_at_the_last_completed_move(serve, tmp_path):
    server = serve()
    rooms = []
    for moves in (3, 5):
        ann = host(server.url)
        bob = join(server.url, ann.code)
        start(ann, bob)
        play_out([ann, bob], ann,
                 stop=lambda ann=ann, bob=bob, moves=moves: (len(ann.view.history) >= moves
                                                             and bob.view.history == ann.view.history))
        rooms.append((ann, bob))
    server.kill()
    restarted = serve("--port", str(server.port))  # the same address: clients find it again
    assert any("2 restored" in line for line in restarted.lines) and restarted.url == server.url
    for ann, bob in rooms:
        for old in (ann, bob):
            back = reclaim(restarted.url, old, last=0)  # as a client that lost everything
            resync = back.until(lambda m: isinstance(m, ResyncMessage))
            assert resync.view == old.view  # the very position it last saw
        back.close()
    # The match goes on from there.
    ann, bob = rooms[0]
    ann2, bob2 = reclaim(restarted.url, ann), reclaim(restarted.url, bob)
    play_out([ann2, bob2], ann2)
    assert ann2.view.phase.value == "match_over"


def test_sigterm_stops_the_server_cleanly_and_tells_the_clients(serve):
    server = serve()
    ann = host(server.url)
    assert server.stop() == 0
    assert error(ann).code == "server_stopping" and ann.closed()
    assert any("stopped" in line for line in server.lines)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificate")
def test_with_a_certificate_the_server_speaks_wss_only(serve, tmp_path):
    cert, key = certificate(tmp_path)
    server = serve("--certfile", str(cert), "--keyfile", str(key))
    assert any("listening on wss://" in line for line in server.lines)
    trusted = ssl.create_default_context(cafile=str(cert))
    client = Client(f"wss://127.0.0.1:{server.port}", tls=trusted)
    client.send(CreateRoom("Ann", Rules(), ("human", "human"), "easy"))
    assert isinstance(client.until(lambda m: isinstance(m, Welcome)), Welcome)
    with pytest.raises(InvalidMessage, match="did not receive a valid HTTP response"):
        Client(server.url)  # plain ws is not served: what comes back is TLS, not an HTTP answer


def test_serve_refuses_bad_flags_in_one_line():
    result = subprocess.run([sys.executable, "-m", "scopa", "serve", "--port", "70000"], capture_output=True,
                            text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), timeout=30, check=False)
    assert result.returncode == 2 and "--port must be from 0 to 65535" in result.stderr


@pytest.mark.parametrize("flag, value", [("--port", "\uff12"), ("--max-replay", "\u0663"), ("--grace", "1e3"),
                                         ("--computer-delay", "inf")])
def test_serve_reads_numbers_in_ascii_digits_only_as_scopa_does(flag, value):
    """int() and float() take a fullwidth 2, an Arabic 3, 1e3 and inf; the flags do not."""
    result = subprocess.run([sys.executable, "-m", "scopa", "serve", "--port", "0", flag, value], capture_output=True,
                            text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), timeout=30, check=False)
    assert result.returncode == 2 and f"argument {flag}: invalid" in result.stderr
