"""Saving matches: autosave and exact resume, atomic writes, export and import with validation."""
from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.storage import FOUR, TWO, finish, played, saved, step, write_damaged_file
from scopa.engine import Card, Rules, check_invariants
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import CardNames, Messages
from scopa.storage import (
    EXPORT_WARNING,
    LEVELS,
    MIGRATIONS,
    VERSION,
    AutosaveStore,
    LoadResult,
    SavedMatches,
    SaveFileError,
    atomic_write_text,
    default_data_dir,
    export_match,
    import_match,
    load_results,
    match_from_json,
    match_to_json,
    record_from_dict,
    record_result,
    record_to_dict,
)
from scopa.storage import atomic as atomic_module

# Autosave and exact resume ---------------------------------------------------------------

@pytest.mark.parametrize("rules, seats, seed", [
    (Rules(), TWO, 3),
    (Rules(players=4), FOUR, 11),
    (Rules.scopone_scientifico(target=11), FOUR, 5),
])
def test_saved_and_resumed_match_ends_like_the_unsaved_one(tmp_path: Path, rules: Rules,
                                                             seats: tuple[SeatSetup, ...], seed: int) -> None:
    record = played(rules, seats, seed, turns=50)
    saved(tmp_path, record)

    found = AutosaveStore(tmp_path).load()
    assert found.problem is None and found.exists
    resumed = found.record
    assert resumed == record
    assert resumed.state.stock == record.state.stock  # the same cards will come out, in the same order

    never_saved = finish(record, random.Random(99))
    after_resume = finish(resumed, random.Random(99))
    assert after_resume == never_saved
    assert after_resume.state.winner == never_saved.state.winner
    assert after_resume.state.match_scores == never_saved.state.match_scores


def test_every_completed_turn_saves_and_loads_back(tmp_path: Path) -> None:
    store = SavedMatches(tmp_path)
    record, _ = MatchRecord.start(Rules(target=None), TWO, 8, first_dealer=1)
    lock = store.create(record)
    rng = random.Random(4)
    turn = 0
    while True:
        store.save(lock.match_id, record)
        if turn % 5 == 0 or record.state.is_deal_over:
            assert AutosaveStore(tmp_path).load().record == record
        if record.state.is_match_over:
            break
        record, turn = step(record, rng), turn + 1
    assert store.delete(lock.match_id, lock) is True
    assert AutosaveStore(tmp_path).load() == LoadResult(None, None, False)


def test_assisted_deals_survive_a_save(tmp_path: Path) -> None:
    record = played(Rules(), TWO, 2, turns=45).mark_assisted()
    saved(tmp_path, record)
    loaded = AutosaveStore(tmp_path).load().record
    assert loaded.assisted_deals == record.assisted_deals and loaded.assisted


def test_data_dir_defaults_to_the_platform_folder() -> None:
    assert default_data_dir().name == "scopa"
    assert SavedMatches().folder == default_data_dir() / "saves"


# Atomic writes ---------------------------------------------------------------------------

def _crash(*_: Any) -> None:
    raise OSError("simulated crash")


@pytest.mark.parametrize("target", ["replace", "fsync"])
def test_a_crash_while_saving_leaves_the_old_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   target: str) -> None:
    store = SavedMatches(tmp_path)
    old = played(Rules(), TWO, 1, turns=10)
    match_id = saved(tmp_path, old)
    path = store.path_of(match_id)
    before = path.read_bytes()
    monkeypatch.setattr(atomic_module.os, target, _crash)
    with pytest.raises(OSError):
        store.save(match_id, played(Rules(), TWO, 1, turns=11))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in store.folder.iterdir() if not p.name.endswith(".lock")) == [path.name]
    assert AutosaveStore(tmp_path).load().record == old


def test_a_temp_file_left_by_a_killed_write_is_ignored_then_cleaned(tmp_path: Path) -> None:
    record = played(Rules(), TWO, 1, turns=10)
    match_id = saved(tmp_path, record)
    leftover = SavedMatches(tmp_path).folder / f".{match_id}.json.abc123.tmp"
    leftover.write_text('{"format": "scopa-ma')
    assert AutosaveStore(tmp_path).load().record == record
    os.utime(leftover, (1, 1))  # make it old
    assert AutosaveStore(tmp_path).load().record == record
    assert not leftover.exists()


