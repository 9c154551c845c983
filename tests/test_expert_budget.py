"""The expert's default thinking time: a tenth of a second a move, where more time was measured
to play no better (1 s against 0.1 s head to head took 0.515 and 0.502 of the points,
docs/opponents.md), so that a round against three experts is not three seconds of silence."""
from __future__ import annotations

from pathlib import Path

from scopa.engine import Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.players import DEFAULT_BUDGET, make_player
from scopa.players.expert import ExpertPlayer
from scopa.table import computers_for


def test_the_expert_thinks_a_tenth_of_a_second_unless_told_otherwise() -> None:
    assert DEFAULT_BUDGET == 0.1
    expert = make_player("expert")
    assert isinstance(expert, ExpertPlayer) and expert.budget == 0.1
    seats = (SeatSetup("You", "human", None), *(SeatSetup(n, "computer", "expert") for n in "ABC"))
    record = MatchRecord.start(Rules(players=4), seats, 1)[0]
    for budget, wanted in ((None, 0.1), (1.0, 1.0)):  # --budget still sets it
        players = computers_for(record, budget).values()
        assert len(players) == 3 and all(isinstance(p, ExpertPlayer) and p.budget == wanted for p in players)


def test_the_program_uses_the_default_without_the_budget_flag(tmp_path: Path) -> None:
    from test_console_loop import program_for
    program, _, _ = program_for(tmp_path, [])
    assert program.budget == DEFAULT_BUDGET
