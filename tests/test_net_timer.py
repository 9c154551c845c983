"""The turn timer over loopback (issue 28): real servers on both stores, with Redis the two
players on two processes. ``--clock-scale 0.1`` makes a 20-second turn two seconds; nothing here
asserts a time but one lower bound (a slow machine only makes it longer), only what was said and
played, in order."""
from __future__ import annotations

import json
import secrets
import time

import pytest

from helpers.net import Client, error, join, play_out, reclaim, start
from scopa.engine import CardPlayed, Rules
from scopa.net.protocol.client_messages import (
    Back,
    Contribute,
    CreateRoom,
    MoreTime,
    MoveRequest,
    RecordRequest,
    parse_client_message,
)
from scopa.net.protocol.server_messages import (
    ClockMessage,
    ErrorMessage,
    MatchRecordMessage,
    Refused,
    UpdateMessage,
    Welcome,
    parse_server_message,
)
from scopa.net.protocol.wire import (
    ProtocolError,
    encode,
)
from scopa.net.server.clock import TurnClock, clock_from_data
from scopa.table import Notice

FAST = ("--clock-scale", "0.1")


def timed_host(url: str, turn_time: int = 20) -> Client:
    client = Client(url)
    client.send(CreateRoom("Ann", Rules(target=None), ("human", "human"), "easy", turn_time=turn_time))
    welcome = client.until(lambda m: isinstance(m, Welcome))
    assert welcome.info.turn_time == turn_time
    client.send(Contribute(secrets.token_bytes(32)))
    return client


def timed_pair(store):
    first = store.serve(*FAST)
    second = store.serve(*FAST) if store.kind == "redis" else first
    ann = timed_host(first.url)
    bob = join(second.url, ann.code)
    start(ann, bob)
    return ann, bob


def notice(kind: str):
    return lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, Notice) and m.update.event.kind == kind


def heard_until_played(client, seat: int, timeout: float = 20.0) -> list[str]:
    """What ``client`` heard of the timer until ``seat``'s card was played: "warn 10", notices, "played"."""
    said: list[str] = []

    def step(m) -> bool:
        if isinstance(m, ClockMessage):
            said.append(f"warn {m.seconds}")
        elif isinstance(m, UpdateMessage) and isinstance(m.update.event, Notice):
            said.append(m.update.event.kind)
        elif isinstance(m, UpdateMessage) and isinstance(m.update.event, CardPlayed) and m.update.event.seat == seat:
            said.append("played")
            return True
        return False
    client.until(step, timeout)
    return said


def test_warnings_then_the_easy_card_is_played_and_two_in_a_row_is_away(store):
    ann, bob = timed_pair(store)
    mover, other = (ann, bob) if ann.view.is_my_turn else (bob, ann)
    seat = mover.seat
    assert heard_until_played(other, seat) == ["warn 10", "warn 5", "timed_out", "played"]
    assert heard_until_played(mover, seat) == ["warn 10", "warn 5", "timed_out", "played"]
    other.poll(0.2)
    mover.poll(0.2)
    other.send(MoveRequest(1, other.view.legal_moves()[0], other.number))  # in time
    heard_until_played(mover, other.seat)
    assert heard_until_played(other, seat) == ["warn 10", "warn 5", "timed_out", "played"]
    other.until(notice("covered"))  # two in a row: away, a computer covers the seat
    assert [n.kind for n in other.notices if n.seat == seat][-3:] == ["timed_out", "timed_out", "covered"]
    mover.poll(0.5)
    mover.send(Back())  # a key pressed: the seat is the player's again
    assert other.until(notice("reclaimed")).update.event.seat == seat


def test_the_deal_a_card_was_played_in_for_a_seat_out_of_time_is_said_with_that_seats_record_only(store):
    """A card the server played for a seat whose time ran out is play its player did not make: the
    ``match_record`` answer to that seat names its deal (``covered``), so the client logs it
    assisted; the other seat's answer names none. With Redis the room, its clock too, goes
    through the store between the two processes."""
    ann, bob = timed_pair(store)
    mover, other = (ann, bob) if ann.view.is_my_turn else (bob, ann)
    heard_until_played(other, mover.seat)  # its time runs out once; after that both play in time
    heard_until_played(mover, mover.seat)  # each has the card played before it plays on
    play_out([ann, bob], ann)
    for number, client in enumerate((mover, other), 1):
        client.send(RecordRequest(number))
        answer = client.until(lambda m: isinstance(m, (Refused, MatchRecordMessage)))
        assert isinstance(answer, MatchRecordMessage), answer
        assert answer.covered == (frozenset({1}) if client is mover else frozenset())
        assert answer.record["assisted_deals"] == []  # the table's record is the same for every seat


