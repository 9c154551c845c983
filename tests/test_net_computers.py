"""A room's computers think in worker processes, off the server's event loop: the same moves as
in the loop (a seed of its own for each move), and one room's thinking computer never holds up
another room's messages (both stores, real servers over loopback)."""
from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import os
import threading
import time
from pathlib import Path

import pytest

from helpers.net import Server, host, join, play_out, start
from scopa.engine import CardPlayed, Rules
from scopa.net.protocol.client_messages import MoveRequest
from scopa.net.protocol.codes import key_hash, new_seat_key
from scopa.net.protocol.server_messages import Accepted, Refused, UpdateMessage
from scopa.net.server.rooms import Room, move_seed, new_room
from scopa.net.server.thinking import Thinkers, fallback, think
from scopa.players import make_player

KINDS = ("human", "human", "hard", "expert")


def _room(seed: int, rules: Rules = Rules(players=4, target=None)) -> Room:
    """A started room whose server seed and shares follow from ``seed``, so two rooms of one seed
    deal the same match."""
    def part(label: int) -> bytes:
        return hashlib.sha256(f"{seed} {label}".encode()).digest()

    room, _ = new_room("ACDEFG", rules, KINDS, "Ann", key_hash(new_seat_key()), "medium",
                       now=0.0, server_seed=part(-1))
    room.iterations = 6  # the expert by a fixed number of samples, not by its time: the same move every time
    seat, _ = room.join("Ben", key_hash(new_seat_key()))
    room.ready(seat)
    for human in (0, seat):
        room.contribute(human, part(human))
    room.start(0, now=0.0)
    return room


async def _play_deal(room: Room, thinkers: Thinkers | None) -> list[tuple[int, str, str | None]]:
    """The first deal played out: the people their first legal move, the computers in ``thinkers``
    (None: in the room, in this process). Seat 1's player drops out halfway and is covered, so a
    covered seat's moves are compared too. Every move as (seat, move, the Cirulla claim made before it)."""
    now = 0.0
    while room.state is not None and not room.state.is_deal_over:
        now += 1.0
        state = room.state
        if len(room.record.moves) == 12 and not room.seats[1].covered:
            room.disconnected(1, now)
            room.cover(1)
        turn = room.computer_turn()
        if turn is None:
            room.play(state.to_move, state.legal_moves()[0], room.number, now)
        elif thinkers is None:
            assert room.computer_move(now)
        else:  # as the server does: a Cirulla claim asks the pool nothing
            assert room.computer_move(now, turn, None if turn.claim else await thinkers.move(turn))
    return [(m.seat, str(m.move), m.claim) for m in room.record.moves]


def test_a_computer_moves_the_same_in_the_worker_processes_and_in_the_loop():
    for seed in (3, 11):
        inline = asyncio.run(_play_deal(_room(seed), None))
        thinkers = Thinkers(2, cap=600.0)
        try:
            pooled = asyncio.run(_play_deal(_room(seed), thinkers))
        finally:
            thinkers.close()
        assert pooled == inline and thinkers.late == 0
        assert {seat for seat, _, _ in inline} == {0, 1, 2, 3} and len(inline) == 36


def test_the_computers_of_a_cirulla_room_claim_their_bonuses_and_move_the_same_through_the_workers():
    """Seeds 5 and 39 deal the two computers a cirulla each, and the hard one a tris: each claims
    it as a turn of its own (nothing thought in the pool), and then plays the move the workers
    worked out for the view after its claim, as it would in the loop."""
    rules = Rules.cirulla(players=4, target=None)
    thinkers = Thinkers(2, cap=600.0)
    try:
        for seed, claims in ((5, [(2, "cirulla"), (3, "cirulla")]), (39, [(2, "tris")])):
            inline = asyncio.run(_play_deal(_room(seed, rules), None))
            pooled = asyncio.run(_play_deal(_room(seed, rules), thinkers))
            assert pooled == inline and len(inline) == 36
            assert [(seat, claim) for seat, _, claim in inline if claim] == claims
    finally:
        thinkers.close()
    assert thinkers.late == 0


def test_a_turn_that_claims_is_keyed_apart_from_the_move_after_the_claim():
    room = _room(39, Rules.cirulla(players=4, target=None))
    now = 0.0
    while (turn := room.computer_turn()) is None or not turn.claim:
        now += 1.0
        state = room.state
        if turn is None:
            room.play(state.to_move, state.legal_moves()[0], room.number, now)
        else:
            room.computer_move(now)
    seat = turn.key[0]
    moves = len(room.record.moves)
    assert room.computer_move(now, turn, None)  # the claim, made by the table
    after = room.computer_turn()
    assert after is not None and not after.claim and after.key == (seat, turn.key[1], moves, turn.key[3] + 1)
    assert after.view.claims and len(room.record.moves) == moves  # logged with the move that follows
    assert room.computer_move(now, turn, think(after)) == []  # a move for the turn before the claim: not played
    assert room.computer_move(now, after, think(after)) and len(room.record.moves) == moves + 1


def test_each_computer_move_has_a_seed_of_its_own_and_a_changed_table_is_not_played():
    seeds = {move_seed(5, seat, played) for seat in range(4) for played in range(40)}
    assert len(seeds) == 160 and move_seed(5, 2, 7) == move_seed(5, 2, 7) != move_seed(6, 2, 7)
    room = _room(3)
    while room.computer_turn() is None:
        state = room.state
        room.play(state.to_move, state.legal_moves()[0], room.number, 1.0)
    turn = room.computer_turn()
    move = think(turn)
    assert room.computer_move(2.0, turn, move)  # played: the table is where it was
    assert not room.computer_move(3.0, turn, move)  # the same turn again: the table has moved on


