"""Load on the room server: many rooms of scripted players, their moves' round trips, the memory.

``python -m scopa.bench server --rooms N --seconds S [--players 2|4] [--server URL]`` starts
``scopa serve`` on a free loopback port (a fresh SQLite file in a temporary folder, or
``--store`` for another store) unless ``--server`` names one, fills N rooms with scripted
players (websocket clients in a few worker processes, ``--workers``), and lets them play for S
seconds: each plays its first legal move as soon as its view says it is its turn, the host deals
on, and a finished match is followed by a new room. ``--think T`` makes each player wait about T
seconds before its move (people take several), so the load is paced rather than saturating.
``--store redis://... --processes K`` starts K server processes on one Redis and spreads each
room's seats over them (the host on one, the next seat on the next), as behind a load balancer.
``--expert-rooms N`` adds N four-seat rooms of two scripted people and two expert computers
beside them: the round trips printed first are the other rooms' only, so they say whether the
experts' thinking holds other rooms up; the expert rooms' own moves are counted on a line of
their own. ``--health-rate N`` sends N ``GET /healthz`` a second to the (first) server while
the rooms play, as a load balancer or a monitor gone wrong would (issue 37: each used to write
the store), and prints how many were answered and their p99 beside the rooms' round trips.
It prints the rooms, the connected clients,
moves a second, a move's round trip (from the mover's send to every seat of the room having the
card played) at p50, p95 and p99 in ms, the errors (error messages, refusals, dropped
connections, moves not seen within 10 s), the server's resident memory (VmRSS) before filling,
after filling and at the end, per room, and the server's CPU share and the machine's load.

Beside the round trips it prints the loop lag of the bench's own server (``looplag``: the worst
lateness of a task waking every 10 ms, and the share of wake-ups later than 10, 30 and 100 ms),
the server's CPU per move (all its CPU over the moves played), and the bench's clients' CPU and
loop lag: clients that lag measure themselves, not the server. With a Redis ``--store``, Redis's
commands and CPU per move over the measured seconds. ``--profile FILE`` runs the server under
cProfile; ``--uvloop`` on uvloop's event loop (a measured extra, not a dependency).

All players of one room live in one worker, so one clock measures each round trip. The bench's
own servers allow any number of rooms from one address (``scopa serve`` allows 20 in ten
minutes); a server named by ``--server`` must allow that many too.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import json
import multiprocessing
import operator
import os
import random
import secrets
import sys
import tempfile
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scopa.bench.looplag import Lag, LoopLag, parse
from scopa.bench.machine import clock_ticks, load_average
from scopa.bench.serving import ServerDidNotStart, ServerProcess

if TYPE_CHECKING:
    from multiprocessing.queues import Queue

    from websockets.asyncio.client import ClientConnection

    from scopa.engine import Rules

MOVE_TIMEOUT = 10.0  # a move whose card is not at every seat by then is an error


@dataclasses.dataclass
class Tally:
    """What one worker measured."""

    latencies: list[float] = dataclasses.field(default_factory=list)
    moves: int = 0
    computer_moves: int = 0
    errors: int = 0
    clients: int = 0
    matches: int = 0
    page_moves: int = 0  # moves played by browser seats (--browser-seats)
    problems: list[str] = dataclasses.field(default_factory=list)
    client_cpu: float = 0.0  # CPU seconds the worker's process used while measuring
    client_lag: tuple[Any, ...] = (0.0, 0, (0, 0, 0), 0, 0.0)  # its loop's lag (looplag.Lag's fields)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.problems) < 5:
            self.problems.append(what)


class Room:
    """One room's players and the move in flight (moves in a room are one at a time)."""

    def __init__(self, players: int, people: tuple[int, ...] | None = None, tally: Tally | None = None,
                 pages: tuple[int, ...] = ()) -> None:
        self.players = players
        self.people = tuple(range(players)) if people is None else people  # the seats with a scripted player
        self.tally = tally or Tally()
        self.pages = pages  # of those, the seats played through the browser page's websocket (--browser-seats)
        self.bots = tuple(seat for seat in self.people if seat not in pages)  # the others: their moves are timed
        self.sent_at = 0.0
        self.after = -1  # the number the mover had when it sent; -1: no move in flight
        self.waiting: set[int] = set()
        ROOMS.add(self)


ROOMS: weakref.WeakSet[Room] = weakref.WeakSet()  # this worker's rooms, for ``watch_moves``


async def watch_moves() -> None:
    """Once a second, count a move not seen at every seat of its room within ``MOVE_TIMEOUT`` as an
    error (one watchdog for the worker: a timeout on each read of each player cost the clients'
    loop a task a frame)."""
    while True:
        await asyncio.sleep(1.0)
        now = time.perf_counter()
        for room in list(ROOMS):
            if room.after >= 0 and now - room.sent_at > MOVE_TIMEOUT:
                room.tally.error("a move not seen at every seat within 10 s")
                room.after = -1