def test_more_time_is_given_once_a_deal_and_said_to_all(store):
    ann, bob = timed_pair(store)
    mover, other = (ann, bob) if ann.view.is_my_turn else (bob, ann)
    waiting = other
    waiting.send(MoreTime())  # not its turn
    assert error(waiting) == ErrorMessage("no_more_time", {})
    mover.send(MoreTime())
    said = other.until(notice("more_time"))
    assert said.update.event.seat == mover.seat
    mover.until(notice("more_time"))
    mover.send(MoreTime())  # once a deal
    assert error(mover) == ErrorMessage("no_more_time", {})
    mover.send(MoveRequest(9, mover.view.legal_moves()[0], mover.number))  # played in time: no timeout
    other.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, CardPlayed))
    assert not [n for n in other.notices if n.kind == "timed_out"]


def test_a_dropped_players_turn_waits_and_starts_again_in_full_when_they_are_back(store):
    """The timer pauses while a player is disconnected and under the grace rules (60 s and 15 s
    here, not scaled: far longer than the test): nothing is warned or played for the seat while it
    is away, and back in its seat the player has a whole turn again, warnings and all."""
    first = store.serve(*FAST)
    second = store.serve(*FAST) if store.kind == "redis" else first
    ann = timed_host(first.url)
    bob = join(second.url, ann.code)
    start(ann, bob)
    (mover, url), other = ((ann, first.url), bob) if ann.view.is_my_turn else ((bob, second.url), ann)
    seat, before = mover.seat, len(other.frames)
    mover.close()
    away_until = time.monotonic() + 4.0  # twice a fast 20-second turn
    while time.monotonic() < away_until:
        other.poll(0.2)
    away = [parse_frame(frame) for frame in other.frames[before:]]
    assert not [m for m in away if isinstance(m, ClockMessage) and m.seat == seat]
    assert not [n for n in other.notices if n.kind in ("timed_out", "covered")]
    assert not [m for m in away if isinstance(m, UpdateMessage) and isinstance(m.update.event, CardPlayed)]
    returned = time.monotonic()
    back = reclaim(url, mover)
    heard = [said for said in heard_until_played(other, seat) if said.startswith("warn") or said == "played"
             or said == "timed_out"]
    assert heard == ["warn 10", "warn 5", "timed_out", "played"]
    assert time.monotonic() - returned >= 1.5  # a whole fast turn (2 s), not the end of the one before the drop
    back.close()


def parse_frame(frame: str):
    """A frame another seat received, read again (the rules of a two-player single deal)."""
    return parse_server_message(frame, Rules(target=None))


def test_a_room_without_a_timer_never_times_out(serve):
    server = serve(*FAST)
    from helpers.net import host
    ann = host(server.url)
    bob = join(server.url, ann.code)
    start(ann, bob)
    mover = ann if ann.view.is_my_turn else bob
    mover.send(MoreTime())
    assert error(mover) == ErrorMessage("no_more_time", {})
    other = bob if mover is ann else ann
    other.poll(3.0)  # longer than a fast 20-second turn
    assert not any('"clock"' in frame for frame in other.frames)
    assert not [n for n in other.notices if n.kind == "timed_out"]


def test_only_the_offered_turn_times():
    base = {"type": "create_room", "version": 2, "name": "A", "rules": {}, "seats": ["human", "human"]}
    for bad in (0, 15, 21, True, "20", 90.0):
        with pytest.raises(ProtocolError):
            parse_client_message(encode_dict({**base, "turn_time": bad}))
    assert parse_client_message(encode_dict({**base, "turn_time": 60})).turn_time == 60
    assert parse_client_message(encode(CreateRoom("A", Rules(), ("human", "human")))).turn_time is None


def encode_dict(data) -> str:
    return json.dumps(data)


def test_the_deals_played_for_a_seat_out_of_time_are_kept_with_the_clock_and_an_older_clock_has_none():
    clock = TurnClock(30, misses={1: 1}, timed_out_in={1: {2, 3}})
    kept = clock_from_data(json.loads(json.dumps(clock.to_data())))  # as both stores keep it
    assert kept == clock
    older = {key: value for key, value in clock.to_data().items() if key != "timed_out_in"}
    assert clock_from_data(older).timed_out_in == {}
