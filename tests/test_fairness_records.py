"""Records written before shuffle 2 load and replay exactly: a save, an export and a results log
made by main's code at 64d8704 (tests/fixtures/v1/make_fixtures.py), kept as they were written."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from scopa.engine.shuffle import SHUFFLE_REPLAY, shuffle_of
from scopa.storage import VERSION, import_match, load_results, match_from_json, record_to_dict, recorded_match
from scopa.storage.files import read_match_file

FIXTURES = Path(__file__).parent / "fixtures" / "v1"


def _data(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def test_the_old_files_are_of_the_old_format() -> None:
    for name in ("save.json", "export.json"):
        data = _data(name)
        assert data["version"] == 1 and "shuffle" not in data and data["seed"] == 4242


def test_an_old_save_loads_as_shuffle_one_and_writes_back_the_same_match() -> None:
    data = _data("save.json")
    record = read_match_file(FIXTURES / "save.json")
    assert record.seed == 4242 and shuffle_of(record.seed) == SHUFFLE_REPLAY
    assert record.state.deal_number == 2 and len(record.state.history) == 5
    assert record_to_dict(record) == data | {"version": VERSION, "shuffle": SHUFFLE_REPLAY}
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
