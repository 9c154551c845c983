"""The daily deal (issue 29): one seed a UTC day, its hash published before and the seed revealed
after, the same deals for everyone, par worked out once, the first match counting and later ones
practice, the day's board; on real servers over loopback, each test on both stores."""
from __future__ import annotations

import hashlib
import json
import secrets
import time

from helpers.daily import play_deal
from helpers.net import Client
from helpers.redis import redis_cli
from scopa.net.protocol.client_messages import (
    DailyDeal,
    DailyRequest,
    LeaderboardRequest,
)
from scopa.net.protocol.daily_seeds import day_checks, deal_seed
from scopa.net.protocol.server_messages import (
    DailyAnswer,
    ErrorMessage,
    Leaderboard,
    Welcome,
)
from scopa.net.protocol.wire import (
    PROTOCOL_VERSION,
)
from scopa.net.server.daily import day_par

DAY, NEXT, AFTER = "2030-01-01", "2030-01-02", "2030-01-03"
SAMPLES = "2"  # the expert's samples a move for par: quick, and the same par anywhere
FAST = ("--computer-budget", "0.01", "--daily-par-samples", SAMPLES, "--computer-workers", "0",
        "--daily-trusted-players")  # the board's other rules; a key's first day: test_daily_attacks.py


def ask(url: str, day: str | None = None, key: str | None = None) -> DailyAnswer:
    client = Client(url)
    client.send(DailyRequest(day, key))
    answer = client.until(lambda m: isinstance(m, (DailyAnswer, ErrorMessage)))
    assert client.closed()  # one answer, then the server closes
    assert isinstance(answer, DailyAnswer), answer
    return answer


def test_a_day_has_one_seed_its_hash_published_before_and_revealed_only_after(store):
    first = store.serve(*FAST, "--daily-date", DAY)
    tomorrow = ask(first.url, NEXT)
    today = ask(first.url)
    assert today.day == DAY and today.commitment is not None and today.seed is None  # today's seed: not told
    assert tomorrow.commitment is not None and tomorrow.seed is None
    assert today.next_commitment == tomorrow.commitment  # published the day before
    assert ask(first.url).commitment == today.commitment  # asked again: the same day seed
    far = Client(first.url)
    far.send(DailyRequest(AFTER))  # two days ahead: nothing is published that far
    assert isinstance(far.until(lambda m: isinstance(m, ErrorMessage)), ErrorMessage)
    first.stop()
    later = store.serve(*FAST, "--daily-date", NEXT)  # a day later, on the same store
    now = ask(later.url)
    assert now.commitment == tomorrow.commitment and now.seed is None
    past = ask(later.url, DAY)
    assert past.seed is not None and hashlib.sha256(past.seed).digest() == today.commitment  # revealed, and checks


def refused(url: str, message: DailyDeal | str) -> ErrorMessage:
    """A first message the server refuses: its error, then the connection closed."""
    client = Client(url)
    client.send(message)
    error = client.until(lambda m: isinstance(m, (Welcome, ErrorMessage)))
    assert isinstance(error, ErrorMessage), error
    assert client.closed()
    return error


