"""Saved matches are the player's until they delete them: several kept, locked while open, never
replaced, an unreadable one set aside and said; files that are not plain files refused at once;
an import bounded and checked field by field."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers.spoken import assert_spoken
from helpers.storage import TWO, finish, played
from helpers.storage import saved as _save  # the tests here name their own saved matches `saved`
from scopa.engine import Rules
from scopa.match import MatchRecord
from scopa.narration import Messages
from scopa.storage import (
    SavedMatches,
    SaveFileError,
    SaveLockedError,
    export_match,
    import_match,
    load_results,
    match_to_json,
    record_result,
)
from scopa.storage.atomic import atomic_write_text
from scopa.table.persistence import Persistence

EN, IT = Messages("en"), Messages("it")


# Several saved matches --------------------------------------------------------------------

def test_several_matches_are_kept_most_recent_first(tmp_path: Path) -> None:
    first, second = played(Rules(), TWO, 3, turns=5), played(Rules(), TWO, 4, turns=9)
    old = _save(tmp_path, first)
    os.utime(SavedMatches(tmp_path).path_of(old), (1_000_000, 1_000_000))
    _save(tmp_path, second)
    saves = SavedMatches(tmp_path).list().saves
    assert [s.record for s in saves] == [second, first]


def test_the_autosave_of_earlier_versions_becomes_a_saved_match_without_loss(tmp_path: Path) -> None:
    record = played(Rules(), TWO, 3, turns=7)
    (tmp_path / "autosave.json").write_text(match_to_json(record), encoding="utf-8")
    _save(tmp_path, played(Rules(), TWO, 5, turns=2))
    saves = SavedMatches(tmp_path).list().saves
    assert record in [s.record for s in saves] and len(saves) == 2
    assert not (tmp_path / "autosave.json").exists()


def test_a_new_match_never_replaces_a_saved_one(tmp_path: Path) -> None:
    kept = played(Rules(), TWO, 3, turns=7)
    _save(tmp_path, kept)
    persistence = Persistence(tmp_path)
    assert persistence.start_new(MatchRecord.start(Rules(), TWO, 9)[0]) is None
    assert kept in [s.record for s in SavedMatches(tmp_path).list().saves]


def test_resume_means_the_most_recently_played_match_no_other_copy_has_open(tmp_path: Path) -> None:
    older, newer = played(Rules(), TWO, 3, turns=5), played(Rules(), TWO, 4, turns=5)
    old_id = _save(tmp_path, older)
    os.utime(SavedMatches(tmp_path).path_of(old_id), (1_000_000, 1_000_000))
    new_id = _save(tmp_path, newer)
    assert Persistence(tmp_path).latest()[0].record == newer
    other_copy = SavedMatches(tmp_path).lock(new_id)
    try:
        assert Persistence(tmp_path).latest()[0].record == older
    finally:
        other_copy.release()


def test_a_deleted_match_is_gone_and_the_others_stay(tmp_path: Path) -> None:
    a, b = played(Rules(), TWO, 3, turns=5), played(Rules(), TWO, 4, turns=5)
    _save(tmp_path, a)
    _save(tmp_path, b)
    persistence = Persistence(tmp_path)
    target = next(s for s in persistence.saved_matches() if s.record == a)
    assert persistence.delete(target) == EN("saves.deleted")
    assert [s.record for s in SavedMatches(tmp_path).list().saves] == [b]


def test_the_menu_line_names_opponents_score_deal_and_day(tmp_path: Path) -> None:
    record = played(Rules(), TWO, 3, turns=40)
    _save(tmp_path, record)
    persistence = Persistence(tmp_path)
    [saved] = persistence.saved_matches()
    scores = " to ".join(map(str, record.state.match_scores))
    assert persistence.describe(saved) == f"against Bruno, {scores}, deal {record.state.deal_number}, last played today"
    italian = Persistence(tmp_path, messages=lambda: IT)
    assert italian.describe(saved).startswith("contro Bruno, ")


def test_at_four_the_menu_line_names_the_partner_apart(tmp_path: Path) -> None:
    from helpers.storage import FOUR
    _save(tmp_path, played(Rules(players=4), FOUR, 3, turns=3))
    persistence = Persistence(tmp_path)
    [saved] = persistence.saved_matches()
    assert persistence.describe(saved).startswith("with Carla against Bruno and Dino, 0 to 0, deal 1, ")


# Locks --------------------------------------------------------------------------------------

def test_a_match_open_in_one_copy_is_locked_for_another(tmp_path: Path) -> None:
    record = played(Rules(), TWO, 3, turns=5)
    match_id = _save(tmp_path, record)
    mine = Persistence(tmp_path)
    [saved] = mine.saved_matches()
    assert mine.open(saved) == (record, None)
    other = Persistence(tmp_path)
    [seen] = other.saved_matches()
    assert seen.locked and other.describe(seen).endswith(", open in another copy")
    assert other.open(seen) == (None, EN("saves.locked"))
    assert other.latest() == (None, EN("saves.all_locked"))
    with pytest.raises(SaveLockedError):
        SavedMatches(tmp_path).delete(match_id)
    mine.close()
    assert other.open(seen) == (record, None)


def test_a_match_opened_after_another_copy_played_on_is_read_again(tmp_path: Path) -> None:
    """Listed, then played on and left by another copy: the copy that opens it gets the newer moves."""
    listed = played(Rules(), TWO, 3, turns=5)
    match_id = _save(tmp_path, listed)
    persistence = Persistence(tmp_path)
    [saved] = persistence.saved_matches()
    later = played(Rules(), TWO, 3, turns=9)
    SavedMatches(tmp_path).save(match_id, later)  # the other copy's autosave, before it quit
    assert persistence.open(saved) == (later, None)


@pytest.mark.linux
def test_a_lock_left_by_a_killed_copy_does_not_block(tmp_path: Path) -> None:
    match_id = _save(tmp_path, played(Rules(), TWO, 3, turns=5))
    holder = subprocess.Popen(
        [sys.executable, "-c", ("import sys, time; from scopa.storage import SavedMatches; "
          f"lock = SavedMatches(sys.argv[1]).lock({match_id!r}); print('held', flush=True); time.sleep(60)"),
         str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert SavedMatches(tmp_path).is_locked(match_id)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    SavedMatches(tmp_path).lock(match_id).release()  # no SaveLockedError: the system let go of it


def _lock_files(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / "saves").iterdir() if p.name.endswith(".lock"))


def test_lock_files_go_with_their_saves_and_a_held_one_stays(tmp_path: Path) -> None:
    store = SavedMatches(tmp_path)
    kept, by_hand, broken, deleted = (_save(tmp_path, played(Rules(), TWO, seed, turns=3)) for seed in (1, 2, 3, 4))
    store.list()  # looking at each save makes its lock file
    assert _lock_files(tmp_path) == sorted(f"{i}.json.lock" for i in (kept, by_hand, broken, deleted))
    store.delete(deleted)
    store.path_of(by_hand).unlink()  # removed outside the game
    store.path_of(broken).write_text("{", encoding="utf-8")  # set aside as .bad by the next listing
    creating = store.create(played(Rules(), TWO, 5, turns=1))  # another copy: locked, not saved yet
    listing = store.list()
    assert [s.match_id for s in listing.saves] == [kept] and len(listing.set_aside) == 1
    assert _lock_files(tmp_path) == sorted([f"{kept}.json.lock", f"{creating.match_id}.json.lock"])
    with pytest.raises(SaveLockedError):
        store.lock(creating.match_id, wait=0)  # still that copy's
    creating.release()  # released, a lock file stays while its save does (filelock's own reason)
    store.lock(kept).release()
    assert f"{kept}.json.lock" in _lock_files(tmp_path)
    store.list()
    assert _lock_files(tmp_path) == [f"{kept}.json.lock"]  # the new match was never saved


# Results are logged once ----------------------------------------------------------------------

def test_a_result_is_logged_once_per_match(tmp_path: Path) -> None:
    record = finish(played(Rules(), TWO, 3, turns=5), random.Random(2))
    record_result(record, "2026-12-01", tmp_path, match_id="match-1")
    record_result(record, "2026-12-02", tmp_path, match_id="match-1")
    assert [r.when for r in load_results(tmp_path)] == ["2026-12-01"]


def test_a_finished_match_still_saved_is_logged_once_and_removed(tmp_path: Path) -> None:
    """Stopped between logging the result and removing the save: the next listing ends the job."""
    record = finish(played(Rules(), TWO, 3, turns=5), random.Random(2))
    match_id = _save(tmp_path, record)
    record_result(record, "2026-12-01", tmp_path, match_id=match_id)
    assert Persistence(tmp_path).saved_matches() == []
    assert len(load_results(tmp_path)) == 1 and SavedMatches(tmp_path).list().saves == []


def test_importing_a_finished_match_is_refused_deletes_nothing_and_logs_nothing(tmp_path: Path) -> None:
    kept = played(Rules(), TWO, 3, turns=5)
    _save(tmp_path / "data", kept)
    over = tmp_path / "over.json"
    export_match(finish(played(Rules(), TWO, 4, turns=5), random.Random(2)), over)
    for _ in range(2):
        record, line = Persistence(tmp_path / "data").import_match(str(over))
        assert record is None and line == EN("import.finished")
    assert [s.record for s in SavedMatches(tmp_path / "data").list().saves] == [kept]
    assert load_results(tmp_path / "data") == []


# Files that are not plain files -----------------------------------------------------------------

def test_a_symlinked_save_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    store = SavedMatches(tmp_path / "data")
    real = tmp_path / "elsewhere" / "real.json"
    real.parent.mkdir()
    real.write_text("old")
    store.folder.mkdir(parents=True)
    link = store.path_of("match-linked")
    link.symlink_to(real)
    record = played(Rules(), TWO, 3, turns=5)
    store.save("match-linked", record)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert import_match(real) == record
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.json"]  # no temporary file left


def test_an_export_through_a_symlink_replaces_the_file_it_names(tmp_path: Path) -> None:
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_text("old")
    link.symlink_to(real)
    record = played(Rules(), TWO, 3, turns=5)
    export_match(record, link, overwrite=True)
    assert link.is_symlink() and import_match(real) == record


def _answered_within(seconds: float, action: Callable[[], Any]) -> Any:
    """The result of ``action``, which must come back within ``seconds`` (it ran in a thread)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = action()
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            box["error"] = error
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "it hung"
    if "error" in box:
        raise box["error"]
    return box["value"]


