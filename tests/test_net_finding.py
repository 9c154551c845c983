"""Finding a game (issue 28): quick matches and public rooms, on real servers over loopback,
each test on both stores (the ``store`` fixture: SQLite, and Redis with two server processes)."""
from __future__ import annotations

import secrets

from helpers.net import Client, host, join, play_out, until
from scopa.engine import CardsDealt, Rules
from scopa.net.protocol.client_messages import (
    Contribute,
    CreateRoom,
    ListTables,
    Quick,
)
from scopa.net.protocol.server_messages import (
    ErrorMessage,
    OpenTable,
    TablesMessage,
    UpdateMessage,
    Welcome,
)
from scopa.net.protocol.wire import (
    PROTOCOL_VERSION,
    encode,
)
from scopa.table import Notice

TWO = Rules(target=None)


def quick(url: str, name: str, rules: Rules = TWO, level: str = "easy") -> Client:
    """A player asking for a quick match, as RemoteTable does: the quick message, then its share."""
    client = Client(url)
    client.send(Quick(name, rules, level))
    client.until(lambda m: isinstance(m, Welcome))
    client.send(Contribute(secrets.token_bytes(32)))
    return client


def dealt(client: Client, timeout: float = 10.0) -> None:
    client.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, CardsDealt), timeout)


def listed(url: str) -> tuple[OpenTable, ...]:
    client = Client(url)
    client.send(ListTables())
    answer = client.until(lambda m: isinstance(m, TablesMessage))
    assert client.closed()  # one answer, then the server closes
    return answer.rooms


def test_two_people_asking_for_the_same_quick_match_play_each_other(store):
    first = store.serve("--quick-wait", "60")
    second = store.serve("--quick-wait", "60") if store.kind == "redis" else first  # Redis: another process
    ann = quick(first.url, "Ann")
    bob = quick(second.url, "Bob")
    assert bob.code == ann.code and (ann.seat, bob.seat) == (0, 1)
    for client in (ann, bob):
        dealt(client)  # started by the server at once, long before the wait: every seat is a person's
    assert [(s.name, s.kind) for s in ann.info.seats] == [("Ann", "human"), ("Bob", "human")]
    assert "started" in [n.kind for n in bob.notices]
    play_out([ann, bob], ann)
    assert ann.view.phase.value == "match_over"


def test_a_quick_match_of_other_rules_is_not_joined(store):
    server = store.serve("--quick-wait", "60")
    ann = quick(server.url, "Ann")
    carol = quick(server.url, "Carol", Rules(players=4, target=None))
    assert carol.code != ann.code and carol.seat == 0


def test_one_person_alone_plays_a_computer_of_the_chosen_level_after_the_wait(store):
    server = store.serve("--quick-wait", "1")
    ann = quick(server.url, "Ann", Rules(players=4, target=None), level="medium")
    assert ann.info is None or ann.info.phase == "lobby"
    dealt(ann)
    assert [(s.kind, s.level) for s in ann.info.seats] == [("human", None)] + [("computer", "medium")] * 3
    play_out([ann], ann, timeout=120)
    assert ann.view.phase.value == "match_over"


def test_a_player_who_leaves_a_quick_match_while_waiting_gives_the_seat_up(store):
    server = store.serve("--quick-wait", "60")
    ann = quick(server.url, "Ann", Rules(players=3, target=None))
    bob = quick(server.url, "Bob", Rules(players=3, target=None))
    bob.close()
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("left", 1, "Bob"))
    assert ann.info.seats[1] is None
    carol = quick(server.url, "Carol", Rules(players=3, target=None))
    assert (carol.code, carol.seat) == (ann.code, 1)
    ann.close()
    carol.close()
    until(lambda: any(f"room {ann.code}: expired and deleted" in line for line in server.lines))  # both leaves read
    dan = quick(server.url, "Dan", Rules(players=3, target=None))
    assert dan.code != ann.code  # everyone left: the room went with them


