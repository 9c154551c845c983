"""Player keys, names that belong to them, ratings and the leaderboard (issue 29), on a real
server over loopback, on both stores (SQLite, and Redis on a free loopback port)."""
from __future__ import annotations

import re
import secrets
import stat

import pexpect
import pytest

from helpers.net import Client, error, play_out, start
from helpers.redis import redis_cli
from scopa.engine import Rules
from scopa.net.protocol.client_messages import (
    Contribute,
    CreateRoom,
    Join,
    LeaderboardRequest,
    Ready,
    parse_client_message,
)
from scopa.net.protocol.server_messages import (
    Leaderboard,
    UpdateMessage,
    Welcome,
)
from scopa.net.protocol.wire import (
    ProtocolError,
)
from scopa.net.server.identity import name_skeleton
from scopa.net.server.ratings import Entrant, public, rate
from scopa.storage.player_key import PlayerKeyStore
from scopa.table import Notice


def new_key() -> str:
    return secrets.token_hex(32)


def host(url: str, name: str, key: str | None, seats: tuple[str, ...] = ("human", "human"),
         rules: Rules | None = None) -> Client:
    client = Client(url)
    client.send(CreateRoom(name, rules or Rules(target=None, players=len(seats)), seats, "easy", key))
    client.until(lambda m: isinstance(m, Welcome))
    client.send(Contribute(secrets.token_bytes(32)))
    return client


def join(url: str, code: str, name: str, key: str | None) -> Client:
    client = Client(url)
    client.send(Join(code, name, key))
    welcome = client.until(lambda m: isinstance(m, Welcome))
    client.send(Contribute(secrets.token_bytes(32)))
    client.send(Ready())
    seat = welcome.info.seats[welcome.seat]
    client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", client.seat, seat.name))
    return client


def board(url: str, key: str | None = None, top: int = 10) -> Leaderboard:
    client = Client(url)
    client.send(LeaderboardRequest(top, key))
    answer = client.until(lambda m: isinstance(m, Leaderboard))
    assert client.closed(), "the server closes the connection after the board"
    return answer


def rated_match(url: str, ann_key: str, ben_key: str, names: tuple[str, str] = ("Ann", "Ben"),
                rules: Rules | None = None) -> tuple[int, ...]:
    ann = host(url, names[0], ann_key, rules=rules)
    ben = join(url, ann.code, names[1], ben_key)
    start(ann, ben)
    play_out([ann, ben], ann)
    return ann.view.match_scores


def test_a_player_key_is_made_once_kept_0600_and_moves_by_export_and_import(tmp_path):
    here = PlayerKeyStore(tmp_path / "a")
    key = here.load_or_make()
    assert key is not None and len(bytes.fromhex(key)) * 8 >= 192
    assert here.load_or_make() == key
    assert stat.S_IMODE(here.path.stat().st_mode) == 0o600
    assert here.export(tmp_path / "moved.json") is None
    assert stat.S_IMODE((tmp_path / "moved.json").stat().st_mode) == 0o600
    there = PlayerKeyStore(tmp_path / "b")
    assert there.import_(tmp_path / "moved.json") is None and there.load() == key
    (tmp_path / "broken.json").write_text("{")
    assert there.import_(tmp_path / "broken.json") == "broken" and there.load() == key


def test_look_alike_names_share_a_skeleton():
    assert name_skeleton("\u0410nn") == name_skeleton("Ann") == name_skeleton("ann") == name_skeleton("\uff21nn")
    assert name_skeleton("Anna") != name_skeleton("Ann")


def test_a_player_key_is_only_taken_in_a_first_message_and_only_64_hex_digits():
    key = new_key()
    assert parse_client_message(
        f'{{"type":"join","version":2,"code":"XECUUG","name":"Ann","player_key":"{key}"}}').player_key == key
    with pytest.raises(ProtocolError):
        parse_client_message('{"type":"join","version":2,"code":"XECUUG","name":"Ann","player_key":"x"}')
    with pytest.raises(ProtocolError):
        parse_client_message(f'{{"type":"ready","player_key":"{key}"}}')


def test_a_name_belongs_to_its_key_look_alikes_are_taken_and_a_player_renames(store):
    server = store.serve()
    ann_key, eve_key = new_key(), new_key()
    ann = host(server.url, "Ann", ann_key)
    for name, key in (("Ann", eve_key), ("\u0410nn", eve_key), ("ANN", None)):
        eve = Client(server.url)
        eve.send(Join(ann.code, name, key))
        assert error(eve).code == "name_taken"
    again = host(server.url, "Annie", ann_key)  # the same key under a new name: renamed
    eve = join(server.url, again.code, "Ann", eve_key)  # the old name is free again
    assert eve.seat == 1
    refused = Client(server.url)
    refused.send(CreateRoom("annie", Rules(target=None), ("human", "human"), "easy", eve_key))
    assert error(refused).code == "name_taken"


