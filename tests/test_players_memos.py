"""The hard level's shortcuts give the very numbers of the plain computation they stand for.

The expert asks the hard level's reading thousands of times a move, so the reading keeps the
capture sums of each table (``CaptureSums``) and the captures of each value
(``captures_by_value``); these tests set each against the plain capture-by-capture computation,
with exact equality: the expert's choices at a fixed number of samples must not change at all.
"""
from __future__ import annotations

import dataclasses
import random

import pytest

from helpers.positions import random_positions
from scopa.engine import ALL_CARDS, Card, Move, PlayerView, Rules, legal_captures
from scopa.engine.captures import is_sweep_capture
from scopa.players.evaluate import worth_tables
from scopa.players.heuristic import CaptureSums, HardAnalyser, table_after
from scopa.players.inference import _with_hand
from scopa.players.knowledge import VALUE_CARD, captures_by_value, chance_holds, throw_cost

RULES = {
    "two": Rules(target=None),
    "four": Rules(players=4, target=None),
    "three-options": Rules(players=3, faces_match_only=True, napola=True, re_bello=True, asso_piglia_tutto=True,
                           kings_redeal=False, target=None),
    "most-cards": Rules(most_cards=True, target=None),
    "scientifico": Rules.scopone_scientifico(target=None),
    "scopa_15": Rules.scopa_15(target=None),
    "cirulla": Rules.cirulla(target=None),
    "perdere": Rules(a_perdere=True, target=None),
}


def random_row(rng: random.Random) -> list[float]:
    """A worth row of awkward floats: signs mixed, a negative zero, sums that round."""
    row = [rng.uniform(-1.5, 1.5) / 3.0 for _ in range(40)]
    row[rng.randrange(40)] = -0.0
    row[rng.randrange(40)] = 0.1
    return row


