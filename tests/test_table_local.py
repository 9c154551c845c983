"""The local table: numbered updates with the seat's view, refusals, computers in wait, save hooks."""
from __future__ import annotations

import random

import pytest

from scopa.engine import CardPlayed, CardsDealt, DealScored, DealStarted, MatchWon, Move, Rules
from scopa.engine.errors import NOT_IN_HAND
from scopa.match import SeatSetup
from scopa.players import make_player
from scopa.table import LocalTable, Resync, SaveHooks, Table, start_match

TWO_HUMANS = (SeatSetup("Ann"), SeatSetup("Bo"))
WITH_COMPUTER = (SeatSetup("You"), SeatSetup("Robin", "computer", "easy"))


def table_for(seats=TWO_HUMANS, seed: int = 3, rules: Rules | None = None, **kwargs) -> tuple[LocalTable, list]:
    record, opening = start_match(rules or Rules(players=len(seats)), seats, seed, first_dealer=1)
    players = {i: make_player(s.level, seed=i) for i, s in enumerate(seats) if not s.is_human}
    return LocalTable(record, players, opening=opening, **kwargs), opening


def test_a_local_table_is_a_table():
    table, _ = table_for()
    assert isinstance(table, Table)
    assert table.seats_here() == (0, 1)


def test_the_opening_deal_is_numbered_from_one_with_the_asking_seats_view():
    table, opening = table_for()
    updates = table.updates(1, 0)
    assert [u.number for u in updates] == list(range(1, len(opening) + 1))
    assert [u.event for u in updates] == opening
    assert isinstance(updates[0].event, DealStarted) and isinstance(updates[-1].event, CardsDealt)
    assert all(u.view.seat == 1 and u.view.hand == table.record.state.hands[1] for u in updates)
    assert table.latest() == len(opening)
    assert table.updates(0, table.latest()) == []


def test_a_move_is_logged_with_the_view_after_it_and_returned_to_the_submitting_seat():
    table, opening = table_for()
    seat = table.record.state.to_move
    move = table.view(seat).legal_moves()[0]
    result = table.submit(seat, move, table.latest())
    assert result.accepted and result.refusal is None
    assert isinstance(result.updates[0].event, CardPlayed) and result.updates[0].number == len(opening) + 1
    assert all(u.view.seat == seat and move.card not in u.view.hand for u in result.updates)
    assert list(result.updates) == list(table.updates(seat, len(opening)))
    assert table.record.moves[-1].move == move


def test_stale_not_your_turn_and_illegal_moves_are_refused_and_change_nothing():
    table, _ = table_for()
    seat = table.record.state.to_move
    other = 1 - seat
    before = table.record
    move = table.view(seat).legal_moves()[0]
    assert table.submit(seat, move, table.latest() - 1).refusal == "stale"
    assert table.submit(other, Move(table.view(other).hand[0]), table.latest()).refusal == "not_your_turn"
    not_held = table.view(other).hand[0]
    illegal = table.submit(seat, Move(not_held), table.latest())
    assert (illegal.accepted, illegal.refusal, illegal.reason.code) == (False, "illegal", NOT_IN_HAND)
    assert table.next_deal(seat, table.latest()).refusal == "not_now"  # the deal is being played
    assert table.record == before


def test_a_seat_not_played_here_gets_no_view():
    table, _ = table_for(WITH_COMPUTER)
    assert table.seats_here() == (0,)
    with pytest.raises(ValueError):
        table.view(1)
    with pytest.raises(ValueError):
        table.updates(1, 0)
    assert table.submit(1, Move(table.record.state.hands[1][0]), table.latest()).refusal == "unavailable"


def test_a_number_the_table_never_reached_gets_a_fresh_view():
    table, _ = table_for()
    resync = table.updates(0, table.latest() + 5)
    assert isinstance(resync, Resync) and resync.number == table.latest() and resync.view.seat == 0


def test_wait_plays_one_computer_move_per_call_and_nothing_at_a_humans_turn():
    table, _ = table_for(WITH_COMPUTER, seed=5)
    while table.record.state.to_move != 1:
        table.submit(0, table.view(0).legal_moves()[0], table.latest())
    seen = table.latest()
    updates = table.wait(0, seen)
    assert isinstance(updates[0].event, CardPlayed) and updates[0].event.seat == 1
    assert table.record.state.to_move == 0 and table.record.moves[-1].seat == 1
    assert table.wait(0, table.latest()) == []  # the human is to move: nothing happens by itself
    assert table.wait(0, seen) == updates  # what was missed comes back without playing again


def test_a_whole_match_autosaves_after_every_move_and_deal_and_finishes_once():
    saved, finished = [], []
    hooks = SaveHooks(autosave=lambda record: saved.append(record) or None,
                      finish=finished.append)
    table, _ = table_for(rules=Rules(target=None), saves=hooks)
    rng = random.Random(1)
    while not table.record.state.is_match_over:
        seat = table.record.state.to_move
        moves = table.view(seat).legal_moves()
        assert table.submit(seat, moves[rng.randrange(len(moves))], table.latest()).accepted
    assert len(saved) == len(table.record.moves) == 36
    assert finished == [table.record]
    assert isinstance(table.updates(0, 0)[-1].event, MatchWon)
    assert table.next_deal(0, table.latest()).refusal == "not_now"


def test_the_autosave_line_reaches_the_player_once_through_notes():
    lines = iter(["Not saved. The disk is full.", None])
    table, _ = table_for(saves=SaveHooks(autosave=lambda record: next(lines)))
    seat = table.record.state.to_move
    table.submit(seat, table.view(seat).legal_moves()[0], table.latest())
    assert table.notes() == ["Not saved. The disk is full."]
    assert table.notes() == []


def test_assisted_deals_and_seats_are_public_info():
    table, _ = table_for(WITH_COMPUTER)
    table.mark_assisted(0)
    info = table.info()
    assert info.assisted_deals == {1}
    assert [(s.name, s.kind, s.level) for s in info.seats] == [("You", "human", None), ("Robin", "computer", "easy")]


def test_a_closed_table_refuses_moves_and_releases_its_save_once():
    released = []
    table, _ = table_for(saves=SaveHooks(release=lambda: released.append(True)))
    table.close()
    table.close()
    seat = table.record.state.to_move
    assert table.submit(seat, table.view(seat).legal_moves()[0], table.latest()).refusal == "closed"
    assert released == [True]


def test_a_resumed_table_still_has_the_last_deal_score_from_the_record():
    table, _ = table_for()
    assert table.last_score() is None  # no deal has ended
    scored = []
    while len(scored) < 2:  # two deals and a few plays of the third
        seat = table.record.state.to_move
        if table.record.state.is_deal_over:
            table.next_deal(seat, table.latest())
            continue
        result = table.submit(seat, table.view(seat).legal_moves()[0], table.latest())
        scored += [u.event for u in result.updates if isinstance(u.event, DealScored)]
    table.next_deal(0, table.latest())
    table.submit(table.record.state.to_move, table.view(table.record.state.to_move).legal_moves()[0], table.latest())
    assert table.last_score() == scored[-1]
    resumed = LocalTable(table.record)  # as after closing the game: no updates of its own
    assert resumed.updates(0, 0) == [] and resumed.last_score() == scored[-1]