@pytest.mark.linux
def test_importing_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for messages, expected in ((EN, "Import failed. That is not a plain file. It may be a pipe or a device."),
                               (IT, ("Importazione non riuscita. Non è un file normale. "
                                     "Può essere una pipe o un dispositivo."))):
        record, line = _answered_within(5, lambda m=messages: Persistence(
            tmp_path / "data", messages=lambda: m).import_match(str(fifo)))
        assert record is None and line == expected
        assert_spoken(line, messages.lang)


def test_importing_a_device_or_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="not a plain file"):
        import_match(os.devnull)
    with pytest.raises(SaveFileError, match="folder"):
        import_match(tmp_path)


@pytest.mark.linux
def test_a_fifo_named_as_the_autosave_is_set_aside_at_once_and_said(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "autosave.json")
    persistence = Persistence(tmp_path)
    assert _answered_within(5, persistence.saved_matches) == []
    [line] = persistence.notices()
    assert line.startswith("The saved match cannot be read. That is not a plain file.")
    kept = Path(line[line.rindex(" as ") + 4:-1])
    assert kept.parent == tmp_path / "saves" and kept.is_fifo()


@pytest.mark.linux
@pytest.mark.parametrize("make", ["fifo", "folder", "device"])
def test_exporting_to_something_not_a_plain_file_is_refused_before_asking(tmp_path: Path, make: str) -> None:
    target = {"fifo": tmp_path / "pipe", "folder": tmp_path, "device": Path(os.devnull)}[make]
    if make == "fifo":
        os.mkfifo(target)
    line = _answered_within(5, lambda: Persistence(tmp_path / "data").export_refusal(str(target)))
    assert line is not None and line.startswith("Export failed. ")
    with pytest.raises(OSError):
        _answered_within(5, lambda: atomic_write_text(target, "x"))
    assert target.exists() and not target.is_file()


