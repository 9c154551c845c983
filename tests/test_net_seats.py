"""Seats in the lobby (issue 28), both stores (with Redis the players on two processes): the host
opens a computer's seat for a person and gives a free seat to a computer; everyone hears it."""
from __future__ import annotations

from helpers.net import error, host, join, play_out, reclaim, start, until
from scopa.engine import Rules
from scopa.net.protocol.client_messages import CreateRoom, Join, MoveSeat, SeatKind
from scopa.net.protocol.client_messages import Ready as ReadyMessage
from scopa.net.protocol.server_messages import ErrorMessage, Moved, UpdateMessage
from scopa.table import Notice


def notice(kind: str):
    return lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, Notice) and m.update.event.kind == kind


def test_the_host_opens_a_computer_seat_and_fills_a_free_one(store):
    first = store.serve()
    second = store.serve() if store.kind == "redis" else first
    ann = host(first.url, Rules(players=4, target=None), ("human", "human", "easy", "human"))
    bob = join(second.url, ann.code)
    computer = ann.info.seats[2].name if ann.info else None
    ann.send(SeatKind(2, "open"))
    opened = bob.until(notice("seat_opened")).update.event
    assert opened.seat == 2 and (computer is None or opened.name == computer)
    assert bob.info.seats[2] is None  # the room's info came first, with the seat free
    carol = join(first.url, ann.code, name="Carol")
    assert carol.seat == 2
    ann.send(SeatKind(3, "medium"))
    given = bob.until(notice("seat_computer")).update.event
    info = bob.info
    assert given.seat == 3 and info.seats[3].kind == "computer" and info.seats[3].level == "medium"
    assert given.name == info.seats[3].name
    carol.until(notice("seat_computer"))
    # What cannot change: the host's own seat, a person's, a taken seat; nobody but the host; after the start.
    for seat, kind in ((0, "open"), (1, "open"), (3, "easy")):
        ann.send(SeatKind(seat, kind))
        assert error(ann) == ErrorMessage("bad_seat", {})
    bob.send(SeatKind(3, "open"))
    assert error(bob) == ErrorMessage("not_host", {})
    start(ann, bob, carol)
    ann.send(SeatKind(3, "open"))
    assert error(ann) == ErrorMessage("not_lobby", {})


# Moving people between seats (issue 28): the host chooses who sits where, partners in four -------------------------

FOUR = Rules(players=4, target=None)


def moved_to(seat: int, name: str):
    return lambda m: (isinstance(m, UpdateMessage) and m.update.event == Notice("seat_moved", seat, name))


def test_the_host_moves_a_player_to_a_computers_seat_who_plays_the_match_from_there(store):
    first = store.serve()
    second = store.serve() if store.kind == "redis" else first  # with Redis, Bob on another process
    ann = host(first.url, FOUR, ("human", "human", "easy", "human"))
    bob = join(second.url, ann.code)
    carol = join(first.url, ann.code, name="Carol")
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", 3, "Carol"))
    assert bob.seat == 1 and carol.seat == 3
    lia = ann.info.seats[2].name
    ann.send(MoveSeat(1, 2))  # Bob across from Ann: her partner now
    told = bob.until(lambda m: isinstance(m, Moved))
    assert told == Moved(2) and bob.seat == 2
    for client in (ann, bob, carol):
        client.until(moved_to(1, lia))  # the second of the two notices, the info before the first
        assert client.notices[-2:] == [Notice("seat_moved", 2, "Bob"), Notice("seat_moved", 1, lia)]
        info = client.info
        assert info.seats[2].name == "Bob" and info.seats[1].name == lia and info.seats[1].kind == "computer"
        assert not info.seats[2].ready  # moved: asked ready again
    assert bob.errors == [] and carol.seat == 3
    # Bob's key takes back the new seat (on the other process, with Redis), his share of the seed with it.
    bob.close()
    bob = reclaim(first.url, bob)
    assert bob.seat == 2
    bob.send(ReadyMessage())
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", 2, "Bob"))
    start(ann, bob, carol)
    assert bob.view.seat == 2 and ann.view.seat == 0 and carol.view.seat == 3
    play_out([ann, bob, carol], ann)
    assert bob.view.phase.value == "match_over" and bob.view.match_scores == ann.view.match_scores


def test_the_host_swaps_two_players_and_moves_to_a_free_seat(store):
    first = store.serve()
    second = store.serve() if store.kind == "redis" else first
    ann = host(first.url, FOUR, ("human", "human", "human", "human"))
    bob = join(second.url, ann.code)
    carol = join(first.url, ann.code, name="Carol")
    ann.send(MoveSeat(2, 1))  # Carol and Bob change places
    assert bob.until(lambda m: isinstance(m, Moved)) == Moved(2) and bob.seat == 2
    assert carol.until(lambda m: isinstance(m, Moved)) == Moved(1) and carol.seat == 1
    for client in (ann, bob, carol):
        client.until(moved_to(2, "Bob"))
        assert client.notices[-2:] == [Notice("seat_moved", 1, "Carol"), Notice("seat_moved", 2, "Bob")]
        seats = client.info.seats
        assert (seats[1].name, seats[2].name) == ("Carol", "Bob") and not seats[1].ready and not seats[2].ready
    # The host moves to the free seat: still the host there, still ready; seat 0 is free for the next to join.
    ann.send(MoveSeat(0, 3))
    assert ann.until(lambda m: isinstance(m, Moved)) == Moved(3)
    bob.until(moved_to(3, "Ann"))
    assert bob.info.host == 3 and bob.info.seats[0] is None and bob.info.seats[3].ready
    dan = join(second.url, ann.code, name="Dan")
    assert dan.seat == 0
    for client, name in ((bob, "Bob"), (carol, "Carol")):
        client.send(ReadyMessage())
        ann.until(lambda m, client=client, name=name: isinstance(m, UpdateMessage)
                  and m.update.event == Notice("ready", client.seat, name))
    start(ann, bob, carol, dan)
    assert (ann.view.seat, bob.view.seat, carol.view.seat, dan.view.seat) == (3, 2, 1, 0)
    assert ann.view.rules.side_of(3) == ann.view.rules.side_of(1)  # Ann and Carol partners


