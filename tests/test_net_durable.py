"""The SQLite store's group commit (net.server.durable, docs/architecture.md "Costs"): a write commits at
once and is flushed to the disk with the others of its batch; nothing a write caused is sent before
that flush, frames keep their order, and a write committed but not yet flushed survives a SIGKILL."""
from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import signal
import threading
from pathlib import Path

import pytest

from helpers.net import host, join, reclaim, start
from scopa.bench.encoding import two_player_room
from scopa.engine import Rules
from scopa.net.protocol.client_messages import MoveRequest
from scopa.net.protocol.server_messages import Accepted, Refused, ResyncMessage, UpdateMessage
from scopa.net.server.durable import Outbox
from scopa.net.server.store import RoomStore

HOOKS = Path(__file__).parent / "fault_hooks"


class Disk:
    """A store's count of changes, and a flush that waits until the test lets it finish."""

    def __init__(self) -> None:
        self.written = 0
        self.flushing = threading.Event()
        self.go_on = threading.Event()
        self.flushed_at: list[int] = []

    def changes(self) -> int:
        return self.written

    def sync(self) -> None:
        seen = self.written
        self.flushing.set()
        assert self.go_on.wait(5)
        self.flushed_at.append(seen)


class Seat:
    def __init__(self, name: str, heard: list[tuple[str, str]]) -> None:
        self.name, self.heard = name, heard

    def deliver(self, item: str) -> None:
        self.heard.append((self.name, item))


def test_frames_wait_for_the_flush_of_every_write_before_them_and_keep_their_order():
    async def scenario() -> None:
        disk, heard = Disk(), []
        outbox = Outbox(disk.changes, disk.sync)
        ann, bob = Seat("ann", heard), Seat("bob", heard)
        outbox.put(ann, "pong")  # nothing written: it goes at the end of the turn
        await asyncio.sleep(0)
        assert heard == [("ann", "pong")]
        disk.written += 1  # a move stored (committed, not yet on the disk) ...
        outbox.put(bob, "update")  # ... then told
        outbox.put(ann, "accepted")
        await asyncio.sleep(0.05)
        assert heard == [("ann", "pong")]  # nothing of it leaves before the flush
        assert disk.flushing.is_set()
        outbox.put(ann, "pong 2")  # nothing new written, but after them: it waits behind them
        await asyncio.sleep(0.05)
        assert heard == [("ann", "pong")]
        disk.go_on.set()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if len(heard) == 4:
                break
        assert heard == [("ann", "pong"), ("bob", "update"), ("ann", "accepted"), ("ann", "pong 2")]
        assert disk.flushed_at == [1]
        await outbox.close()

    asyncio.run(scenario())


def test_a_flush_that_fails_holds_the_frames_and_is_tried_again():
    async def scenario() -> None:
        heard: list[tuple[str, str]] = []
        failures: list[BaseException] = []
        tries = []

        def sync() -> None:
            tries.append(1)
            if len(tries) == 1:
                raise OSError(5, "Input/output error")

        written = [1]
        outbox = Outbox(lambda: written[0], sync, failures.append)
        written[0] = 2
        outbox.put(Seat("ann", heard), "accepted")
        await asyncio.sleep(0.1)
        assert heard == [] and len(failures) == 1  # not said: the write may not be on the disk
        assert outbox.failing  # GET /healthz says 503 meanwhile
        for _ in range(200):
            await asyncio.sleep(0.01)
            if heard:
                break
        assert heard == [("ann", "accepted")] and len(tries) == 2  # said once a flush succeeded
        assert not outbox.failing
        await outbox.close()

    asyncio.run(scenario())