@pytest.mark.linux
def test_two_keyed_players_see_new_ratings_rated_once_after_a_kill_at_the_end(store):
    server = store.serve()
    ann_key, ben_key = new_key(), new_key()
    assert board(server.url, ann_key) == Leaderboard((), None)
    scores = rated_match(server.url, ann_key, ben_key)
    server.kill()  # SIGKILL right at the match's end: its rating was written with it, or is waiting to be
    restarted = store.serve()
    seen = board(restarted.url, ann_key)
    assert [row.matches for row in seen.rows] == [1, 1]
    assert [row.rank for row in seen.rows] == [1, 2] and {row.name for row in seen.rows} == {"Ann", "Ben"}
    if scores[0] == scores[1]:  # a drawn deal: both rated up alike
        assert seen.rows[0].rating == seen.rows[1].rating > 0
    else:
        winner = "Ann" if scores[0] > scores[1] else "Ben"
        assert seen.rows[0].name == winner and seen.rows[0].rating > seen.rows[1].rating
    mine = next(row for row in seen.rows if row.name == "Ann")
    assert seen.you is not None and (seen.you.rank, seen.you.of, seen.you.rating) == (mine.rank, 2, mine.rating)
    again = store.serve()  # a second restart rates nothing again
    assert board(again.url, ben_key).rows == seen.rows


def test_under_a_perdere_the_side_with_fewer_points_is_rated_up(store):
    server = store.serve()
    for attempt in range(6):  # a drawn deal says nothing of the order: another one
        ann_key, ben_key = new_key(), new_key()
        scores = rated_match(server.url, ann_key, ben_key, (f"Ann{attempt}", f"Ben{attempt}"),
                             Rules(target=None, a_perdere=True))
        if scores[0] != scores[1]:
            break
    else:
        pytest.skip("six drawn deals in a row")
    ann, ben = board(server.url, ann_key).you, board(server.url, ben_key).you
    assert ann is not None and ben is not None
    fewer, more = (ann, ben) if scores[0] < scores[1] else (ben, ann)
    assert fewer.rating > more.rating and fewer.rank < more.rank


def test_a_player_who_left_takes_the_loss_and_rates_nobody_down():
    ann = Entrant(0, 30.0, 3.0, "ann", left=True)
    ben = Entrant(1, 25.0, 3.0, "ben")
    rated = rate([ann, ben], (11, 3))  # ann was ahead when she left
    assert public(*rated[0]) < public(30.0, 3.0)
    assert public(*rated[1]) >= public(25.0, 3.0)
    strong = Entrant(1, 40.0, 1.0, "ben")
    kept = rate([Entrant(0, 10.0, 1.0, "ann", left=True), strong], (11, 3))
    assert kept[1] == (40.0, 1.0) or public(*kept[1]) >= public(40.0, 1.0)


def test_partners_are_rated_as_one_team_and_the_computer_not_at_all():
    seats = [Entrant(0, 25.0, 8.0, "a"), Entrant(1, 33.0, 1.0), Entrant(0, 25.0, 8.0, "c"), Entrant(1, 33.0, 1.0)]
    rated = rate(seats, (11, 5))
    assert set(rated) == {0, 2} and rated[0] == rated[2] and rated[0][0] > 25.0


def test_scopa_account_says_the_warning_first_then_moves_the_key(tmp_path):
    import subprocess
    import sys

    def account(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "scopa", "account", *args, "--lang", "en"],
                              capture_output=True, text=True, timeout=60, check=False)

    key = PlayerKeyStore(tmp_path / "a").load_or_make()
    done = account("export", str(tmp_path / "key.json"), "--data-dir", str(tmp_path / "a"))
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0].startswith("Warning. Anyone with this file can play as you")
    assert lines[1] == f"Player key exported to {tmp_path / 'key.json'}."
    done = account("import", str(tmp_path / "key.json"), "--data-dir", str(tmp_path / "b"))
    assert done.returncode == 0 and done.stdout.splitlines()[0].startswith("Warning.")
    assert PlayerKeyStore(tmp_path / "b").load() == key
    assert account("export", str(tmp_path / "x.json"), "--data-dir", str(tmp_path / "none")).returncode == 1