def test_a_deal_of_a_day_that_is_not_today_is_refused_and_a_deal_begun_before_midnight_plays_on(store, tmp_path):
    """A run across midnight UTC mixed two days: daily_deal meant today's deal, so deal 1 came
    from one day and deals 2 and 3 from the next, and the player was on neither day's board. The
    client now names the day it plays, and a deal of a day that is not today is refused (the day
    before is revealed: its cards are known); a deal begun before midnight plays on, and counts for
    nothing (issue 37: it ended once its seeds were told); a bad day is an error answer; a client that
    names none gets today's, as before."""
    clock = tmp_path / "today"  # the server's day, read at each request: midnight whenever the test says
    clock.write_text(DAY)
    server = store.serve(*FAST, "--daily-date-file", str(clock), "--daily-deals", "2")
    key = secrets.token_hex(32)
    play_deal(server.url, "Ann", key, 1, day=DAY, begun=lambda: clock.write_text(NEXT))  # midnight during deal 1
    for day in (DAY, AFTER):  # the day that has ended, and one not begun
        error = refused(server.url, DailyDeal("Ann", 2, key, day))
        assert (error.code, error.values) == ("not_today", {"day": NEXT})
    for bad in ("2030-02-30", "tomorrow", 20300102, "2030-1-2", "", ["2030-01-02"]):
        error = refused(server.url, json.dumps({"type": "daily_deal", "version": PROTOCOL_VERSION, "name": "Ann",
                                                "deal": 1, "day": bad}))
        assert (error.code, error.values) == ("bad_field", {"field": "day"})
    closed = ask(server.url, DAY, key)
    assert closed.seed is not None  # revealed: why none of its deals may begin now
    assert [(p.deal, p.practice) for p in closed.played] == [(1, True)]  # ended after its day: practice (issue 37)
    assert closed.rows == () and closed.you is None  # a day not finished: on no board
    for deal in (1, 2):
        play_deal(server.url, "Ann", key, deal, day=NEXT)
    today = ask(server.url, key=key)
    assert today.day == NEXT and [(p.deal, p.practice) for p in today.played] == [(1, False), (2, False)]
    assert today.you is not None and (today.you.rank, today.you.of) == (1, 1)
    assert today.you.score == sum(p.score for p in today.played)  # the new day's deals only
    play_deal(server.url, "Ann", key, 2)  # a client that names no day: today's deal, as before (practice now)
    assert [(p.deal, p.practice) for p in ask(server.url, key=key).played] == [(1, False), (2, True)]
    assert ask(server.url, DAY, key).played == closed.played  # nothing of the new day's on the day before


def test_a_deal_asked_as_midnight_passes_while_par_is_worked_out_is_refused(store, tmp_path):
    """The day is read when the deal is asked; the first request of a day waits for its par
    (seconds, in the computers' pool). Midnight in between: the day asked for has ended and its
    seed is revealed, so no room of it is made; the refusal names the new day."""
    clock = tmp_path / "today"
    clock.write_text(DAY)
    server = store.serve("--computer-budget", "0.01", "--daily-par-samples", "300", "--daily-deals", "1",
                         "--daily-date-file", str(clock))  # par of one deal at 300 samples a move: seconds
    client = Client(server.url)
    client.send(DailyDeal("Ann", 1, secrets.token_hex(32), DAY))
    time.sleep(0.5)
    clock.write_text(NEXT)
    error = client.until(lambda m: isinstance(m, (Welcome, ErrorMessage)), timeout=120)
    assert isinstance(error, ErrorMessage) and (error.code, error.values) == ("not_today", {"day": NEXT})


def test_two_servers_on_one_redis_agree_on_one_day_seed(processes):
    one, two = processes(2, *FAST, "--daily-date", DAY)
    assert ask(one.url).commitment == ask(two.url).commitment
    ann, _ = play_deal(one.url, "Ann", secrets.token_hex(32))
    bob, _ = play_deal(two.url, "Bob", secrets.token_hex(32))
    assert ann.commitment == bob.commitment  # the same deal from either process


def test_a_daily_result_left_waiting_by_a_killed_process_is_written_once_by_the_next(processes, redis_server):
    """With Redis the end of a daily room and its result are two steps: the rooms' script puts the
    result in scopa:daily:todo with the end, and a process then writes it. A process killed between
    the two left the result lost before; now the next process writes it, and only once."""
    one_deal = (*FAST, "--daily-date", DAY, "--daily-deals", "1")  # a day of one deal: on the board once played
    (one,) = processes(1, *one_deal)
    key = secrets.token_hex(32)
    play_deal(one.url, "Ann", key)
    results = redis_cli(redis_server, "HGETALL", f"scopa:daily:results:{DAY}")
    assert len(results) == 1 and redis_cli(redis_server, "HLEN", "scopa:daily:todo") == 0  # written, todo empty
    ((match, text),) = results.items()
    written = json.loads(text)
    one.kill()  # as if killed after the end was stored, before its result was written:
    redis_cli(redis_server, "DEL", f"scopa:daily:results:{DAY}", f"scopa:daily:counted:{DAY}")
    waiting = {"day": DAY, "deal": written["deal"], "player": written["player"], "name": written["name"],
               "points": written["points"], "match": match}
    redis_cli(redis_server, "HSET", "scopa:daily:todo", match, json.dumps(waiting))
    (two,) = processes(1, *one_deal)
    board = ask(two.url, key=key)
    assert [(row.name, row.rank) for row in board.rows] == [("Ann", 1)]
    assert redis_cli(redis_server, "HLEN", "scopa:daily:todo") == 0
    (three,) = processes(1, *one_deal)  # started again: nothing written twice
    assert redis_cli(redis_server, "HLEN", f"scopa:daily:results:{DAY}") == 1
    assert [row.name for row in ask(three.url, key=key).rows] == ["Ann"]


