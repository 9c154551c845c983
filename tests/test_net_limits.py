"""Guessing room codes is slowed: every answer that tells whether a code exists counts, tries sent
at once are counted at once, several processes on one Redis count together, a seat's right key is
never throttled, and ``--trust-proxy`` counts clients by the address their proxy saw. Real
servers over loopback, on both stores (each server allows 10 counted tries a minute an address)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from helpers.net import Client, error, host, join, reclaim, start
from scopa.net.protocol.client_messages import Hello, Join
from scopa.net.protocol.codes import new_code, new_seat_key
from scopa.net.protocol.server_messages import ErrorMessage, Welcome

LIMIT = 10


def answer(url: str, message, headers: dict[str, str] | None = None) -> str:
    """The first answer's code ("welcome" for a seat) to one first message on a new connection."""
    client = Client(url, additional_headers=headers) if headers else Client(url)
    try:
        client.send(message)
        reply = client.until(lambda m: isinstance(m, (Welcome, ErrorMessage)))
        return "welcome" if isinstance(reply, Welcome) else reply.code
    finally:
        client.close()


def guesses(urls: list[str], count: int, headers: dict[str, str] | None = None) -> list[str]:
    """``count`` joins with random codes, sent at once from many connections, spread over ``urls``."""
    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(lambda n: answer(urls[n % len(urls)], Join(new_code(), "Eve"), headers), range(count)))


def test_joins_sent_at_once_are_counted_at_once(store):
    """With Redis all of them were answered "unknown_room" (the check and the count were apart)."""
    server = store.serve()
    answers = guesses([server.url], 40)
    assert answers.count("unknown_room") == LIMIT and answers.count("too_many_tries") == 40 - LIMIT


def test_several_processes_count_one_addresss_tries_together(processes):
    """Each process counted by itself: an address spread over two had twice the tries."""
    first, second = processes(2)
    one_by_one = [answer((first.url, second.url)[n % 2], Join(new_code(), "Eve")) for n in range(14)]
    assert one_by_one == ["unknown_room"] * LIMIT + ["too_many_tries"] * 4
    assert answer(first.url, Join(new_code(), "Eve")) == answer(second.url, Join(new_code(), "Eve")) == "too_many_tries"


def test_joins_to_a_started_or_a_full_room_count_as_tries(store):
    """They tell that the code exists, yet were not counted: anyone could test codes at will."""
    server = store.serve()
    ann = host(server.url)
    ben = join(server.url, ann.code)
    full = [answer(server.url, Join(ann.code, "Eve")) for _ in range(4)]
    start(ann, ben)
    started = [answer(server.url, Join(ann.code, "Eve")) for _ in range(LIMIT - 4)]
    assert full == ["room_full"] * 4 and started == ["started"] * (LIMIT - 4)
    assert answer(server.url, Join(ann.code, "Eve")) == "too_many_tries"
    assert answer(server.url, Join(new_code(), "Eve")) == "too_many_tries"


def test_a_seat_with_its_right_key_is_taken_back_from_a_throttled_address(store):
    """Behind a NAT or a proxy, one person guessing locked everyone out of their own seats."""
    server = store.serve()
    ann = host(server.url)
    ben = join(server.url, ann.code)
    start(ann, ben)
    assert guesses([server.url], 12).count("too_many_tries") == 2
    back = reclaim(server.url, ben)  # the right key: welcomed
    assert back.seat == ben.seat
    assert answer(server.url, Hello(ann.code, new_seat_key(), 0)) == "too_many_tries"  # a wrong one tells nothing
    thief = Client(server.url)
    thief.send(Hello(new_code(), new_seat_key(), 0))
    assert error(thief).code == "too_many_tries"


def test_a_joining_player_is_not_counted_as_a_guess(store):
    server = store.serve()
    for _ in range(LIMIT + 2):
        ann = host(server.url)
        join(server.url, ann.code, ready=False)
        ann.close()
    assert answer(server.url, Join(new_code(), "Eve")) == "unknown_room"


def test_behind_a_trusted_proxy_each_client_is_counted_by_its_own_address(store):
    server = store.serve("--trust-proxy")
    eve = {"X-Forwarded-For": "198.51.100.7"}
    assert guesses([server.url], 12, eve).count("too_many_tries") == 2
    assert answer(server.url, Join(new_code(), "Eve"), {"X-Forwarded-For": "203.0.113.9, 198.51.100.7"}) \
        == "too_many_tries"  # the address the proxy saw is the last one: what the client wrote first is not trusted
    assert answer(server.url, Join(new_code(), "Ann"), {"X-Forwarded-For": "198.51.100.8"}) == "unknown_room"
    assert answer(server.url, Join(new_code(), "Ann")) == "unknown_room"  # the proxy's own address, 127.0.0.1


def test_without_trust_proxy_the_header_is_not_believed(store):
    server = store.serve()
    assert guesses([server.url], 12, {"X-Forwarded-For": "198.51.100.7"}).count("too_many_tries") == 2
    assert answer(server.url, Join(new_code(), "Ann"), {"X-Forwarded-For": "198.51.100.8"}) == "too_many_tries"