class Player:
    """One scripted seat: reads every frame, keeps its view, moves on its turn."""

    def __init__(self, ws: ClientConnection, room: Room, tally: Tally, measuring: Callable[[], bool],
                 think: float = 0.0) -> None:
        self.ws, self.room, self.tally, self.measuring, self.think = ws, room, tally, measuring, think
        self.rules: Rules | None = None
        self.seat = self.number = 0
        self.code = ""
        self.view_data: dict[str, Any] | None = None  # the newest view as sent
        self.busy = False  # a move or next deal sent, not yet answered
        self.ids = iter(range(1, 2 ** 31))

    async def expect(self, test: Callable[[Any], bool], timeout: float = 30.0) -> Any:
        while True:
            message = await asyncio.wait_for(self.receive(), timeout)
            if test(message):
                return message

    async def receive(self) -> Any:
        """The next message. An update is read as plain JSON and its view decoded only when this
        seat is to move (a real client decodes every view; the bench measures the server); the
        frames every change ends with, chat lines and answers are told by their type alone."""
        from scopa.net.protocol.server_messages import (
            Accepted,
            ErrorMessage,
            Refused,
            ResyncMessage,
            Welcome,
            parse_server_message,
        )
        raw = await self.ws.recv()
        data = json.loads(raw)
        kind = data.get("type")
        if kind in ("change_end", "chat", "info", "pong"):
            return kind
        if kind == "accepted":
            self.busy = False
            return kind
        if kind == "update":
            self.number = data["number"]
            self.view_data = data["view"] or self.view_data
            event = data["event"]
            room = self.room
            if event["kind"] == "card_played" and event["seat"] not in room.people and self.seat == room.people[0]:
                if self.measuring():
                    self.tally.computer_moves += 1
            elif event["kind"] == "card_played" and room.after >= 0 and self.number > room.after:
                room.waiting.discard(self.seat)
                if not room.waiting:
                    if self.measuring():
                        self.tally.latencies.append(time.perf_counter() - room.sent_at)
                        self.tally.moves += 1
                    room.after = -1
            return ("update", event["kind"], event.get("notice"), event.get("seat"))
        message = parse_server_message(raw, self.rules)
        if isinstance(message, Welcome):
            self.rules, self.seat = message.info.rules, message.seat
            self.code, self.number = message.code, message.number
        elif isinstance(message, ResyncMessage):
            self.number = message.number
            self.view_data = data["view"] or self.view_data
        elif isinstance(message, (Accepted, Refused)):
            self.busy = False
            if isinstance(message, Refused):
                self.tally.error(f"refused {message.kind}")
        elif isinstance(message, ErrorMessage):
            self.tally.error(f"error {message.code}")
        return message

    @property
    def phase(self) -> str | None:
        return None if self.view_data is None else self.view_data["phase"]

    async def act(self) -> None:
        """Move when it is this seat's turn; the host deals the next deal."""
        from scopa.net.protocol.client_messages import MoveRequest, NextDealRequest
        from scopa.net.protocol.wire import decode_view, encode
        if self.busy or self.view_data is None:
            return
        if self.phase == "playing" and self.view_data["to_move"] == self.seat:
            if self.think:
                await asyncio.sleep(random.uniform(0.5, 1.5) * self.think)
            move = decode_view(self.view_data).legal_moves()[0]
            room = self.room
            room.sent_at, room.after, room.waiting = time.perf_counter(), self.number, set(room.bots)
            self.busy = True
            await self.ws.send(encode(MoveRequest(next(self.ids), move, self.number)))
        elif self.seat == 0 and self.phase == "deal_over":
            self.busy = True
            await self.ws.send(encode(NextDealRequest(next(self.ids), self.number)))

    async def play(self, until: float) -> None:
        """Read and act until the match is over or the time is up (``watch_moves`` counts the moves
        not seen in time)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, until - time.monotonic())):
                while self.phase != "match_over":
                    await self.act()
                    await self.receive()


class PagePlayer:
    """One browser seat, scripted: the page's websocket (``/web``), keys answering the console's prompts
    as a person at the page would (the first card, the first capture, Enter); the server runs the
    console for it, which is what this measures."""

    def __init__(self, ws: ClientConnection, seat: int, tally: Tally, measuring: Callable[[], bool]) -> None:
        self.ws, self.seat, self.tally, self.measuring = ws, seat, tally, measuring

    async def prompt(self, timeout: float = 30.0) -> str:
        while True:
            data = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if data.get("type") == "commitment":  # the page's share of the seed, drawn once it heard this
                await self.ws.send(json.dumps({"type": "share", "value": secrets.token_hex(32)}))
            elif data.get("type") == "say" and data.get("prompt"):
                return str(data["prompt"])

    async def key(self, key: str) -> None:
        await self.ws.send(json.dumps({"type": "key", "key": key}))

    async def join(self, code: str) -> None:
        await self.ws.send(json.dumps({"type": "start", "lang": "en", "code": code}))
        while (prompt := await self.prompt()) != "Ready?":
            if prompt.startswith("Your name?"):
                await self.ws.send(json.dumps({"type": "line", "text": f"Web{secrets.randbelow(10 ** 8)}"}))
        await self.key("enter")

    async def play(self, until: float) -> None:
        """Answer the turns until the match is over (the page's menu again) or the time is up."""
        with contextlib.suppress(TimeoutError):
            while time.monotonic() < until:
                prompt = await self.prompt(max(0.05, until - time.monotonic()))
                if prompt in ("Card?", "Capture?"):
                    if prompt == "Card?" and self.measuring():
                        self.tally.page_moves += 1
                    await self.key("1")
                elif prompt in ("Play?", "Next?"):
                    await self.key("enter")
                elif prompt == "Choice?":
                    return


def page_address(url: str) -> tuple[str, str]:
    """The page's websocket and its origin, for a server's ``ws://`` address."""
    host = url.split("://", 1)[1].rstrip("/")
    return f"{url.rstrip('/')}/web", f"http://{host}"


EXPERT_SEATS = ("human", "human", "expert", "expert")


async def open_room(urls: tuple[str, ...], players: int, tally: Tally, measuring: Callable[[], bool],
                    think: float, expert: bool = False, browsers: bool = False) -> list[Any]:
    """A room with its host and the others joined, ready and dealt (``expert``: four seats, two
    of them expert computers; ``browsers``: the odd seats play through the browser page's websocket)."""
    from websockets.asyncio.client import connect

    from scopa.engine import Rules
    from scopa.net.protocol.client_messages import Contribute, CreateRoom, Join, Ready, Start
    from scopa.net.protocol.server_messages import Welcome
    from scopa.net.protocol.wire import encode
    kinds = EXPERT_SEATS if expert else ("human",) * players
    players = len(kinds)
    people = tuple(i for i, kind in enumerate(kinds) if kind == "human")
    room = Room(players, people, tally, tuple(seat for seat in people if seat % 2) if browsers and not expert else ())
    seated: list[Any] = []
    for seat in room.people:
        url = urls[seat % len(urls)]
        if seat in room.pages:
            web, origin = page_address(url)
            page = PagePlayer(await connect(web, origin=origin, max_size=2 ** 20, open_timeout=30,  # type: ignore[arg-type]
                                            ping_interval=None), seat, tally, measuring)
            seated.append(page)
            await page.join(seated[0].code)
            continue
        ws = await connect(url, max_size=2 ** 20, open_timeout=30, ping_interval=None)
        player = Player(ws, room, tally, measuring, think)
        seated.append(player)
        if seat == 0:
            await ws.send(encode(CreateRoom("Ann", Rules(players=players), kinds, "easy")))
        else:
            await ws.send(encode(Join(seated[0].code, f"P{seat}")))
        await player.expect(lambda m: isinstance(m, Welcome))
        await ws.send(encode(Contribute(secrets.token_bytes(32))))  # its share of the seed, as a client gives it
        if seat:
            await ws.send(encode(Ready()))
    for other in seated[1:]:
        await seated[0].expect(functools.partial(operator.eq, ("update", "notice", "ready", other.seat)))
    await seated[0].ws.send(encode(Start()))
    for player in seated:
        if isinstance(player, Player):
            await player.expect(lambda m: isinstance(m, tuple) and m[1] == "cards_dealt")
    return seated


async def spectate(url: str, code: str, name: str, tally: Tally) -> None:
    """One spectator of the room: watches and reads every frame until closed (issue 28)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from scopa.net.protocol.client_messages import Watch
    from scopa.net.protocol.wire import encode
    async with connect(url, max_size=2 ** 20, open_timeout=30, ping_interval=None) as ws:
        await ws.send(encode(Watch(code, name)))
        try:
            async for raw in ws:
                if '"type":"error"' in str(raw) and '"spectator"' not in str(raw):
                    tally.error(f"spectator {json.loads(raw)['code']}")
        except ConnectionClosed:
            pass


async def chatter(seated: list[Any], rate: float, until: float, measuring: Callable[[], bool]) -> None:
    """About ``rate`` chat lines a second in the room, from its players in turn (each within its own limit)."""
    from scopa.net.protocol.client_messages import ChatRequest
    from scopa.net.protocol.wire import encode
    lines = 0
    while time.monotonic() < until:
        await asyncio.sleep(random.expovariate(rate))
        player = seated[lines % len(seated)]
        lines += 1
        if not isinstance(player, Player):
            continue
        await player.ws.send(encode(ChatRequest(text=f"line {lines} from the bench, text only")))


async def table_extras(urls: tuple[str, ...], seated: list[Any], tally: Tally, extras: tuple[float, int],
                       until: float, measuring: Callable[[], bool]) -> list[asyncio.Task[None]]:
    """The room's chat and spectators, as ``--chat`` and ``--spectators`` ask."""
    rate, spectators = extras
    tasks = [asyncio.create_task(spectate(urls[n % len(urls)], seated[0].code, f"W{n}", tally))
             for n in range(spectators)]
    if rate > 0:
        tasks.append(asyncio.create_task(chatter(seated, rate, until, measuring)))
    return tasks


async def keep_room(urls: tuple[str, ...], players: int, think: float, tally: Tally, filled: asyncio.Event,
                    go: asyncio.Event, state: dict[str, Any], expert: bool = False,
                    extras: tuple[float, int] = (0.0, 0), browsers: bool = False) -> None:
    """One room slot: play matches in new rooms until the time is up."""
    def measuring() -> bool:
        return bool(state["measuring"])

    seated = None
    around: list[asyncio.Task[None]] = []
    try:
        seated = await open_room(urls, players, tally, measuring, think, expert, browsers)
        tally.clients += len(seated)
        filled.set()
        await go.wait()
        while time.monotonic() < state["until"]:
            around = await table_extras(urls, seated, tally, extras, state["until"], measuring)
            await asyncio.gather(*(p.play(state["until"]) for p in seated))
            for task in around:
                task.cancel()
            if time.monotonic() >= state["until"]:
                break
            tally.matches += 1
            await asyncio.gather(*(p.ws.close() for p in seated))
            seated = await open_room(urls, players, tally, measuring, think, expert, browsers)
    except Exception as error:  # noqa: BLE001 -- every failure is counted and named, the bench goes on
        tally.error(f"{type(error).__name__}: {error}"[:120])
        filled.set()
    finally:
        for task in around:
            task.cancel()
        if seated:
            await asyncio.gather(*(p.ws.close() for p in seated), return_exceptions=True)


async def work(urls: tuple[str, ...], rooms: int, players: int, think: float, seconds: float,
               to_main: Queue[Any], from_main: Queue[Any], expert_rooms: int = 0,
               extras: tuple[float, float] = (0.0, 0), browsers: bool = False) -> tuple[Tally, Tally]:
    from scopa.net.server.collector import keep_collections_short
    collecting = asyncio.create_task(keep_collections_short())  # the clients' own pauses are the server's too
    tally, experts = Tally(), Tally()
    state = {"measuring": False, "until": float("inf")}
    go = asyncio.Event()
    fills = [asyncio.Event() for _ in range(rooms + expert_rooms)]
    tasks = []
    watchdog = asyncio.create_task(watch_moves())
    rate, spectators = extras
    for number in range(rooms + expert_rooms):
        expert = number >= rooms
        watching = int((number + 1) * spectators + 1e-9) - int(number * spectators + 1e-9)  # 0.1: one room in ten
        tasks.append(asyncio.create_task(keep_room(urls, players, think, experts if expert else tally, fills[number],
                                                   go, state, expert, (0.0, 0) if expert else (rate, watching),
                                                   browsers)))
        await asyncio.sleep(0.005)  # not all at once: a server takes new connections at its own pace
    await asyncio.gather(*(f.wait() for f in fills))
    to_main.put(("filled", tally.clients + experts.clients))
    await asyncio.get_running_loop().run_in_executor(None, from_main.get)
    state["until"] = time.monotonic() + seconds
    state["measuring"] = True
    lag, cpu = LoopLag(), time.process_time()
    go.set()
    await asyncio.gather(*tasks)
    tally.client_cpu, tally.client_lag = time.process_time() - cpu, dataclasses.astuple(lag.take())
    lag.stop()
    watchdog.cancel()
    collecting.cancel()
    return tally, experts


def worker(urls: tuple[str, ...], rooms: int, players: int, think: float, seconds: float, to_main: Queue[Any],
           from_main: Queue[Any], expert_rooms: int = 0, extras: tuple[float, float] = (0.0, 0),
           browsers: bool = False) -> None:
    tally, experts = asyncio.run(work(urls, rooms, players, think, seconds, to_main, from_main, expert_rooms,
                                      extras, browsers))
    to_main.put(("done", (dataclasses.asdict(tally), dataclasses.asdict(experts))))


# The server under test -------------------------------------------------------------------------

class LocalServer(ServerProcess):
    """The bench's own server: no cap on rooms from one address, rooms in a temporary folder
    (a fresh SQLite file) unless ``flags`` name a store."""

    def __init__(self, flags: list[str], profile: str | None = None, uvloop: bool = False) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="scopa-bench-")
        self.lags: list[tuple[float, Lag]] = []  # each second's loop lag, as the server wrote it, and when read
        if not any(flag == "--store" or flag.startswith("--store=") for flag in flags):
            flags = [*flags, "--db", str(Path(self.folder.name) / "rooms.sqlite3")]
        try:
            super().__init__(flags, unlimited=True, keep=50,
                             environment={"SCOPA_LOOP_LAG": "1", **({"SCOPA_PROFILE": profile} if profile else {}),
                                          **({"SCOPA_LOOP": "uvloop"} if uvloop else {})})
        except ServerDidNotStart as failed:
            self.folder.cleanup()
            raise SystemExit(str(failed)) from None

    def heard(self, line: str) -> None:
        lag = parse(line)
        if lag is not None:
            self.lags.append((time.monotonic(), lag))

    def lag_between(self, start: float, end: float) -> Lag:
        """The loop's lag over the seconds written between ``start`` and ``end`` (monotonic)."""
        total = Lag()
        for at, lag in list(self.lags):
            if start < at <= end:
                total = total.add(lag)
        return total

    def stop(self, timeout: float = 15.0) -> int:
        try:
            return super().stop(timeout)
        finally:
            self.folder.cleanup()