def test_two_players_get_the_same_deals_par_once_and_the_board_ranks_them(store):
    server = store.serve(*FAST, "--daily-date", DAY, "--daily-deals", "2")
    keys = {"Ann": secrets.token_hex(32), "Bob": secrets.token_hex(32)}
    points: dict[str, list[int]] = {"Ann": [], "Bob": []}
    dealt: dict[str, list] = {"Ann": [], "Bob": []}
    for deal in (1, 2):
        for name in ("Ann", "Bob"):
            client, hands = play_deal(server.url, name, keys[name], deal, last=name == "Bob")
            points[name].append(client.view.match_scores[0])
            dealt[name].append((client.commitment, hands[0]))
    assert dealt["Ann"] == dealt["Bob"]  # the same deals, the same first hand of each
    assert dealt["Ann"][0] != dealt["Ann"][1]  # and each deal its own
    assert sum("par worked out" in line for line in server.lines) == 1  # once a day, not once a player
    board = ask(server.url, key=keys["Ann"])
    assert [row.name for row in board.rows] in (["Ann", "Bob"], ["Bob", "Ann"])
    assert [row.rank for row in board.rows] == [1, 2] and board.rows[0].score >= board.rows[1].score
    assert board.you is not None and board.you.of == 2 and board.rows[board.you.rank - 1].name == "Ann"
    assert [p.practice for p in board.played] == [False, False]
    server.stop()
    later = store.serve(*FAST, "--daily-date", NEXT)
    seed = ask(later.url, DAY).seed
    assert seed is not None
    assert [hashlib.sha256(deal_seed(seed, n)).digest() for n in (1, 2)] == [c for c, _ in dealt["Ann"]]
    par = day_par(seed, 2, int(SAMPLES))  # the server's own scoring, worked out again here
    scores = {row.name: row.score for row in board.rows}
    for name in ("Ann", "Bob"):
        assert scores[name] == sum(p - q for p, q in zip(points[name], par, strict=True))
    assert board.you.deals == tuple(p - q for p, q in zip(points["Ann"], par, strict=True))


def test_the_first_daily_match_counts_and_a_second_is_practice(store):
    server = store.serve(*FAST, "--daily-date", DAY, "--daily-deals", "1")
    key = secrets.token_hex(32)
    play_deal(server.url, "Ann", key)
    first = ask(server.url, key=key)
    assert [(p.deal, p.practice) for p in first.played] == [(1, False)]
    assert first.you is not None and first.you.rank == 1
    play_deal(server.url, "Ann", key, last=True)  # played again: practice, told its own score
    second = ask(server.url, key=key)
    assert [(p.deal, p.practice) for p in second.played] == [(1, True)]
    assert second.you == first.you and second.rows == first.rows  # the board keeps the first
    assert len(second.rows) == 1
    board = Client(server.url)
    board.send(LeaderboardRequest(10, key))
    rated = board.until(lambda m: isinstance(m, Leaderboard))
    assert rated.rows == () and rated.you is None  # scored against par, never rated


def test_a_result_is_never_taken_from_the_client(store):
    server = store.serve(*FAST, "--daily-date", DAY, "--daily-deals", "1")
    for raw in ({"type": "daily_deal", "version": PROTOCOL_VERSION, "name": "Ann", "deal": 1, "score": 40},
                {"type": "daily", "version": PROTOCOL_VERSION, "score": 40},
                {"type": "daily_deal", "version": PROTOCOL_VERSION, "name": "Ann", "deal": 9}):
        client = Client(server.url)
        client.send(json.dumps(raw))
        refused = client.until(lambda m: isinstance(m, ErrorMessage))
        assert refused.code in ("unknown_field", "bad_field")
        assert client.closed()
    assert ask(server.url).rows == ()  # nothing on the board from any of them


