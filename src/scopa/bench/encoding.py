"""What the room server's JSON costs a move, with the standard library and, side by side in the same
run, with orjson when it is installed (a measured extra: the game does not use it).

``python -m scopa.bench encoding [--moves N]`` plays two-player matches on a room (as the server
does) and times in CPU time, a move: the frames the move's seats are sent, as the server makes
them (``update_frames``: each view once a change) and as it made them before (each update alone,
its view made and encoded for each); the data of those frames (``to_wire``) and of the room's match
record (``record_to_dict``); and that data turned into text by each encoder. Each encoder turns the
same data into text, so only the encoders differ.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from scopa.engine import Rules
from scopa.net.protocol.codes import key_hash, new_seat_key
from scopa.net.protocol.server_messages import UpdateMessage, update_frames
from scopa.net.protocol.wire import encode, to_wire
from scopa.net.server.rooms import Entry, Room, new_room
from scopa.net.server.server import seat_updates
from scopa.storage import record_to_dict


def two_player_room() -> Room:
    """A started two-player room of two people, both shares given (the bench's and the tests' room)."""
    room, _ = new_room("ACDEFG", Rules(target=None), ("human", "human"), "Ann", key_hash(new_seat_key()), "easy",
                       now=0.0, server_seed=bytes([4]) * 32)
    seat, _ = room.join("Ben", key_hash(new_seat_key()))
    room.ready(seat)
    room.contribute(0, bytes([1]) * 32)
    room.contribute(seat, bytes([2]) * 32)
    room.start(0, now=0.0)
    return room


def samples(moves: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], float, float, list[list[Entry]]]:
    """Every move's frames and records as JSON-ready data, the CPU seconds to build them, and each
    move's entries."""
    room = two_player_room()
    changes: list[list[Entry]] = []
    frames: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    wire = records_cpu = 0.0
    for _ in range(moves):
        if room.state is None or room.state.is_match_over:
            room = two_player_room()
        state = room.state
        assert state is not None
        if state.is_deal_over:
            entries = room.next_deal(room.host, room.number, now=0.0)
        else:
            entries = room.play(state.to_move, state.legal_moves()[0], room.number, now=0.0)
        changes.append(entries)
        start = time.process_time()
        frames.extend(to_wire(UpdateMessage(entry.for_seat(seat))) for seat in (0, 1) for entry in entries)
        wire += time.process_time() - start
        start = time.process_time()
        records.append(record_to_dict(room.record))  # type: ignore[arg-type]  # a match is being played
        records_cpu += time.process_time() - start
    return frames, records, wire, records_cpu, changes


def frames_cpu(changes: list[list[Entry]], alone: bool, rounds: int = 3) -> float:
    """The least CPU seconds, over ``rounds``, to make every change's frames for both seats."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for entries in changes:
            for seat in (0, 1):
                if alone:
                    [encode(UpdateMessage(entry.for_seat(seat))) for entry in entries]
                else:
                    update_frames(seat_updates(entries, seat))
        best = min(best, time.process_time() - start)
    return best


def timed(encode: Callable[[Any], object], data: list[dict[str, Any]], rounds: int = 5) -> float:
    """The least CPU seconds, over ``rounds``, to encode every item of ``data``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for item in data:
            encode(item)
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m scopa.bench encoding", description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=2000, help="moves played and encoded (default 2000)")
    args = p.parse_args(argv)
    frames, records, _, _, changes = samples(max(1, args.moves))
    encoders: dict[str, Callable[[Any], object]] = {
        "json": lambda data: json.dumps(data, ensure_ascii=False, separators=(",", ":"))}
    if importlib.util.find_spec("orjson") is not None:
        orjson: Any = importlib.import_module("orjson")  # an optional extra: no stubs needed
        encoders["orjson"] = orjson.dumps
    print(f"{args.moves} moves, {len(frames)} frames (each seat's update), {len(records)} records; "
          f"microseconds a move, CPU time")
    print("  the frames' data into text (the same data for each encoder), and the records':")
    print(f"  the server's frames, each update alone (before): {1e6 * frames_cpu(changes, True) / args.moves:.1f}; "
          f"a view once a change (now): {1e6 * frames_cpu(changes, False) / args.moves:.1f}")
    for name, encoder in encoders.items():
        print(f"  {name}: frames {1e6 * timed(encoder, frames) / args.moves:.1f}, "
              f"records {1e6 * timed(encoder, records) / args.moves:.1f}")
    if "orjson" not in encoders:
        print("  orjson: not installed (pip install orjson to compare)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
