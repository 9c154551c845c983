"""A first achievement is earned once per player: two matches left unfinished cannot both announce it.

The results log holds finished matches only; what was announced in a match not finished yet is
recorded in ``achievements.json``, atomically and under a lock."""
from __future__ import annotations

import json
import random

from helpers.console import lines_of, program_for
from helpers.record import T, random_match
from scopa.engine import Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.record.console import deal_achievements, finish_match, page
from scopa.record.stats import facts_so_far
from scopa.storage.announced import ANNOUNCED_NAME, announce_once, read_announced

SCOPA = T("achievement.earned", name=T("achievement.first_scopa"))
SEATS = (SeatSetup("Ann"), SeatSetup("Bruno", "computer", "easy"))


def first_deal(seed: int) -> MatchRecord:
    """A match at the end of its first deal, every seat playing random legal moves."""
    record, _ = MatchRecord.start(Rules(), SEATS, seed)
    rng = random.Random(seed)
    while not record.state.is_deal_over:
        record = record.play(rng.choice(record.state.legal_moves()))[0]
    return record


def scopa_in_deal_one(start: int) -> MatchRecord:
    return next(r for seed in range(start, start + 300)
                if (r := first_deal(seed)).state.deal_number == 1 and not r.state.is_match_over
                and facts_so_far(r).deals[0].own_scopa)


def achievement_lines(out) -> list[str]:
    return [line for line in lines_of(out) if line.startswith("Achievement earned.")]


def test_two_unfinished_matches_announce_a_first_scopa_once(tmp_path):
    one = scopa_in_deal_one(0)
    other = scopa_in_deal_one(one.seed + 1)  # another match, left unfinished too
    program, out, _ = program_for(tmp_path, "")
    program.say(*deal_achievements(program, one, 1))
    assert SCOPA in achievement_lines(out)
    said = achievement_lines(out)
    program.say(*deal_achievements(program, other, 1))
    assert achievement_lines(out) == said  # nothing said again
    assert "first_scopa" in read_announced(tmp_path / "data")
    lines = page(tmp_path / "data", "en").lines  # no match finished, yet the page has it
    assert any(line.startswith(T("achievement.first_scopa")) for line in lines)


def test_a_finished_match_does_not_announce_what_an_unfinished_one_did(tmp_path):
    program, out, _ = program_for(tmp_path, "")
    program.say(*deal_achievements(program, scopa_in_deal_one(0), 1))
    said = achievement_lines(out)
    finished = next(r for seed in range(300)
                    if (r := random_match(Rules(target=None), "easy", seed, 2)).state.winner == 0
                    and any(d.own_scopa for d in facts_so_far(r).deals))
    finish_match(program, finished)
    new = achievement_lines(out)[len(said):]
    assert SCOPA not in new and T("achievement.earned", name=T("achievement.beat_easy")) in new


def test_the_record_of_announced_achievements_is_kept_safely(tmp_path):
    data = tmp_path / "data"
    assert announce_once(data, ["first_scopa", "napola"], "2026-05-01T10:00:00+00:00") == ["first_scopa", "napola"]
    assert announce_once(data, ["napola", "all_four"], "2026-05-02T10:00:00+00:00") == ["all_four"]
    assert read_announced(data) == {"first_scopa": "2026-05-01T10:00:00+00:00", "napola": "2026-05-01T10:00:00+00:00",
                                    "all_four": "2026-05-02T10:00:00+00:00"}
    assert not [p for p in data.iterdir() if p.name.endswith(".tmp")]  # written whole, through a temporary file
    (data / ANNOUNCED_NAME).write_text("{broken")
    assert read_announced(data) == {}
    assert announce_once(data, ["first_scopa"], "2026-05-03T10:00:00+00:00") == ["first_scopa"]
    assert (data / (ANNOUNCED_NAME + ".bad")).read_text() == "{broken"  # what could not be read is kept
    assert json.loads((data / ANNOUNCED_NAME).read_text())["announced"] == {"first_scopa": "2026-05-03T10:00:00+00:00"}
