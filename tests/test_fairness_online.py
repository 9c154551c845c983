"""Commit, contribute, reveal (docs/fairness.md) against a real ``scopa serve`` over loopback:
every seat's own client checks the shuffle at the end and says it is fair; a server patched to
reveal another seed, or to deal from a seed of its own, is caught by every client."""
from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect
from websockets.sync.server import serve as serve_ws

from helpers.net import until
from scopa.engine import Phase, Rules
from scopa.engine.shuffle import commitment, match_seed
from scopa.narration import Messages
from scopa.net.client.client import RemoteTable, TableClosed
from scopa.net.protocol.client_messages import CreateRoom, Hello, Join
from scopa.net.protocol.server_messages import Welcome, parse_server_message
from scopa.net.protocol.wire import PROTOCOL_VERSION, encode

HOOKS = Path(__file__).parent / "fault_hooks"
EN, IT = Messages("en"), Messages("it")


def seated(url: str, tables, rules: Rules, kinds: tuple[str, ...], guest_url: str | None = None
           ) -> list[RemoteTable]:
    """The host and one guest for every other human seat (on ``guest_url``: another process),
    all ready, the match started."""
    host = tables(url, CreateRoom("Ann", rules, kinds, "easy"))
    guests = [tables(guest_url or url, Join(host.code, name))
              for name in ("Ben", "Cleo", "Dora")[:kinds.count("human") - 1]]
    for guest in guests:
        guest.ready()
    everyone = [host, *guests]
    until(lambda: all(host.room().seats[g.seat] is not None and host.room().seats[g.seat].ready for g in guests)
          and all(c is not None for n, c in enumerate(host.room().contributions) if kinds[n] == "human"))
    host.start()
    until(lambda: all(t.has_view() for t in everyone))
    return everyone


def play_to_end(everyone: list[RemoteTable], seconds: float = 120.0) -> None:
    """Each seat plays its first legal move on its turn (the computers play in the server), the
    host deals on, until every seat sees the match over."""
    host = everyone[0]
    deadline = time.monotonic() + seconds
    while not all(t.view(t.seat).phase is Phase.MATCH_OVER for t in everyone):
        assert time.monotonic() < deadline, "the match did not end in time"
        acted = False
        for table in everyone:
            view = table.view(table.seat)
            if view.is_my_turn:
                table.submit(table.seat, view.legal_moves()[0], table.latest())  # stale after a computer: again
                acted = True
            elif table is host and view.phase is Phase.DEAL_OVER:
                table.next_deal(table.seat, table.latest())
                acted = True
        if not acted:
            time.sleep(0.02)
    until(lambda: len({t.latest() for t in everyone}) == 1)


def verdicts(everyone: list[RemoteTable]) -> list[str]:
    for table in everyone:
        table.finished_record()
    return [table.shuffle_check() for table in everyone]


@pytest.mark.parametrize("rules, kinds", [(Rules(target=11), ("human", "human")),
                                          (Rules(players=3, target=None), ("human", "easy", "human"))])
def test_every_seats_client_checks_the_shuffle_and_finds_it_fair(serve, tables, rules, kinds):
    server = serve()
    everyone = seated(server.url, tables, rules, kinds)
    info = everyone[0].room()
    humans = [n for n, kind in enumerate(kinds) if kind == "human"]
    shares = [info.contributions[n] for n in range(rules.players)]
    assert [n for n, share in enumerate(shares) if share is not None] == humans  # public, none for a computer
    assert all(t.room().contributions == info.contributions for t in everyone)
    play_to_end(everyone)
    assert verdicts(everyone) == ["fair"] * len(everyone)
    record = everyone[0]._record_data
    assert record is not None and record["shuffle"] == 2
    server_seed = bytes.fromhex(record["fairness"]["server_seed"])
    assert all(t._heard == commitment(server_seed) for t in everyone)  # what each welcome promised
    combined = match_seed(server_seed, [(n, shares[n]) for n in humans])
    assert record["seed"] == combined.hex()
    assert all(t._seen for t in everyone)  # each checked what it saw: its hands, the tables, the plays
    assert EN("fairness.fair") == "Shuffle checked, fair." and IT("fairness.fair") == "Mescolata controllata, regolare."