def test_a_match_end_seen_by_two_processes_or_left_by_a_killed_one_is_rated_once_in_redis(redis_server):
    """The window a kill of a real server cannot hit on purpose: the room's end stored with its
    rating waiting (as ``redis_store._SAVE`` writes it), no rating applied yet. Two processes
    rate it at once; then it is stored again (a later save of the finished room): once."""
    import asyncio

    import redis.asyncio as aioredis

    from scopa.net.server.ratings import LEVEL_RATINGS, Pending
    from scopa.net.server.redis_players import ASSISTED, TO_RATE, RedisPlayers, player_key

    redis_cli(redis_server, "FLUSHALL")
    match = Pending("ROOM:1.0", ((0, "a" * 64, 25.0, False), (1, None, LEVEL_RATINGS["expert"], False)), (11, 4),
                    True)

    async def run() -> tuple[list[int], str | None]:
        clients = [aioredis.Redis(port=redis_server, decode_responses=True) for _ in range(2)]
        try:
            await clients[0].hset(TO_RATE, match.id, match.to_json())
            books = [RedisPlayers(client) for client in clients]
            done = list(await asyncio.gather(*(book.rate_pending() for book in books)))
            await clients[0].hset(TO_RATE, match.id, match.to_json())  # stored again after the end
            done.append(await books[1].rate_pending())
            assert await clients[0].sismember(ASSISTED, match.id)  # marked: a hint was used
            return done, await clients[0].hget(player_key("a" * 64), "matches")
        finally:
            for client in clients:
                await client.aclose()

    done, matches = asyncio.run(run())
    assert sorted(done) == [0, 0, 1] and matches == "1"


def test_scopa_leaderboard_says_one_player_a_line_rank_first_then_your_place_and_stats_keeps_it(tmp_path):
    import subprocess
    import sys

    from helpers.net import Server

    def scopa(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "scopa", *args, "--lang", "en", "--data-dir", str(tmp_path / "d"),
                               "--config-dir", str(tmp_path / "c")], capture_output=True, text=True, timeout=60,
                              check=False)

    server = Server(tmp_path / "rooms.sqlite3")
    try:
        ann_key = PlayerKeyStore(tmp_path / "d").load_or_make()
        assert ann_key is not None
        empty = scopa("leaderboard", "--server", server.url)
        assert empty.returncode == 0 and empty.stdout.splitlines() == [
            "Nobody has a rating on this server yet.",
            "You have no rating on this server yet. Finish an online match to get one."]
        scores = rated_match(server.url, ann_key, new_key())
        shown = scopa("leaderboard", "--server", server.url, "--top", "5")
    finally:
        server.stop()
    lines = shown.stdout.splitlines()
    assert shown.returncode == 0 and len(lines) == 3
    assert re.fullmatch(r"1st, (Ann|Ben), rating (minus )?[0-9]+( point [0-9])?, 1 match\.", lines[0])
    assert lines[0].endswith(", 1 match.") and lines[1].startswith("2nd, ")
    mine = 1 if lines[0].startswith("1st, Ann,") else 2
    if scores[0] != scores[1]:
        assert mine == (1 if scores[0] > scores[1] else 2)
    assert lines[2].startswith(f"You are {'1st' if mine == 1 else '2nd'} of 2, rating ")
    rating = lines[2].removesuffix(".").split(", rating ", 1)[1]
    assert lines[mine - 1].startswith(f"{'1st' if mine == 1 else '2nd'}, Ann, rating {rating},")
    stats = scopa("--stats")
    assert stats.stdout.splitlines()[-1] == f"Rating {rating} on 127.0.0.1, {'1st' if mine == 1 else '2nd'} of 2."
    assert scopa("leaderboard", "--top", "0").returncode == 2


@pytest.mark.linux
def test_the_online_menu_reads_the_leaderboard_one_player_an_item_then_your_place(tmp_path):
    from helpers.net import Server
    from helpers.online_pty import menu_player

    server = Server(tmp_path / "rooms.sqlite3")
    try:
        bea_key = PlayerKeyStore(tmp_path / "menu" / "data").load_or_make()
        assert bea_key is not None
        scores = rated_match(server.url, bea_key, new_key(), names=("Bea", "Cal"))
        menu = menu_player(tmp_path, server.url)
        menu.expect(r"4, play online\. 5, quick match\. 6, quit\.")
        menu.send("4\r")
        menu.expect(r"5, daily deal[^.]*\.\s+6, see the leaderboard\.")
        menu.send("6\r")
        menu.expect(r"Enter for ")
        menu.send("\r")
        menu.expect(r"Leaderboard\.")
        rating = r"rating (?:minus )?[0-9]+(?: point [0-9])?"
        menu.expect(rf"1, (Bea|Cal), {rating}, 1 match\. 2, (Bea|Cal), {rating}, 1 match\. "
                    rf"3, You are (1st|2nd) of 2, {rating}\.")
        ranked = menu.match.group(1), menu.match.group(2), menu.match.group(3)
        assert {ranked[0], ranked[1]} == {"Bea", "Cal"} and ranked[2] == ("1st" if ranked[0] == "Bea" else "2nd")
        if scores[0] != scores[1]:
            assert ranked[0] == ("Bea" if scores[0] > scores[1] else "Cal")
        menu.send("esc\r")  # back, in line mode as at a screen reader
        menu.expect(r"4, play online\. 5, quick match\. 6, quit\.")
        menu.send("6\r")
        menu.expect(pexpect.EOF)
    finally:
        server.stop()