def resident_kib(pids: tuple[int, ...]) -> int | None:
    """VmRSS of the processes together in KiB (None when one cannot be read)."""
    total = 0
    for pid in pids or (None,):
        try:
            lines = Path(f"/proc/{pid}/status").read_text().splitlines()
            total += next(int(line.split()[1]) for line in lines if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            return None
    return total


def cpu_seconds(pids: tuple[int, ...]) -> float | None:
    """CPU time the processes used together."""
    total = 0.0
    for pid in pids or (None,):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += (int(fields[11]) + int(fields[12])) / clock_ticks()
    return total


def children(pids: tuple[int, ...]) -> tuple[int, ...]:
    """The child processes of these (a server's computer workers)."""
    found: list[int] = []
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            found.extend(int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    return tuple(found)


def redis_figures(store: str | None) -> dict[str, float] | None:
    """The Redis store's commands so far, by name (commands its scripts run included), and its CPU
    seconds (``INFO``); None without a Redis store."""
    if not store or not store.startswith(("redis://", "rediss://", "unix://")):
        return None
    import redis
    client = redis.Redis.from_url(store)
    try:
        figures = {name.removeprefix("cmdstat_"): float(stats["calls"])
                   for name, stats in client.info("commandstats").items()}
        cpu = client.info("cpu")
        figures[" cpu"] = float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])
        return figures
    finally:
        client.close()


