"""Records written before shuffle 2 load and replay exactly: a save, an export and a results log
made by main's code at 64d8704 (tests/fixtures/v1/make_fixtures.py), kept as they were written."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from scopa.engine import Rules
from scopa.engine.shuffle import SHUFFLE_REPLAY, shuffle_of
from scopa.net.server.store import RoomStore
from scopa.storage import (
    VERSION,
    SaveFileError,
    import_match,
    load_results,
    match_from_json,
    record_to_dict,
    recorded_match,
)
from scopa.storage.files import read_match_file

FIXTURES = Path(__file__).parent / "fixtures" / "v1"


def _data(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _format_2(data: dict) -> dict:
    """What the one step from format 1 to 2 writes: shuffle 1, and the variants' options win by two
    and scopa a perdere off in the rules and in the position's rules, no Cirulla claim (issue 32)."""
    off = {"win_by_two": False, "a_perdere": False}
    return data | {"version": VERSION, "shuffle": SHUFFLE_REPLAY, "rules": data["rules"] | off,
                   "state": data["state"] | {"rules": data["state"]["rules"] | off, "claims": []}}


def test_the_old_files_are_of_the_old_format() -> None:
    for name in ("save.json", "export.json"):
        data = _data(name)
        assert data["version"] == 1 and "shuffle" not in data and data["seed"] == 4242


def test_an_old_save_loads_as_shuffle_one_and_writes_back_the_same_match() -> None:
    data = _data("save.json")
    record = read_match_file(FIXTURES / "save.json")
    assert record.seed == 4242 and shuffle_of(record.seed) == SHUFFLE_REPLAY
    assert record.state.deal_number == 2 and len(record.state.history) == 5
    assert record_to_dict(record) == _format_2(data)
    assert match_from_json(json.dumps(record_to_dict(record))) == record


def test_an_old_save_plays_on_into_exactly_the_deals_of_the_old_export() -> None:
    """The save is the exported match in its second deal: its own moves and then the export's
    later ones, dealt again from the seed by shuffle 1, lead to the export's final position,
    the deals after the save included."""
    saved = read_match_file(FIXTURES / "save.json")
    exported = read_match_file(FIXTURES / "export.json")
    assert exported.moves[:len(saved.moves)] == saved.moves
    record = saved
    for logged in exported.moves[len(saved.moves):]:
        while record.state.deal_number < logged.deal_number:
            record, _ = record.next_deal()
        record, _ = record.play(logged.move)
    assert record.state == exported.state and record.state.is_match_over
    assert exported.state.deal_number == 4 and exported.state.match_scores == (6, 12)


def test_an_old_export_imports(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    shutil.copy(FIXTURES / "export.json", path)
    record = import_match(path)
    assert record == read_match_file(FIXTURES / "export.json") and record.seed == 4242


def test_an_old_results_log_loads_and_its_match_replays(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "results.json", tmp_path / "results.json")
    results = load_results(tmp_path)
    assert len(results) == 1 and results[0].scores == (6, 12) and results[0].match_id == "fixture-v1"
    match = recorded_match(results[0])
    assert match is not None and match == read_match_file(FIXTURES / "export.json")


def test_a_file_of_format_two_names_its_shuffle_strictly() -> None:
    data = _format_2(_data("export.json"))
    assert match_from_json(json.dumps(data | {"shuffle": 1})).seed == 4242
    for shuffle in (1.0, True, "1", 3, None):
        with pytest.raises(SaveFileError, match="The shuffle must be one or two"):
            match_from_json(json.dumps(data | {"shuffle": shuffle}))
    with pytest.raises(SaveFileError, match="sixty four hex digits"):
        match_from_json(json.dumps(data | {"shuffle": 2}))  # a whole-number seed is not of shuffle 2


OLD_ROOMS_SCHEMA = """
CREATE TABLE rooms (code TEXT PRIMARY KEY, rules TEXT NOT NULL, phase TEXT NOT NULL, host INTEGER NOT NULL,
    level TEXT NOT NULL, number INTEGER NOT NULL, position_number INTEGER NOT NULL, created REAL NOT NULL,
    active REAL NOT NULL, record TEXT);
CREATE TABLE seats (code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE, seat INTEGER NOT NULL,
    name TEXT NOT NULL, kind TEXT NOT NULL, level TEXT, key_hash TEXT, ready INTEGER NOT NULL,
    PRIMARY KEY (code, seat));
"""  # the room server's file at 64d8704, before the seed's parts were kept


def test_a_room_file_of_an_earlier_server_is_opened_and_its_rooms_go_on(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.executescript(OLD_ROOMS_SCHEMA)
        conn.execute("INSERT INTO rooms VALUES ('ACDEFG', ?, 'lobby', 0, 'easy', 1, 0, 0, 0, NULL)",
                     (json.dumps(Rules().to_dict()),))
        conn.execute("INSERT INTO rooms VALUES ('HJKMNP', ?, 'playing', 0, 'easy', 9, 1, 0, 0, ?)",
                     (json.dumps(Rules(target=11).to_dict()), (FIXTURES / "save.json").read_text(encoding="utf-8")))
        for code in ("ACDEFG", "HJKMNP"):
            conn.execute("INSERT INTO seats VALUES (?, 0, 'Ann', 'human', NULL, 'x', 1)", (code,))
        conn.execute("INSERT INTO seats VALUES ('HJKMNP', 1, 'Felix', 'computer', 'easy', NULL, 1)")
    store = RoomStore(db)
    try:
        rooms, problems = store.load_all()
        lobby, playing = sorted(rooms, key=lambda room: room.code)
        assert problems == [] and len(lobby.server_seed) == 32 and lobby.commitment is not None  # a fresh one
        assert playing.server_seed == b"" and playing.commitment is None and playing.record.seed == 4242
        store.save(lobby)
        again = store.load("ACDEFG")
        assert again is not None and again.server_seed == lobby.server_seed  # kept from now on
    finally:
        store.close()