@pytest.mark.parametrize("name", RULES)
def test_captures_by_value_are_legal_captures_value_by_value(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    for _ in range(400):
        table = tuple(rng.sample(ALL_CARDS, rng.randint(0, 8)))
        expected = [()] + [tuple((option, len(option) == len(table) and is_sweep_capture(card, option, rules))
                                 for option in legal_captures(card, table, rules)) for card in VALUE_CARD]
        assert captures_by_value(table, rules) == tuple(expected), table


@pytest.mark.parametrize("name", RULES)
def test_capture_sums_are_the_extremes_of_each_capture_sum(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    worth = [random_row(rng), random_row(rng)]
    sums = CaptureSums(worth, rules)
    for _ in range(300):
        table = tuple(rng.sample(ALL_CARDS, rng.randint(1, 8)))
        side = rng.randrange(2)
        row = worth[side]
        found = sums.of(side, table)
        assert sums.of(side, table) is found  # kept
        for v, card in enumerate(VALUE_CARD, start=1):
            options = legal_captures(card, table, rules)
            if not options:
                assert found[v] is None
                continue
            clears = [len(o) == len(table) and is_sweep_capture(card, o, rules) for o in options]
            plain = [sum([row[c] for c in o]) for o, c_ in zip(options, clears, strict=True) if not c_]
            cleared = [sum([row[c] for c in o]) for o, c_ in zip(options, clears, strict=True) if c_]
            expected = (max(plain, default=-float("inf")), min(plain, default=float("inf")),
                        max(cleared, default=-float("inf")), min(cleared, default=float("inf")), any(clears))
            assert repr(found[v]) == repr(expected), (table, v)  # repr: the very same floats


def test_capture_sums_start_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2)
    rules = Rules(target=None)
    sums = CaptureSums([random_row(rng), random_row(rng)], rules)
    fresh = CaptureSums(sums.worth, rules)
    monkeypatch.setattr(CaptureSums, "LIMIT", 5)
    tables = [tuple(rng.sample(ALL_CARDS, 4)) for _ in range(12)]
    for table in tables:
        sums.of(0, table)
        assert len(sums._memo) <= 5
    for table in tables:  # the same answers after it started again
        assert sums.of(0, table) == fresh._extremes(sums.worth[0], table)


def reference_totals(view: PlayerView, worth: list[list[float]], moves: list[Move]) -> list[float]:
    """The hard level's score of each move, capture by capture, as written before ``CaptureSums``."""
    a = HardAnalyser(view, worth)  # for its counts, seats and hand sizes only
    rules = view.rules

    def expected_best(seat: int, hand: int, table: tuple[Card, ...], last: bool) -> tuple[float, float]:
        if hand <= 0 or not table:
            return 0.0, 0.0
        side = rules.side_of(seat) if rules.players == 4 else seat
        row = worth[side]
        sign = 1.0 if side == a.side else -1.0
        takes = captures_by_value(table, rules)
        options = []
        sweep_chance = 0.0
        for v in range(1, 11):
            cards_v = [c for c in a.unseen if (c >> 2) + 1 == v]
            if not cards_v or not takes[v]:
                continue
            own = sum([row[c] for c in cards_v]) / len(cards_v)
            p = chance_holds(len(a.unseen), len(cards_v), hand)
            best = None
            sweeps = False
            for cap, clears in takes[v]:
                value = sign * (own + sum([row[c] for c in cap]))
                if clears and not last:
                    value += a.SWEEP
                    sweeps = True
                if best is None or value > best:
                    best = value
            if sweeps:
                sweep_chance = 1.0 - (1.0 - sweep_chance) * (1.0 - p)
            if best is not None and best > 0:
                options.append((best, p))
        options.sort(reverse=True)
        expected, none_better = 0.0, 1.0
        for value, p in options:
            expected += value * p * none_better
            none_better *= 1.0 - p
        return sign * expected, sweep_chance

    out = []
    mine = worth[a.side]
    for move in moves:
        card, capture = move
        gain = (mine[card] + sum([mine[c] for c in capture])) if capture else 0.0
        if capture and len(capture) == len(view.table) and not a.last and is_sweep_capture(card, capture, rules):
            gain += 1.0
        rest = table_after(move, view.table)
        reply, _ = expected_best(a.next_seat, a.next_hand, rest, a.next_last)
        follow = expected_best(a.after_seat, a.after_hand, rest, False)[0] if a.after_hand else 0.0
        plan = 0.0
        hand_left = list(view.hand)
        hand_left.remove(card)
        if hand_left and rest:
            takes = captures_by_value(rest, rules)
            for held in hand_left:
                for cap, clears in takes[(held >> 2) + 1]:
                    value = mine[held] + sum([mine[c] for c in cap])
                    if clears:
                        value += 1.0
                    plan = max(plan, value)
        total = gain + a.REPLY * reply + a.FOLLOW * follow + a.PLAN * plan
        if not capture and hand_left:
            total -= throw_cost(card, a.KEEP)
        out.append(total)
    return out


@pytest.mark.parametrize("name", RULES)
def test_hard_reading_is_the_capture_by_capture_reading(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(name)
    shared = [CaptureSums([random_row(rng) for _ in range(rules.sides)], rules) for _ in range(rules.sides)]
    checked = 0
    for seed in range(4):
        for state in random_positions(rules, seed, every=2):
            moves = state.legal_moves()
            if not moves:
                continue
            view = state.view(state.to_move)
            side = rules.side_of(view.seat)
            # The position's own worth tables, and awkward ones shared by every view (as the expert does).
            own = worth_tables(view.piles, view.scope, rules, side)
            sums = shared[side]
            for worth, analyser in ((own, HardAnalyser(view)), (sums.worth, HardAnalyser(view, sums=sums))):
                assert repr(analyser.totals(moves)) == repr(reference_totals(view, worth, moves))
            checked += 1
    assert checked > 20


def test_sums_must_come_from_the_worth_tables_given() -> None:
    rng = random.Random(1)
    view = next(random_positions(Rules(target=None), 1)).view(0)
    sums = CaptureSums([random_row(rng), random_row(rng)], view.rules)
    HardAnalyser(view, sums.worth, sums)  # the same tables: fine
    with pytest.raises(ValueError, match="sums"):
        HardAnalyser(view, [random_row(rng), random_row(rng)], sums)


@pytest.mark.parametrize("name", ["two", "cirulla", "scientifico"])
def test_a_view_with_another_hand_is_replace(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(3)
    for seed in range(3):
        for position in random_positions(rules, seed):
            state = position.claim()[0] if position.claimable() else position
            view = state.view(state.to_move)
            hand = tuple(sorted(rng.sample(ALL_CARDS, len(view.hand))))
            assert _with_hand(view, hand) == dataclasses.replace(view, hand=hand)
    # Every field is named: one added to PlayerView must be added to _with_hand too.
    assert len(dataclasses.fields(PlayerView)) == 19