def test_atomic_write_replaces_whole_text(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    atomic_write_text(path, "old")
    atomic_write_text(path, "new é")
    assert path.read_text(encoding="utf-8") == "new é"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


# Unreadable saves ------------------------------------------------------------------------

def test_an_unreadable_save_is_set_aside_said_and_kept(tmp_path: Path) -> None:
    bad = SavedMatches(tmp_path).folder / "match-broken.json"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b'{"format": "scopa-match", "version": 1,\n garbage')
    before = bad.read_bytes()

    found = AutosaveStore(tmp_path).load()
    assert found.record is None and found.exists
    assert found.problem.startswith("The saved match cannot be read. The file is not valid JSON. "
                                    "The error is on line 2")
    assert "\n" not in found.problem
    assert not bad.exists() and bad.with_name("match-broken.json.bad").read_bytes() == before

    record = played(Rules(), TWO, 1, turns=3)
    saved(tmp_path, record)
    assert AutosaveStore(tmp_path).load() == LoadResult(record, None, True)
    assert bad.with_name("match-broken.json.bad").read_bytes() == before


def test_a_second_unreadable_save_of_the_same_name_does_not_overwrite_the_first(tmp_path: Path) -> None:
    folder = SavedMatches(tmp_path).folder
    folder.mkdir(parents=True)
    (folder / "match-x.json.bad").write_text("an older bad file")
    (folder / "match-x.json").write_text("[]")
    [aside] = SavedMatches(tmp_path).list().set_aside
    assert aside.kept == folder / "match-x.json.2.bad"
    assert (folder / "match-x.json.bad").read_text() == "an older bad file"
    assert (folder / "match-x.json.2.bad").read_text() == "[]"


def test_a_record_that_could_not_be_read_back_is_not_written(tmp_path: Path) -> None:
    record, _ = MatchRecord.start(Rules(), (SeatSetup(""), SeatSetup("Bruno", "computer", "hard")), 1)
    with pytest.raises(SaveFileError, match="Seat 1 needs a name"):
        SavedMatches(tmp_path).save("match-1", record)
    assert list(tmp_path.iterdir()) == []


def test_levels_are_those_of_the_computer_players() -> None:
    players = pytest.importorskip("scopa.players")
    assert LEVELS == players.LEVELS


# Export and import -----------------------------------------------------------------------