def test_public_rooms_still_waiting_are_listed_and_a_private_or_full_one_is_not(store):
    server = store.serve()
    other = store.serve() if store.kind == "redis" else server
    assert listed(server.url) == ()
    ann = Client(server.url)
    ann.send(CreateRoom("Ann", Rules(players=3, target=11), ("human", "human", "easy"), "easy", public=True))
    ann.until(lambda m: isinstance(m, Welcome))
    private = host(server.url, name="Eve")
    quick(server.url, "Quentin")  # a quick room is found by quick, never listed
    assert listed(other.url) == (OpenTable(ann.code, "Ann", Rules(players=3, target=11), 1),)
    join(other.url, ann.code)
    assert listed(server.url) == ()  # full: no longer waiting
    assert private.code not in [t.code for t in listed(server.url)]


def test_an_older_client_is_told_the_version_in_one_error():
    """The message an older client gets: version, with the one this server speaks."""
    from scopa.net.protocol.client_messages import parse_client_message
    from scopa.net.protocol.wire import ProtocolError
    old = encode(ListTables()).replace(f'"version":{PROTOCOL_VERSION}', '"version":1')
    try:
        parse_client_message(old)
    except ProtocolError as error:
        assert (error.code, error.values) == ("version", {"supported": PROTOCOL_VERSION})
    else:
        raise AssertionError("an older version is refused")
    assert ErrorMessage("version", {"supported": PROTOCOL_VERSION}).fatal


def test_the_finding_messages_round_trip_and_are_checked_strictly():
    import json

    import pytest

    from scopa.net.protocol.client_messages import parse_client_message
    from scopa.net.protocol.server_messages import parse_server_message
    from scopa.net.protocol.wire import ProtocolError
    for message in (Quick("Ann", Rules(players=4, target=21), "hard"), ListTables(),
                    CreateRoom("Ann", TWO, ("human", "human"), "easy", public=True)):
        assert parse_client_message(encode(message)) == message
    answer = TablesMessage((OpenTable("ACDEFG", "Ann", Rules(players=3), 2),))
    assert parse_server_message(encode(answer)) == answer
    bad = [
        ({**json.loads(encode(Quick("Ann", TWO))), "seats": []}, "unknown_field"),
        ({**json.loads(encode(Quick("Ann", TWO))), "level": "genius"}, "bad_field"),
        ({**json.loads(encode(Quick("Ann\u202e", TWO)))}, "bad_name"),
        ({**json.loads(encode(CreateRoom("Ann", TWO, ("human", "human")))), "public": 1}, "bad_field"),
    ]
    for data, code in bad:
        with pytest.raises(ProtocolError) as refused:
            parse_client_message(json.dumps(data))
        assert refused.value.code == code
    for free in (0, 3):  # a room with no free seat is not waiting; a room of three has at most two free
        data = json.loads(encode(answer))
        data["rooms"][0]["free"] = free
        with pytest.raises(ProtocolError):
            parse_server_message(json.dumps(data))


def test_a_quick_player_seated_in_someone_elses_room_is_not_counted_as_making_one(store):
    """One address (a whole school behind one NAT) may make 20 rooms in ten minutes; 30 quick
    players from it make 15 and join the other 15: all are seated."""
    server = store.serve("--quick-wait", "600")
    players = [quick(server.url, f"P{n}") for n in range(30)]
    assert len({p.code for p in players}) == 15
    for client in players:
        client.close()


def test_quick_players_arriving_at_once_on_two_processes_meet_in_pairs(store):
    """Twelve players at the same instant, every other one on the second process (on SQLite
    one process): six rooms of two, none left waiting alone."""
    import threading
    servers = [store.serve("--quick-wait", "600")]
    servers.append(store.serve("--quick-wait", "600") if store.kind == "redis" else servers[0])
    players: list[Client] = []
    go = threading.Barrier(12)

    problems: list[BaseException] = []

    def arrive(n: int) -> None:
        go.wait()
        try:
            players.append(quick(servers[n % 2].url, f"P{n}"))
        except Exception as problem:  # noqa: BLE001 -- said below, with the rest
            problems.append(problem)

    threads = [threading.Thread(target=arrive, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = [p.code for p in players]
    if problems:
        print("".join(f"{i} {line}" for i, server in enumerate(servers) for line in server.lines))
    assert problems == []
    assert len(players) == 12 and sorted(codes.count(c) for c in set(codes)) == [2] * 6
    for client in players:
        client.close()
