"""A room without sockets: the lobby, stale moves, grace periods, and the store's round trip."""
from __future__ import annotations

import pytest

from scopa.engine import Card, Move, Rules
from scopa.net.protocol.codes import key_hash, new_seat_key
from scopa.net.server.rooms import MoveRefusal, RoomRefusal, new_room
from scopa.net.server.store import RoomStore
from scopa.table import Notice


def two_player_room(rules: Rules = Rules(target=None)):
    host_key, guest_key = new_seat_key(), new_seat_key()
    room, _ = new_room("ACDEFG", rules, ("human",) * rules.players, "Ann", key_hash(host_key), "easy", now=0.0,
                       server_seed=bytes([4]) * 32)
    seat, _ = room.join("Ann", key_hash(guest_key))
    room.ready(seat)
    room.contribute(0, bytes([1]) * 32)
    room.contribute(seat, bytes([2]) * 32)
    room.start(0, now=0.0)
    return room, host_key, guest_key


def test_a_second_player_of_the_same_name_is_told_apart_and_keys_find_their_seats():
    room, host_key, guest_key = two_player_room()
    assert [s.name for s in room.seats] == ["Ann", "Ann 2"]
    assert room.seat_of_key(host_key) == 0 and room.seat_of_key(guest_key) == 1
    assert room.seat_of_key(new_seat_key()) is None


def test_a_move_is_stale_only_when_the_position_changed_since_the_number_seen():
    room, *_ = two_player_room()
    seat = room.state.to_move
    first_of_deal = room.position_number
    room.disconnected(1 - seat, now=0.0)  # a notice: it does not make a move stale
    move = room.state.legal_moves()[0]
    entries = room.play(seat, move, first_of_deal, now=0.0)
    other = room.state.to_move
    with pytest.raises(MoveRefusal) as refused:
        room.play(other, room.state.legal_moves()[0], first_of_deal, now=0.0)
    assert refused.value.kind == "stale"
    # Having seen only the first update of the move (its view shows the position after it) is enough.
    room.play(other, room.state.legal_moves()[0], entries[0].number, now=0.0)


def test_the_grace_is_shorter_when_the_table_waits_for_the_dropped_player():
    room, *_ = two_player_room()
    waiting = room.state.to_move
    room.disconnected(waiting, now=100.0)
    room.disconnected(1 - waiting, now=100.0)
    assert room.cover_due(109.0, grace=60, turn_grace=10) == []
    assert room.cover_due(110.0, grace=60, turn_grace=10) == [waiting]
    assert room.cover_due(160.0, grace=60, turn_grace=10) == sorted([waiting, 1 - waiting])
    assert [e.event for e in room.cover(waiting)] == [Notice("covered", waiting, room.seats[waiting].name)]
    assert room.computer_to_move() is None  # nobody is connected: the match waits
    room.connected(1 - waiting)
    assert room.computer_to_move() == waiting
    room.computer_move(now=111.0)
    assert [e.event.kind for e in room.connected(waiting)] == ["reclaimed"]
    assert room.computer_to_move() is None


def test_the_lobby_refuses_what_it_cannot_do():
    room, _ = new_room("ACDEFG", Rules(), ("human", "human"), "Ann", key_hash(new_seat_key()), "easy", now=0.0,
                       server_seed=bytes(32))
    with pytest.raises(RoomRefusal) as refused:
        room.start(0, now=0.0)
    assert (refused.value.code, refused.value.values) == ("cannot_start", {"reason": "players"})
    room.join("Bob", key_hash(new_seat_key()))
    with pytest.raises(RoomRefusal):
        room.join("Carol", key_hash(new_seat_key()))
    with pytest.raises(MoveRefusal) as not_now:
        room.play(0, Move(Card(0)), 0, now=0.0)
    assert not_now.value.kind == "not_now"