def test_a_client_checks_a_revealed_day_seed_against_what_it_heard():
    seed = secrets.token_bytes(32)
    heard = hashlib.sha256(seed).digest()
    deals = {n: hashlib.sha256(deal_seed(seed, n)).digest() for n in (1, 3)}
    assert day_checks(seed, heard, deals)
    assert not day_checks(secrets.token_bytes(32), heard, deals)  # another seed than the one promised
    assert not day_checks(seed, heard, {1: deals[3]})  # a deal not dealt from the day seed
    assert deal_seed(seed, 1) != deal_seed(seed, 2) and len(deal_seed(seed, 1)) == 32


def test_the_day_board_is_said_rank_first_then_place_best_and_worst():
    from scopa.console.daily import result_lines
    from scopa.narration import Messages
    from scopa.net.protocol.server_messages import DailyPlace, DailyPlayed, DailyRow
    answer = DailyAnswer(DAY, 3, None, rows=(DailyRow(1, "Ann", 3), DailyRow(2, "Ben", -1)),
                         you=DailyPlace(2, 2, -1, (-2, 1, 0)),
                         played=(DailyPlayed(1, -2, False), DailyPlayed(2, 1, False), DailyPlayed(3, 0, False)))
    assert result_lines(answer, Messages("en")) == [
        "Your score today, 1 under par.", "1st, Ann, 3 over par.", "2nd, Ben, 1 under par.",
        "You are 2nd of 2, 1 under par.", "Your best deal, 1 over par, deal 2. Your worst, 2 under par, deal 1."]
    practice = DailyAnswer(DAY, 1, None, played=(DailyPlayed(1, 0, True),))
    assert result_lines(practice, Messages("en")) == [
        "Practice, level with par. Only your first try of each deal counts.", "Nobody has finished today's deals yet."]
    ended = DailyAnswer(DAY, 1, None, seed=b"\x01" * 32, played=(DailyPlayed(1, 2, False),))  # midnight passed
    assert result_lines(ended, Messages("en")) == [  # during its last deal: the day named, not called today
        "Your score on 2030-01-01, 2 over par.", "Nobody finished the deals of 2030-01-01."]


def test_an_earlier_day_of_a_run_is_said_on_its_own_named():
    from scopa.console.daily import past_day_lines
    from scopa.narration import Messages
    from scopa.net.protocol.server_messages import DailyPlace, DailyPlayed
    unfinished = DailyAnswer(DAY, 3, None, played=(DailyPlayed(1, -2, False),))
    assert past_day_lines(unfinished, Messages("en")) == [
        "Daily deal of 2030-01-01, 1 of 3 deals played, 2 under par. Not on that day's board."]
    assert past_day_lines(unfinished, Messages("it")) == [
        "Smazzata del giorno del 2030-01-01, giocate 1 su 3, 2 sotto il par. Non è nella classifica di quel giorno."]
    finished = DailyAnswer(DAY, 1, None, you=DailyPlace(2, 5, 1, (1,)), played=(DailyPlayed(1, 0, True),))
    assert past_day_lines(finished, Messages("en")) == ["Daily deal of 2030-01-01, you are 2nd of 5, 1 over par."]


def test_the_daily_messages_go_over_the_wire_and_back_checked():
    from scopa.net.protocol.client_messages import (
        parse_client_message,
    )
    from scopa.net.protocol.server_messages import (
        DailyPlace,
        DailyPlayed,
        DailyRow,
        parse_server_message,
    )
    from scopa.net.protocol.wire import (
        ProtocolError,
        encode,
    )
    for message in (DailyRequest(), DailyRequest(DAY, "a" * 64, 5), DailyDeal("Ann", 3, "b" * 64),
                    DailyDeal("Ann", 2, None, DAY)):
        assert parse_client_message(encode(message)) == message
    answer = DailyAnswer(DAY, 2, b"\x01" * 32, b"\x02" * 32, None, (DailyRow(1, "Ann", -3),),
                         DailyPlace(1, 1, -3, (-1, -2)), (DailyPlayed(2, -2, True),))
    assert parse_server_message(encode(answer)) == answer
    for bad in ({"type": "daily", "version": PROTOCOL_VERSION, "day": "2030-02-30"},
                {"type": "daily", "version": PROTOCOL_VERSION, "day": "tomorrow"},
                {"type": "daily_deal", "version": PROTOCOL_VERSION, "name": "Ann", "deal": 0},
                {"type": "daily_deal", "version": PROTOCOL_VERSION, "name": "Ann", "deal": 1, "day": "2030-13-01"}):
        try:
            parse_client_message(json.dumps(bad))
        except ProtocolError as error:
            assert error.code == "bad_field"
        else:
            raise AssertionError(bad)


