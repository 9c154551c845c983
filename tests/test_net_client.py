"""RemoteTable against the real room server: ``scopa serve`` in a subprocess on a loopback port."""
from __future__ import annotations

import socket

import pytest

from helpers.net import SINGLE, mover_of, opened, started_pair, until
from scopa.engine import Move, Rules, legal_captures
from scopa.narration import CardNames, Messages, explain_illegal
from scopa.net.client.client import UNREACHABLE, RemoteTable, TableClosed
from scopa.net.protocol.client_messages import CreateRoom, Hello, Join
from scopa.table import Resync, Table


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_remote_table_is_a_table_and_plays_moves_both_seats_hear(serve, tables):
    server = serve()
    host, guest = started_pair(server.url, tables)
    assert isinstance(host, Table)
    assert (host.seats_here(), guest.seats_here()) == ((0,), (1,))
    assert [s.name for s in guest.info().seats] == ["Ann", "Ben"] and guest.info().code == host.code
    mover = mover_of(host, guest)
    other = guest if mover is host else host
    before = other.latest()
    view = mover.view(mover.seat)
    move = view.legal_moves()[0]
    result = mover.submit(mover.seat, move, mover.latest())
    assert result.accepted and result.updates
    assert result.updates[-1].view.hand == tuple(c for c in view.hand if c != move.card)
    heard = other.wait(other.seat, before, timeout=5)
    assert next(u.event.card for u in heard if hasattr(u.event, "card")) == move.card
    assert all(u.view is None or u.view.seat == other.seat for u in heard)  # only its own view, ever
    with pytest.raises(LookupError):
        other.view(mover.seat)


def test_stale_illegal_and_out_of_turn_moves_are_refused_with_the_engines_reason(serve, tables):
    server = serve()
    first, second = _mover_first(*started_pair(server.url, tables))
    out_of_turn = second.submit(second.seat, Move(second.view(second.seat).hand[0], ()), second.latest())
    assert (out_of_turn.accepted, out_of_turn.refusal) == (False, "not_your_turn")
    before = second.latest()
    assert first.submit(first.seat, first.view(first.seat).legal_moves()[0], first.latest()).accepted
    until(lambda: second.view(second.seat).is_my_turn)
    view = second.view(second.seat)
    stale = second.submit(second.seat, view.legal_moves()[0], before)  # chosen before the first seat's play
    assert (stale.accepted, stale.refusal) == (False, "stale")
    wrong = _an_illegal_move(view)
    refused = second.submit(second.seat, wrong, second.latest())
    assert (refused.accepted, refused.refusal) == (False, "illegal") and refused.reason is not None
    names = CardNames(Messages("it"), "french")
    said = explain_illegal(refused.reason, names)
    assert said and names.the(wrong.card).lower() in said.lower()


def _an_illegal_move(view) -> Move:
    """A card laid down though it can take (it must), or a capture of a card that is not on the table."""
    for card in view.hand:
        if legal_captures(card, view.table, view.rules):
            return Move(card, ())
    elsewhere = next(c for c in view.hand[1:] + tuple(c for pile in view.piles for c in pile))
    return Move(view.hand[0], (elsewhere,))


def test_a_dropped_connection_is_taken_up_again_and_the_missed_updates_arrive(serve, tables):
    server = serve()
    mover, away = _mover_first(*started_pair(server.url, tables))
    away.backoff = (1.0,)
    seen = away.latest()
    away._ws.close()  # the network drops this connection; the table notices it alone
    until(lambda: not away.connected)
    played = mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest())
    assert played.accepted
    until(lambda: away.connected and away.latest() >= mover.latest())
    assert away.drops == 1
    missed = away.updates(away.seat, seen)
    assert not isinstance(missed, Resync)
    assert [u.number for u in missed] == list(range(seen + 1, away.latest() + 1))  # none lost, none twice
    assert any(getattr(u.event, "seat", None) == mover.seat and hasattr(u.event, "card") for u in missed)


def _mover_first(*tables: RemoteTable) -> tuple[RemoteTable, RemoteTable]:
    mover = mover_of(*tables)
    return mover, next(t for t in tables if t is not mover)


