"""Finding a game: which waiting room a quick match joins, and the public rooms ``tables`` lists.

Pure functions of the rooms a server holds (one process's, or those read from Redis), so that
both stores choose the same way: the oldest room first, so that the person who has waited
longest gets a partner first.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ...engine import Rules
from ..protocol.client_messages import CreateRoom, Quick
from ..protocol.server_messages import OpenTable
from ..protocol.wire import MAX_TABLES
from .rooms import Room


def quick_room(rooms: Iterable[Room], rules: Rules, alive: Callable[[Room], bool],
               turn_time: int | None = None) -> Room | None:
    """The oldest quick room of exactly these rules and this turn timer (None: none) still waiting
    for a player (None: none): a player who chose 20 seconds a turn never meets one who chose none."""
    waiting = [r for r in rooms if r.waiting("quick") and r.rules == rules and _turn_time(r) == turn_time and alive(r)]
    return min(waiting, key=lambda r: (r.created, r.code), default=None)


def _turn_time(room: Room) -> int | None:
    return None if room.clock is None else room.clock.turn_time


def open_tables(rooms: Iterable[Room]) -> tuple[OpenTable, ...]:
    """The public rooms still waiting for players, oldest first, at most ``MAX_TABLES``."""
    waiting = sorted((r for r in rooms if r.waiting("public")), key=lambda r: (r.created, r.code))
    tables = []
    for room in waiting[:MAX_TABLES]:
        host = room.seats[room.host]
        tables.append(OpenTable(room.code, host.name if host is not None else "", room.rules, room.free_seats()))
    return tuple(tables)


def quick_room_request(message: Quick) -> CreateRoom:
    """The room a quick player makes when none waits: every seat open to people, the player's level,
    key and turn timer."""
    return CreateRoom(message.name, message.rules, ("human",) * message.rules.players, message.level,
                      message.player_key, message.turn_time,
                      program=message.program)
