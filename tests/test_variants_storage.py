"""Match files know the variants (issue 32): Cirulla's claims are logged and checked, and files of
format 1, made before the variants, still load."""
from __future__ import annotations

import json
import random

import pytest

from scopa.engine import Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.record.replay import replay_match
from scopa.storage import SaveFileError, match_from_json, match_to_json

TWO = (SeatSetup("Ann"), SeatSetup("Bruno", "computer", "medium"))


def _played(rules: Rules, turns: int, claim: bool = True, seed: int = 4) -> MatchRecord:
    """Random legal play; every bonus that can be claimed is claimed (the claim is not a turn)."""
    seats = TWO + tuple(SeatSetup(name, "computer", "easy") for name in ("Carla", "Dino")[:rules.players - 2])
    record, _ = MatchRecord.start(rules, seats, seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if record.state.is_match_over:
            break
        if record.state.is_deal_over:
            record, _ = record.next_deal()
        elif claim and record.state.claimable():
            record, _ = record.claim()
        else:
            record, _ = record.play(rng.choice(record.state.legal_moves()))
    return record


def test_a_cirulla_match_with_claims_round_trips_and_logs_each_claim_with_its_move():
    record = _played(Rules.cirulla(), 200)
    assert any(m.claim for m in record.moves)
    text = match_to_json(record)
    data = json.loads(text)
    assert data["version"] == 2
    logged = [m for m in data["moves"] if "claim" in m]
    assert len(logged) == sum(1 for m in record.moves if m.claim) and {m["claim"] for m in logged} <= {"cirulla",
                                                                                                      "tris"}
    assert match_from_json(text) == record
    assert next(m for m in data["moves"] if "claim" not in m).keys() == {"deal", "seat", "card", "capture"}


def test_a_match_saved_between_a_claim_and_its_move_loads():
    record, _ = MatchRecord.start(Rules.cirulla(), TWO, 0)
    for seed in range(500):
        record, _ = MatchRecord.start(Rules.cirulla(), TWO, seed)
        if record.state.claimable():
            break
    claimed, _ = record.claim()
    assert match_from_json(match_to_json(claimed)) == claimed


def test_a_logged_claim_the_hand_cannot_make_is_refused():
    record = _played(Rules.cirulla(), 200)
    data = json.loads(match_to_json(record))
    plain = next(m for m in data["moves"] if "claim" not in m)
    plain["claim"] = "tris"
    with pytest.raises(SaveFileError):
        match_from_json(json.dumps(data))
    claimed = next(m for m in data["moves"] if "claim" in m)
    claimed["claim"] = "poker"
    with pytest.raises(SaveFileError):
        match_from_json(json.dumps(data))


def test_the_review_replays_a_match_with_claims():
    record = _played(Rules.cirulla(target=None), 200)
    assert record.state.is_match_over
    deals = replay_match(record)
    claimed = [e for step in deals[0].steps for e in step.events if type(e).__name__ == "HandClaimed"]
    assert len(claimed) == sum(1 for m in record.moves if m.claim)


@pytest.mark.parametrize("rules", [Rules(), Rules(players=4, napola=True), Rules.scopone_scientifico()])
def test_a_file_of_format_one_made_before_the_variants_still_loads(rules):
    record = _played(rules, 30, seed=7)
    data = json.loads(match_to_json(record))
    data["version"] = 1  # as version 1 wrote it: no win by two, no a perdere, no claims
    for options in (data["rules"], data["state"]["rules"]):
        del options["win_by_two"], options["a_perdere"]
    del data["state"]["claims"]
    assert match_from_json(json.dumps(data)) == record


@pytest.mark.parametrize("rules", [Rules.scopa_15(win_by_two=True), Rules.scopa_15(a_perdere=True),
                                   Rules.cirulla(players=4), Rules(players=3, win_by_two=True)])
def test_every_variant_and_option_round_trips_through_a_file(rules):
    record = _played(rules, 60, seed=3)
    assert match_from_json(match_to_json(record)) == record


def test_results_statistics_and_the_facts_cache_know_the_variants(tmp_path):
    from scopa.record.stats import all_facts
    from scopa.record.text import RecordText
    from scopa.record.words import stats_lines
    from scopa.storage import load_results, record_result

    records = [_played(Rules.scopa_15(target=None), 100, seed=1), _played(Rules.cirulla(target=None), 100, seed=2),
               _played(Rules(target=None), 100, seed=3)]
    assert all(r.state.is_match_over for r in records)
    for number, record in enumerate(records, 1):
        record_result(record, f"2026-01-0{number}T10:00:00+00:00", tmp_path)
    results = load_results(tmp_path)
    assert [r.variant for r in results] == ["scopa_15", "cirulla", "scopa"]
    facts = all_facts(results)
    assert [f.variant for f in facts] == ["scopa_15", "cirulla", "scopa_2"]
    for lang, names in (("en", ("Scopa a 15", "Cirulla", "Scopa for two")), ("it", ("Scopa a 15", "Cirulla",
                                                                                    "Scopa in due"))):
        page = " ".join(stats_lines(facts, len(results), [], RecordText(lang)))
        assert all(name in page for name in names), page