# Import is bounded and checks exactly the documented fields ---------------------------------------

def _data(turns: int = 20) -> dict[str, Any]:
    return json.loads(match_to_json(played(Rules(), TWO, 9, turns=turns)))


def _refusal(tmp_path: Path, data: Any) -> SaveFileError:
    path = tmp_path / "in.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveFileError) as caught:
        import_match(path)
    for messages in (EN, IT):
        assert_spoken(caught.value.localised(messages), messages.lang)
    return caught.value


def _with(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    data = _data()
    change(data)
    return data


REFUSED = {
    "unknown field in state": (lambda d: d["state"].update(extra=1),
                               "The saved position has a field that scopa does not know."),
    "missing rule option": (lambda d: d["rules"].pop("napola"), "The rules do not set every option."),
    "missing state rule option": (lambda d: d["state"]["rules"].pop("napola"),
                                  "The rules of the saved position do not set every option."),
    "no human seat": (lambda d: d["seats"][0].update(kind="computer", level="easy"),
                      "No seat is human. At least one player must be a person."),
    "bidirectional override": (lambda d: d["seats"][0].update(name="Ann\u202enoB"),
                               "The name of seat 1 holds characters that turn the direction of the text."),
    "zero width only": (lambda d: d["seats"][0].update(name="\u200b\u200d"),
                        "The name of seat 1 has nothing that can be seen or read."),
    "deal totals": (lambda d: d["state"].update(deal_totals=[[0, 0]] * 5000),
                    "The saved position has too many entries in the deal results."),
    "moves": (lambda d: d.update(moves=d["moves"] * 250), "The list of moves is longer than any match can have."),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_import_refuses_what_the_docs_do_not_allow(tmp_path: Path, name: str) -> None:
    change, reason = REFUSED[name]
    error = _refusal(tmp_path, _with(change))
    assert str(error).startswith("Import failed. " + reason)


def test_a_file_over_the_size_cap_is_refused_before_it_is_read(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa.storage import files
    path = tmp_path / "big.json"
    with open(path, "wb") as handle:
        handle.truncate(files.MAX_FILE_BYTES + 1)
    def no_reading(*_: Any, **__: Any) -> Any:
        raise AssertionError("read a file already known to be too large")
    monkeypatch.setattr(files, "open", no_reading, raising=False)  # how the file was read before
    monkeypatch.setattr(files.os, "read", no_reading)
    with pytest.raises(SaveFileError, match="too large"):
        import_match(path)


def test_a_large_file_of_deal_totals_is_refused_quickly(tmp_path: Path) -> None:
    """Today's 20 MB of deal totals took 5.8 s; the cap keeps even the largest refused file quick
    (the figures: ``python -m scopa.bench saves``). No timing here: the reason says it was the cap."""
    data = _data()
    from scopa.storage import files
    count = (files.MAX_FILE_BYTES - len(json.dumps(data)) - 100) // len("[0, 0], ")
    data["state"]["deal_totals"] = [[0, 0]] * count
    assert "too many entries in the deal results" in str(_refusal(tmp_path, data))


def test_typed_names_lose_direction_overrides_and_invisible_names_become_defaults() -> None:
    from scopa.match import clean_name
    assert clean_name("Ann\u202e\u2066") == "Ann"
    assert clean_name("\u200b\u200c") == ""