def test_a_killed_server_comes_back_and_the_table_reconnects_by_itself(serve, tables, tmp_path):
    port = free_port()
    server = serve("--port", str(port))
    host, guest = started_pair(server.url, tables)
    mover = mover_of(host, guest)
    server.kill()
    until(lambda: not host.connected and not guest.connected)
    serve("--port", str(port))
    until(lambda: host.connected and guest.connected, seconds=10)
    result = mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest())
    assert result.accepted


def test_a_seat_key_takes_the_seat_back_from_a_new_table(serve, tables):
    server = serve()
    _host, guest = started_pair(server.url, tables)
    key, code = guest.key, guest.code
    guest.close()
    again = tables(server.url, Hello(code, key, 0))
    assert (again.seat == 1 and again.has_view()) or until(again.has_view) is None
    assert again.view(1).hand  # its own hand, from a fresh view


def play_first_deal(host: RemoteTable, guest: RemoteTable) -> None:
    """Both seats play their first legal move on their turn until the deal is scored; the host deals
    the second and its first move is played."""
    tables = (host, guest)
    while host.view(host.seat).phase.value != "deal_over":
        mover = mover_of(*tables)
        assert mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest()).accepted
        until(lambda: host.latest() == guest.latest())
    assert host.next_deal(host.seat, host.latest()).accepted
    until(lambda: guest.latest() == host.latest() and guest.view(guest.seat).deal_number == 2)
    mover = mover_of(*tables)
    assert mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest()).accepted
    until(lambda: host.latest() == guest.latest())


@pytest.mark.parametrize("replay", ["200", "3"])  # the missed updates follow the welcome, or a fresh view
def test_a_client_started_afresh_has_the_last_deals_score_sheet(serve, tables, replay):
    """B after a restart: a new RemoteTable taking the seat back with its key (as ``scopa join`` does
    after a crash, from number 0) has the score of the deal that ended before it started."""
    server = serve("--max-replay", replay)
    host, guest = started_pair(server.url, tables, Rules(target=21))
    play_first_deal(host, guest)
    sheet = guest.last_score()
    assert sheet is not None and sheet.deal_number == 1 and sheet == host.last_score()
    key, code = guest.key, guest.code
    guest.close()
    again = tables(server.url, Hello(code, key, 0))
    assert again.view(again.seat).deal_number == 2  # open() returns at the current position, not an old one
    assert again.last_score() == sheet  # the very sheet, breakdown and match score
    assert again.updates(again.seat, again.latest()) == []  # nothing of deal 1 to narrate again


@pytest.mark.parametrize("case", ["wrong_key", "unknown_room", "room_full", UNREACHABLE])
def test_refusals_of_the_first_message_are_one_problem_each(serve, tables, case):
    server = serve()
    host = tables(server.url, CreateRoom("Ann", SINGLE, ("human", "human"), "easy"))
    first = {"wrong_key": Hello(host.code, "x" * 32, 0), "unknown_room": Join("ACDEFG", "Ben"),
             "room_full": Join(host.code, "Cid"), UNREACHABLE: Join(host.code, "Ben")}[case]
    if case == "room_full":
        tables(server.url, Join(host.code, "Ben"))
    url = f"ws://127.0.0.1:{free_port()}" if case == UNREACHABLE else server.url
    with pytest.raises(TableClosed) as refused:
        opened(url, first)
    assert refused.value.problem.code == case


def test_the_connections_own_log_never_reaches_the_players_screen(serve):
    """websockets logs a failed keepalive ping with a traceback; with no logging set up (the game
    sets none) Python writes it to stderr, the player's screen, read aloud. A client in a process
    of its own: pytest's log capture would hide what a player sees."""
    import os
    import subprocess
    import sys

    from helpers.net import ROOT
    server = serve()
    script = (
        "from scopa.engine import Rules\n"
        "from scopa.net.client.client import RemoteTable\n"
        "from scopa.net.protocol.client_messages import CreateRoom\n"
        f"table = RemoteTable({server.url!r}, CreateRoom('Ann', Rules(), ('human', 'human'), 'easy'))\n"
        "table.open()\n"
        "try:\n"
        "    raise BrokenPipeError(32, 'Broken pipe')\n"
        "except BrokenPipeError:\n"
        "    logger = table._ws._connection.logger  # the websockets connection's own\n"
        "    logger.error('keepalive ping failed', exc_info=True)  # as websockets' keepalive does\n"
        "table.close()\n"
        "print('done')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.stdout == "done\n"
    assert done.stderr == ""