def test_a_room_made_here_and_not_yet_stored_is_not_taken_for_one_deleted(redis_server):
    """A daily room is made and begun in one session, and the expert's driver, started in it,
    reads the room from Redis before the session's write is done. It read it as missing, dropped
    it, and the expert never led: the deal stalled (about one run in two on the lowest versions)."""
    import asyncio

    from scopa.engine import Rules
    from scopa.net.protocol.codes import key_hash, new_seat_key
    from scopa.net.server.cluster import ClusterServer
    from scopa.net.server.redis_store import RedisRoomStore
    from scopa.net.server.rooms import new_room
    from scopa.net.server.server import ServerConfig

    async def check() -> None:
        store = RedisRoomStore(f"redis://127.0.0.1:{redis_server}/0")
        server = ClusterServer(store, ServerConfig(computer_workers=0))
        try:
            room, _ = new_room("QWERTY", Rules(target=None), ("human", "expert"), "Ann", key_hash(new_seat_key()),
                               "expert", now=0.0, server_seed=secrets.token_bytes(32))
            server.rooms[room.code] = room  # made, as a session makes it, before its write
            await server._refresh(room.code)
            assert server.rooms.get(room.code) is room
            server.revs[room.code] = 3  # stored once, then deleted by another process: dropped
            await server._refresh(room.code)
            assert room.code not in server.rooms
        finally:
            server.thinkers.close()
            await store.close()

    asyncio.run(check())


def test_a_run_names_its_day_and_an_older_server_that_takes_none_is_asked_without_it(monkeypatch, tmp_path):
    """The run's requests, the server stubbed: each deal names the run's day; a server before the
    day was named (unknown_field day) is asked again without it, and the run goes on; a refusal
    of the day by a server whose day is not later than the run's is said and the run stops."""
    from types import SimpleNamespace

    from scopa.console import daily, online
    from scopa.narration import Messages
    from scopa.net.client import board
    from scopa.net.client.client import Problem, TableClosed
    asked: list[tuple[int, str | None]] = []
    refuse: dict[str, str] = {}

    def play_room(program, request, passed_up=()):
        sent = request.day if request.send_day else None
        asked.append((request.deal, sent))
        if sent is not None and "code" in refuse:
            problem = Problem(refuse["code"], {"field": "day"} if refuse["code"] == "unknown_field" else {"day": DAY})
            assert problem.code in passed_up
            raise TableClosed(problem)
        return 0, "finished"

    monkeypatch.setattr(online, "play_room", play_room)
    monkeypatch.setattr(board, "fetch_daily", lambda server, day, key, tls=None: DailyAnswer(day or DAY, 2, None))
    said: list[str] = []
    m = Messages("en")
    program = SimpleNamespace(messages=m, m=m,
                              say=lambda *lines: said.extend(getattr(line, "text", line) for line in lines),
                              persistence=SimpleNamespace(data_dir=tmp_path), remember_server=lambda server: None)
    request = online.OnlineRequest("daily", "ws://127.0.0.1:1", "Ann")
    assert daily.play_daily(program, request) == 0
    assert asked == [(1, DAY), (2, DAY)]  # the day named with each deal
    asked.clear()
    refuse["code"] = "unknown_field"
    assert daily.play_daily(program, request) == 0
    assert asked == [(1, DAY), (1, None), (2, None)]  # asked once with it, then without, as before
    asked.clear()
    refuse["code"] = "not_today"  # but the server's today is the run's day (another process's clock)
    assert daily.play_daily(program, request) == 1
    assert asked == [(1, DAY)] and said[-1].startswith("That day's daily deal is closed.")