def test_export_then_import_gives_the_same_match(tmp_path: Path) -> None:
    record = played(Rules(players=4), FOUR, 6, turns=60).mark_assisted()
    path = export_match(record, tmp_path / "match.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "scopa-match" and data["version"] == VERSION
    assert set(data) == {"format", "version", "rules", "seats", "shuffle", "seed", "first_dealer", "moves",
                         "assisted_deals", "state"}
    assert set(data["moves"][0]) == {"deal", "seat", "card", "capture"}
    assert import_match(path) == record
    assert "every hand" in EXPORT_WARNING
    with pytest.raises(FileExistsError):
        export_match(record, path)
    export_match(record, path, overwrite=True)


def _export(record: MatchRecord) -> dict[str, Any]:
    return json.loads(match_to_json(record))


def _import_text(tmp_path: Path, text: str | bytes) -> MatchRecord:
    path = tmp_path / "in.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return import_match(path)


def _import_fails(tmp_path: Path, data: Any) -> str:
    text = data if isinstance(data, (str, bytes)) else json.dumps(data, indent=1)
    with pytest.raises(SaveFileError) as caught:
        _import_text(tmp_path, text)
    message = str(caught.value)
    assert message.startswith("Import failed. ") and "\n" not in message
    return message


def test_import_names_the_check_that_failed(tmp_path: Path) -> None:
    record = played(Rules(), TWO, 9, turns=20)
    good = _export(record)

    assert _import_fails(tmp_path, '{\n"format":\n}') == ("Import failed. The file is not valid JSON. The error is on "
                                                          "line 3.")
    with pytest.raises(SaveFileError, match="no such file"):
        import_match(tmp_path / "missing.json")
    assert "not text in UTF 8" in _import_fails(tmp_path, b"\xff\xfe\x00garbage")
    assert "is not a scopa match" in _import_fails(tmp_path, good | {"format": "chess"})

    lost = copy.deepcopy(good)
    lost["state"]["stock"].pop()
    assert _import_fails(tmp_path, lost) == ("Import failed. The saved position is not valid. The cards do not "
                                             "make a whole pack. The number of cards in the position is 39, not 40.")

    bad_level = copy.deepcopy(good)
    bad_level["seats"][1]["level"] = "godlike"
    assert "level must be beginner, easy, medium, hard or expert." in _import_fails(tmp_path, bad_level)
    no_name = copy.deepcopy(good)
    no_name["seats"][0]["name"] = "  "
    assert "The name of seat 1 has nothing that can be seen or read." in _import_fails(tmp_path, no_name)
    no_name["seats"][0]["name"] = ""
    assert "Seat 1 needs a name" in _import_fails(tmp_path, no_name)
    for name in ("Ann\u001b[2J", "Ann\ud800", "Ann\u2028"):  # an escape sequence, a lone surrogate, a new line
        no_name["seats"][0]["name"] = name
        assert "The name of seat 1 holds control characters" in _import_fails(tmp_path, no_name)

    shuffled = copy.deepcopy(good)
    stock = shuffled["state"]["stock"]
    stock[0], stock[1] = stock[1], stock[0]
    assert _import_fails(tmp_path, shuffled).endswith("which differs in the order of the stock.")

    assert "seed of the saved position" in _import_fails(tmp_path, good | {"seed": good["seed"] + 1})


def test_import_rejects_an_illegal_move(tmp_path: Path) -> None:
    # Find a logged capture and change it into a play that is not allowed.
    record = played(Rules(), TWO, 9, turns=30)
    data = _export(record)
    number, move = next((i, m) for i, m in enumerate(data["moves"], 1) if m["capture"])
    move["capture"] = []
    message = _import_fails(tmp_path, data)
    card = Card.parse(move["card"])
    assert message == (f"Import failed. Move {number} is not allowed. "
                       f"{CardNames(Messages('en')).the(card).capitalize()} must capture. A card that can take must "
                       f"take.")


def test_a_failed_import_writes_nothing(tmp_path: Path) -> None:
    record = played(Rules(), TWO, 1, turns=8)
    saved(tmp_path, record)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    files["bad.json"] = bad.read_bytes()
    with pytest.raises(SaveFileError):
        import_match(bad)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == files


# Format versions -------------------------------------------------------------------------

def test_a_file_from_a_newer_version_says_so(tmp_path: Path) -> None:
    data = _export(played(Rules(), TWO, 1, turns=5)) | {"version": VERSION + 1}
    assert "made by a newer version of scopa" in _import_fails(tmp_path, data)


def test_a_file_from_an_older_version_without_a_migration_says_so(tmp_path: Path) -> None:
    data = _export(played(Rules(), TWO, 1, turns=5)) | {"version": 0}
    assert "made by an older version of scopa" in _import_fails(tmp_path, data)


def test_an_older_version_is_migrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = played(Rules(), TWO, 1, turns=12)
    current = _export(record)
    old = {k: v for k, v in current.items() if k != "assisted_deals"} | {"version": 0, "hinted": []}

    def from_0(data: dict[str, Any]) -> dict[str, Any]:
        data["assisted_deals"] = data.pop("hinted")
        return data

    monkeypatch.setitem(MIGRATIONS, 0, from_0)
    assert _import_text(tmp_path, json.dumps(old)) == record
    assert old["version"] == 0 and "hinted" in old  # the caller's data is not changed

    monkeypatch.setitem(MIGRATIONS, 0, lambda data: data["missing"])
    assert "could not be brought up to date" in _import_fails(tmp_path, old)


# Results log -----------------------------------------------------------------------------

def test_results_log(tmp_path: Path) -> None:
    assert load_results(tmp_path) == []
    record = finish(played(Rules(players=4), FOUR, 3, turns=0), random.Random(2))
    entry = record_result(record, "2024-05-01 20:15", tmp_path)
    assert entry.scores == record.state.match_scores and entry.assisted is False
    assert entry.winner == record.state.winner
    assert set(entry.winners) == {s.name for i, s in enumerate(FOUR) if i % 2 == record.state.winner}
    record_result(record.mark_assisted(), "2024-05-02 10:00", tmp_path)
    assert [r.when for r in load_results(tmp_path)] == ["2024-05-01 20:15", "2024-05-02 10:00"]
    assert load_results(tmp_path)[1].assisted is True
    with pytest.raises(ValueError):
        record_result(played(Rules(), TWO, 1, turns=3), "now", tmp_path)

    (tmp_path / "results.json").write_text("not json")
    with pytest.raises(SaveFileError, match=r"^The results log cannot be read\. "):
        load_results(tmp_path)
    record_result(record, "later", tmp_path)
    assert (tmp_path / "results.json.bad").read_text() == "not json"
    assert [r.when for r in load_results(tmp_path)] == ["later"]


def test_an_online_result_names_the_players_seat_and_a_result_of_here_is_written_as_before(tmp_path: Path) -> None:
    record = finish(played(Rules(players=4), FOUR, 3, turns=0), random.Random(2))
    here = record_result(record, "2024-05-01 20:15", tmp_path)
    line = (tmp_path / "results.json").read_text(encoding="utf-8").splitlines()[1]
    assert "seat" not in json.loads(line) and here.seat is None  # the line as before the field
    humans = [i for i, s in enumerate(FOUR) if s.is_human]
    online = record_result(record, "2024-05-02 10:00", tmp_path, online=True, match_id="online x", seat=humans[-1])
    assert load_results(tmp_path)[1] == online and (online.online, online.seat) == (True, humans[-1])
    assert record_result(record, "later", tmp_path, online=True, match_id="online x", seat=humans[-1]) == online
    assert len(load_results(tmp_path)) == 2  # the same online match, told again: logged once
    with pytest.raises(ValueError):
        record_result(record, "now", tmp_path, seat=1)  # Bruno is a computer: the player's seat is a human one
    text = (tmp_path / "results.json").read_text(encoding="utf-8")
    for bad in ("7", "-1"):  # no such seat
        (tmp_path / "results.json").write_text(text.replace(f'"seat":{humans[-1]}}}', f'"seat":{bad}}}'),
                                               encoding="utf-8")
        with pytest.raises(SaveFileError, match=r"^The results log cannot be read\. "):
            load_results(tmp_path)


def _logged_twice(folder: Path) -> tuple[list, str]:
    record = finish(played(Rules(), TWO, 3, turns=0), random.Random(2))
    record_result(record, "2024-05-01 20:15", folder)
    record_result(record.mark_assisted(), "2024-05-02 10:00", folder)
    return load_results(folder), (folder / "results.json").read_text(encoding="utf-8")


def test_the_results_log_is_read_a_result_at_a_time(tmp_path: Path) -> None:
    from scopa.storage import iter_results, result_at
    results, text = _logged_twice(tmp_path)
    head, first, second, tail = text.splitlines()
    (tmp_path / "results.json").write_text(f"{head}\n{first}\n", encoding="utf-8")  # cut short after one
    read = iter_results(tmp_path)
    assert next(read) == results[0]  # given before the rest of the file is read
    with pytest.raises(SaveFileError, match=r"^The results log cannot be read\. The file is not valid JSON"):
        next(read)  # the same reason as the log read whole
    (tmp_path / "results.json").write_text(text, encoding="utf-8")
    assert result_at(tmp_path, 1) == results[1] and result_at(tmp_path, 2) is None
    import tracemalloc
    big = "\n".join([head] + [first] * 200 + [second, tail])
    (tmp_path / "results.json").write_text(big, encoding="utf-8")
    tracemalloc.start()
    try:
        assert sum(1 for _ in iter_results(tmp_path)) == 201
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(big) / 4  # about one result parsed (some 20 times its line), never the whole log


def test_a_results_log_laid_out_otherwise_is_still_read_whole(tmp_path: Path) -> None:
    results, text = _logged_twice(tmp_path)
    (tmp_path / "results.json").write_text(json.dumps(json.loads(text), indent=2), encoding="utf-8")  # older versions
    assert load_results(tmp_path) == results
    (tmp_path / "results.json").write_text(text.replace(",\n", ",\n\n  ", 1) + "\n\n", encoding="utf-8")
    assert load_results(tmp_path) == results  # blank lines and spaces between results are JSON too


def test_a_results_log_over_the_cap_is_too_large_and_set_aside_by_the_next_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa.storage import results as results_module
    _results, text = _logged_twice(tmp_path)
    monkeypatch.setattr(results_module, "RESULTS_MAX_BYTES", 1_000_000)
    (tmp_path / "results.json").write_text(text + " " * 1_000_000, encoding="utf-8")  # JSON, over the cap
    text = (tmp_path / "results.json").read_text(encoding="utf-8")
    with pytest.raises(SaveFileError, match=r"cannot be read\. The log is over 1 megabytes, the most the game reads"):
        load_results(tmp_path)
    record_result(finish(played(Rules(), TWO, 4, turns=0), random.Random(3)), "later", tmp_path)
    assert (tmp_path / "results.json.bad").read_text(encoding="utf-8") == text  # kept whole, as documented
    assert [r.when for r in load_results(tmp_path)] == ["later"]


# Property: any damaged file is rejected in one line, or loads into a consistent match --------


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_damaged_file_is_rejected_in_one_line_or_loads_consistently(tmp_path_factory: pytest.TempPathFactory,
                                                                       data: st.DataObject) -> None:
    path = write_damaged_file(data, tmp_path_factory.getbasetemp() / "damaged.json")
    try:
        record = import_match(path)
    except SaveFileError as error:
        message = str(error)
        assert message.startswith("Import failed. ") and len(message) > len("Import failed. ")
        assert "\n" not in message and "\r" not in message
        return
    check_invariants(record.state)
    assert record_from_dict(record_to_dict(record)) == record  # it replays from its own log
    assert match_from_json(match_to_json(record).encode("utf-8").decode("utf-8")) == record
