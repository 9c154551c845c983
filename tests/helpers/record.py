"""Random finished matches for the statistics and review tests."""
from __future__ import annotations

import random

from scopa.engine import Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.record.text import RecordText

T = RecordText("en")


def random_match(rules: Rules, level: str, seed: int, policy: int, assisted: bool = False) -> MatchRecord:
    """A finished match with the human at seat 0, every seat playing random legal moves."""
    seats = (SeatSetup("Ann"), *(SeatSetup(f"C{i}", "computer", level) for i in range(1, rules.players)))
    record, _ = MatchRecord.start(rules, seats, seed)
    rng = random.Random(policy)
    while not record.state.is_match_over:
        if record.state.is_deal_over:
            record = record.next_deal()[0]
        else:
            if assisted and not record.assisted:
                record = record.mark_assisted()
            record = record.play(rng.choice(record.state.legal_moves()))[0]
    return record