def test_the_store_gives_back_every_room_as_it_was(tmp_path):
    room, host_key, _ = two_player_room(Rules(target=11))
    for _ in range(5):
        room.play(room.state.to_move, room.state.legal_moves()[0], room.number, now=0.0)
    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.save(room)
    assert store.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert (tmp_path / "rooms.sqlite3").stat().st_mode & 0o077 == 0  # it holds every hand
    assert host_key not in (tmp_path / "rooms.sqlite3").read_bytes().decode("latin-1")
    store.close()
    rooms, problems = RoomStore(tmp_path / "rooms.sqlite3").load_all()
    assert problems == [] and len(rooms) == 1
    back = rooms[0]
    assert back.state == room.state and back.record.moves == room.record.moves
    assert (back.number, back.position_number, back.phase) == (room.number, room.position_number, "playing")
    assert back.seat_of_key(host_key) == 0



def test_a_client_that_stops_reading_is_dropped_without_holding_anyone_up():
    import asyncio

    from scopa.net.protocol.server_messages import Pong
    from scopa.net.server.server import SEND_QUEUE, Connection, ServerConfig

    class StuckSocket:
        """A client that never reads: every send waits for ever."""
        remote_address = ("127.0.0.1", 1)
        request = None  # a websocket served has one, None before its handshake (the page's checks read it)

        def __init__(self) -> None:
            self.closed_with: tuple[int, str] | None = None

        async def send(self, text: str) -> None:
            await asyncio.Event().wait()

        async def close(self, code: int, reason: str) -> None:
            self.closed_with = (code, reason)

    async def scenario() -> tuple[bool, tuple[int, str] | None]:
        ws = StuckSocket()
        conn = Connection(ws, ServerConfig())  # type: ignore[arg-type]
        for _ in range(SEND_QUEUE + 2):
            conn.send(Pong())  # never blocks the caller
        await asyncio.sleep(0)
        return conn.closing, ws.closed_with

    assert asyncio.run(scenario()) == (True, (1008, "slow"))


def test_a_covered_host_has_the_next_deal_dealt_for_them():
    room, *_ = two_player_room(Rules(target=11))
    while not room.state.is_deal_over:
        room.play(room.state.to_move, room.state.legal_moves()[0], room.number, now=0.0)
    assert not room.host_is_away() and room.deal_for_host(now=0.0) == []
    room.disconnected(0, now=0.0)
    assert room.cover_due(5.0, grace=60, turn_grace=5) == [0]  # the table waits for the host to deal
    room.cover(0)
    assert room.host_is_away()
    room.disconnected(1, now=6.0)
    assert not room.host_is_away()  # nobody left to deal for
    room.connected(1)
    entries = room.deal_for_host(now=6.0)
    assert entries[0].event.deal_number == 2 and room.state.deal_number == 2


def test_every_deal_since_a_seat_was_covered_counts_as_played_for_it_while_it_is_covered_still(tmp_path):
    """``played_for``, which the match_record answer says to the seat: a seat covered at the end
    (taken as away, connected or not) was played for in every deal since, not only the first;
    the SQLite store, which does not keep ``covered``, keeps those deals."""
    room, *_ = two_player_room(Rules(target=11))

    def deal_on() -> None:
        while not room.state.is_deal_over:
            room.play(room.state.to_move, room.state.legal_moves()[0], room.number, now=0.0)
        room.next_deal(0, room.number, now=0.0)

    deal_on()
    room.cover(1)  # in deal 2
    deal_on()
    deal_on()
    assert room.state.deal_number == 4 and room.seats[1].covered_in == [2]
    assert room.played_for(1) == frozenset({2, 3, 4}) and room.played_for(0) == frozenset()
    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.save(room)
    [kept], _ = store.load_all()  # after a restart no seat is covered: the deals since the cover are kept
    assert not kept.seats[1].covered and kept.played_for(1) == frozenset({2, 3, 4})
    room.connected(1)  # back: the seat is the player's again, the deals played for it stay
    deal_on()
    assert room.state.deal_number == 5 and room.played_for(1) == frozenset({2, 3, 4})


def test_rooms_that_expired_while_the_server_was_stopped_are_deleted(tmp_path):
    room, *_ = two_player_room()
    room.active = 1000.0
    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.save(room)
    assert store.delete_idle(before=999.0) == 0
    assert store.delete_idle(before=1001.0) == 1
    assert store.load_all() == ([], [])
    assert store.db.execute("SELECT COUNT(*) FROM seats").fetchone() == (0,)