def report_redis(before: dict[str, float], after: dict[str, float], moves: int) -> None:
    """Redis's commands and CPU over the measured seconds, per move (chat, spectators and presence included)."""
    calls = {name: after[name] - before.get(name, 0.0) for name in after if name != " cpu"}
    total = sum(calls.values())
    each = max(1, moves)
    top = sorted(calls.items(), key=lambda item: -item[1])[:8]
    print(f"redis commands {total / each:.1f} a move ({', '.join(f'{name} {n / each:.1f}' for name, n in top)}), "
          f"redis cpu {1000 * (after[' cpu'] - before[' cpu']) / each:.2f} ms a move")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m scopa.bench server", description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=50, help="rooms played at once (default 50)")
    p.add_argument("--seconds", type=float, default=20.0, help="seconds of play measured (default 20)")
    p.add_argument("--players", type=int, choices=(2, 4), default=2, help="seats of each room (default 2)")
    p.add_argument("--server", help="a running server's URL, or several separated by commas (processes sharing "
                   "one Redis: each room's seats are spread over them); default: start one on loopback")
    p.add_argument("--server-pid", type=int, action="append", default=[],
                   help="a server's process id, for its memory and CPU (once for each)")
    p.add_argument("--processes", type=int, default=1,
                   help="server processes the bench starts, sharing --store (a Redis); default 1")
    p.add_argument("--store", help="the store of the bench's own server (default: SQLite in a temporary folder)")
    p.add_argument("--think", type=float, default=0.0,
                   help="seconds a player waits before its move, on average (default 0: at once; people take several)")
    p.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    p.add_argument("--expert-rooms", type=int, default=0,
                   help="four-seat rooms of two people and two expert computers, beside the others (default 0); "
                   "the round trips are the other rooms' only")
    p.add_argument("--computer-workers", type=int, help="the bench's own servers' --computer-workers (default: "
                   "theirs, one for each core; 0 thinks in the server's loop, as before the pool)")
    p.add_argument("--chat", type=float, default=0.0, metavar="RATE",
                   help="chat lines a second in each room, from its players in turn (default 0: none)")
    p.add_argument("--spectators", type=float, default=0, metavar="N",
                   help="spectators watching each room, reading every frame (default 0); a fraction watches "
                   "that share of the rooms: 0.1 is one spectator in every tenth room")
    p.add_argument("--profile", metavar="FILE", help="run the bench's own server under cProfile and write its "
                   "figures to FILE (pstats; FILE.1 and on for more processes) when it stops, and print the top of it")
    p.add_argument("--uvloop", action="store_true", help="run the bench's own servers on uvloop's event loop (a "
                   "measured extra: pip install uvloop; the game does not need it)")
    p.add_argument("--browser-seats", action="store_true",
                   help="half the seats (the second, and the fourth) play through the browser page's websocket, the "
                   "server running the console for each; also prints the page's weight and its first line's time")
    p.add_argument("--health-rate", type=float, default=0.0, metavar="N",
                   help="GET /healthz a second to the server while the rooms play (default 0: none)")
    args = p.parse_args(argv)
    if args.health_rate < 0:
        p.error("--health-rate must be 0 or more")
    if args.chat < 0 or args.spectators < 0:
        p.error("--chat and --spectators must be 0 or more")
    if args.rooms < 1 or args.seconds <= 0 or args.workers < 1 or args.processes < 1:
        p.error("--rooms, --seconds, --workers and --processes must be above 0")
    if args.expert_rooms < 0:
        p.error("--expert-rooms must be 0 or more")
    if args.processes > 1 and not args.store:
        p.error("--processes above 1 needs --store redis://...: processes share rooms only through Redis")
    servers: list[LocalServer] = []
    try:
        if args.server:
            urls, pids = tuple(args.server.split(",")), tuple(args.server_pid)
        else:
            for _ in range(args.processes):
                workers = [] if args.computer_workers is None else ["--computer-workers", str(args.computer_workers)]
                profile = None if not args.profile else args.profile + (f".{len(servers)}" if servers else "")
                servers.append(LocalServer([*(["--store", args.store] if args.store else []), *workers], profile,
                                           args.uvloop))
            urls, pids = tuple(s.url for s in servers), tuple(s.pid for s in servers)
        return measure(args, urls, pids, servers)
    finally:
        for server in servers:
            server.stop()
        if args.profile and servers:
            print_profile(args.profile)