def test_seat_rows_are_written_again_only_when_they_changed_and_a_failed_write_changes_nothing(tmp_path):
    room = two_player_room()
    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.group_commit()
    store.save(room)
    room.seats[1].name = "Bea"
    store.db.execute("CREATE TRIGGER full BEFORE INSERT ON seats BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(Exception, match="disk full"):
        store.save(room)
    store.db.execute("DROP TRIGGER full")
    store.save(room)  # the seats changed since the last write that succeeded: written now
    store.sync()
    store.close()
    [back], _ = RoomStore(tmp_path / "rooms.sqlite3").load_all()
    assert [seat.name for seat in back.seats] == ["Ann", "Bea"]


def _save_and_die(path: str) -> None:
    room = two_player_room()
    for _ in range(3):
        room.play(room.state.to_move, room.state.legal_moves()[0], room.number, now=0.0)
    store = RoomStore(Path(path))
    store.group_commit()
    store.save(room)  # committed to the log, never flushed by this process
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_write_committed_and_not_yet_flushed_survives_a_sigkill(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    child = multiprocessing.get_context("spawn").Process(target=_save_and_die, args=(str(path),))
    child.start()
    child.join(30)
    assert child.exitcode == -signal.SIGKILL
    [back], problems = RoomStore(path).load_all()
    assert problems == [] and len(back.record.moves) == 3


def test_no_answer_or_update_leaves_the_server_before_its_move_is_flushed_and_a_kill_then_loses_nothing(
        tmp_path, monkeypatch, serve):
    hold = tmp_path / "hold"
    monkeypatch.setenv("PYTHONPATH", str(HOOKS))
    monkeypatch.setenv("SCOPA_TEST_FAULT", f"hold_sync:{hold}")
    db = tmp_path / "rooms.sqlite3"
    server = serve(db=db)  # both servers stopped after the test, whatever happens (this one killed below)
    ann = host(server.url, Rules(target=None))
    bob = join(server.url, ann.code)
    start(ann, bob)
    mover, other = (ann, bob) if ann.view.is_my_turn else (bob, ann)
    hold.touch()  # the disk takes its time from now
    mover.send(MoveRequest(1, mover.view.legal_moves()[0], mover.number))
    assert not mover.poll(1.0) and not other.poll(0.1)  # neither the answer nor the card played
    hold.unlink()
    assert isinstance(mover.until(lambda m: isinstance(m, (Accepted, Refused))), Accepted)
    other.until(lambda m: isinstance(m, UpdateMessage) and len(m.update.view.history) == 1)
    mover.poll(0.3), other.poll(0.3)  # the rest of that change (the card stays on the table)
    mover, other = other, mover
    hold.touch()
    mover.send(MoveRequest(2, mover.view.legal_moves()[0], mover.number))
    seen = len(mover.frames)
    assert not mover.poll(1.0), mover.frames[seen:]
    server.kill()  # committed, not flushed, not answered: the operating system still has it
    hold.unlink()
    back = reclaim(serve(db=db).url, mover, last=0)
    back.until(lambda m: isinstance(m, ResyncMessage))
    assert len(back.view.history) == 2


def test_the_stored_record_is_the_whole_match_after_every_move_and_after_the_room_is_read_back(tmp_path):
    """The move log is turned into JSON once a move (the store keeps what it wrote): the record in
    the file is still, after each save, exactly the match's record."""
    from scopa.storage import record_to_dict
    room = two_player_room()
    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.group_commit()

    def stored() -> dict:
        (text,) = store.db.execute("SELECT record FROM rooms WHERE code = ?", (room.code,)).fetchone()
        return json.loads(text)

    store.save(room)
    assert stored() == record_to_dict(room.record) and stored()["moves"] == []
    for _ in range(5):
        room.play(room.state.to_move, room.state.legal_moves()[0], room.number, now=0.0)
        store.save(room)
        assert stored() == record_to_dict(room.record)
    room = store.load(room.code)  # as after a failed write: the same moves, read back as new objects
    room.play(room.state.to_move, room.state.legal_moves()[0], room.number, now=0.0)
    store.save(room)
    assert stored() == record_to_dict(room.record) and len(stored()["moves"]) == 6



def test_the_count_of_changes_only_grows_when_sqlites_own_count_wraps(tmp_path):
    """SQLite's total_changes is a C int: past 2**31 it wraps. Had the outbox compared it as it is,
    a wrapped count would have let every frame out before its write reached the disk."""
    class Connection:
        total_changes = 2 ** 31 - 3

    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.group_commit()
    real, store.db = store.db, Connection()  # type: ignore[assignment]
    store._total = Connection.total_changes
    first = store.changes()
    Connection.total_changes = 2 ** 31 - 1  # two more rows changed
    assert store.changes() == first + 2
    Connection.total_changes = -2 ** 31 + 2  # three more: SQLite's count wrapped
    assert store.changes() == first + 5
    store.db = real
    store.close()