def test_two_processes_on_redis_keep_the_commitment_and_the_shares(processes, tables):
    """The host on one process, the guests on another: the welcome of each names the same
    commitment, every share reaches the start, and every client finds the shuffle fair."""
    first, second = processes(2)
    everyone = seated(first.url, tables, Rules(players=3, target=None), ("human", "human", "human"), second.url)
    assert len({t._heard for t in everyone}) == 1 and everyone[0]._heard is not None
    play_to_end(everyone)
    assert verdicts(everyone) == ["fair"] * 3


def test_a_seat_taken_back_mid_match_hears_the_commitment_again_and_checks_the_shuffle(serve, tables):
    """A seat whose client was closed mid-match and started afresh (a crash, another machine)
    gets the commitment in its welcome, and that client checks the shuffle at the end too, its
    own share included (kept with the seat key)."""
    server = serve()
    host, guest = seated(server.url, tables, Rules(target=None), ("human", "human"))
    promised = host._heard
    guest.close()
    back = tables(server.url, Hello(host.code, guest.key, 0), share=guest.share)  # kept with the seat key
    assert back.seat == guest.seat and promised is not None and back._heard == promised
    until(back.has_view)
    play_to_end([host, back])
    assert verdicts([host, back]) == ["fair", "fair"]


@pytest.mark.parametrize("fault, verdict, line", [
    ("reveal_other_seed", "commitment",
     "Shuffle check failed. The seed the server showed at the end is not the one it promised at the start."),
    ("deal_other_deck", "deals", "Shuffle check failed. The cards dealt are not the ones the seed deals."),
])
def test_a_dishonest_server_is_caught_by_every_client(serve, tables, monkeypatch, fault, verdict, line):
    monkeypatch.setenv("PYTHONPATH", str(HOOKS))
    monkeypatch.setenv("SCOPA_TEST_FAULT", fault)
    server = serve()
    everyone = seated(server.url, tables, Rules(players=3, target=None), ("human", "human", "human"))
    play_to_end(everyone)
    assert verdicts(everyone) == [verdict] * 3
    assert EN(f"fairness.{verdict}") == line


def test_a_client_of_another_protocol_gets_the_version_error(serve):
    server = serve()
    with connect(server.url, open_timeout=5) as ws:
        ws.send(json.dumps({"type": "join", "version": PROTOCOL_VERSION - 1, "code": "ACDEFG", "name": "Bob"}))
        answer = parse_server_message(ws.recv(timeout=5))
    assert (answer.code, dict(answer.values)) == ("version", {"supported": PROTOCOL_VERSION})


def test_a_server_of_another_protocol_is_said_in_one_line():
    """An older server refuses this client's version: the client keeps its "version" problem,
    which the console says as one line."""
    def older(ws) -> None:  # type: ignore[no-untyped-def]
        ws.recv()
        ws.send(json.dumps({"type": "error", "code": "version", "values": {"supported": 1}}))

    with serve_ws(older, "127.0.0.1", 0) as old:
        threading.Thread(target=old.serve_forever, daemon=True).start()
        port = old.socket.getsockname()[1]
        table = RemoteTable(f"ws://127.0.0.1:{port}", Join("ACDEFG", "Bob"))
        with pytest.raises(TableClosed) as closed:
            table.open(timeout=5)
        old.shutdown()
    assert closed.value.problem.code == "version"
    assert EN("online.error.version") == "The server runs another version of scopa. Update the game."


def test_a_welcome_without_a_commitment_is_read_and_a_contribution_has_64_hex_digits():
    welcome = parse_server_message(encode(Welcome("ACDEFG", 0, 0, _info(), None, None, None)))
    assert welcome.commitment is None
    text = encode(Welcome("ACDEFG", 0, 0, _info(), None, None, hashlib.sha256(b"x").digest()))
    assert parse_server_message(text).commitment == hashlib.sha256(b"x").digest()