def print_profile(path: str, top: int = 25) -> None:
    """The functions the first server spent most time in, itself and below (cProfile slows every call a
    little: compare shares, not times)."""
    import pstats
    if os.path.exists(path):
        print(f"server profile {path} (python -m pstats {path}), by time spent in each function and below:")
        pstats.Stats(path).sort_stats("cumulative").print_stats(top)


def measure(args: argparse.Namespace, urls: tuple[str, ...], pids: tuple[int, ...],
            servers: list[LocalServer] | None = None) -> int:
    context = multiprocessing.get_context("spawn")
    to_main = context.Queue()
    workers = min(args.workers, args.rooms)
    shares = [args.rooms // workers + (1 if i < args.rooms % workers else 0) for i in range(workers)]
    expert_shares = [args.expert_rooms // workers + (1 if i < args.expert_rooms % workers else 0)
                     for i in range(workers)]
    starts = [context.Queue() for _ in shares]
    if args.browser_seats:
        page_figures(urls[0])
    time.sleep(0.5)
    before, before_all = resident_kib(pids), resident_kib(pids + children(pids))
    processes = [context.Process(target=worker, args=(urls, share, args.players, args.think, args.seconds, to_main,
                                                      start, experts, (args.chat, args.spectators),
                                                      args.browser_seats))
                 for share, start, experts in zip(shares, starts, expert_shares, strict=True)]
    for process in processes:
        process.start()
    filling = time.monotonic()
    clients = sum(to_main.get()[1] for _ in processes)
    filled_in = time.monotonic() - filling
    time.sleep(0.5)
    filled, filled_all = resident_kib(pids), resident_kib(pids + children(pids))
    cpu_before, load_before = cpu_seconds(pids), load_average()
    workers_before = {pid: cpu_seconds((pid,)) or 0.0 for pid in children(pids)}
    checks = context.Queue()
    flood = (context.Process(target=health_flood, args=(urls[0], args.health_rate, args.seconds, checks))
             if args.health_rate else None)
    redis_before = redis_figures(args.store)
    for start in starts:
        start.put("go")
    went = time.monotonic()
    if flood is not None:
        flood.start()
    done = [to_main.get()[1] for _ in processes]
    redis_after = redis_figures(args.store)
    health = checks.get() if flood is not None else None
    lag = Lag()
    for server in servers or ():
        lag = lag.add(server.lag_between(went + 0.5, time.monotonic() + 0.5))
    tallies, expert_tallies = [Tally(**d[0]) for d in done], [Tally(**d[1]) for d in done]
    cpu_after, load_after = cpu_seconds(pids), load_average()
    worker_cpu = sum((cpu_seconds((pid,)) or 0.0) - workers_before.get(pid, 0.0) for pid in children(pids))
    after, after_all = resident_kib(pids), resident_kib(pids + children(pids))
    for process in processes:
        process.join(30)
    if flood is not None:
        flood.join(30)
    report(args, tallies, clients, filled_in, (before, filled, after), (cpu_before, cpu_after),
           (load_before, load_after), expert_tallies, worker_cpu, lag if servers else None,
           (before_all, filled_all, after_all))
    if redis_before and redis_after:
        report_redis(redis_before, redis_after, sum(t.moves for t in tallies))
    if health is not None:
        sent, ok, times = health
        print(f"health checks {sent} sent ({sent / args.seconds:.0f}/s), {ok} answered 200"
              + (f", p50 {percentile(times, 0.5) * 1000:.1f} ms p99 {percentile(times, 0.99) * 1000:.1f} ms"
                 if times else ""))
    return 0


def health_flood(url: str, rate: float, seconds: float, to_main: Queue) -> None:  # type: ignore[type-arg]
    """A process: ``rate`` ``GET /healthz`` a second to the server of ``url`` for ``seconds``, each
    on a connection of its own, sent on time whether the last was answered or not; puts (sent,
    answered 200, each answer's seconds) on ``to_main``."""
    host, _, port = url.split("://", 1)[1].split("/", 1)[0].rpartition(":")
    times: list[float] = []
    ok = 0

    async def check() -> None:
        nonlocal ok
        began = time.monotonic()
        with contextlib.suppress(OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), 10)
            writer.write(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            status = await asyncio.wait_for(reader.readline(), 10)
            writer.close()
            times.append(time.monotonic() - began)
            ok += status.split(b" ")[1:2] == [b"200"]

    async def flood() -> int:
        start, sent, pending = time.monotonic(), 0, set()
        while (due := start + sent / rate) < start + seconds:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            task = asyncio.ensure_future(check())
            pending.add(task)
            task.add_done_callback(pending.discard)
            sent += 1
        if pending:
            await asyncio.wait(pending, timeout=10)
        return sent

    sent = asyncio.run(flood())
    to_main.put((sent, ok, times))


def report(args: argparse.Namespace, tallies: list[Tally], clients: int, filled_in: float,
           memory: tuple[int | None, int | None, int | None], cpu: tuple[float | None, float | None],
           load: tuple[float | None, float | None], expert_tallies: list[Tally] | None = None,
           worker_cpu: float = 0.0, lag: Lag | None = None,
           with_workers: tuple[int | None, int | None, int | None] = (None, None, None)) -> None:
    latencies = [t for tally in tallies for t in tally.latencies]
    moves = sum(t.moves for t in tallies)
    errors = sum(t.errors for t in tallies)
    beside = f" (and {args.expert_rooms} expert rooms)" if args.expert_rooms else ""
    print(f"rooms {args.rooms} of {args.players} players{beside}, filled in {filled_in:.1f} s, think {args.think:g} s, "
          f"{args.processes if not args.server else len(args.server.split(','))} server processes"
          + (" on uvloop" if args.uvloop else ""))
    print(f"connected clients {clients}" + (f", chat {args.chat:g} lines/s a room" if args.chat else "")
          + (f", {args.spectators:g} spectators a room" if args.spectators else ""))
    print(f"moves/s {moves / args.seconds:.1f} ({moves} moves in {args.seconds:g} s, "
          f"{sum(t.matches for t in tallies)} matches finished)"
          + (f"; browser seats' moves/s {sum(t.page_moves for t in tallies) / args.seconds:.1f}"
             if args.browser_seats else ""))
    if latencies:
        print("round trip ms " + " ".join(f"p{int(share * 100)} {percentile(latencies, share) * 1000:.1f}"
                                          for share in (0.5, 0.95, 0.99))
              + f" max {max(latencies) * 1000:.1f}")
    else:
        print("round trip ms p50 none p95 none p99 none (no move completed)")
    print("server loop lag " + ("unknown (a server the bench did not start)" if lag is None else lag.summary()))
    client_lag = Lag()
    for tally in tallies:
        client_lag = client_lag.add(Lag(*tally.client_lag))
    print(f"bench clients cpu {100 * sum(t.client_cpu for t in tallies) / args.seconds:.0f}% of one core "
          f"({len(tallies)} processes), their loop lag {client_lag.summary()}")
    print(f"errors {errors}")
    for problem in sorted({p for t in tallies for p in t.problems})[:5]:
        print(f"  error: {problem}")
    if args.expert_rooms:
        experts = expert_tallies or []
        own = [t for tally in experts for t in tally.latencies]
        print(f"expert rooms {args.expert_rooms} of 2 people and 2 experts: people's moves/s "
              f"{sum(t.moves for t in experts) / args.seconds:.1f}, computer moves/s "
              f"{sum(t.computer_moves for t in experts) / args.seconds:.1f}, errors {sum(t.errors for t in experts)}"
              + (f", their people's round trip ms p50 {percentile(own, 0.5) * 1000:.1f} "
                 f"p99 {percentile(own, 0.99) * 1000:.1f}" if own else ""))
        for problem in sorted({p for t in experts for p in t.problems})[:5]:
            print(f"  error in an expert room: {problem}")
    before, filled, after = memory
    if before is None or filled is None or after is None:
        print("memory unknown (give --server-pid for a server of your own)")
    else:
        print(f"memory MiB before {before / 1024:.1f} filled {filled / 1024:.1f} end {after / 1024:.1f}; "
              f"KiB a room filled {(filled - before) / args.rooms:.0f} end {(after - before) / args.rooms:.0f}")
    before, filled, after = with_workers
    if before is not None and filled is not None and after is not None:  # the computers' and the pages' workers
        print(f"memory with its worker processes MiB before {before / 1024:.1f} filled {filled / 1024:.1f} end "
              f"{after / 1024:.1f}; KiB a room filled {(filled - before) / args.rooms:.0f} "
              f"end {(after - before) / args.rooms:.0f}")
    if cpu[0] is not None and cpu[1] is not None:
        print(f"server cpu {100 * (cpu[1] - cpu[0]) / args.seconds:.0f}% of one core (every server process), "
              f"{1000 * (cpu[1] - cpu[0]) / max(1, moves):.2f} ms a move (all its work over the moves)"
              + (f", its worker processes (computers, pages) {100 * worker_cpu / args.seconds:.0f}%"
                 if worker_cpu else ""))
    print(f"machine load {load[0]:.2f} before, {load[1]:.2f} after, on {os.cpu_count()} cores")


def page_figures(url: str, trials: int = 10) -> None:
    """The page's weight, and how soon its first line comes: the three files fetched over HTTP, the page's
    websocket opened and its first ``say`` read, as a browser does on opening the link (loopback)."""
    import statistics
    import urllib.request

    from websockets.asyncio.client import connect

    from scopa.net.server.pages import FILES, page_weight
    web, origin = page_address(url)

    def fetch(address: str) -> bytes:
        with urllib.request.urlopen(address, timeout=10) as answer:
            return bytes(answer.read())

    async def first_line() -> float:
        start = time.perf_counter()
        for path in FILES:
            await asyncio.to_thread(fetch, origin + path)
        async with connect(web, origin=origin) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "start", "lang": "en"}))
            while json.loads(await ws.recv()).get("type") != "say":
                pass
        return time.perf_counter() - start

    times = [asyncio.run(first_line()) for _ in range(trials)]
    print(f"page weight {page_weight()} bytes ({page_weight() / 1024:.1f} KiB) before compression; first line "
          f"{statistics.median(times) * 1000:.0f} ms median, {max(times) * 1000:.0f} ms at most, of {trials} "
          f"openings (files, websocket, first say)")
    in_browser = chromium_first_lines(origin + "/", trials)
    if in_browser:
        print(f"first line in Chromium, from the link opened to the line in the page's log: "
              f"{statistics.median(in_browser):.0f} ms median, {max(in_browser):.0f} ms at most, of {trials}")


def chromium_first_lines(url: str, trials: int) -> list[float]:
    """ms from navigation start to the first line in the log, in headless Chromium (Debian's chromium and
    chromium-driver, with selenium); empty when they are not installed."""
    import shutil
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return []
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if browser is None or driver is None:
        return []
    found: list[float] = []
    for _ in range(trials):
        with tempfile.TemporaryDirectory(prefix="scopa-bench-chromium-") as profile:
            options = webdriver.ChromeOptions()
            options.binary_location = browser
            for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         f"--user-data-dir={profile}"):
                options.add_argument(flag)
            session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
            try:
                session.get(url)
                found.append(float(session.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "(function wait() { document.querySelector('#log p') ? done(performance.now())"
                    " : requestAnimationFrame(wait); })();")))
            finally:
                session.quit()
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
