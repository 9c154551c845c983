"""Statistics from the kept facts: a logged match is replayed once, not at every look at the page.

The cache (``results-cache.json``) is derived from the results log: deleting it, breaking it or
replacing the log only means the facts are worked out again; the log itself is never written."""
from __future__ import annotations

import json

import pytest

import scopa.record.stats as stats_module
from helpers.console import program_for
from helpers.record import random_match
from scopa.engine import Rules
from scopa.record.console import finish_match, page
from scopa.record.stats import all_facts
from scopa.storage import load_results, record_result
from scopa.storage.results_cache import CACHE_NAME

WHEN = "2026-04-0{}T10:00:00+00:00"


@pytest.fixture
def replays(monkeypatch) -> list[object]:
    """Every match the statistics replay, as they replay it."""
    seen: list[object] = []
    real = stats_module.replay_match
    monkeypatch.setattr(stats_module, "replay_match", lambda record: seen.append(record) or real(record))
    return seen


def _log(folder, count: int = 3):
    for day in range(1, count + 1):
        record_result(random_match(Rules(), "easy", day, 3), WHEN.format(day), folder)
    return (folder / "results.json").read_bytes()


def test_statistics_replay_each_logged_match_once_then_read_the_kept_facts(tmp_path, replays):
    data = tmp_path / "data"
    log = _log(data)
    first = page(data, "en")
    assert len(replays) == 3 and (data / CACHE_NAME).exists()
    again = page(data, "en")
    assert len(replays) == 3  # nothing replayed the second time
    assert again == first and again.facts == all_facts(load_results(data))
    assert (data / "results.json").read_bytes() == log  # the player's log is never written


@pytest.mark.parametrize("damage", [
    lambda path: path.unlink(),
    lambda path: path.write_text("{not json"),
    lambda path: path.write_bytes(b"\xff\xfe garbage"),
    lambda path: path.write_text(json.dumps({"format": "scopa-results-cache", "version": 99, "entries": {}})),
    lambda path: path.write_text(json.dumps({"format": "scopa-results-cache", "version": 1, "entries": []})),
    lambda path: (path.unlink(), path.mkdir()),
], ids=["deleted", "not_json", "not_utf8", "other_version", "no_entries", "a_folder"])
def test_a_missing_or_broken_cache_is_made_again_silently(tmp_path, replays, damage):
    data = tmp_path / "data"
    _log(data)
    first = page(data, "en")
    damage(data / CACHE_NAME)
    assert page(data, "en") == first  # the same page, no word of the cache
    assert len(replays) == 6
    if (data / CACHE_NAME).is_file():
        assert page(data, "en") == first and len(replays) == 6  # made again, and read the next time


def test_an_entry_that_does_not_read_back_is_worked_out_again(tmp_path, replays):
    data = tmp_path / "data"
    _log(data)
    first = page(data, "en")
    cache = json.loads((data / CACHE_NAME).read_text())
    keys = sorted(cache["entries"])
    cache["entries"][keys[0]]["opponents"] = ["Bruno\u202eruoY"]  # a name no match file may hold
    cache["entries"][keys[1]]["deals"] = [[1, 2, "yes"]]
    (data / CACHE_NAME).write_text(json.dumps(cache))
    assert page(data, "en") == first
    assert len(replays) == 5  # the two bad entries only


def test_a_replaced_log_gets_its_own_facts_and_the_old_entries_go(tmp_path, replays):
    data = tmp_path / "data"
    _log(data)
    page(data, "en")
    (data / "results.json").unlink()  # another log: one new match
    record_result(random_match(Rules(), "easy", 9, 3), WHEN.format(9), data)
    found = page(data, "en")
    assert len(replays) == 4 and found.facts == all_facts(load_results(data))
    assert len(json.loads((data / CACHE_NAME).read_text())["entries"]) == 1


def test_a_broken_log_line_still_says_why_and_leaves_the_cache(tmp_path):
    data = tmp_path / "data"
    _log(data)
    page(data, "en")
    kept = (data / CACHE_NAME).read_bytes()
    lines = (data / "results.json").read_text().splitlines()
    lines[2] = lines[2].replace('"when":', '"when":7,"x":', 1)
    (data / "results.json").write_text("\n".join(lines) + "\n")
    found = page(data, "en")
    assert not found.readable
    assert found.lines == ["The results log cannot be read. Result 2 does not have the expected fields."]
    assert (data / CACHE_NAME).read_bytes() == kept


def test_a_finished_match_keeps_its_facts_as_it_is_logged(tmp_path, replays):
    data = tmp_path / "data"
    program, _, _ = program_for(tmp_path, "")
    record = random_match(Rules(target=None), "easy", 4, 2)
    finish_match(program, record)
    assert len(replays) == 1  # its facts, for what it earned
    found = page(data, "en")
    assert len(replays) == 1 and found.facts == all_facts(load_results(data))