def test_a_match_with_a_hint_in_it_is_rated_and_marked(tmp_path):
    import sqlite3

    from helpers.net import Server
    from scopa.net.protocol.client_messages import Assisted

    server = Server(tmp_path / "rooms.sqlite3")
    try:
        ann = host(server.url, "Ann", new_key())
        ben = join(server.url, ann.code, "Ben", new_key())
        start(ann, ben)
        ann.send(Assisted())
        ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("assisted", 0, "Ann"))
        play_out([ann, ben], ann)
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "rooms.sqlite3") as db:
        assert db.execute("SELECT assisted FROM rated").fetchall() == [(1,)]
        assert db.execute("SELECT COUNT(*) FROM players WHERE matches = 1").fetchone()[0] == 2


def test_a_seat_covered_in_more_than_one_deal_counts_as_left_and_the_stores_keep_it(tmp_path):
    from scopa.net.protocol.codes import key_hash, new_seat_key
    from scopa.net.server.ratings import left, pending
    from scopa.net.server.redis_store import room_from_json, room_to_json
    from scopa.net.server.rooms import new_room
    from scopa.net.server.store import RoomStore

    room, _ = new_room("ACDEFG", Rules(), ("human", "human"), "Ann", key_hash(new_seat_key()), "easy", now=0.0,
                       server_seed=bytes([4]) * 32)
    seat, _ = room.join("Ben", key_hash(new_seat_key()))
    room.seat_player(0, "a" * 64)
    room.seat_player(seat, "b" * 64)
    room.ready(seat)
    room.contribute(0, bytes([1]) * 32)
    room.contribute(seat, bytes([2]) * 32)
    room.start(0, now=0.0)
    room.cover(seat)
    room.connected(seat)  # back within the first deal: part of one deal only
    assert not left(room, seat)
    room.cover(seat)
    while room.state.deal_number == 1:  # the computer plays Ben's seat to the end of the deal
        if room.state.phase.value == "deal_over":
            room.next_deal(0, room.number, now=0.0)
        elif room.state.to_move == seat:
            room.computer_move(now=0.0)
        else:
            room.play(0, room.state.legal_moves()[0], room.number, now=0.0)
    room.connected(seat)  # back in deal two: covered in two deals
    assert left(room, seat) and not left(room, 0)
    rooms = RoomStore(tmp_path / "rooms.sqlite3")
    rooms.save(room)
    for back in (rooms.load("ACDEFG"), room_from_json("ACDEFG", room_to_json(room), 0.3)):
        assert back is not None
        assert [s.player for s in back.seats if s] == ["a" * 64, "b" * 64] and left(back, seat)
    rooms.close()
    assert pending(room) is None  # not over yet: nothing to rate


def test_a_name_that_cannot_be_stored_is_refused_as_storage_and_the_server_goes_on(tmp_path):
    import sqlite3

    from helpers.net import Server

    db = tmp_path / "rooms.sqlite3"
    server = Server(db)
    try:
        host(server.url, "Ann", None)  # the server's file exists, with its tables
        with sqlite3.connect(db) as conn:  # as a full disk: no player can be written
            conn.execute("CREATE TRIGGER full BEFORE INSERT ON players BEGIN "
                         "SELECT RAISE(ABORT, 'database or disk is full'); END")
        refused = Client(server.url)
        refused.send(CreateRoom("Ben", Rules(target=None), ("human", "human"), "easy", new_key()))
        assert error(refused).code == "storage"
        assert host(server.url, "Cal", None).code is not None  # still serving
    finally:
        server.stop()


def test_one_address_asking_for_the_board_again_and_again_is_told_to_wait(tmp_path):
    import subprocess
    import sys

    from helpers.net import Server
    from scopa.net.server.server import BOARD_LIMIT

    server = Server(tmp_path / "rooms.sqlite3")
    try:
        for _ in range(BOARD_LIMIT[0]):
            board(server.url)
        asking = Client(server.url)
        asking.send(LeaderboardRequest())
        refused = error(asking)
        assert refused.code == "too_many_tries" and refused.values["seconds"] >= 1
        said = subprocess.run([sys.executable, "-m", "scopa", "leaderboard", "--server", server.url, "--lang", "en",
                               "--data-dir", str(tmp_path / "d"), "--config-dir", str(tmp_path / "c")],
                              capture_output=True, text=True, timeout=60, check=False)
        assert said.returncode == 1
        assert re.fullmatch(r"Too many leaderboards asked for\. Wait [0-9]+ seconds and try again\.\n", said.stdout)
    finally:
        server.stop()
