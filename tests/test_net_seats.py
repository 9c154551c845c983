"""Seats in the lobby (issue 28), both stores (with Redis the players on two processes): the host
opens a computer's seat for a person and gives a free seat to a computer; everyone hears it."""
from __future__ import annotations

from helpers.net import error, host, join, start
from scopa.engine import Rules
from scopa.net.messages import ErrorMessage, SeatKind, UpdateMessage
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
