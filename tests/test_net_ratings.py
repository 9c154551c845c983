"""Player keys, names that belong to them, and ratings (issue 29), on a real server over loopback.

SQLite only for now: the Redis store keeps no player names yet (docs/online.md)."""
from __future__ import annotations

import secrets
import sqlite3
import stat

import pytest

from helpers.net import Client, Server, error, play_out, start
from scopa.engine import Rules
from scopa.net.identity import name_skeleton, player_hash
from scopa.net.messages import (
    Contribute,
    CreateRoom,
    Join,
    ProtocolError,
    Ready,
    UpdateMessage,
    Welcome,
    parse_client_message,
)
from scopa.net.ratings import Entrant, public, rate
from scopa.storage.player_key import PlayerKeyStore
from scopa.table import Notice


def new_key() -> str:
    return secrets.token_hex(32)


def host(url: str, name: str, key: str | None, seats: tuple[str, ...] = ("human", "human")) -> Client:
    client = Client(url)
    client.send(CreateRoom(name, Rules(target=None, players=len(seats)), seats, "easy", key))
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


@pytest.fixture
def server(tmp_path):
    started = Server(tmp_path / "rooms.sqlite3")
    yield started
    started.stop()


def players(db) -> dict[str, tuple]:
    with sqlite3.connect(db) as conn:
        return {row[0]: row[1:] for row in conn.execute("SELECT hash, name, ordinal, matches FROM players")}


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


def test_a_name_belongs_to_its_key_look_alikes_are_taken_and_a_player_renames(server, tmp_path):
    ann_key, eve_key = new_key(), new_key()
    ann = host(server.url, "Ann", ann_key)
    assert players(tmp_path / "rooms.sqlite3")[player_hash(ann_key)][0] == "Ann"
    for name, key in (("Ann", eve_key), ("\u0410nn", eve_key), ("ANN", None)):
        eve = Client(server.url)
        eve.send(Join(ann.code, name, key))
        assert error(eve).code == "name_taken"
    stored = sqlite3.connect(tmp_path / "rooms.sqlite3").execute("SELECT hash FROM players").fetchall()
    assert ann_key not in str(stored)  # only the hash is kept
    again = host(server.url, "Annie", ann_key)  # the same key under a new name: renamed
    assert players(tmp_path / "rooms.sqlite3")[player_hash(ann_key)][0] == "Annie"
    eve = join(server.url, again.code, "Ann", eve_key)  # the old name is free again
    assert eve.seat == 1


def test_two_keyed_players_play_a_rated_match_and_it_is_rated_once_after_a_kill(server, tmp_path):
    db = tmp_path / "rooms.sqlite3"
    ann_key, ben_key = new_key(), new_key()
    ann = host(server.url, "Ann", ann_key)
    ben = join(server.url, ann.code, "Ben", ben_key)
    start(ann, ben)
    play_out([ann, ben], ann)
    server.kill()  # SIGKILL right at the match's end: its rating was written with it, or not at all
    after = players(db)
    restarted = Server(db)
    try:
        assert players(db) == after  # the restart rates nothing again
    finally:
        restarted.stop()
    scores = ann.view.match_scores
    winner, loser = (ann_key, ben_key) if scores[0] > scores[1] else (ben_key, ann_key)
    assert scores[0] != scores[1]
    assert after[player_hash(winner)][1] > after[player_hash(loser)][1]
    assert after[player_hash(winner)][2] == after[player_hash(loser)][2] == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM rated").fetchone()[0] == 1


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