def test_a_move_is_the_hosts_in_the_lobby_between_two_seats_of_the_room(store):
    server = store.serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    bob.send(MoveSeat(1, 0))
    assert error(bob) == ErrorMessage("not_host", {})
    for from_seat, to_seat in ((1, 1), (0, 2), (3, 0)):  # the same seat; a seat the room does not have
        ann.send(MoveSeat(from_seat, to_seat))
        assert error(ann) == ErrorMessage("bad_seat", {})
    four = host(server.url, FOUR, ("human", "human", "human", "easy"))
    four.send(MoveSeat(1, 0))  # seat 1 is free: nobody to move
    assert error(four) == ErrorMessage("bad_seat", {})
    bob.send('{"type":"move_seat","from":0,"to":4}')  # no seat 4 in any room: refused as the protocol's
    assert error(bob) == ErrorMessage("bad_field", {"field": "to"})
    start(ann, bob)
    ann.send(MoveSeat(1, 0))
    assert error(ann) == ErrorMessage("not_lobby", {})
    assert bob.seat == 1 and ann.seat == 0


def test_a_moved_players_remote_table_follows_its_seat(store, tables):
    """The client the console plays through (``RemoteTable``): its seat is the new one, its view too."""
    server = store.serve()
    ann = tables(server.url, CreateRoom("Ann", FOUR, ("human", "human", "easy", "easy"), "easy"))
    ben = tables(server.url, Join(ann.code, "Ben"))
    assert ben.seat == 1
    ann.move_seat(1, 2)
    until(lambda: ben.seat == 2 and ben.room().seats[2] is not None and ben.room().seats[2].name == "Ben")
    assert ben.seats_here() == (2,) and ann.seat == 0 and ben.moves == 1
    ben.ready()
    until(lambda: ann.room().seats[2] is not None and ann.room().seats[2].ready)
    ann.start()
    until(ben.has_view)
    assert ben.view(2).seat == 2 and ben.view(2).hand  # its own hand, dealt to seat 3


def test_a_move_swaps_keys_shares_and_the_host_and_asks_ready_again_except_in_a_quick_match():
    from scopa.net.server.rooms import new_room
    for listing, ready in (("", False), ("quick", True)):
        room, _ = new_room("ACDEFG", FOUR, ("human",) * 4, "Ann", "hash-ann", "easy", 0.0, server_seed=b"s" * 32,
                           listing=listing)
        room.join("Ben", "hash-ben")
        room.seats[1].ready = True
        room.contributions = {0: b"a" * 32, 1: b"b" * 32}
        entries, moves = room.move_seat(0, 0, 1)  # the host swaps with Ben
        assert moves == {0: 1, 1: 0} and room.host == 1
        assert [e.event for e in entries] == [Notice("seat_moved", 1, "Ann"), Notice("seat_moved", 0, "Ben")]
        assert room.seats[1].key_hash == "hash-ann" and room.seats[0].key_hash == "hash-ben"  # keys follow
        assert room.contributions == {1: b"a" * 32, 0: b"b" * 32}
        assert room.seats[1].ready and room.seats[0].ready is ready


def test_a_move_that_cannot_be_stored_moves_nobody_and_each_connection_stays_its_seats(store):
    """The store refuses the move (a full disk, Redis at its memory limit): the host hears why, nobody
    hears a move, and once the store takes writes again each player still speaks for their own seat
    (with Redis, Bob on the other process)."""
    first = store.serve()
    second = store.serve() if store.kind == "redis" else first
    ann = host(first.url, FOUR, ("human", "human", "human", "human"))
    bob = join(second.url, ann.code, ready=False)
    carol = join(first.url, ann.code, name="Carol", ready=False)
    store.fail()
    ann.send(MoveSeat(2, 1))
    assert error(ann).code == "storage"
    store.heal()
    assert (bob.seat, carol.seat) == (1, 2)
    bob.send(ReadyMessage())
    for client in (ann, carol):
        client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", 1, "Bob"))
        assert (client.info.seats[1].name, client.info.seats[2].name) == ("Bob", "Carol")
    bob.poll(0.3), carol.poll(0.3)
    assert (bob.seat, carol.seat) == (1, 2)  # neither heard a move (``Moved`` would change the seat)
    ann.send(MoveSeat(2, 1))  # stored now: the move goes through
    assert bob.until(lambda m: isinstance(m, Moved)) == Moved(2)