def _info():  # type: ignore[no-untyped-def]
    from scopa.net.protocol.wire import RoomInfo, RoomSeat
    return RoomInfo("ACDEFG", "lobby", Rules(), (RoomSeat("Ann"), None))


def test_a_share_is_64_hex_digits_taken_once_in_the_lobby_and_the_start_waits_for_every_one():
    from scopa.net.protocol.client_messages import Contribute, parse_client_message
    from scopa.net.protocol.codes import key_hash, new_seat_key
    from scopa.net.protocol.wire import ProtocolError
    from scopa.net.server.rooms import RoomRefusal, new_room
    for value in ("ab" * 31, "AB" * 32, "zz" * 32, 7, None):
        with pytest.raises(ProtocolError) as refused:
            parse_client_message(json.dumps({"type": "contribute", "value": value}))
        assert (refused.value.code, refused.value.values) == ("bad_field", {"field": "value"})
    assert parse_client_message(encode(Contribute(bytes(32)))) == Contribute(bytes(32))
    room, _ = new_room("ACDEFG", Rules(players=3), ("human", "human", "easy"), "Ann", key_hash(new_seat_key()),
                       "easy", now=0.0, server_seed=bytes([9]) * 32)
    seat, _ = room.join("Ben", key_hash(new_seat_key()))
    room.ready(seat)
    assert room.contribute(0, bytes([1]) * 32) and not room.contribute(0, bytes([5]) * 32)  # the first one stays
    assert not room.contribute(2, bytes([3]) * 32)  # a computer's seat gives none
    with pytest.raises(RoomRefusal) as refused:
        room.start(0, now=0.0)
    # a seat whose client gave no share is said as such, not as a player not ready (issue 39)
    assert (refused.value.code, refused.value.values) == ("cannot_start", {"reason": "no_share", "seat": 1})
    assert room.info().contributions == (bytes([1]) * 32, None, None)
    room.contribute(seat, bytes([2]) * 32)
    room.start(0, now=0.0)
    assert room.record.seed == match_seed(bytes([9]) * 32, [(0, bytes([1]) * 32), (1, bytes([2]) * 32)])
    assert room.record.fairness.contributions == ((0, bytes([1]) * 32), (1, bytes([2]) * 32))
    with pytest.raises(RoomRefusal) as late:
        room.contribute(1, bytes([4]) * 32)
    assert late.value.code == "not_lobby"


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # with Redis the seat's hello is stored too
def test_a_share_the_store_refused_is_given_again_and_the_match_starts_fair(store, tables):
    """The store fails just as a seat gives its share (a full disk): the change is refused with
    "storage". The match cannot start without that share ("not ready"), and the share used to
    be given again only after a reconnection. Now the client gives it again when the room's
    info shows it missing after a storage error, and the match starts and checks fair."""
    from helpers.net import Client
    server = store.serve()
    ann = tables(server.url, CreateRoom("Ann", Rules(target=None), ("human", "human"), "easy"))
    bob = Client(server.url)  # Ben's seat taken without a share: his client gives it below
    bob.send(Join(ann.code, "Ben"))
    welcome = bob.until(lambda m: isinstance(m, Welcome))
    store.fail()
    ben = tables(server.url, Hello(ann.code, welcome.seat_key, 0))  # the share, refused by the store
    until(lambda: any(error.code == "storage" for error in ben.take_errors()), 10)
    store.heal()
    assert ann.room().contributions[ben.seat] is None
    ben.ready()  # a change stored: its info shows Ben's share missing, and his client gives it again
    until(lambda: ann.room().seats[ben.seat].ready, 10)
    deadline = time.monotonic() + 10
    while not ann.has_view():  # the host presses Start until the share is in (refused: "not ready")
        assert time.monotonic() < deadline, "the match never started: the share was not given again"
        ann.start()
        time.sleep(0.2)
    until(ben.has_view, 10)
    play_to_end([ann, ben])
    assert verdicts([ann, ben]) == ["fair", "fair"]