def test_one_rooms_thinking_computer_does_not_hold_up_another_rooms_moves(store):
    """Room A's expert thinks for three seconds; meanwhile room B plays a move. B's move is
    answered before A's computer has played (in the loop, B's move waited for the expert)."""
    server = store.serve("--computer-budget", "3", "--computer-workers", "1")
    ann = host(server.url, Rules(players=4, target=None), seats=("human", "human", "expert", "expert"))
    ben = join(server.url, ann.code)
    start(ann, ben)
    cid = host(server.url, name="Cid")
    dee = join(server.url, cid.code, name="Dee")
    start(cid, dee)
    seated = {0: ann, 1: ben}
    ann.poll(0.2)
    ben.poll(0.2)
    while ann.view.to_move in seated:  # the people of room A play until a computer is to move
        mover = seated[ann.view.to_move]
        mover.send(MoveRequest(1, mover.view.legal_moves()[0], mover.number))
        answer = mover.until(lambda m: isinstance(m, (Accepted, Refused)))
        assert isinstance(answer, Accepted), answer
        for client in seated.values():
            client.catch_up(answer.number)
    computer = ann.view.to_move
    played: list[float] = []

    def watch() -> None:
        ann.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, CardPlayed)
                  and m.update.event.seat == computer, timeout=60)
        played.append(time.monotonic())

    watcher = threading.Thread(target=watch)
    watcher.start()
    for client in (cid, dee):
        client.poll(0.1)
    mover = cid if cid.view.to_move == cid.seat else dee
    mover.send(MoveRequest(1, mover.view.legal_moves()[0], mover.number))
    answer = mover.until(lambda m: isinstance(m, (Accepted, Refused)), timeout=60)
    answered = time.monotonic()
    watcher.join(90)
    assert isinstance(answer, Accepted), answer
    assert played and answered < played[0], "room B's move waited for room A's computer"


def test_with_no_worker_processes_the_computers_think_in_the_loop_and_play(store):
    server = store.serve("--computer-workers", "0")
    ann = host(server.url, Rules(players=4, target=None), seats=KINDS, level="easy")
    ben = join(server.url, ann.code)
    start(ann, ben)
    play_out([ann, ben], ann)
    assert {play.seat for play in ann.view.history} == {0, 1, 2, 3}


@pytest.mark.linux
def test_the_computer_workers_end_with_a_killed_server(tmp_path):
    """A worker waited on for moves that never came, after its server was killed (SIGKILL)."""
    children = Path("/proc/self/task") / str(os.getpid()) / "children"
    if not children.exists():
        pytest.skip("no /proc/PID/task/PID/children here to find the workers")
    server = Server(tmp_path / "rooms.sqlite3", "--computer-workers", "2")
    try:
        ann = host(server.url, Rules(players=4, target=None), seats=KINDS, level="easy")
        ben = join(server.url, ann.code)
        start(ann, ben)
        play_out([ann, ben], ann, stop=lambda: any(play.seat in (2, 3) for play in ann.view.history))
        workers = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        assert workers
    finally:
        server.kill()
    for pid in workers:
        end = time.monotonic() + 30
        while Path(f"/proc/{pid}").exists() and time.monotonic() < end:
            time.sleep(0.1)
        assert not Path(f"/proc/{pid}").exists() or "State:\tZ" in Path(f"/proc/{pid}/status").read_text()


def test_a_move_past_the_cap_is_the_easy_levels_from_the_same_seed():
    turn = dataclasses.replace(_expert_turn(), budget=20.0, iterations=None)  # thinks for 20 s
    thinkers = Thinkers(1, cap=0.5)
    try:
        move = asyncio.run(thinkers.move(turn))
    finally:
        thinkers.close()
    assert thinkers.late == 1 and move == fallback(turn) == make_player("easy", turn.seed).choose_move(turn.view)


def _expert_turn():
    room = _room(3)
    while room.computer_turn() is None or room.computer_turn().level != "expert":
        if room.computer_turn() is None:
            state = room.state
            room.play(state.to_move, state.legal_moves()[0], room.number, 1.0)
        else:
            room.computer_move(1.0)
    return room.computer_turn()


@pytest.mark.linux
def test_a_worker_that_dies_mid_move_costs_that_move_only():
    children = Path("/proc/self/task") / str(os.getpid()) / "children"
    if not children.exists():
        pytest.skip("no /proc/PID/task/PID/children here to find the workers")
    turn = _expert_turn()
    slow = dataclasses.replace(turn, budget=20.0, iterations=None)
    thinkers = Thinkers(1, cap=60.0)
    before = set(children.read_text().split())  # an earlier test's worker may still be finishing its move

    async def kill_a_worker_mid_move():
        moving = asyncio.ensure_future(thinkers.move(slow))
        workers: list[str] = []
        while not workers:
            await asyncio.sleep(0.2)
            workers = [pid for pid in set(children.read_text().split()) - before
                       if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
        await asyncio.sleep(1.0)  # the worker has started on the move
        os.kill(int(workers[0]), 9)
        return await moving, await thinkers.move(turn)

    try:
        lost, next_move = asyncio.run(kill_a_worker_mid_move())
    finally:
        thinkers.close()
    assert thinkers.late == 1 and lost == fallback(slow) and next_move == think(turn)
